/* Which parser reads which directive's argument. */
#include "des/spec_util.h"

#include <string.h>

int des_orient_valid(const char *s, size_t len)
{
    static const char *const orients[] = {
        "float", "encompass", "north", "south", "east", "west", "northeast",
        "northwest", "southeast", "southwest", "centre",
    };
    for (size_t i = 0; i < sizeof orients / sizeof *orients; i++)
        if (strlen(orients[i]) == len && memcmp(orients[i], s, len) == 0)
            return 1;
    return 0;
}

int des_parse_spec(qg_arena *arena, des_dir dir, const char *arg, size_t len,
                   des_spec *out, des_spec_error *err)
{
    memset(out, 0, sizeof *out);
    int r;
    switch (dir) {
    case DES_DIR_DEPTH: case DES_DIR_PLACE: case DES_DIR_DEFAULT_DEPTH:
        out->kind = DES_SPEC_RANGES;
        r = des_parse_ranges(arena, arg, len, &out->u.ranges, err);
        break;
    case DES_DIR_SUBST:
        out->kind = DES_SPEC_SUBST;
        r = des_parse_subst(arena, arg, len, &out->u.subst, err);
        break;
    case DES_DIR_NSUBST:
        out->kind = DES_SPEC_NSUBST;
        r = des_parse_nsubst(arena, arg, len, &out->u.nsubst, err);
        break;
    case DES_DIR_SHUFFLE:
        out->kind = DES_SPEC_SHUFFLE;
        r = des_parse_shuffle(arena, arg, len, &out->u.shuffle, err);
        break;
    case DES_DIR_KFEAT: case DES_DIR_KITEM: case DES_DIR_KMONS: case DES_DIR_KMASK:
    case DES_DIR_KPROP: case DES_DIR_COLOUR: case DES_DIR_FTILE: case DES_DIR_RTILE:
    case DES_DIR_TILE: case DES_DIR_FHEIGHT: case DES_DIR_SUBVAULT:
        out->kind = DES_SPEC_KEYED;
        r = des_parse_keyed(arena, dir, arg, len, &out->u.keyed, err);
        break;
    case DES_DIR_MONS: case DES_DIR_ITEM:
        out->kind = DES_SPEC_SLOT;
        r = des_parse_slot(arena, arg, len, &out->u.slot, err);
        break;
    case DES_DIR_MARKER:
        out->kind = DES_SPEC_MARKER;
        r = des_parse_marker(arena, arg, len, &out->u.marker, err);
        break;
    case DES_DIR_ORIENT:
        out->kind = DES_SPEC_TEXT;
        r = len == 0 || des_orient_valid(arg, len)
                ? DES_PARSE_OK
                : des_fail(err, 0, "unknown orientation '%.*s'", (int)len, arg);
        break;
    case DES_DIR_CHANCE: case DES_DIR_WEIGHT: case DES_DIR_ORDER:
        out->kind = DES_SPEC_NONE;
        r = DES_PARSE_OK;
        break;
    default:
        out->kind = DES_SPEC_TEXT;
        r = DES_PARSE_OK;
        break;
    }
    if (r != DES_PARSE_OK)
        out->kind = DES_SPEC_NONE;
    return r;
}

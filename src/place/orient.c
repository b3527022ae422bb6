/* ORIENT names and the tags the placement engine acts on. */
#include "place/internal.h"

#include <string.h>

static const char *const orient_names[OR_COUNT] = {
    "north", "south", "east", "west", "northwest", "northeast",
    "southwest", "southeast", "encompass", "float", "centre"
};

int orient_parse(const char *name, orient *out, int *minivault)
{
    *minivault = 0;
    if (!name || !*name) {
        *out = OR_FLOAT;
        *minivault = 1;
        return 1;
    }
    for (int o = 0; o < OR_COUNT; o++)
        if (strcmp(name, orient_names[o]) == 0) {
            *out = (orient)o;
            return 1;
        }
    return 0;
}

const char *orient_name(orient o)
{
    return (unsigned)o < OR_COUNT ? orient_names[o] : "float";
}

int orient_is_edge(orient o)
{
    return o <= OR_SOUTHEAST;
}

typedef struct tag_bit {
    const char *name;
    unsigned bit;
} tag_bit;

static const tag_bit known_tags[] = {
    {"no_hmirror", TAG_NO_HMIRROR}, {"no_vmirror", TAG_NO_VMIRROR},
    {"no_rotate", TAG_NO_ROTATE}, {"transparent", TAG_TRANSPARENT},
    {"overwritable", TAG_OVERWRITABLE}, {"no_monster_gen", TAG_NO_MONSTER_GEN},
    {"no_item_gen", TAG_NO_ITEM_GEN}, {"no_pool_fixup", TAG_NO_POOL_FIXUP},
    {"no_wall_fixup", TAG_NO_WALL_FIXUP}, {"no_trap_gen", TAG_NO_TRAP_GEN},
    {"allow_tele_closets", TAG_ALLOW_TELE_CLOSETS}, {"water_ok", TAG_WATER_OK},
    {"no_exits", TAG_NO_EXITS}, {"unrand", TAG_UNRAND}, {"layout", TAG_LAYOUT},
    {"passable", TAG_PASSABLE}, {"overwrite_floor_cell", TAG_OVERWRITE_FLOOR_CELL},
    {"minivault", TAG_MINIVAULT}, {"no_tele_into", TAG_NO_TELE_INTO},
    {"dummy", TAG_DUMMY},
};

static unsigned tag_of(const char *word, size_t len)
{
    for (size_t i = 0; i < sizeof known_tags / sizeof *known_tags; i++)
        if (strlen(known_tags[i].name) == len &&
            memcmp(known_tags[i].name, word, len) == 0)
            return known_tags[i].bit;
    return 0;
}

unsigned tags_parse(const char *tags)
{
    unsigned bits = 0;
    if (!tags)
        return 0;
    const char *p = tags;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        const char *start = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (p > start)
            bits |= tag_of(start, (size_t)(p - start));
    }
    return bits;
}

uint32_t tags_mask(unsigned tags)
{
    uint32_t mask = 0;
    if (tags & TAG_NO_MONSTER_GEN) mask |= QG_MASK_NO_MONSTER_GEN;
    if (tags & TAG_NO_ITEM_GEN) mask |= QG_MASK_NO_ITEM_GEN;
    if (tags & TAG_NO_POOL_FIXUP) mask |= QG_MASK_NO_POOL_FIXUP;
    if (tags & TAG_NO_WALL_FIXUP) mask |= QG_MASK_NO_WALL_FIXUP;
    if (tags & TAG_NO_TRAP_GEN) mask |= QG_MASK_NO_TRAP_GEN;
    if (tags & TAG_ALLOW_TELE_CLOSETS) mask |= QG_MASK_NO_TELE_CLOSET;
    if (tags & TAG_PASSABLE) mask |= QG_MASK_PASSABLE;
    if (tags & TAG_NO_TELE_INTO) mask |= QG_MASK_NO_TELE_INTO;
    return mask;
}

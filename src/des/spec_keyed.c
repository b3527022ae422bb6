/* Keyed directives (KFEAT, KMONS, KITEM, KMASK, KPROP, COLOUR, the tile
 * directives, FHEIGHT, SUBVAULT), MONS/ITEM slots and MARKER. */
#include "des/spec_util.h"
#include "questgrid/core.h"
#include "core/buf.h"

#include <stdlib.h>
#include <string.h>

void des_slot_free(des_slot *slot)
{
    for (size_t i = 0; i < slot->count; i++)
        free(slot->alts[i].text);
    free(slot->alts);
    memset(slot, 0, sizeof *slot);
}

/* Alternatives split on '/'; KMASK alternatives are mask flags. */
static int parse_alts(des_span sp, int suffix_weight, int mask, des_slot *out,
                      des_spec_error *err)
{
    memset(out, 0, sizeof *out);
    des_span *alts;
    int nomem = 0;
    size_t n = des_span_split(sp, '/', &alts, &nomem);
    if (nomem)
        return DES_PARSE_NOMEM;
    if (!n)
        return des_fail(err, sp.offset, "no alternatives given");
    out->alts = calloc(n, sizeof *out->alts);
    int r = out->alts ? DES_PARSE_OK : DES_PARSE_NOMEM;
    for (size_t i = 0; r == DES_PARSE_OK && i < n; i++) {
        des_span a = alts[i];
        r = des_parse_weighted(a, suffix_weight, &out->alts[i], err);
        if (r != DES_PARSE_OK)
            break;
        out->count = i + 1;
        if (!mask)
            continue;
        des_weighted *w = &out->alts[i];
        const char *flag = w->text;
        if (*flag == '!') {
            w->negate = 1;
            flag++;
            while (*flag == ' ')
                flag++;
        }
        w->mask = qg_mask_from_name(flag);
        if (!w->mask || w->mask > QG_MASK_NO_TRAP_GEN)
            r = des_fail(err, a.offset, "unknown mask flag '%s'", flag);
    }
    free(alts);
    if (r != DES_PARSE_OK)
        des_slot_free(out);
    return r;
}

int des_parse_slot(const char *s, size_t len, des_slot *out, des_spec_error *err)
{
    return parse_alts((des_span){s, len, 0}, 0, 0, out, err);
}

void des_keyed_free(des_keyed *keyed)
{
    for (size_t i = 0; i < keyed->slot_count; i++)
        des_slot_free(&keyed->slots[i]);
    free(keyed->slots);
    free(keyed->keys);
    memset(keyed, 0, sizeof *keyed);
}

int des_parse_keyed(des_dir dir, const char *s, size_t len, des_keyed *out,
                    des_spec_error *err)
{
    memset(out, 0, sizeof *out);
    const char *key, *value;
    size_t key_len, value_len;
    int sep;
    int r = des_split_key_item(s, len, -1, &key, &key_len, &sep, &value, &value_len, err);
    if (r != DES_PARSE_OK)
        return r;
    if (dir == DES_DIR_SUBVAULT && sep != ':')
        return des_fail(err, (size_t)(value - s) - 1, "SUBVAULT takes ':' (not '=')");
    out->fixed = sep == ':';
    out->keys = qg_strndup(key, key_len);
    if (!out->keys)
        return DES_PARSE_NOMEM;
    des_span v = {value, value_len, (size_t)(value - s)};
    des_span *slots = &v;
    size_t n = 1;
    int nomem = 0, split = dir == DES_DIR_KMONS || dir == DES_DIR_KITEM;
    if (split) {
        n = des_span_split(v, ',', &slots, &nomem);
        if (nomem) {
            des_keyed_free(out);
            return DES_PARSE_NOMEM;
        }
    }
    out->slots = calloc(n ? n : 1, sizeof *out->slots);
    r = out->slots ? DES_PARSE_OK : DES_PARSE_NOMEM;
    int suffix = dir == DES_DIR_COLOUR || dir == DES_DIR_FTILE || dir == DES_DIR_RTILE ||
                 dir == DES_DIR_TILE || dir == DES_DIR_KPROP || dir == DES_DIR_FHEIGHT ||
                 dir == DES_DIR_SUBVAULT;
    for (size_t i = 0; r == DES_PARSE_OK && i < n; i++) {
        r = parse_alts(slots[i], suffix, dir == DES_DIR_KMASK, &out->slots[i], err);
        if (r == DES_PARSE_OK)
            out->slot_count = i + 1;
    }
    if (split)
        free(slots);
    if (r != DES_PARSE_OK)
        des_keyed_free(out);
    return r;
}

int des_parse_marker(const char *s, size_t len, des_marker *out, des_spec_error *err)
{
    memset(out, 0, sizeof *out);
    const char *key, *value;
    size_t key_len, value_len;
    int sep;
    int r = des_split_key_item(s, len, 1, &key, &key_len, &sep, &value, &value_len, err);
    if (r != DES_PARSE_OK)
        return r;
    static const struct { const char *prefix; des_marker_kind kind; } kinds[] = {
        {"lua:", DES_MARKER_LUA}, {"lua_mapless:", DES_MARKER_LUA_MAPLESS},
        {"feat:", DES_MARKER_FEAT},
    };
    out->key = (unsigned char)key[0];
    out->fixed = sep == ':';
    out->kind = DES_MARKER_OTHER;
    size_t skip = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        size_t pl = strlen(kinds[i].prefix);
        if (value_len >= pl && memcmp(value, kinds[i].prefix, pl) == 0) {
            out->kind = kinds[i].kind;
            skip = pl;
            break;
        }
    }
    out->value = qg_strndup(value + skip, value_len - skip);
    return out->value ? DES_PARSE_OK : DES_PARSE_NOMEM;
}

void des_marker_free(des_marker *marker)
{
    free(marker->value);
    memset(marker, 0, sizeof *marker);
}

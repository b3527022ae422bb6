/* Keyed directives (KFEAT, KMONS, KITEM, KMASK, KPROP, COLOUR, the tile
 * directives, FHEIGHT, SUBVAULT), MONS/ITEM slots and MARKER. */
#include "des/spec_util.h"
#include "questgrid/core.h"

#include <string.h>

/* Alternatives split on '/'; KMASK alternatives are mask flags. */
static int parse_alts(qg_arena *arena, des_span sp, int suffix_weight, int mask,
                      des_slot *out, des_spec_error *err)
{
    memset(out, 0, sizeof *out);
    des_span *alts;
    size_t n = des_span_split(arena, sp, '/', &alts);
    if (!alts)
        return DES_PARSE_NOMEM;
    if (!n)
        return des_fail(err, sp.offset, "no alternatives given");
    out->alts = qg_arena_array(arena, n, sizeof *out->alts);
    if (!out->alts)
        return DES_PARSE_NOMEM;
    for (size_t i = 0; i < n; i++) {
        des_weighted *w = &out->alts[i];
        if (des_parse_weighted(arena, alts[i], suffix_weight, w) != DES_PARSE_OK)
            return DES_PARSE_NOMEM;
        out->count = i + 1;
        if (!mask)
            continue;
        const char *flag = w->text;
        if (*flag == '!') {
            w->negate = 1;
            flag++;
            while (*flag == ' ')
                flag++;
        }
        w->mask = qg_mask_from_name(flag);
        /* Crawl's KMASK flags, and the seed documents' no_secret_doors */
        if (!w->mask || (w->mask > QG_MASK_NO_TRAP_GEN && w->mask != QG_MASK_NO_SECRET_DOORS))
            return des_fail(err, alts[i].offset, "unknown mask flag '%s'", flag);
    }
    return DES_PARSE_OK;
}

int des_parse_slot(qg_arena *arena, const char *s, size_t len, des_slot *out,
                   des_spec_error *err)
{
    return parse_alts(arena, (des_span){s, len, 0}, 0, 0, out, err);
}

int des_parse_keyed(qg_arena *arena, des_dir dir, const char *s, size_t len,
                    des_keyed *out, des_spec_error *err)
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
    out->keys = qg_arena_strndup(arena, key, key_len);
    if (!out->keys)
        return DES_PARSE_NOMEM;
    des_span v = {value, value_len, (size_t)(value - s)};
    des_span *slots = &v;
    size_t n = 1;
    if (dir == DES_DIR_KMONS || dir == DES_DIR_KITEM) {
        n = des_span_split(arena, v, ',', &slots);
        if (!slots)
            return DES_PARSE_NOMEM;
    }
    out->slots = qg_arena_array(arena, n ? n : 1, sizeof *out->slots);
    if (!out->slots)
        return DES_PARSE_NOMEM;
    int suffix = dir == DES_DIR_COLOUR || dir == DES_DIR_FTILE || dir == DES_DIR_RTILE ||
                 dir == DES_DIR_TILE || dir == DES_DIR_KPROP || dir == DES_DIR_FHEIGHT ||
                 dir == DES_DIR_SUBVAULT;
    for (size_t i = 0; i < n; i++) {
        r = parse_alts(arena, slots[i], suffix, dir == DES_DIR_KMASK, &out->slots[i], err);
        if (r != DES_PARSE_OK)
            return r;
        out->slot_count = i + 1;
    }
    return DES_PARSE_OK;
}

/* A feature name holds no comma: a ", K=" or ", K:" after it starts the
 * next marker of a seed-era line. Returns the first marker's value length
 * and sets *next to the offset of K in s (0 when there is none). */
static size_t feature_marker_len(const char *s, size_t start, size_t len, size_t *next)
{
    *next = 0;
    const char *value = s + start;
    const char *comma = memchr(value, ',', len);
    if (!comma)
        return len;
    const char *k = comma + 1;
    while (k < value + len && (*k == ' ' || *k == '\t'))
        k++;
    const char *sep = k + 1;
    while (sep < value + len && (*sep == ' ' || *sep == '\t'))
        sep++;
    if (k >= value + len || sep >= value + len || (*sep != '=' && *sep != ':'))
        return len;
    *next = (size_t)(k - s);
    size_t first = (size_t)(comma - value);
    while (first > 0 && (value[first - 1] == ' ' || value[first - 1] == '\t'))
        first--;
    return first;
}

int des_parse_marker(qg_arena *arena, const char *s, size_t len, des_marker *out,
                     des_spec_error *err)
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
    size_t value_len_kept = value_len - skip;
    if (out->kind == DES_MARKER_FEAT)
        value_len_kept = feature_marker_len(s, (size_t)(value + skip - s), value_len_kept,
                                            &out->next);
    out->value = qg_arena_strndup(arena, value + skip, value_len_kept);
    return out->value ? DES_PARSE_OK : DES_PARSE_NOMEM;
}

/* SUBST, NSUBST and SHUFFLE arguments, and the key/value split they share
 * with the keyed directives and MARKER. */
#include "des/spec_util.h"

#include <string.h>

int des_split_key_item(const char *s, size_t len, int key_max_len,
                       const char **key, size_t *key_len, int *sep,
                       const char **value, size_t *value_len,
                       des_spec_error *err)
{
    size_t at = 0;
    for (size_t i = 1; i < len && !at; i++)
        if (s[i] == '=' || s[i] == ':')
            at = i;
    if (!at)
        return des_fail(err, 0, "malformed declaration - must use = or : in '%.*s'",
                        (int)len, s);
    des_span k = des_span_trim((des_span){s, at, 0});
    des_span v = des_span_trim((des_span){s + at + 1, len - at - 1, at + 1});
    if (!k.len)
        return des_fail(err, 0, "no key before '%c' in '%.*s'", s[at], (int)len, s);
    if (key_max_len >= 0 && k.len > (size_t)key_max_len)
        return des_fail(err, k.offset + (size_t)key_max_len,
                        "selector '%.*s' must be <= %d characters", (int)k.len, k.s,
                        key_max_len);
    if (!v.len)
        return des_fail(err, at + 1, "no substitute defined in '%.*s'", (int)len, s);
    *key = k.s;
    *key_len = k.len;
    *sep = s[at];
    *value = v.s;
    *value_len = v.len;
    return DES_PARSE_OK;
}

int des_parse_subst(qg_arena *arena, const char *s, size_t len, des_subst *out,
                    des_spec_error *err)
{
    memset(out, 0, sizeof *out);
    const char *key, *value;
    size_t key_len, value_len;
    int sep;
    int r = des_split_key_item(s, len, -1, &key, &key_len, &sep, &value, &value_len, err);
    if (r != DES_PARSE_OK)
        return r;
    out->fixed = sep == ':';
    out->keys = qg_arena_strndup(arena, key, key_len);
    if (!out->keys)
        return DES_PARSE_NOMEM;
    return des_parse_glyphs(arena, (des_span){value, value_len, (size_t)(value - s)},
                            &out->choices, &out->count, err);
}

/* One NSUBST segment "N=repl", "N:repl" or "*=repl"; a bare segment is
 * "1=seg", or "*=seg" when it is the last (add_nsubst). */
static int nsubst_segment(qg_arena *arena, des_span seg, int last, des_nsubst_seg *out,
                          des_spec_error *err)
{
    des_span value = seg;
    if (!memchr(seg.s, '=', seg.len) && !memchr(seg.s, ':', seg.len)) {
        out->count = last ? -1 : 1;
    } else {
        const char *key, *v;
        size_t key_len, v_len;
        int sep;
        int r = des_split_key_item(seg.s, seg.len, -1, &key, &key_len, &sep, &v, &v_len, err);
        if (r != DES_PARSE_OK) {
            if (err)
                err->offset += seg.offset;
            return r;
        }
        des_span k = {key, key_len, 0};
        out->fixed = sep == ':';
        if (des_span_eq(k, "*"))
            out->count = -1;
        else if (!des_span_int(k, &out->count) || out->count == 0)
            return des_fail(err, seg.offset,
                            "illegal spec '%.*s': the count must be a number or '*'",
                            (int)seg.len, seg.s);
        value = (des_span){v, v_len, seg.offset + (size_t)(v - seg.s)};
    }
    return des_parse_glyphs(arena, value, &out->choices, &out->choice_count, err);
}

int des_parse_nsubst(qg_arena *arena, const char *s, size_t len, des_nsubst *out,
                     des_spec_error *err)
{
    memset(out, 0, sizeof *out);
    const char *key, *value;
    size_t key_len, value_len;
    int sep;
    int r = des_split_key_item(s, len, -1, &key, &key_len, &sep, &value, &value_len, err);
    if (r != DES_PARSE_OK)
        return r;
    out->keys = qg_arena_strndup(arena, key, key_len);
    des_span *segs;
    size_t n = des_span_split(arena, (des_span){value, value_len, (size_t)(value - s)}, '/',
                              &segs);
    out->segs = segs ? qg_arena_array(arena, n ? n : 1, sizeof *out->segs) : NULL;
    if (!out->keys || !out->segs)
        return DES_PARSE_NOMEM;
    for (size_t i = 0; i < n; i++) {
        r = nsubst_segment(arena, segs[i], i + 1 == n, &out->segs[i], err);
        if (r != DES_PARSE_OK)
            return r;
        out->count = i + 1;
    }
    return DES_PARSE_OK;
}

int des_parse_shuffle(qg_arena *arena, const char *s, size_t len, des_shuffle *out,
                      des_spec_error *err)
{
    memset(out, 0, sizeof *out);
    const char *comma = memchr(s, ',', len);
    if (comma)
        return des_fail(err, (size_t)(comma - s),
                        "use / for block shuffle, or multiple SHUFFLE: lines");
    char *glyphs = qg_arena_alloc(arena, len + 1);
    if (!glyphs)
        return DES_PARSE_NOMEM;
    /* Blocks are the non-empty '/'-separated pieces (split_string). */
    int has_slash = memchr(s, '/', len) != NULL;
    size_t n = 0, block = 0, segs = 0, first_block = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && (s[i] == ' ' || s[i] == '\t'))
            continue;
        if (i < len && s[i] != '/') {
            glyphs[n++] = s[i];
            block++;
            continue;
        }
        if (!block)
            continue;
        if (segs++ == 0)
            first_block = block;
        else if (block != first_block)
            return des_fail(err, i, "block shuffle segment length mismatch: '%.*s'",
                            (int)len, s);
        block = 0;
    }
    glyphs[n] = '\0';
    out->glyphs = glyphs;
    out->block_len = has_slash ? first_block : 1;
    out->block_count = has_slash ? segs : n;
    return DES_PARSE_OK;
}

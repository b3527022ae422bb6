/* SUBST, NSUBST and SHUFFLE arguments, and the key/value split they share
 * with the keyed directives and MARKER. */
#include "des/spec_util.h"
#include "core/buf.h"

#include <stdlib.h>
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

int des_parse_subst(const char *s, size_t len, des_subst *out, des_spec_error *err)
{
    memset(out, 0, sizeof *out);
    const char *key, *value;
    size_t key_len, value_len;
    int sep;
    int r = des_split_key_item(s, len, -1, &key, &key_len, &sep, &value, &value_len, err);
    if (r != DES_PARSE_OK)
        return r;
    out->fixed = sep == ':';
    out->keys = qg_strndup(key, key_len);
    if (!out->keys)
        return DES_PARSE_NOMEM;
    r = des_parse_glyphs((des_span){value, value_len, (size_t)(value - s)},
                         &out->choices, &out->count, err);
    if (r != DES_PARSE_OK)
        des_subst_free(out);
    return r;
}

void des_subst_free(des_subst *subst)
{
    free(subst->keys);
    free(subst->choices);
    memset(subst, 0, sizeof *subst);
}

/* One NSUBST segment "N=repl", "N:repl" or "*=repl". */
static int nsubst_segment(des_span seg, int last, des_nsubst_seg *out, des_spec_error *err)
{
    qg_buf text;
    qg_buf_init(&text);
    size_t shift = 0;
    if (!memchr(seg.s, '=', seg.len) && !memchr(seg.s, ':', seg.len)) {
        qg_buf_puts(&text, last ? "*=" : "1=");
        shift = 2;
    }
    qg_buf_append(&text, seg.s, seg.len);
    if (text.failed) {
        qg_buf_free(&text);
        return DES_PARSE_NOMEM;
    }
    const char *key, *value;
    size_t key_len, value_len;
    int sep, r;
    r = des_split_key_item(text.data, text.len, -1, &key, &key_len, &sep, &value,
                           &value_len, err);
    if (r == DES_PARSE_OK) {
        des_span k = {key, key_len, 0};
        out->fixed = sep == ':';
        if (des_span_eq(k, "*"))
            out->count = -1;
        else if (!des_span_int(k, &out->count) || out->count == 0)
            r = des_fail(err, 0, "illegal spec '%.*s': the count must be a number or '*'",
                         (int)seg.len, seg.s);
    }
    if (r == DES_PARSE_OK) {
        size_t at = (size_t)(value - text.data);
        r = des_parse_glyphs((des_span){value, value_len, at}, &out->choices,
                             &out->choice_count, err);
    }
    if (r == DES_PARSE_BAD && err)
        err->offset = seg.offset + (err->offset > shift ? err->offset - shift : 0);
    qg_buf_free(&text);
    return r;
}

int des_parse_nsubst(const char *s, size_t len, des_nsubst *out, des_spec_error *err)
{
    memset(out, 0, sizeof *out);
    const char *key, *value;
    size_t key_len, value_len;
    int sep;
    int r = des_split_key_item(s, len, -1, &key, &key_len, &sep, &value, &value_len, err);
    if (r != DES_PARSE_OK)
        return r;
    out->keys = qg_strndup(key, key_len);
    if (!out->keys)
        return DES_PARSE_NOMEM;
    des_span *segs;
    int nomem = 0;
    size_t n = des_span_split((des_span){value, value_len, (size_t)(value - s)}, '/',
                              &segs, &nomem);
    if (nomem) {
        des_nsubst_free(out);
        return DES_PARSE_NOMEM;
    }
    out->segs = calloc(n ? n : 1, sizeof *out->segs);
    r = out->segs ? DES_PARSE_OK : DES_PARSE_NOMEM;
    for (size_t i = 0; r == DES_PARSE_OK && i < n; i++) {
        r = nsubst_segment(segs[i], i + 1 == n, &out->segs[i], err);
        out->count = i + 1;
    }
    free(segs);
    if (r != DES_PARSE_OK)
        des_nsubst_free(out);
    return r;
}

void des_nsubst_free(des_nsubst *nsubst)
{
    for (size_t i = 0; i < nsubst->count; i++)
        free(nsubst->segs[i].choices);
    free(nsubst->segs);
    free(nsubst->keys);
    memset(nsubst, 0, sizeof *nsubst);
}

int des_parse_shuffle(const char *s, size_t len, des_shuffle *out, des_spec_error *err)
{
    memset(out, 0, sizeof *out);
    const char *comma = memchr(s, ',', len);
    if (comma)
        return des_fail(err, (size_t)(comma - s),
                        "use / for block shuffle, or multiple SHUFFLE: lines");
    qg_buf glyphs;
    qg_buf_init(&glyphs);
    /* Blocks are the non-empty '/'-separated pieces (split_string). */
    int has_slash = memchr(s, '/', len) != NULL;
    size_t block = 0, segs = 0, first_block = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && (s[i] == ' ' || s[i] == '\t'))
            continue;
        if (i < len && s[i] != '/') {
            qg_buf_putc(&glyphs, s[i]);
            block++;
            continue;
        }
        if (!block)
            continue;
        if (segs++ == 0)
            first_block = block;
        else if (block != first_block) {
            qg_buf_free(&glyphs);
            return des_fail(err, i, "block shuffle segment length mismatch: '%.*s'",
                            (int)len, s);
        }
        block = 0;
    }
    if (!qg_buf_reserve(&glyphs, 1)) {
        qg_buf_free(&glyphs);
        return DES_PARSE_NOMEM;
    }
    out->block_len = has_slash ? first_block : 1;
    out->block_count = has_slash ? segs : glyphs.len;
    out->glyphs = qg_buf_take(&glyphs);
    return out->glyphs ? DES_PARSE_OK : DES_PARSE_NOMEM;
}

void des_shuffle_free(des_shuffle *shuffle)
{
    free(shuffle->glyphs);
    memset(shuffle, 0, sizeof *shuffle);
}

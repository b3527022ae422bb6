/* Reading one blob: bounds, CRC, capped inflation; and decoding a map
 * blob's fields (doc/qgc-format.md "Map blob"). */
#include "cache/reader.h"
#include "cache/rows.h"
#include "cache/zblob.h"
#include "core/mapdef.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Checks the blob's bounds and CRC and inflates it into raw (raw_size
 * bytes), reporting a problem against what. */
static qg_status inflate_blob(const qg_cache *c, const qgc_blob_ref *ref, qgc_inflater *inf,
                              const char *what, unsigned char *raw, qg_diags *diags)
{
    const unsigned char *z = c->data + c->header.blobs_offset + ref->offset;
    if (qgc_crc32(z, ref->size) != ref->crc)
        return qgc_corrupt(diags, c, "%s: blob CRC mismatch", what);
    if (!(inf ? qgc_inflater_run(inf, z, ref->size, c->dict, c->dict_len, raw, ref->raw_size)
              : qgc_inflate(z, ref->size, c->dict, c->dict_len, raw, ref->raw_size)))
        return qgc_corrupt(diags, c, "%s: blob does not inflate to its recorded size", what);
    return QG_OK;
}

static int in_bounds(const qg_cache *c, const qgc_blob_ref *ref)
{
    uint64_t area = c->header.file_size - c->header.blobs_offset;
    return ref->offset <= area && ref->size <= area - ref->offset &&
           ref->raw_size <= QGC_MAX_BLOB_RAW;
}

qg_status qgc_read_blob(const qg_cache *c, const qgc_blob_ref *ref, qgc_inflater *inf,
                        const char *what, unsigned char **out, qg_diags *diags)
{
    *out = NULL;
    if (!in_bounds(c, ref))
        return qgc_corrupt(diags, c, "%s: blob out of bounds", what);
    unsigned char *raw = malloc((size_t)ref->raw_size + 1);
    if (!raw) {
        qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "out of memory");
        return QG_ERR_NOMEM;
    }
    qg_status st = inflate_blob(c, ref, inf, what, raw, diags);
    if (st != QG_OK) {
        free(raw);
        return st;
    }
    raw[ref->raw_size] = 0;
    *out = raw;
    return QG_OK;
}

qg_status qgc_read_blob_into(const qg_cache *c, const qgc_blob_ref *ref, qgc_inflater *inf,
                             const char *what, qg_buf *into, qg_diags *diags)
{
    if (!in_bounds(c, ref))
        return qgc_corrupt(diags, c, "%s: blob out of bounds", what);
    if (!qg_buf_reserve(into, (size_t)ref->raw_size)) {
        qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "out of memory");
        return QG_ERR_NOMEM;
    }
    qg_status st = inflate_blob(c, ref, inf, what, (unsigned char *)into->data + into->len,
                                diags);
    if (st == QG_OK)
        into->len += (size_t)ref->raw_size;
    into->data[into->len] = '\0';
    return st;
}

/* Splits a map's metadata and its blob, the name put back. */
static int decode_map_head(const unsigned char *meta, size_t meta_len,
                           const unsigned char *raw, size_t raw_len, int line,
                           qgc_map_blob *out)
{
    qgc_cursor cur;
    qgc_cursor_init(&cur, meta, meta_len);
    int64_t first = (int64_t)line + qgc_get_svarint(&cur);
    qgc_get_varint(&cur);   /* where the name was, already put back */
    /* The blob is all slice unless rows are listed after it. */
    size_t slice = raw_len;
    qgc_cursor peek = cur;
    if (qgc_get_varint(&peek) == QGC_ROWS_LISTED)
        slice = (size_t)qgc_get_varint_max(&peek, raw_len);
    out->first_line = first >= 0 && first <= 0x7fffffff ? (size_t)first : 0;
    out->text = (const char *)raw;
    out->text_len = slice;
    out->line = line;
    out->meta = cur.p;
    out->meta_len = (size_t)(cur.end - cur.p);
    out->rows = raw + slice;
    out->rows_len = raw_len - slice;
    return !cur.bad && !peek.bad && first >= 0 && first <= 0x7fffffff;
}

/* Where the writer took the name out of the slice's first line (it ended
 * that line): 0 when it did not, else that place + 1. */
static uint64_t name_place(const unsigned char *meta, size_t meta_len)
{
    qgc_cursor cur;
    qgc_cursor_init(&cur, meta, meta_len);
    qgc_get_svarint(&cur);
    return qgc_get_varint(&cur);
}

/* Puts the name back at place - 1 of raw's first line, which must end
 * there; raw grows by its length. */
static int put_name_back(unsigned char **raw, size_t *len, uint64_t place, const char *name)
{
    size_t at = (size_t)(place - 1), n = strlen(name);
    if (place - 1 > *len || memchr(*raw, '\n', at) || (at < *len && (*raw)[at] != '\n'))
        return -1;
    unsigned char *more = realloc(*raw, *len + n + 1);
    if (!more)
        return 0;
    memmove(more + at + n, more + at, *len - at + 1);
    memcpy(more + at, name, n);
    *raw = more;
    *len += n;
    return 1;
}

qg_status qgc_read_map(const qg_cache *c, size_t index, qgc_inflater *inf,
                       unsigned char **raw, qgc_map_blob *blob, qg_diags *diags)
{
    const qg_cache_entry *e = &c->maps[index];
    char what[300];
    snprintf(what, sizeof what, "map '%s'", e->name);
    qgc_blob_ref ref = {e->blob_offset, e->blob_size, e->raw_size, e->crc32};
    qg_status st = qgc_read_blob(c, &ref, inf, what, raw, diags);
    if (st != QG_OK)
        return st;
    size_t len = e->raw_size;
    uint64_t place = name_place(c->meta[index].data, c->meta[index].len);
    int put = place ? put_name_back(raw, &len, place, e->name) : 1;
    if (put == 0) {
        qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "out of memory");
        st = QG_ERR_NOMEM;
    } else if (put < 0 || !decode_map_head(c->meta[index].data, c->meta[index].len, *raw,
                                           len, e->line, blob)) {
        st = qgc_corrupt(diags, c, "%s: malformed blob", what);
    }
    if (st != QG_OK) {
        free(*raw);
        *raw = NULL;
    }
    return st;
}

/* What the rows imply for the "width" and "height" properties. */
typedef struct shape {
    size_t rows;
    size_t width;
} shape;

static qg_status add_row(qg_mapdef *def, shape *sh, const char *text, int64_t len,
                         int64_t line)
{
    sh->rows++;
    if ((size_t)len > sh->width)
        sh->width = (size_t)len;
    return def ? qg_mapdef_add_row(def, text, (size_t)len, (int)line) : QG_OK;
}

static qg_status decode_plain_rows(qgc_cursor *cur, const qgc_map_blob *b, size_t rows,
                                   qg_mapdef *def, shape *sh)
{
    int64_t line = b->line + qgc_get_svarint(cur);
    size_t column = (size_t)qgc_get_varint_max(cur, 1024);
    const char *end = b->text + b->text_len;
    const char *p = line > 0 ? qgc_slice_line(b->text, end, b->first_line, (size_t)line) : NULL;
    if (cur->bad || line < 1 || (int64_t)rows > 0x7fffffff - line || (rows && !p))
        return QG_ERR_CORRUPT;
    for (size_t i = 0; i < rows; i++) {
        const char *text;
        size_t len;
        if (p >= end || !(p = qgc_plain_row(p, end, column, &text, &len)))
            return QG_ERR_CORRUPT;
        qg_status st = add_row(def, sh, text, (int64_t)len, line + (int64_t)i);
        if (st != QG_OK)
            return st;
    }
    return QG_OK;
}

static qg_status decode_listed_rows(qgc_cursor *cur, const qgc_map_blob *b, size_t rows,
                                    qg_mapdef *def, shape *sh)
{
    int64_t line = b->line, len = 0, expected = 0;
    if (rows > b->rows_len)  /* every listed row takes at least 3 bytes */
        return QG_ERR_CORRUPT;
    for (size_t i = 0; i < rows && !cur->bad; i++) {
        line += qgc_get_svarint(cur);
        len += qgc_get_svarint(cur);
        uint64_t where = qgc_get_varint(cur);
        if (cur->bad || line < 0 || line > 0x7fffffff || len < 0 || len > QGC_MAX_BLOB_RAW)
            return QG_ERR_CORRUPT;
        const char *text;
        if (where == 0) {
            text = (const char *)qgc_get_bytes(cur, (size_t)len);
        } else {
            uint64_t z = where - 1;
            if ((z >> 1) > (uint64_t)b->text_len + 1)
                return QG_ERR_CORRUPT;
            int64_t at = expected + (int64_t)((z >> 1) ^ -(z & 1));
            if (at < 0 || at > (int64_t)b->text_len || len > (int64_t)b->text_len - at)
                return QG_ERR_CORRUPT;
            text = b->text + at;
            expected = at + len + 1;
        }
        if (!text || cur->bad)
            return QG_ERR_CORRUPT;
        qg_status st = add_row(def, sh, text, len, line);
        if (st != QG_OK)
            return st;
    }
    return cur->bad ? QG_ERR_CORRUPT : QG_OK;
}

/* Plain rows are described in the metadata; listed rows follow the slice
 * in the blob, which they must use up exactly. */
static qg_status decode_rows(qgc_cursor *meta, const qgc_map_blob *b, qg_mapdef *def,
                             shape *sh)
{
    uint64_t mode = qgc_get_varint_max(meta, QGC_ROWS_PLAIN);
    if (mode == QGC_ROWS_LISTED)
        qgc_get_varint(meta);   /* the slice length, read by the head */
    size_t rows = (size_t)qgc_get_varint_max(meta, QGC_MAX_BLOB_RAW);
    if (meta->bad)
        return QG_ERR_CORRUPT;
    if (mode == QGC_ROWS_PLAIN)
        return b->rows_len ? QG_ERR_CORRUPT : decode_plain_rows(meta, b, rows, def, sh);
    qgc_cursor cur;
    qgc_cursor_init(&cur, b->rows, b->rows_len);
    qg_status st = decode_listed_rows(&cur, b, rows, def, sh);
    return st == QG_OK && cur.p != cur.end ? QG_ERR_CORRUPT : st;
}

static const char *implied_value(const qg_cache_entry *e, const shape *sh, const char *key,
                                 char *num)
{
    if (strcmp(key, "width") == 0 || strcmp(key, "height") == 0)
        return qg_decimal(num, (long long)(key[0] == 'w' ? sh->width : sh->rows));
    const char *fields[7] = {e->tags, e->depth, e->place, e->orient,
                             e->chance, e->weight, e->desc};
    static const char *const keys[7] = {"tags", "depth", "place", "orient",
                                        "chance", "weight", "desc"};
    for (int f = 0; f < 7; f++)
        if (strcmp(key, keys[f]) == 0)
            return fields[f];
    if (strcmp(key, "name") == 0)
        return e->name;
    if (strcmp(key, "quest") == 0 && e->quest >= 0)
        return qg_decimal(num, e->quest);
    return NULL;
}

static qg_status decode_props(qgc_cursor *cur, const qg_cache_entry *e, const shape *sh,
                              qg_mapdef *def)
{
    size_t props = (size_t)qgc_get_varint_max(cur, (uint64_t)(cur->end - cur->p));
    qg_status st = QG_OK;
    for (size_t i = 0; i < props && st == QG_OK; i++) {
        size_t code = (size_t)qgc_get_varint_max(cur, QGC_KEY_COUNT), len;
        char *key = NULL, *copy = NULL;
        const char *k = NULL, *value = NULL;
        char num[24];
        if (code) {
            k = qgc_known_keys[code - 1];
        } else {
            const char *s = qgc_get_str(cur, &len);
            k = key = qg_strndup(s, len);
        }
        if (qgc_get_varint_max(cur, 1)) {
            value = k ? implied_value(e, sh, k, num) : NULL;
            if (k && !value)
                cur->bad = 1;
        } else {
            const char *v = qgc_get_str(cur, &len);
            value = copy = qg_strndup(v, len);
        }
        if (cur->bad)
            st = QG_ERR_CORRUPT;
        else if (!k || !value)
            st = QG_ERR_NOMEM;
        else if (def)
            st = qg_mapdef_add_property(def, k, value);
        free(key);
        free(copy);
    }
    return st;
}

qg_status qgc_decode_map_body(const qg_cache_entry *e, const qgc_map_blob *b,
                              qg_mapdef *def)
{
    qgc_cursor cur;
    qgc_cursor_init(&cur, b->meta, b->meta_len);
    shape sh = {0, 0};
    qg_status st = decode_rows(&cur, b, def, &sh);
    if (st == QG_OK)
        st = decode_props(&cur, e, &sh, def);
    if (st == QG_OK && cur.p != cur.end)
        st = QG_ERR_CORRUPT;
    return st;
}

/* Reading one blob: bounds, CRC, capped inflation; and decoding a map
 * blob's fields (doc/qgc-format.md "Map blob"). */
#include "cache/reader.h"
#include "cache/zblob.h"
#include "core/mapdef.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

qg_status qgc_read_blob(const qg_cache *c, const qgc_blob_ref *ref,
                        const char *what, unsigned char **out, qg_diags *diags)
{
    *out = NULL;
    uint64_t area = c->header.file_size - c->header.blobs_offset;
    if (ref->offset > area || ref->size > area - ref->offset ||
        ref->raw_size > QGC_MAX_BLOB_RAW)
        return qgc_corrupt(diags, c, "%s: blob out of bounds", what);
    const unsigned char *z = c->data + c->header.blobs_offset + ref->offset;
    if (qgc_crc32(z, ref->size) != ref->crc)
        return qgc_corrupt(diags, c, "%s: blob CRC mismatch", what);
    unsigned char *raw = malloc((size_t)ref->raw_size + 1);
    if (!raw) {
        qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "out of memory");
        return QG_ERR_NOMEM;
    }
    if (!qgc_inflate(z, ref->size, c->dict, c->dict_len, raw, ref->raw_size)) {
        free(raw);
        return qgc_corrupt(diags, c, "%s: blob does not inflate to its recorded size", what);
    }
    raw[ref->raw_size] = 0;
    *out = raw;
    return QG_OK;
}

int qgc_decode_map_head(const unsigned char *raw, size_t len, qgc_map_blob *out)
{
    qgc_cursor cur;
    qgc_cursor_init(&cur, raw, len);
    out->first_line = (size_t)qgc_get_varint_max(&cur, 0x7fffffff);
    out->text = qgc_get_str(&cur, &out->text_len);
    out->ctx_pos = (size_t)qgc_get_varint_max(&cur, QGC_MAX_BLOB_RAW);
    out->ctx_blank = (size_t)qgc_get_varint_max(&cur, QGC_MAX_BLOB_RAW);
    out->line = (int)qgc_get_varint_max(&cur, 0x7fffffff);
    out->rest = cur.p;
    out->rest_len = (size_t)(cur.end - cur.p);
    return !cur.bad;
}

static qg_status decode_rows(qgc_cursor *cur, const qgc_map_blob *b, qg_mapdef *def)
{
    size_t rows = (size_t)qgc_get_varint_max(cur, (uint64_t)(cur->end - cur->p));
    for (size_t i = 0; i < rows && !cur->bad; i++) {
        int line = (int)qgc_get_varint_max(cur, 0x7fffffff);
        size_t len = (size_t)qgc_get_varint_max(cur, QGC_MAX_BLOB_RAW);
        size_t at = (size_t)qgc_get_varint_max(cur, b->text_len);
        const char *text;
        if (at == 0)
            text = (const char *)qgc_get_bytes(cur, len);
        else if (len <= b->text_len - (at - 1))
            text = b->text + at - 1;
        else
            text = NULL;
        if (!text || cur->bad)
            return QG_ERR_CORRUPT;
        if (def && qg_mapdef_add_row(def, text, len, line) != QG_OK)
            return QG_ERR_NOMEM;
    }
    return cur->bad ? QG_ERR_CORRUPT : QG_OK;
}

static const char *index_value(const qg_cache_entry *e, const char *key, char *num)
{
    const char *fields[7] = {e->tags, e->depth, e->place, e->orient,
                             e->chance, e->weight, e->desc};
    static const char *const keys[7] = {"tags", "depth", "place", "orient",
                                        "chance", "weight", "desc"};
    for (int f = 0; f < 7; f++)
        if (strcmp(key, keys[f]) == 0)
            return fields[f];
    if (strcmp(key, "quest") == 0 && e->quest >= 0) {
        snprintf(num, 24, "%d", e->quest);
        return num;
    }
    return NULL;
}

static qg_status decode_props(qgc_cursor *cur, const qg_cache_entry *e, qg_mapdef *def)
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
            value = k ? index_value(e, k, num) : NULL;
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
    qgc_cursor_init(&cur, b->rest, b->rest_len);
    qg_status st = decode_rows(&cur, b, def);
    if (st == QG_OK)
        st = decode_props(&cur, e, def);
    if (st == QG_OK && cur.p != cur.end)
        st = QG_ERR_CORRUPT;
    return st;
}

/* The preset dictionary: maps are compressed one by one so that any one
 * loads alone, and most are a few hundred bytes, too short for deflate to
 * learn the directive names and wall rows they share. Lines that recur
 * across the whole input, most valuable last (shortest distance), give
 * every blob that knowledge. */
#include "cache/pack.h"
#include "cache/reader.h"

#include <stdlib.h>
#include <string.h>

typedef struct line_count {
    const char *text;
    size_t len;
    size_t count;     /* blobs holding the line */
    size_t last_blob;
} line_count;

typedef struct line_table {
    line_count *slots;
    size_t cap;
    size_t used;
} line_table;

static uint64_t hash_line(const char *text, size_t len)
{
    return qg_cache_hash(text, len);
}

static int table_grow(line_table *t)
{
    size_t cap = t->cap ? t->cap * 2 : 4096;
    line_count *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return 0;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slots[i].text)
            continue;
        size_t h = (size_t)hash_line(t->slots[i].text, t->slots[i].len) & (cap - 1);
        while (slots[h].text)
            h = (h + 1) & (cap - 1);
        slots[h] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return 1;
}

static int table_add(line_table *t, const char *text, size_t len, size_t blob)
{
    if ((t->used + 1) * 2 > t->cap && !table_grow(t))
        return 0;
    size_t h = (size_t)hash_line(text, len) & (t->cap - 1);
    while (t->slots[h].text) {
        if (t->slots[h].len == len && memcmp(t->slots[h].text, text, len) == 0) {
            /* Within one blob deflate finds a repeat by itself. */
            if (t->slots[h].last_blob != blob)
                t->slots[h].count++;
            t->slots[h].last_blob = blob;
            return 1;
        }
        h = (h + 1) & (t->cap - 1);
    }
    t->slots[h] = (line_count){text, len, 1, blob};
    t->used++;
    return 1;
}

static int by_value(const void *a, const void *b)
{
    const line_count *x = a, *y = b;
    size_t vx = x->count * x->len, vy = y->count * y->len;
    if (vx != vy)
        return vx > vy ? -1 : 1;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return memcmp(x->text, y->text, x->len);
}

enum { MIN_COUNT = 3, MIN_LEN = 4 };

static int add_lines(line_table *t, const char *p, size_t len, size_t blob)
{
    const char *end = p + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl + 1 : end;
        if ((size_t)(stop - p) >= MIN_LEN && !table_add(t, p, (size_t)(stop - p), blob))
            return 0;
        p = stop;
    }
    return 1;
}

qg_status qgc_build_dictionary(const qgc_file_rec *files, size_t file_count,
                               const qgc_map_rec *maps, size_t map_count,
                               qg_buf *dict)
{
    line_table t = {0};
    int ok = 1;
    for (size_t f = 0; ok && f < file_count; f++)
        ok = add_lines(&t, files[f].blob.raw.data, files[f].blob.raw.len, f);
    for (size_t m = 0; ok && m < map_count; m++) {
        qgc_map_blob b;
        if (qgc_decode_map_head((const unsigned char *)maps[m].meta.data, maps[m].meta.len,
                                (const unsigned char *)maps[m].blob.raw.data,
                                maps[m].blob.raw.len, maps[m].line, &b))
            ok = add_lines(&t, b.text, b.text_len, file_count + m);
    }
    if (!ok) {
        free(t.slots);
        return QG_ERR_NOMEM;
    }
    size_t n = 0;
    for (size_t i = 0; i < t.cap; i++)
        if (t.slots[i].text && t.slots[i].count >= MIN_COUNT)
            t.slots[n++] = t.slots[i];
    qsort(t.slots, n, sizeof *t.slots, by_value);
    size_t chosen = 0, size = 0;
    for (size_t i = 0; i < n; i++)
        if (size + t.slots[i].len <= QGC_MAX_DICTIONARY) {
            size += t.slots[i].len;
            t.slots[chosen++] = t.slots[i];
        }
    for (size_t i = chosen; i-- > 0;)
        qg_buf_append(dict, t.slots[i].text, t.slots[i].len);
    free(t.slots);
    return dict->failed ? QG_ERR_NOMEM : QG_OK;
}

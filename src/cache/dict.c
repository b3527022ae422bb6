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
    uint64_t hash;    /* kept: growing the index does not hash again */
    size_t count;     /* blobs holding the line */
    size_t last_blob;
} line_count;

/* The lines in a dense array and an open-addressing index of it: most
 * lines occur once, and a table of whole entries at half load was large
 * enough that filling its fresh pages cost more than the counting. */
typedef struct line_table {
    line_count *lines;
    size_t count, cap;
    uint32_t *index;  /* 0: empty; else 1 + the line's place in lines */
    size_t index_cap;
} line_table;

/* Any hash gives the same dictionary (the lines are sorted by value and
 * text); this one takes eight bytes a step. */
static uint64_t hash_line(const char *text, size_t len)
{
    uint64_t h = (uint64_t)len * 0x9e3779b97f4a7c15ull, w;
    for (; len >= 8; text += 8, len -= 8) {
        memcpy(&w, text, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    w = 0;
    memcpy(&w, text, len);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 29);
}

static int index_grow(line_table *t)
{
    size_t cap = t->index_cap ? t->index_cap * 2 : 4096;
    if (cap > (size_t)UINT32_MAX)
        return 0;
    uint32_t *index = calloc(cap, sizeof *index);
    if (!index)
        return 0;
    for (size_t i = 0; i < t->count; i++) {
        size_t h = (size_t)t->lines[i].hash & (cap - 1);
        while (index[h])
            h = (h + 1) & (cap - 1);
        index[h] = (uint32_t)(i + 1);
    }
    free(t->index);
    t->index = index;
    t->index_cap = cap;
    return 1;
}

static int table_add(line_table *t, const char *text, size_t len, size_t blob)
{
    if ((t->count + 1) * 2 > t->index_cap && !index_grow(t))
        return 0;
    uint64_t hash = hash_line(text, len);
    size_t h = (size_t)hash & (t->index_cap - 1);
    for (; t->index[h]; h = (h + 1) & (t->index_cap - 1)) {
        line_count *line = &t->lines[t->index[h] - 1];
        if (line->hash == hash && line->len == len && memcmp(line->text, text, len) == 0) {
            /* Within one blob deflate finds a repeat by itself. */
            if (line->last_blob != blob)
                line->count++;
            line->last_blob = blob;
            return 1;
        }
    }
    line_count *line = QG_PUSH(t->lines, t->count, t->cap);
    if (!line)
        return 0;
    *line = (line_count){text, len, hash, 1, blob};
    t->index[h] = (uint32_t)t->count;
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
    free(t.index);
    if (!ok) {
        free(t.lines);
        return QG_ERR_NOMEM;
    }
    size_t n = 0;
    for (size_t i = 0; i < t.count; i++)
        if (t.lines[i].count >= MIN_COUNT)
            t.lines[n++] = t.lines[i];
    qsort(t.lines, n, sizeof *t.lines, by_value);
    size_t chosen = 0, size = 0;
    for (size_t i = 0; i < n; i++)
        if (size + t.lines[i].len <= QGC_MAX_DICTIONARY) {
            size += t.lines[i].len;
            t.lines[chosen++] = t.lines[i];
        }
    for (size_t i = chosen; i-- > 0;)
        qg_buf_append(dict, t.lines[i].text, t.lines[i].len);
    free(t.lines);
    return dict->failed ? QG_ERR_NOMEM : QG_OK;
}

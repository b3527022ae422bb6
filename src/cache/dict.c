/* The preset dictionary: maps are compressed one by one so that any one
 * loads alone, and most are a few hundred bytes, too short for deflate to
 * learn the directive names and wall rows they share. Lines that recur
 * across the whole input, most valuable last (shortest distance), give
 * every blob that knowledge. */
#include "cache/pack.h"

#include <stdlib.h>
#include <string.h>

typedef struct line_count {
    const char *text;
    size_t len;
    size_t count;
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

static int table_add(line_table *t, const char *text, size_t len)
{
    if ((t->used + 1) * 2 > t->cap && !table_grow(t))
        return 0;
    size_t h = (size_t)hash_line(text, len) & (t->cap - 1);
    while (t->slots[h].text) {
        if (t->slots[h].len == len && memcmp(t->slots[h].text, text, len) == 0) {
            t->slots[h].count++;
            return 1;
        }
        h = (h + 1) & (t->cap - 1);
    }
    t->slots[h] = (line_count){text, len, 1};
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

qg_status qgc_build_dictionary(const qgc_file_rec *files, size_t count,
                               qg_buf *dict)
{
    line_table t = {0};
    for (size_t f = 0; f < count; f++) {
        const char *p = files[f].text, *end = p + files[f].len;
        while (p < end) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            const char *stop = nl ? nl + 1 : end;
            if ((size_t)(stop - p) >= MIN_LEN && !table_add(&t, p, (size_t)(stop - p))) {
                free(t.slots);
                return QG_ERR_NOMEM;
            }
            p = stop;
        }
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

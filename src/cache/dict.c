/* The preset dictionary: maps are compressed one by one so that any one
 * loads alone, and most are a few hundred bytes, too short for deflate to
 * learn the directive names and wall rows they share. Lines that recur
 * across the whole input, most valuable last (shortest distance), give
 * every blob that knowledge.
 *
 * The blob texts are on disk (the writer's scratch file), read once from
 * start to end; a line is known by its hash, its length and where it was
 * first seen, so the table does not hold the text. Only the lines that may
 * go in the dictionary are read back. A 64-bit hash stands for the text:
 * two lines that share one would only count together, which could make
 * the dictionary worse, never the cache wrong. */
#include "cache/pack.h"

#include <stdlib.h>
#include <string.h>

typedef struct line_count {
    uint64_t hash;
    uint64_t at;        /* where the text was first seen */
    uint32_t len;
    uint32_t count;     /* blobs holding the line */
    uint32_t last_blob;
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

static int table_add(line_table *t, uint64_t at, size_t len, uint64_t hash, uint32_t blob)
{
    if ((t->count + 1) * 2 > t->index_cap && !index_grow(t))
        return 0;
    size_t h = (size_t)hash & (t->index_cap - 1);
    for (; t->index[h]; h = (h + 1) & (t->index_cap - 1)) {
        line_count *line = &t->lines[t->index[h] - 1];
        if (line->hash == hash && line->len == len) {
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
    *line = (line_count){hash, at, (uint32_t)len, 1, blob};
    t->index[h] = (uint32_t)t->count;
    return 1;
}

enum { MIN_COUNT = 3, MIN_LEN = 4, WINDOW = 256 * 1024 };

static int add_lines(line_table *t, const char *text, uint64_t at, size_t len, uint32_t blob)
{
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl + 1 : end;
        size_t n = (size_t)(stop - p);
        if (n >= MIN_LEN && !table_add(t, at + (uint64_t)(p - text), n, hash_line(p, n), blob))
            return 0;
        p = stop;
    }
    return 1;
}

/* A window on the text file, read forward: bytes [at, at + len) in
 * memory. */
typedef struct window {
    const qgc_spill *file;
    char *data;
    size_t cap;
    uint64_t start, end;
    int io_failed;
} window;

static const char *window_get(window *w, uint64_t at, size_t len)
{
    if (at >= w->start && at + len <= w->end)
        return w->data + (at - w->start);
    size_t want = len > WINDOW ? len : WINDOW;
    if (want > w->file->size - at)
        want = (size_t)(w->file->size - at);
    if (want > w->cap) {
        char *data = realloc(w->data, want ? want : 1);
        if (!data)
            return NULL;
        w->data = data;
        w->cap = want;
    }
    if (!qgc_spill_read(w->file, at, w->data, want)) {
        w->io_failed = 1;
        return NULL;
    }
    w->start = at;
    w->end = at + want;
    return w->data;
}

static int count_lines(window *w, const qgc_spilled *const *blobs, size_t count,
                       line_table *t)
{
    for (size_t i = 0; i < count; i++) {
        const qgc_spilled *b = blobs[i];
        const char *text = b->counted ? window_get(w, b->at, b->counted) : "";
        if (!text || !add_lines(t, text, b->at, b->counted, (uint32_t)i))
            return 0;
    }
    return 1;
}

typedef struct candidate {
    const char *text;
    size_t len;
    size_t count;
    uint64_t at;
} candidate;

static int by_place(const void *a, const void *b)
{
    uint64_t x = ((const candidate *)a)->at, y = ((const candidate *)b)->at;
    return (x > y) - (x < y);
}

static int by_value(const void *a, const void *b)
{
    const candidate *x = a, *y = b;
    size_t vx = x->count * x->len, vy = y->count * y->len;
    if (vx != vy)
        return vx > vy ? -1 : 1;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return memcmp(x->text, y->text, x->len);
}

/* The lines found in enough blobs (a line longer than the dictionary can
 * never be chosen), with their texts read back into *texts. */
static candidate *candidates(const line_table *t, window *w, qg_buf *texts, size_t *count)
{
    size_t total = 0;
    for (size_t i = 0; i < t->count; i++)
        total += t->lines[i].count >= MIN_COUNT && t->lines[i].len <= QGC_MAX_DICTIONARY;
    candidate *out = malloc((total + 1) * sizeof *out);
    *count = 0;
    for (size_t i = 0; out && i < t->count; i++) {
        const line_count *l = &t->lines[i];
        if (l->count >= MIN_COUNT && l->len <= QGC_MAX_DICTIONARY)
            out[(*count)++] = (candidate){NULL, l->len, l->count, l->at};
    }
    if (!out)
        return NULL;
    qsort(out, *count, sizeof *out, by_place);
    size_t *offsets = malloc((*count + 1) * sizeof *offsets);
    int ok = offsets != NULL;
    for (size_t i = 0; ok && i < *count; i++) {
        const char *text = window_get(w, out[i].at, out[i].len);
        offsets[i] = texts->len;
        ok = text && qg_buf_append(texts, text, out[i].len);
    }
    for (size_t i = 0; ok && i < *count; i++)
        out[i].text = texts->data + offsets[i];
    free(offsets);
    if (!ok) {
        free(out);
        return NULL;
    }
    return out;
}

qg_status qgc_build_dictionary(const qgc_spill *text, const qgc_spilled *const *blobs,
                               size_t count, qg_buf *dict)
{
    line_table t;
    memset(&t, 0, sizeof t);
    window w = {text, NULL, 0, 0, 0, 0};
    qg_buf texts;
    qg_buf_init(&texts);
    size_t n = 0;
    int counted = count_lines(&w, blobs, count, &t);
    free(t.index);
    candidate *lines = counted ? candidates(&t, &w, &texts, &n) : NULL;
    free(t.lines);
    free(w.data);
    w.data = NULL;
    if (!lines) {
        qg_buf_free(&texts);
        return w.io_failed ? QG_ERR_IO : QG_ERR_NOMEM;
    }
    qsort(lines, n, sizeof *lines, by_value);
    size_t chosen = 0, size = 0;
    for (size_t i = 0; i < n; i++)
        if (size + lines[i].len <= QGC_MAX_DICTIONARY) {
            size += lines[i].len;
            lines[chosen++] = lines[i];
        }
    for (size_t i = chosen; i-- > 0;)
        qg_buf_append(dict, lines[i].text, lines[i].len);
    free(lines);
    qg_buf_free(&texts);
    return dict->failed ? QG_ERR_NOMEM : QG_OK;
}

/* The preset dictionary: maps are compressed one by one so that any one
 * loads alone, and most are a few hundred bytes, too short for deflate to
 * learn the directive names and wall rows they share. Lines that recur
 * across the whole input, most valuable last (shortest distance), give
 * every blob that knowledge. */
#include "cache/pack.h"

#include <pthread.h>
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

static int table_add(line_table *t, const char *text, size_t len, uint64_t hash,
                     size_t blob)
{
    if ((t->count + 1) * 2 > t->index_cap && !index_grow(t))
        return 0;
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

enum { MIN_COUNT = 3, MIN_LEN = 4, MAX_PARTS = 16 };

/* The lines are counted on several threads, each taking the lines of one
 * part of the hash values over every blob: the parts hold different
 * lines, so their counts need no merging. */
typedef struct count_part {
    const qgc_file_rec *files;
    size_t file_count;
    const qgc_map_rec *maps;
    size_t map_count;
    uint64_t part, parts;
    line_table t;
    int ok;
} count_part;

static int add_lines(count_part *c, const char *p, size_t len, size_t blob)
{
    const char *end = p + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl + 1 : end;
        size_t n = (size_t)(stop - p);
        if (n >= MIN_LEN) {
            uint64_t hash = hash_line(p, n);
            if ((hash >> 32) % c->parts == c->part && !table_add(&c->t, p, n, hash, blob))
                return 0;
        }
        p = stop;
    }
    return 1;
}

static void *count_lines(void *arg)
{
    count_part *c = arg;
    c->ok = 1;
    for (size_t f = 0; c->ok && f < c->file_count; f++)
        c->ok = add_lines(c, c->files[f].blob.raw.data, c->files[f].blob.raw.len, f);
    for (size_t m = 0; c->ok && m < c->map_count; m++) {
        const qgc_map_rec *map = &c->maps[m];
        if (map->slice_len)
            c->ok = add_lines(c, map->blob.raw.data, map->slice_len, c->file_count + m);
    }
    free(c->t.index);
    c->t.index = NULL;
    return NULL;
}

/* Runs every part, on threads of their own and this one; 0 when out of
 * memory. */
static int count_parts(count_part *parts, int n)
{
    pthread_t threads[MAX_PARTS];
    int started[MAX_PARTS] = {0}, ok = 1;
    for (int k = 1; k < n; k++)
        started[k] = pthread_create(&threads[k], NULL, count_lines, &parts[k]) == 0;
    count_lines(&parts[0]);
    for (int k = 1; k < n; k++) {
        if (started[k])
            pthread_join(threads[k], NULL);
        else
            count_lines(&parts[k]);
    }
    for (int k = 0; k < n; k++)
        ok = ok && parts[k].ok;
    return ok;
}

/* The lines found in enough blobs, from every part. */
static line_count *candidates(const count_part *parts, int n, size_t *count)
{
    size_t total = 0;
    for (int k = 0; k < n; k++)
        for (size_t i = 0; i < parts[k].t.count; i++)
            total += parts[k].t.lines[i].count >= MIN_COUNT;
    line_count *out = malloc((total + 1) * sizeof *out);
    *count = 0;
    for (int k = 0; out && k < n; k++)
        for (size_t i = 0; i < parts[k].t.count; i++)
            if (parts[k].t.lines[i].count >= MIN_COUNT)
                out[(*count)++] = parts[k].t.lines[i];
    return out;
}

qg_status qgc_build_dictionary(const qgc_file_rec *files, size_t file_count,
                               const qgc_map_rec *maps, size_t map_count, int jobs,
                               qg_buf *dict)
{
    int n = jobs < 1 ? 1 : jobs > MAX_PARTS ? MAX_PARTS : jobs;
    count_part parts[MAX_PARTS];
    memset(parts, 0, sizeof parts);
    for (int k = 0; k < n; k++)
        parts[k] = (count_part){files, file_count, maps, map_count, (uint64_t)k,
                                (uint64_t)n, {0}, 0};
    size_t count = 0;
    line_count *lines = count_parts(parts, n) ? candidates(parts, n, &count) : NULL;
    for (int k = 0; k < n; k++)
        free(parts[k].t.lines);
    if (!lines)
        return QG_ERR_NOMEM;
    qsort(lines, count, sizeof *lines, by_value);
    size_t chosen = 0, size = 0;
    for (size_t i = 0; i < count; i++)
        if (size + lines[i].len <= QGC_MAX_DICTIONARY) {
            size += lines[i].len;
            lines[chosen++] = lines[i];
        }
    for (size_t i = chosen; i-- > 0;)
        qg_buf_append(dict, lines[i].text, lines[i].len);
    free(lines);
    return dict->failed ? QG_ERR_NOMEM : QG_OK;
}

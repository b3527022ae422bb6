/* The preset dictionary: maps are compressed one by one so that any one
 * loads alone, and most are a few hundred bytes, too short for deflate to
 * learn the directive names and wall rows they share. Lines that recur
 * across the whole input, most valuable last (shortest distance), give
 * every blob that knowledge.
 *
 * The blob texts are on disk (the writer's scratch file), read once, file
 * after file; a line is known by its hash, its length and where it was
 * first seen, so the table does not hold the text. Only the lines that may
 * go in the dictionary are read back. A 64-bit hash stands for the text:
 * two lines that share one would only count together, which could make
 * the dictionary worse, never the cache wrong. */
#include "cache/pack.h"
#include "core/heap.h"

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
 * enough that filling its fresh pages cost more than the counting. Once
 * it holds max_lines, a line not in it is passed over, so its memory has
 * a bound whatever the corpus (QGC_DICTIONARY_MAX_LINES). */
typedef struct line_table {
    line_count *lines;
    size_t count, cap, max_lines;
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

static int table_init(line_table *t, size_t max_lines)
{
    memset(t, 0, sizeof *t);
    t->max_lines = max_lines;
    return index_grow(t);
}

/* Where the line is in the index, else the empty slot it would take. */
static size_t index_slot(const line_table *t, uint64_t hash, size_t len)
{
    size_t h = (size_t)hash & (t->index_cap - 1);
    for (; t->index[h]; h = (h + 1) & (t->index_cap - 1)) {
        const line_count *line = &t->lines[t->index[h] - 1];
        if (line->hash == hash && line->len == len)
            break;
    }
    return h;
}

/* Room for one more line: the array doubles, but never past the bound. */
static int lines_grow(line_table *t)
{
    size_t cap = t->cap ? t->cap * 2 : 8;
    if (cap > t->max_lines)
        cap = t->max_lines;
    line_count *lines = realloc(t->lines, cap * sizeof *lines);
    if (!lines)
        return 0;
    t->lines = lines;
    t->cap = cap;
    return 1;
}

static int table_add(line_table *t, uint64_t at, size_t len, uint64_t hash, uint32_t blob)
{
    size_t h = index_slot(t, hash, len);
    if (t->index[h]) {
        line_count *line = &t->lines[t->index[h] - 1];
        /* Within one blob deflate finds a repeat by itself. */
        if (line->last_blob != blob)
            line->count++;
        line->last_blob = blob;
        return 1;
    }
    if (t->count == t->max_lines)
        return 1;
    if ((t->count + 1) * 2 > t->index_cap) {
        if (!index_grow(t))
            return 0;
        h = index_slot(t, hash, len);
    }
    if (t->count == t->cap && !lines_grow(t))
        return 0;
    t->lines[t->count++] = (line_count){hash, at, (uint32_t)len, 1, blob};
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

/* Every blob's lines, the blobs of each span read from their heads front
 * to back. */
static int count_lines(window *w, const qgc_span *spans, size_t count, line_table *t)
{
    uint32_t blob = 0;
    for (size_t s = 0; s < count; s++) {
        uint64_t at = spans[s].at, end = spans[s].at + spans[s].len;
        if (end < at || end > w->file->size) {
            w->io_failed = 1;
            return 0;
        }
        for (; at < end; blob++) {
            if (end - at < QGC_TEXT_HEAD) {
                w->io_failed = 1;
                return 0;
            }
            const unsigned char *head = (const unsigned char *)window_get(w, at, QGC_TEXT_HEAD);
            if (!head)
                return 0;
            uint32_t len = qgc_load_u32(head), counted = qgc_load_u32(head + 4);
            at += QGC_TEXT_HEAD;
            if (counted > len || len > end - at) {
                w->io_failed = 1;
                return 0;
            }
            const char *text = counted ? window_get(w, at, counted) : "";
            if (!text || !add_lines(t, text, at, counted, blob))
                return 0;
            at += len;
        }
    }
    return 1;
}

/* The lines found in enough blobs (a line longer than the dictionary can
 * never be chosen), moved to the front of the table's array: *count of
 * them. */
static void keep_candidates(line_table *t, size_t *count)
{
    *count = 0;
    for (size_t i = 0; i < t->count; i++)
        if (t->lines[i].count >= MIN_COUNT && t->lines[i].len <= QGC_MAX_DICTIONARY)
            t->lines[(*count)++] = t->lines[i];
}

static uint64_t value(const line_count *l)
{
    return (uint64_t)l->count * l->len;
}

/* Most valuable first, then shortest; lines alike in both are ordered by
 * their text, which only the lines that may be chosen read back. */
static int by_value(const void *a, const void *b)
{
    const line_count *x = a, *y = b;
    if (value(x) != value(y))
        return value(x) > value(y) ? -1 : 1;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return (x->at > y->at) - (x->at < y->at);
}

/* A line of a group read back, for the order by text. */
typedef struct text_line {
    char *text;
    size_t len;
} text_line;

static int by_text(const void *a, const void *b)
{
    const text_line *x = a, *y = b;
    return memcmp(x->text, y->text, x->len);
}

/* Of the group lines[0..n) (alike in value and length), the fit whose
 * texts come first, appended to chosen in text order. Each text is read
 * once; at most fit of them are kept, in a heap whose root is the text
 * to drop first. */
static int choose_from_group(const qgc_spill *text, const line_count *lines, size_t n,
                             size_t fit, char *space, text_line *heap, qg_buf *chosen,
                             int *io_failed)
{
    size_t len = lines[0].len, kept = 0;
    char *scratch = space + fit * len;
    for (size_t i = 0; i < n; i++) {
        char *into = kept < fit ? space + kept * len : scratch;
        if (!qgc_spill_read(text, lines[i].at, into, len)) {
            *io_failed = 1;
            return 0;
        }
        if (kept < fit) {
            heap[kept] = (text_line){into, len};
            qg_heap_sift_up(heap, sizeof *heap, kept++, by_text);
        } else if (memcmp(into, heap[0].text, len) < 0) {
            memcpy(heap[0].text, into, len);
            qg_heap_sift_down(heap, sizeof *heap, kept, 0, by_text);
        }
    }
    qg_heap_sort(heap, sizeof *heap, kept, by_text);
    for (size_t i = 0; i < kept; i++)
        qg_buf_append(chosen, heap[i].text, len);
    return !chosen->failed;
}

/* The greedy choice: in order of value, each line that still fits. Lines
 * alike in value and length go in order of their text, so the group's
 * first (room / length) texts are the ones taken. The most valuable go
 * last in the dictionary (the shortest distance back). */
static qg_status choose(const qgc_spill *text, line_count *lines, size_t n, qg_buf *dict,
                        int *io_failed)
{
    enum { MOST = QGC_MAX_DICTIONARY / MIN_LEN };
    char *space = malloc(2 * QGC_MAX_DICTIONARY + 1);
    text_line *heap = malloc(MOST * sizeof *heap);
    size_t *ends = malloc((MOST + 1) * sizeof *ends);  /* where each chosen line ends */
    qg_buf chosen;
    qg_buf_init(&chosen);
    size_t size = 0, count = 0;
    int ok = space && heap && ends;
    for (size_t i = 0, j; ok && i < n; i = j) {
        for (j = i + 1; j < n && value(&lines[j]) == value(&lines[i]) &&
                        lines[j].len == lines[i].len; j++)
            ;
        size_t fit = (QGC_MAX_DICTIONARY - size) / lines[i].len;
        if (fit > j - i)
            fit = j - i;
        if (!fit)
            continue;
        ok = choose_from_group(text, &lines[i], j - i, fit, space, heap, &chosen, io_failed);
        for (size_t k = 0; k < fit; k++)
            ends[count++] = size + (k + 1) * lines[i].len;
        size += fit * lines[i].len;
    }
    for (size_t k = count; ok && k-- > 0;) {
        size_t start = k ? ends[k - 1] : 0;
        qg_buf_append(dict, chosen.data + start, ends[k] - start);
    }
    free(space);
    free(heap);
    free(ends);
    qg_buf_free(&chosen);
    if (!ok)
        return *io_failed ? QG_ERR_IO : QG_ERR_NOMEM;
    return dict->failed ? QG_ERR_NOMEM : QG_OK;
}

qg_status qgc_build_dictionary(const qgc_spill *text, const qgc_span *spans, size_t count,
                               qg_buf *dict)
{
    return qgc_build_dictionary_bounded(text, spans, count, QGC_DICTIONARY_MAX_LINES, dict, NULL);
}

qg_status qgc_build_dictionary_bounded(const qgc_spill *text, const qgc_span *spans,
                                       size_t count, size_t max_lines, qg_buf *dict,
                                       qgc_dictionary_table *held)
{
    line_table t;
    window w = {text, NULL, 0, 0, 0, 0};
    int counted = table_init(&t, max_lines) && count_lines(&w, spans, count, &t);
    if (held)
        *held = (qgc_dictionary_table){t.count, t.cap, t.index_cap};
    free(t.index);
    free(w.data);
    size_t n = 0;
    qg_status st = counted ? QG_OK : w.io_failed ? QG_ERR_IO : QG_ERR_NOMEM;
    if (st == QG_OK) {
        keep_candidates(&t, &n);
        /* in place: the candidates grow with the corpus (at four copies of
         * one every line is one), and qsort would take a copy of them */
        qg_sort_in_place(t.lines, sizeof *t.lines, n, by_value);
        st = choose(text, t.lines, n, dict, &w.io_failed);
    }
    free(t.lines);
    return st;
}

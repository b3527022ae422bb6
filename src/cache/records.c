#define _POSIX_C_SOURCE 200809L
#include "cache/records.h"
#include "cache/format.h"
#include "core/heap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A run's size bounds the memory of gathering and sorting it; the merge
 * holds one window a run, so a corpus of a million maps (some 800 runs)
 * merges in about 13 MB. */
enum { RUN_BYTES = QGC_RUN_BYTES, WINDOW = 16 * 1024 };

int qgc_records_open(qgc_records *r)
{
    memset(r, 0, sizeof *r);
    qg_buf_init(&r->run);
    return qgc_spill_open(&r->runs_file);
}

void qgc_records_close(qgc_records *r)
{
    qgc_spill_close(&r->runs_file);
    qg_buf_free(&r->run);
    free(r->runs);
    r->runs = NULL;
    r->run_count = r->run_cap = 0;
}

const char *qgc_record_name(const unsigned char *record, size_t len, uint64_t *place)
{
    qgc_cursor c;
    qgc_cursor_init(&c, record, len);
    size_t name_len;
    const char *name = qgc_get_str(&c, &name_len);
    qgc_get_bytes(&c, 1);
    *place = qgc_get_varint(&c);
    return c.bad ? "" : name;
}

/* What records are ordered by, read from a record once, not at every
 * comparison. */
typedef struct record_key {
    const char *name;
    uint64_t place;
} record_key;

static record_key key_of(const unsigned char *record, size_t len)
{
    record_key k;
    k.name = qgc_record_name(record, len, &k.place);
    return k;
}

static int key_order(const record_key *a, const record_key *b)
{
    int c = strcmp(a->name, b->name);
    return c ? c : (a->place > b->place) - (a->place < b->place);
}

/* A record with its frame (the length before it). */
typedef struct framed {
    record_key key;
    const unsigned char *frame;
    size_t frame_len;
} framed;

static int by_record(const void *x, const void *y)
{
    return key_order(&((const framed *)x)->key, &((const framed *)y)->key);
}

/* The frames of buf[0, len), in order: their count, or with out, each. */
static size_t split_frames(const unsigned char *buf, size_t len, framed *out)
{
    size_t n = 0;
    qgc_cursor c;
    qgc_cursor_init(&c, buf, len);
    while (!c.bad && c.p < c.end) {
        const unsigned char *frame = c.p;
        size_t body = (size_t)qgc_get_varint(&c);
        const unsigned char *record = qgc_get_bytes(&c, body);
        if (out && record)
            out[n] = (framed){key_of(record, body), frame, (size_t)(c.p - frame)};
        n += record != NULL;
    }
    return n;
}

/* Sorts the gathered run and appends it to the runs file. */
static int flush_run(qgc_records *r)
{
    if (!r->run.len)
        return 1;
    const unsigned char *buf = (const unsigned char *)r->run.data;
    size_t n = split_frames(buf, r->run.len, NULL);
    framed *order = malloc(n * sizeof *order);
    qgc_run *run = order ? QG_PUSH(r->runs, r->run_count, r->run_cap) : NULL;
    if (!run) {
        free(order);
        return 0;
    }
    split_frames(buf, r->run.len, order);
    qg_sort_in_place(order, sizeof *order, n, by_record);
    run->at = r->runs_file.size;
    for (size_t i = 0; i < n; i++)
        qgc_spill_append(&r->runs_file, order[i].frame, order[i].frame_len);
    run->len = r->runs_file.size - run->at;
    free(order);
    if (r->run.cap > RUN_BYTES) {
        qg_buf_free(&r->run);
        qg_buf_init(&r->run);
    } else {
        qg_buf_reset(&r->run);
    }
    return r->runs_file.err == 0;
}

int qgc_records_add(qgc_records *r, const qg_buf *record)
{
    unsigned char frame[QGC_VARINT_MAX];
    size_t framed_len = qgc_encode_varint(frame, record->len) + record->len;
    if (r->run.len && framed_len + 1 > RUN_BYTES - r->run.len && !flush_run(r))
        return 0;
    qgc_put_bytes(&r->run, record->data ? record->data : "", record->len);
    if (r->run.failed)
        return 0;
    return r->run.len < RUN_BYTES || flush_run(r);
}

/* ---- reading ---- */

void qgc_record_reader_init(qgc_record_reader *rd, const qgc_spill *file, uint64_t at,
                            uint64_t len)
{
    memset(rd, 0, sizeof *rd);
    rd->file = file;
    rd->next = at;
    rd->end = at + len;
}

void qgc_record_reader_free(qgc_record_reader *rd)
{
    free(rd->window);
    rd->window = NULL;
}

/* At least need unread bytes in the window, or all that are left. */
static int fill(qgc_record_reader *rd, size_t need)
{
    size_t have = rd->len - rd->start;
    if (have >= need || rd->next == rd->end)
        return 1;
    size_t want = need > WINDOW ? need : WINDOW;
    if (want > rd->cap) {
        unsigned char *grown = realloc(rd->window, want);
        if (!grown) {
            rd->failed = ENOMEM;
            return 0;
        }
        rd->window = grown;
        rd->cap = want;
    }
    memmove(rd->window, rd->window + rd->start, have);
    rd->start = 0;
    rd->len = have;
    uint64_t left = rd->end - rd->next;
    size_t n = rd->cap - have < left ? rd->cap - have : (size_t)left;
    if (!qgc_spill_read(rd->file, rd->next, rd->window + have, n)) {
        rd->failed = errno ? errno : EIO;
        return 0;
    }
    rd->next += n;
    rd->len += n;
    return 1;
}

int qgc_record_next(qgc_record_reader *rd, const unsigned char **record, size_t *len)
{
    if (rd->failed || !fill(rd, QGC_VARINT_MAX) || rd->start == rd->len)
        return 0;
    qgc_cursor c;
    qgc_cursor_init(&c, rd->window + rd->start, rd->len - rd->start);
    uint64_t body = qgc_get_varint(&c);
    size_t head = (size_t)(c.p - (rd->window + rd->start));
    if (c.bad || body > SIZE_MAX / 2) {
        rd->failed = EINVAL;
        return 0;
    }
    if (!fill(rd, head + (size_t)body))
        return 0;
    if (rd->len - rd->start < head + body) {
        rd->failed = EINVAL;
        return 0;
    }
    *record = rd->window + rd->start + head;
    *len = (size_t)body;
    rd->start += head + (size_t)body;
    return 1;
}

/* ---- merging ---- */

void qgc_record_append(qgc_spill *file, const void *record, size_t len)
{
    unsigned char head[QGC_VARINT_MAX];
    qgc_spill_append(file, head, qgc_encode_varint(head, len));
    qgc_spill_append(file, record, len);
}

typedef struct source {
    qgc_record_reader rd;
    const unsigned char *record;
    size_t len;
    record_key key;
} source;

/* The source's next record: 1; 0 at the end or on failure. */
static int source_next(source *s)
{
    if (!qgc_record_next(&s->rd, &s->record, &s->len))
        return 0;
    s->key = key_of(s->record, s->len);
    return 1;
}

/* The heap of sources keeps the one whose record comes first at its
 * root: its order is the records' turned round. */
static int later_record(const void *a, const void *b)
{
    const source *x = *(source *const *)a, *y = *(source *const *)b;
    return key_order(&y->key, &x->key);
}

static int merge_sources(source **heap, size_t n, qgc_spill *out, qgc_record_fn each,
                         void *user)
{
    qg_heap_make(heap, sizeof *heap, n, later_record);
    while (n > 0 && !out->err) {
        source *top = heap[0];
        qgc_record_append(out, top->record, top->len);
        if (each)
            each(user, top->record, top->len);
        if (!source_next(top)) {
            if (top->rd.failed) {
                errno = top->rd.failed;
                return 0;
            }
            heap[0] = heap[--n];
        }
        qg_heap_sift_down(heap, sizeof *heap, n, 0, later_record);
    }
    if (!qgc_spill_flush(out)) {
        errno = out->err;
        return 0;
    }
    return 1;
}

/* Readers on every run, each at its first record, in heap[0..*n). */
static int open_sources(qgc_records *r, source *s, source **heap, size_t *n)
{
    *n = 0;
    for (size_t i = 0; i < r->run_count; i++) {
        qgc_record_reader_init(&s[i].rd, &r->runs_file, r->runs[i].at, r->runs[i].len);
        if (source_next(&s[i]))
            heap[(*n)++] = &s[i];
        else if (s[i].rd.failed) {
            errno = s[i].rd.failed;
            return 0;
        }
    }
    return 1;
}

int qgc_records_merge(qgc_records *r, qgc_spill *out, qgc_record_fn each, void *user)
{
    if (!flush_run(r) || !qgc_spill_flush(&r->runs_file)) {
        errno = r->runs_file.err ? r->runs_file.err : ENOMEM;
        return 0;
    }
    size_t k = r->run_count, n;
    source *s = calloc(k + 1, sizeof *s);
    source **heap = malloc((k + 1) * sizeof *heap);
    int ok = s && heap;
    if (!ok)
        errno = ENOMEM;
    ok = ok && open_sources(r, s, heap, &n) && merge_sources(heap, n, out, each, user);
    int err = errno;
    for (size_t i = 0; s && i < k; i++)
        qgc_record_reader_free(&s[i].rd);
    free(s);
    free(heap);
    errno = err;
    return ok;
}

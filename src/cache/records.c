#define _POSIX_C_SOURCE 200809L
#include "cache/records.h"
#include "cache/format.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A run's size bounds the memory of gathering and sorting it; the merge
 * holds one window a run, so a corpus of a million maps (some 800 runs)
 * merges in about 13 MB. */
enum { RUN_BYTES = 256 * 1024, WINDOW = 16 * 1024, MAX_FRAME_HEAD = 10 };

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

/* A record with its frame (the length before it). */
typedef struct framed {
    const unsigned char *frame;
    size_t frame_len;
    const unsigned char *record;
    size_t len;
} framed;

static int record_order(const unsigned char *a, size_t a_len, const unsigned char *b,
                        size_t b_len)
{
    uint64_t a_place, b_place;
    const char *a_name = qgc_record_name(a, a_len, &a_place);
    int c = strcmp(a_name, qgc_record_name(b, b_len, &b_place));
    return c ? c : (a_place > b_place) - (a_place < b_place);
}

static int by_record(const void *x, const void *y)
{
    const framed *a = x, *b = y;
    return record_order(a->record, a->len, b->record, b->len);
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
            out[n] = (framed){frame, (size_t)(c.p - frame), record, body};
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
    qsort(order, n, sizeof *order, by_record);
    run->at = r->runs_file.size;
    for (size_t i = 0; i < n; i++)
        qgc_spill_append(&r->runs_file, order[i].frame, order[i].frame_len);
    run->len = r->runs_file.size - run->at;
    free(order);
    qg_buf_reset(&r->run);
    return r->runs_file.err == 0;
}

int qgc_records_add(qgc_records *r, const qg_buf *record)
{
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
    if (rd->failed || !fill(rd, MAX_FRAME_HEAD) || rd->start == rd->len)
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

typedef struct source {
    qgc_record_reader rd;
    const unsigned char *record;
    size_t len;
} source;

static int before(const source *s, size_t a, size_t b)
{
    return record_order(s[a].record, s[a].len, s[b].record, s[b].len) < 0;
}

/* A min-heap of the sources by their current record. */
static void sift_down(const source *s, size_t *heap, size_t n, size_t i)
{
    for (;;) {
        size_t least = i, l = 2 * i + 1, r = l + 1;
        if (l < n && before(s, heap[l], heap[least]))
            least = l;
        if (r < n && before(s, heap[r], heap[least]))
            least = r;
        if (least == i)
            return;
        size_t t = heap[i];
        heap[i] = heap[least];
        heap[least] = t;
        i = least;
    }
}

static int merge_sources(source *s, size_t *heap, size_t n, qgc_spill *out,
                         qgc_record_fn each, void *user)
{
    for (size_t i = n / 2; i-- > 0;)
        sift_down(s, heap, n, i);
    qg_buf frame;
    qg_buf_init(&frame);
    while (n > 0 && !out->err && !frame.failed) {
        source *top = &s[heap[0]];
        qg_buf_reset(&frame);
        qgc_put_bytes(&frame, top->record, top->len);
        qgc_spill_append(out, frame.data, frame.len);
        if (each)
            each(user, top->record, top->len);
        if (!qgc_record_next(&top->rd, &top->record, &top->len)) {
            if (top->rd.failed)
                break;
            heap[0] = heap[--n];
        }
        sift_down(s, heap, n, 0);
    }
    int ok = n == 0 && !out->err && !frame.failed;
    if (frame.failed)
        errno = ENOMEM;
    qg_buf_free(&frame);
    return ok;
}

int qgc_records_merge(qgc_records *r, qgc_spill *out, qgc_record_fn each, void *user)
{
    if (!flush_run(r) || !qgc_spill_flush(&r->runs_file))
        return 0;
    size_t k = r->run_count, n = 0;
    source *s = calloc(k + 1, sizeof *s);
    size_t *heap = malloc((k + 1) * sizeof *heap);
    int ok = s && heap;
    for (size_t i = 0; ok && i < k; i++) {
        qgc_record_reader_init(&s[i].rd, &r->runs_file, r->runs[i].at, r->runs[i].len);
        if (qgc_record_next(&s[i].rd, &s[i].record, &s[i].len))
            heap[n++] = i;
        ok = !s[i].rd.failed;
    }
    if (ok)
        ok = merge_sources(s, heap, n, out, each, user);
    int err = ok ? 0 : !s || !heap ? ENOMEM : errno;
    for (size_t i = 0; s && i < k; i++) {
        if (s[i].rd.failed)
            err = s[i].rd.failed;
        qgc_record_reader_free(&s[i].rd);
    }
    free(s);
    free(heap);
    errno = err;
    return ok;
}

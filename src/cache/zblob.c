#include "cache/zblob.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Level 4: with the preset dictionary, most of a blob's matches are found
 * in the first few links of a hash chain. On Crawl's corpus it gives 3%
 * more bytes than level 6 in two thirds of the time. */
static int init_stream(z_stream *z)
{
    return deflateInit2(z, 4, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK;
}

void qgc_deflater_init(qgc_deflater *d)
{
    memset(d, 0, sizeof *d);
    d->ready = init_stream(&d->z);
}

void qgc_deflater_end(qgc_deflater *d)
{
    if (d->ready)
        deflateEnd(&d->z);
    if (d->primed_ready)
        deflateEnd(&d->primed);
    d->ready = 0;
    d->primed_ready = 0;
}

/* Makes d->z a fresh stream with the dictionary loaded. */
static int start_with_dict(qgc_deflater *d, const void *dict, size_t dict_len)
{
    if (!d->primed_ready || d->primed_dict != dict || d->primed_len != dict_len) {
        if (d->primed_ready)
            deflateEnd(&d->primed);
        d->primed_ready = init_stream(&d->primed);
        if (!d->primed_ready ||
            deflateSetDictionary(&d->primed, dict, (uInt)dict_len) != Z_OK)
            return 0;
        d->primed_dict = dict;
        d->primed_len = dict_len;
    }
    if (d->ready)
        deflateEnd(&d->z);
    d->ready = deflateCopy(&d->z, &d->primed) == Z_OK;
    return d->ready;
}

qg_status qgc_deflater_run(qgc_deflater *d, const void *data, size_t len,
                           const void *dict, size_t dict_len, qg_buf *out)
{
    if (len > UINT_MAX || dict_len > UINT_MAX)
        return QG_ERR_LIMIT;
    if (dict_len ? !start_with_dict(d, dict, dict_len)
                 : !d->ready || deflateReset(&d->z) != Z_OK)
        return QG_ERR_NOMEM;
    uLong bound = deflateBound(&d->z, (uLong)len);
    if (!qg_buf_reserve(out, bound))
        return QG_ERR_NOMEM;
    d->z.next_in = (Bytef *)(uintptr_t)data;
    d->z.avail_in = (uInt)len;
    d->z.next_out = (Bytef *)out->data + out->len;
    d->z.avail_out = (uInt)bound;
    int rc = deflate(&d->z, Z_FINISH);
    out->len += bound - d->z.avail_out;
    out->data[out->len] = '\0';
    return rc == Z_STREAM_END ? QG_OK : QG_ERR_NOMEM;
}

qg_status qgc_deflate(const void *data, size_t len, const void *dict,
                      size_t dict_len, qg_buf *out)
{
    qgc_deflater d;
    qgc_deflater_init(&d);
    qg_status st = qgc_deflater_run(&d, data, len, dict, dict_len, out);
    qgc_deflater_end(&d);
    return st;
}

enum { PIECE = QGC_PIECE, WINDOW = QGC_PIECE_WINDOW };

/* Appends to out the piece of n bytes at data, with the back bytes before
 * it as its dictionary, ended on a byte boundary or, when last, ending
 * the stream. */
static int deflate_span(const unsigned char *data, size_t back, size_t n, int last,
                        qg_buf *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return 0;
    uLong bound = deflateBound(&z, (uLong)n) + 16;
    int ok = (!back || deflateSetDictionary(&z, data - back, (uInt)back) == Z_OK) &&
             qg_buf_reserve(out, bound);
    if (ok) {
        z.next_in = (Bytef *)(uintptr_t)data;
        z.avail_in = (uInt)n;
        z.next_out = (Bytef *)out->data + out->len;
        z.avail_out = (uInt)bound;
        int rc = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
        ok = last ? rc == Z_STREAM_END : rc == Z_OK && z.avail_in == 0 && z.avail_out > 0;
        out->len += bound - z.avail_out;
    }
    deflateEnd(&z);
    return ok;
}

void qgc_piece_stream_init(qgc_piece_stream *s, qg_buf *out)
{
    memset(s, 0, sizeof *s);
    qg_buf_init(&s->raw);
    s->out = out;
}

/* The prior's compressed bytes of the piece of n bytes about to be
 * compressed (the window before it in s->raw), when they are its bytes;
 * else NULL. */
static const unsigned char *prior_piece(const qgc_piece_stream *s, size_t n, int last,
                                        size_t *z_len)
{
    const qgc_piece_prior *p = s->prior;
    size_t k = s->pieces;
    if (!p || k >= p->count || (k + 1 == p->count) != last)
        return NULL;
    uint64_t at = (uint64_t)k * PIECE;
    if ((last ? p->raw_len - at : PIECE) != n ||
        (s->window + n && memcmp(p->raw + at - s->window, s->raw.data, s->window + n) != 0))
        return NULL;
    *z_len = p->starts[k + 1] - p->starts[k];
    return p->z + p->starts[k];
}

/* Appends the piece of n bytes after the window, copied from the prior
 * or compressed. */
static int put_piece(qgc_piece_stream *s, size_t n, int last)
{
    const unsigned char *raw = (const unsigned char *)(s->raw.data ? s->raw.data : "");
    size_t z_len;
    const unsigned char *same = prior_piece(s, n, last, &z_len);
    int ok = same ? qg_buf_append(s->out, same, z_len)
                  : deflate_span(raw + s->window, s->window, n, last, s->out);
    s->pieces++;
    return ok;
}

/* Compresses the pending bytes' first piece, not the last one, and keeps
 * its last WINDOW bytes as the next one's dictionary. */
static int stream_piece(qgc_piece_stream *s)
{
    if (!put_piece(s, PIECE, 0))
        return 0;
    size_t keep = s->raw.len - s->window - PIECE + WINDOW;
    memmove(s->raw.data, s->raw.data + s->raw.len - keep, keep);
    s->raw.len = keep;
    s->window = WINDOW;
    return 1;
}

void qgc_piece_stream_use_prior(qgc_piece_stream *s, const qgc_piece_prior *p)
{
    s->prior = p;
}

int qgc_piece_stream_take(qgc_piece_stream *s, qg_buf *b)
{
    s->failed |= b->failed || !qg_buf_append(&s->raw, b->data ? b->data : "", b->len);
    s->total += b->len;
    qg_buf_reset(b);
    while (!s->failed && s->raw.len - s->window > PIECE)
        s->failed = !stream_piece(s);
    return !s->failed;
}

qg_status qgc_piece_stream_finish(qgc_piece_stream *s)
{
    if (s->total > UINT_MAX) {
        qg_buf_free(&s->raw);
        return QG_ERR_LIMIT;
    }
    s->failed |= !s->failed && !put_piece(s, s->raw.len - s->window, 1);
    qg_buf_free(&s->raw);
    return s->failed || s->out->failed ? QG_ERR_NOMEM : QG_OK;
}

void qgc_piece_stream_drop(qgc_piece_stream *s)
{
    qg_buf_free(&s->raw);
}

/* A piece other than the last ends with an empty stored block after its
 * data (Z_SYNC_FLUSH): inflated a block at a time, the stream reaches
 * where the next piece starts in its data at the end of a block, and the
 * next block that ends there, on a byte boundary, is that empty one. The
 * n pieces from the one at raw_at on: where each starts in z. */
static int find_starts(const void *z, size_t z_len, uint64_t raw_at, size_t n, size_t *starts)
{
    if (raw_at % PIECE || z_len > UINT_MAX)
        return 0;
    z_stream s;
    memset(&s, 0, sizeof s);
    if (inflateInit2(&s, -15) != Z_OK)
        return 0;
    unsigned char sink[16384];
    s.next_in = (Bytef *)(uintptr_t)z;
    s.avail_in = (uInt)z_len;
    int ends_there = 0;
    size_t found = 0;
    while (found < n) {
        uint64_t left = raw_at - s.total_out;
        s.next_out = sink;
        s.avail_out = left < sizeof sink ? (uInt)left : (uInt)sizeof sink;
        if (inflate(&s, Z_BLOCK) != Z_OK || s.total_out > raw_at)
            break;            /* the end, no way on (not a boundary), or past it */
        if (!(s.data_type & 128) || s.total_out != raw_at)
            continue;
        if (s.data_type & 64)
            break;            /* the last block: raw_at is the data's end */
        if (ends_there && (s.data_type & 7) == 0) {
            starts[found++] = s.total_in;
            raw_at += PIECE;
            ends_there = 0;
        } else {
            ends_there = 1;
        }
    }
    inflateEnd(&s);
    return found == n;
}

int qgc_piece_start(const void *z, size_t z_len, uint64_t raw_at, size_t *z_at)
{
    return find_starts(z, z_len, raw_at, 1, z_at);
}

int qgc_piece_prior_init(qgc_piece_prior *p, const unsigned char *raw, uint64_t raw_len,
                         const unsigned char *z, size_t z_len)
{
    memset(p, 0, sizeof *p);
    size_t count = raw_len ? (size_t)((raw_len + PIECE - 1) / PIECE) : 1;
    size_t *starts = malloc((count + 1) * sizeof *starts);
    if (!starts)
        return 0;
    starts[0] = 0;
    starts[count] = z_len;
    if (count > 1 && !find_starts(z, z_len, PIECE, count - 1, starts + 1)) {
        free(starts);
        return 0;
    }
    *p = (qgc_piece_prior){raw, raw_len, z, starts, count};
    return 1;
}

void qgc_piece_prior_free(qgc_piece_prior *p)
{
    free(p->starts);
    memset(p, 0, sizeof *p);
}

void qgc_inflater_init(qgc_inflater *inf)
{
    memset(inf, 0, sizeof *inf);
}

void qgc_inflater_end(qgc_inflater *inf)
{
    if (inf->ready)
        inflateEnd(&inf->z);
    inf->ready = 0;
}

int qgc_inflate(const void *src, size_t src_len, const void *dict,
                size_t dict_len, void *out, size_t raw_len)
{
    qgc_inflater inf;
    qgc_inflater_init(&inf);
    int ok = qgc_inflater_run(&inf, src, src_len, dict, dict_len, out, raw_len);
    qgc_inflater_end(&inf);
    return ok;
}

int qgc_inflater_run(qgc_inflater *inf, const void *src, size_t src_len, const void *dict,
                     size_t dict_len, void *out, size_t raw_len)
{
    if (src_len > UINT_MAX || raw_len > UINT_MAX || dict_len > UINT_MAX)
        return 0;
    z_stream *z = &inf->z;
    if (inf->ready && inflateReset(z) != Z_OK)
        qgc_inflater_end(inf);
    if (!inf->ready)
        inf->ready = inflateInit2(z, -15) == Z_OK;
    if (!inf->ready || (dict_len && inflateSetDictionary(z, dict, (uInt)dict_len) != Z_OK))
        return 0;
    z->next_in = (Bytef *)(uintptr_t)src;
    z->avail_in = (uInt)src_len;
    z->next_out = out;
    z->avail_out = (uInt)raw_len;
    int rc = inflate(z, Z_FINISH);
    if (rc != Z_STREAM_END && z->avail_out == 0) {
        /* The output is full: the stream may only end, never add a byte. */
        unsigned char spare;
        z->next_out = &spare;
        z->avail_out = 1;
        rc = inflate(z, Z_FINISH);
        if (z->avail_out == 0)
            rc = Z_DATA_ERROR;
    }
    return rc == Z_STREAM_END && z->total_out == raw_len && z->avail_in == 0;
}

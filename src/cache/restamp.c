/* The cache written over, written again as a compile that reuses every
 * one of its files, in its order, writes it: the same bytes but for the
 * files' mtimes (a touched file). Neither its blobs nor its maps' part of
 * the index change, so they are copied; only the files' records are made
 * again and the index compressed, as the writer compresses it. */
#include "cache/previous.h"
#include "cache/write.h"
#include "cache/zblob.h"
#include "core/file.h"

#include <stdlib.h>
#include <string.h>

typedef struct restamped {
    unsigned char head[QGC_HEADER_SIZE];
    qg_buf zindex;
    const unsigned char *blobs;
    uint64_t blob_bytes;
} restamped;

static int fill(int fd, void *user)
{
    const restamped *r = user;
    return qg_write_all(fd, r->head, sizeof r->head) &&
           qg_write_all(fd, r->zindex.data, r->zindex.len) &&
           qg_write_all(fd, r->blobs, (size_t)r->blob_bytes);
}

/* The index with the files' records made from the stamps; *files_len
 * the length of its part before the maps. */
static qg_status index_of(const qg_cache *c, const qg_cache_file *stamps, qg_buf *raw,
                          size_t *files_len)
{
    qgc_put_u64(raw, c->environment);
    qgc_put_varint(raw, c->header.file_count);
    for (size_t i = 0; i < c->header.file_count; i++) {
        const qg_cache_file *f = &c->files[i];
        const qgc_blob_ref *b = &c->file_blobs[i];
        qgc_file_meta meta = {f->path, f->format, f->size, stamps[i].mtime_sec,
                              stamps[i].mtime_nsec, f->hash, f->map_count, c->reuse[i]};
        qgc_put_file_record(raw, &meta, b->size, b->raw_size, b->crc);
    }
    *files_len = raw->len;
    qg_buf_append(raw, c->index + c->maps_at, c->header.index_raw_size - c->maps_at);
    return raw->failed ? QG_ERR_NOMEM : QG_OK;
}

/* The index compressed as the writer compresses it, into z. The pieces
 * (zblob.h) past the reach of the files' records, when these take the
 * bytes they took, are the cache's own, byte for byte: only the pieces
 * before them are compressed again. */
static qg_status compress_index(const qg_cache *c, size_t files_len, qg_buf *raw, qg_buf *z)
{
    uint64_t from = ((uint64_t)files_len + QGC_PIECE_WINDOW + QGC_PIECE - 1) / QGC_PIECE *
                    QGC_PIECE;
    size_t z_at = 0;
    int copy = files_len == c->maps_at && from < raw->len &&
               qgc_piece_start(c->data + QGC_HEADER_SIZE, c->header.index_size, from, &z_at);
    qgc_piece_stream s;
    qgc_piece_stream_init(&s, z);
    if (!copy) {
        int taken = qgc_piece_stream_take(&s, raw);
        qg_status st = qgc_piece_stream_finish(&s);
        return taken ? st : QG_ERR_NOMEM;
    }
    /* one byte past the pieces, so that the last of them ends as one
     * that is not the stream's last */
    raw->len = (size_t)from + 1;
    int taken = qgc_piece_stream_take(&s, raw);
    qgc_piece_stream_drop(&s);
    qg_buf_append(z, c->data + QGC_HEADER_SIZE + z_at, c->header.index_size - z_at);
    return taken && !z->failed ? QG_OK : QG_ERR_NOMEM;
}

qg_status qgc_previous_restamp(const qgc_previous *p, const qg_cache_file *stamps,
                               const char *path, const qgc_write_how *how,
                               qg_diags *diags)
{
    const qg_cache *c = p->cache;
    restamped r;
    memset(&r, 0, sizeof r);
    qg_buf raw;
    qg_buf_init(&raw);
    qg_buf_init(&r.zindex);
    size_t files_len = 0;
    qg_status st = index_of(c, stamps, &raw, &files_len);
    uint64_t raw_size = raw.len;
    if (st == QG_OK)
        st = compress_index(c, files_len, &raw, &r.zindex);
    if (st == QG_OK && (raw_size > QGC_MAX_INDEX_RAW || r.zindex.len > UINT32_MAX))
        st = QG_ERR_LIMIT;
    if (st == QG_OK) {
        r.blobs = c->data + c->header.blobs_offset;
        r.blob_bytes = c->header.file_size - c->header.blobs_offset;
        qgc_header h;
        qgc_header_make(&h, c->header.file_count, c->header.map_count, r.zindex.len, raw_size,
                        qgc_crc32(r.zindex.data, r.zindex.len), r.blob_bytes);
        qgc_header_encode(&h, r.head);
        st = qgc_write_verified(path, fill, &r, how, diags);
    } else {
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, st == QG_ERR_LIMIT
                     ? "the cache index is too large" : "out of memory");
    }
    qg_buf_free(&raw);
    qg_buf_free(&r.zindex);
    return st;
}

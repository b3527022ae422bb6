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

/* The index with the files' records made from the stamps. */
static qg_status index_of(const qg_cache *c, const qg_cache_file *stamps, qg_buf *raw)
{
    qgc_put_u64(raw, c->environment);
    qgc_put_varint(raw, c->header.file_count);
    for (size_t i = 0; i < c->header.file_count; i++) {
        const qg_cache_file *f = &c->files[i];
        const qgc_blob_ref *b = &c->file_blobs[i];
        qgc_file_fields fields = {f->path, f->format, f->size, stamps[i].mtime_sec,
                                  stamps[i].mtime_nsec, f->hash, f->map_count, b->size,
                                  b->raw_size, b->crc, c->reuse[i]};
        qgc_put_file_record(raw, &fields);
    }
    qg_buf_append(raw, c->index + c->maps_at, c->header.index_raw_size - c->maps_at);
    return raw->failed ? QG_ERR_NOMEM : QG_OK;
}

qg_status qgc_previous_restamp(const qgc_previous *p, const qg_cache_file *stamps,
                               const char *path, volatile sig_atomic_t *cancel,
                               qg_diags *diags)
{
    const qg_cache *c = p->cache;
    restamped r;
    memset(&r, 0, sizeof r);
    qg_buf raw;
    qg_buf_init(&raw);
    qg_buf_init(&r.zindex);
    qgc_piece_stream z;
    qgc_piece_stream_init(&z, &r.zindex);
    qg_status st = index_of(c, stamps, &raw);
    if (st == QG_OK && !qgc_piece_stream_take(&z, &raw))
        st = QG_ERR_NOMEM;
    uint64_t raw_size = z.total;
    qg_status finished = qgc_piece_stream_finish(&z);
    if (st == QG_OK)
        st = finished;
    if (st == QG_OK && (raw_size > QGC_MAX_INDEX_RAW || r.zindex.len > UINT32_MAX))
        st = QG_ERR_LIMIT;
    if (st == QG_OK) {
        r.blobs = c->data + c->header.blobs_offset;
        r.blob_bytes = c->header.file_size - c->header.blobs_offset;
        qgc_header h;
        qgc_header_make(&h, c->header.file_count, c->header.map_count, r.zindex.len, raw_size,
                        qgc_crc32(r.zindex.data, r.zindex.len), r.blob_bytes);
        qgc_header_encode(&h, r.head);
        st = qgc_write_verified(path, fill, &r, cancel, diags);
    } else {
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, st == QG_ERR_LIMIT
                     ? "the cache index is too large" : "out of memory");
    }
    qg_buf_free(&raw);
    qg_buf_free(&r.zindex);
    return st;
}

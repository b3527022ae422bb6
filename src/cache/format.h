/* The .qgc layout (doc/qgc-format.md) and the little-endian codec every
 * reader and writer of it shares. A cursor never reads past its end: once
 * a read would overrun, the cursor is marked bad and every later read
 * yields zero, so a decoder checks `bad` once at the end. */
#ifndef QG_CACHE_FORMAT_H
#define QG_CACHE_FORMAT_H

#include "questgrid/cache.h"
#include "core/buf.h"

#include <stdint.h>

#define QGC_MAGIC "\x89QGC\r\n\x1a\n"
#define QGC_MAGIC_LEN 8
#define QGC_HEADER_SIZE 64u
/* What questgrid's compile makes of a source file: raise it with any
 * change that gives a file other index fields or blobs, so that no cache
 * compiled before has its entries reused (src/cache/environment.c). */
#define QGC_COMPILE_REVISION 1u
/* The oldest format a reader reads: version 2 lacks what a compile reuses
 * files by, so a compile over it compiles every file again. */
#define QGC_OLDEST_VERSION 2u

/* Limits a reader enforces before allocating anything. */
#define QGC_MAX_BLOB_RAW (64u * 1024u * 1024u)
#define QGC_MAX_INDEX_RAW (256u * 1024u * 1024u)
#define QGC_MAX_DICTIONARY 32768u
#define QGC_MAX_NAME 1024u
/* deflate cannot expand data by more than about 1032:1. */
#define QGC_MAX_RATIO 1032u

/* How a map blob stores its rows. */
#define QGC_ROWS_LISTED 0
#define QGC_ROWS_PLAIN 1

/* Property keys stored as one byte in a blob: code = position + 1. */
#define QGC_KEY_COUNT 12
extern const char *const qgc_known_keys[QGC_KEY_COUNT];

typedef struct qgc_header {
    uint32_t format_version;
    uint32_t questgrid_version;
    uint32_t lua_version;
    uint32_t header_size;
    uint32_t file_count;
    uint32_t map_count;
    uint64_t file_size;
    uint64_t blobs_offset;
    uint32_t index_size;
    uint32_t index_raw_size;
    uint32_t index_crc;
    uint32_t header_crc;
} qgc_header;

/* What a compile may reuse a file's entries by (doc/qgc-format.md): the
 * hash of what its compile depended on besides its own text (0: compile
 * it whenever the cache is compiled again), its global prelude's hash (0:
 * none) and the scanner states it started and ended in. */
typedef struct qgc_reuse {
    uint64_t key;
    uint64_t prelude;
    int start_state, end_state;
} qgc_reuse;

void qgc_header_encode(const qgc_header *h, unsigned char out[QGC_HEADER_SIZE]);
/* The header of a cache this questgrid writes: its counts, its compressed
 * index (size, inflated size, CRC) and its blob bytes. */
void qgc_header_make(qgc_header *h, size_t files, size_t maps, uint64_t index_size,
                     uint64_t index_raw_size, uint32_t index_crc, uint64_t blob_bytes);
/* Decodes and checks magic, header CRC, version and sizes; the message
 * describing the first problem goes to *why. */
int qgc_header_decode(const unsigned char *data, size_t len, qgc_header *h,
                      const char **why);

/* ---- writing ---- */
#define QGC_VARINT_MAX 10
/* v as a varint in out; its length. */
size_t qgc_encode_varint(unsigned char out[QGC_VARINT_MAX], uint64_t v);
void qgc_put_u32(qg_buf *b, uint32_t v);
void qgc_put_u64(qg_buf *b, uint64_t v);
void qgc_put_varint(qg_buf *b, uint64_t v);
void qgc_put_svarint(qg_buf *b, int64_t v);
void qgc_put_bytes(qg_buf *b, const void *data, size_t len);
void qgc_put_str(qg_buf *b, const char *s);
/* A string followed by a NUL byte, so a reader can point at it in place. */
void qgc_put_cstr(qg_buf *b, const char *s);
void qgc_store_u32(unsigned char *p, uint32_t v);
void qgc_store_u64(unsigned char *p, uint64_t v);

/* A source file as the index records it, but for its context blob
 * (doc/qgc-format.md, "Index"). Whoever holds one made by strdup frees
 * its path. */
typedef struct qgc_file_meta {
    const char *path;
    qg_format format;
    uint64_t size;
    int64_t mtime_sec;
    long mtime_nsec;
    uint64_t hash;
    size_t map_count;
    qgc_reuse reuse;
} qgc_file_meta;

/* The file's record, with its context blob's reference. */
void qgc_put_file_record(qg_buf *b, const qgc_file_meta *f, uint32_t z_len, uint32_t raw_len,
                         uint32_t crc);

/* ---- hashing ---- */
/* FNV-1a 64 (qg_cache_hash) over data, continuing from h; a hash starts
 * at QGC_HASH_START. */
#define QGC_HASH_START 0xcbf29ce484222325ull
uint64_t qgc_hash_more(uint64_t h, const void *data, size_t len);
/* The same over v's eight bytes, little-endian. */
uint64_t qgc_hash_u64(uint64_t h, uint64_t v);

/* ---- reading ---- */
typedef struct qgc_cursor {
    const unsigned char *p;
    const unsigned char *end;
    int bad;
} qgc_cursor;

void qgc_cursor_init(qgc_cursor *c, const void *data, size_t len);
uint32_t qgc_get_u32(qgc_cursor *c);
uint64_t qgc_get_u64(qgc_cursor *c);
/* Any varint; the one-byte kind (nearly every one an index holds) is
 * read inline. */
uint64_t qgc_get_long_varint(qgc_cursor *c);
static inline uint64_t qgc_get_varint(qgc_cursor *c)
{
    if (!c->bad && c->p < c->end && *c->p < 0x80)
        return *c->p++;
    return qgc_get_long_varint(c);
}

static inline int64_t qgc_get_svarint(qgc_cursor *c)
{
    uint64_t u = qgc_get_varint(c);
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* A varint that must be at most max; larger marks the cursor bad. */
static inline uint64_t qgc_get_varint_max(qgc_cursor *c, uint64_t max)
{
    uint64_t v = qgc_get_varint(c);
    if (v > max) {
        c->bad = 1;
        return 0;
    }
    return v;
}

/* len bytes in place (NULL and bad when fewer remain). */
static inline const unsigned char *qgc_get_bytes(qgc_cursor *c, size_t len)
{
    if (c->bad || (size_t)(c->end - c->p) < len) {
        c->bad = 1;
        return NULL;
    }
    const unsigned char *p = c->p;
    c->p += len;
    return p;
}

/* A length-prefixed string in place; *len gets its length. */
static inline const char *qgc_get_str(qgc_cursor *c, size_t *len)
{
    size_t n = (size_t)qgc_get_varint_max(c, (uint64_t)(c->end - c->p));
    const char *s = (const char *)qgc_get_bytes(c, n);
    *len = s ? n : 0;
    return s ? s : "";
}
uint32_t qgc_load_u32(const unsigned char *p);
uint64_t qgc_load_u64(const unsigned char *p);

/* zlib's CRC-32 of len bytes. */
uint32_t qgc_crc32(const void *data, size_t len);

#endif

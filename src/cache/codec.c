/* Little-endian fixed-width integers, LEB128 varints and bounded cursors:
 * the only way bytes of a cache are read or written. */
#include "cache/format.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

const char *const qgc_known_keys[QGC_KEY_COUNT] = {
    "name", "tags", "depth", "place", "orient", "chance", "weight",
    "desc", "quest", "order", "width", "height"
};

void qgc_store_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

void qgc_store_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

uint32_t qgc_load_u32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

uint64_t qgc_load_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

void qgc_put_u32(qg_buf *b, uint32_t v)
{
    unsigned char tmp[4];
    qgc_store_u32(tmp, v);
    qg_buf_append(b, tmp, 4);
}

void qgc_put_u64(qg_buf *b, uint64_t v)
{
    unsigned char tmp[8];
    qgc_store_u64(tmp, v);
    qg_buf_append(b, tmp, 8);
}

size_t qgc_encode_varint(unsigned char out[QGC_VARINT_MAX], uint64_t v)
{
    size_t n = 0;
    do {
        unsigned char byte = v & 0x7f;
        v >>= 7;
        out[n++] = byte | (v ? 0x80 : 0);
    } while (v);
    return n;
}

void qgc_put_varint(qg_buf *b, uint64_t v)
{
    unsigned char tmp[QGC_VARINT_MAX];
    qg_buf_append(b, tmp, qgc_encode_varint(tmp, v));
}

void qgc_put_svarint(qg_buf *b, int64_t v)
{
    qgc_put_varint(b, ((uint64_t)v << 1) ^ (uint64_t)(v < 0 ? -1 : 0));
}

void qgc_put_bytes(qg_buf *b, const void *data, size_t len)
{
    qgc_put_varint(b, len);
    qg_buf_append(b, data, len);
}

void qgc_put_str(qg_buf *b, const char *s)
{
    qgc_put_bytes(b, s ? s : "", s ? strlen(s) : 0);
}

void qgc_put_cstr(qg_buf *b, const char *s)
{
    qgc_put_str(b, s);
    qg_buf_putc(b, '\0');
}

void qgc_cursor_init(qgc_cursor *c, const void *data, size_t len)
{
    c->p = data;
    c->end = c->p + len;
    c->bad = 0;
}

static int need(qgc_cursor *c, size_t n)
{
    if (c->bad || (size_t)(c->end - c->p) < n) {
        c->bad = 1;
        return 0;
    }
    return 1;
}

uint32_t qgc_get_u32(qgc_cursor *c)
{
    if (!need(c, 4))
        return 0;
    uint32_t v = qgc_load_u32(c->p);
    c->p += 4;
    return v;
}

uint64_t qgc_get_u64(qgc_cursor *c)
{
    if (!need(c, 8))
        return 0;
    uint64_t v = qgc_load_u64(c->p);
    c->p += 8;
    return v;
}

uint64_t qgc_get_long_varint(qgc_cursor *c)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (!need(c, 1))
            return 0;
        unsigned char byte = *c->p++;
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return v;
    }
    c->bad = 1;
    return 0;
}

uint32_t qgc_crc32(const void *data, size_t len)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    const Bytef *p = data;
    while (len > 0) {
        uInt n = len > 0x40000000u ? 0x40000000u : (uInt)len;
        crc = crc32(crc, p, n);
        p += n;
        len -= n;
    }
    return (uint32_t)crc;
}

void qgc_put_file_record(qg_buf *b, const qgc_file_meta *f, uint32_t z_len, uint32_t raw_len,
                         uint32_t crc)
{
    qgc_put_cstr(b, f->path);
    qgc_put_varint(b, (uint64_t)f->format);
    qgc_put_varint(b, f->size);
    qgc_put_svarint(b, f->mtime_sec);
    qgc_put_varint(b, (uint64_t)f->mtime_nsec);
    qgc_put_u64(b, f->hash);
    qgc_put_varint(b, f->map_count);
    qgc_put_varint(b, z_len);
    qgc_put_varint(b, raw_len);
    qgc_put_u32(b, crc);
    qgc_put_u64(b, f->reuse.key);
    qgc_put_u64(b, f->reuse.prelude);
    qgc_put_varint(b, (uint64_t)f->reuse.start_state);
    qgc_put_varint(b, (uint64_t)f->reuse.end_state);
}

uint64_t qgc_hash_more(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t qg_cache_hash(const void *data, size_t len)
{
    return qgc_hash_more(QGC_HASH_START, data, len);
}

uint64_t qgc_hash_u64(uint64_t h, uint64_t v)
{
    unsigned char le[8];
    qgc_store_u64(le, v);
    return qgc_hash_more(h, le, sizeof le);
}

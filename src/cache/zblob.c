#include "cache/zblob.h"

#include <limits.h>
#include <zlib.h>

qg_status qgc_deflate(const void *data, size_t len, const void *dict,
                      size_t dict_len, qg_buf *out)
{
    if (len > UINT_MAX || dict_len > UINT_MAX)
        return QG_ERR_LIMIT;
    z_stream z = {0};
    if (deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK)
        return QG_ERR_NOMEM;
    if (dict_len && deflateSetDictionary(&z, dict, (uInt)dict_len) != Z_OK) {
        deflateEnd(&z);
        return QG_ERR_NOMEM;
    }
    uLong bound = deflateBound(&z, (uLong)len);
    if (!qg_buf_reserve(out, bound)) {
        deflateEnd(&z);
        return QG_ERR_NOMEM;
    }
    z.next_in = (Bytef *)(uintptr_t)data;
    z.avail_in = (uInt)len;
    z.next_out = (Bytef *)out->data + out->len;
    z.avail_out = (uInt)bound;
    int rc = deflate(&z, Z_FINISH);
    out->len += bound - z.avail_out;
    out->data[out->len] = '\0';
    deflateEnd(&z);
    return rc == Z_STREAM_END ? QG_OK : QG_ERR_NOMEM;
}

int qgc_inflate(const void *src, size_t src_len, const void *dict,
                size_t dict_len, void *out, size_t raw_len)
{
    if (src_len > UINT_MAX || raw_len > UINT_MAX || dict_len > UINT_MAX)
        return 0;
    z_stream z = {0};
    if (inflateInit2(&z, -15) != Z_OK)
        return 0;
    if (dict_len && inflateSetDictionary(&z, dict, (uInt)dict_len) != Z_OK) {
        inflateEnd(&z);
        return 0;
    }
    z.next_in = (Bytef *)(uintptr_t)src;
    z.avail_in = (uInt)src_len;
    z.next_out = out;
    z.avail_out = (uInt)raw_len;
    int rc = inflate(&z, Z_FINISH);
    if (rc != Z_STREAM_END && z.avail_out == 0) {
        /* The output is full: the stream may only end, never add a byte. */
        unsigned char spare;
        z.next_out = &spare;
        z.avail_out = 1;
        rc = inflate(&z, Z_FINISH);
        if (z.avail_out == 0)
            rc = Z_DATA_ERROR;
    }
    int ok = rc == Z_STREAM_END && z.total_out == raw_len && z.avail_in == 0;
    inflateEnd(&z);
    return ok;
}

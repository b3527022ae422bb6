/* base64 and zlib/gzip for the TMX and .xp formats. Inflation is capped:
 * a small file must never become an unbounded allocation. */
#include "formats/formats.h"

#include <limits.h>
#include <string.h>
#include <zlib.h>

static const char b64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int qg_base64_encode(qg_buf *out, const unsigned char *data, size_t len)
{
    if (!qg_buf_reserve(out, (len + 2) / 3 * 4))
        return 0;
    for (size_t i = 0; i < len; i += 3) {
        unsigned v = (unsigned)data[i] << 16;
        if (i + 1 < len)
            v |= (unsigned)data[i + 1] << 8;
        if (i + 2 < len)
            v |= data[i + 2];
        char quad[4] = {b64_alphabet[(v >> 18) & 63], b64_alphabet[(v >> 12) & 63],
                        i + 1 < len ? b64_alphabet[(v >> 6) & 63] : '=',
                        i + 2 < len ? b64_alphabet[v & 63] : '='};
        qg_buf_append(out, quad, 4);
    }
    return !out->failed;
}

static int b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

int qg_base64_decode(qg_buf *out, const char *text, size_t len)
{
    unsigned v = 0;
    int bits = 0, padding = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
            continue;
        if (c == '=') {
            padding++;
            continue;
        }
        int d = b64_value(c);
        if (d < 0 || padding)
            return 0;
        v = (v << 6) | (unsigned)d;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            qg_buf_putc(out, (int)((v >> bits) & 0xFF));
        }
    }
    return !out->failed && padding <= 2;
}

int qg_deflate(qg_buf *out, const void *data, size_t len, int gzip)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (len > UINT_MAX)
        return 0;
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, gzip ? 15 + 16 : 15, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK)
        return 0;
    uLong bound = deflateBound(&z, (uLong)len) + 32;
    int ok = qg_buf_reserve(out, bound);
    if (ok) {
        z.next_in = (Bytef *)(uintptr_t)data;
        z.avail_in = (uInt)len;
        z.next_out = (Bytef *)out->data + out->len;
        z.avail_out = (uInt)bound;
        ok = deflate(&z, Z_FINISH) == Z_STREAM_END;
        if (ok) {
            out->len += z.total_out;
            out->data[out->len] = '\0';
        }
    }
    deflateEnd(&z);
    return ok;
}

static int gzip_follows(const z_stream *z)
{
    return z->avail_in >= 2 && z->next_in[0] == 0x1F && z->next_in[1] == 0x8B;
}

qg_status qg_inflate(qg_buf *out, const void *data, size_t len, size_t max_len,
                     size_t *rest)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (len > UINT_MAX)
        return QG_ERR_LIMIT;
    if (inflateInit2(&z, 15 + 32) != Z_OK)
        return QG_ERR_NOMEM;
    z.next_in = (Bytef *)(uintptr_t)data;
    z.avail_in = (uInt)len;
    size_t start = out->len;
    qg_status status = QG_OK;
    for (;;) {
        unsigned char chunk[16384];
        z.next_out = chunk;
        z.avail_out = sizeof chunk;
        int r = inflate(&z, Z_NO_FLUSH);
        size_t got = sizeof chunk - z.avail_out;
        if (out->len - start + got > max_len) {
            status = QG_ERR_LIMIT;
            break;
        }
        if (!qg_buf_append(out, chunk, got)) {
            status = QG_ERR_NOMEM;
            break;
        }
        if (r == Z_STREAM_END) {
            if (!gzip_follows(&z))
                break;
            if (inflateReset(&z) != Z_OK) {
                status = QG_ERR_CORRUPT;
                break;
            }
            continue;
        }
        if (r != Z_OK || (z.avail_in == 0 && got == 0)) {
            status = r == Z_MEM_ERROR ? QG_ERR_NOMEM : QG_ERR_CORRUPT;
            break;
        }
    }
    if (rest)
        *rest = z.avail_in;
    inflateEnd(&z);
    return status;
}

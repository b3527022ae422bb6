/* The embedded tileset as a PNG: one 8-bit grayscale image, white glyphs on
 * black, written with zlib (chunks: IHDR, IDAT, IEND). */
#include "formats/formats.h"

#include <stdint.h>
#include <string.h>
#include <zlib.h>

static void put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static void put_chunk(qg_buf *out, const char type[4], const unsigned char *data,
                      size_t len)
{
    unsigned char head[8];
    put_be32(head, (uint32_t)len);
    memcpy(head + 4, type, 4);
    qg_buf_append(out, head, 8);
    qg_buf_append(out, data, len);
    uLong crc = crc32(0L, (const Bytef *)type, 4);
    crc = crc32(crc, data, (uInt)len);
    unsigned char tail[4];
    put_be32(tail, (uint32_t)crc);
    qg_buf_append(out, tail, 4);
}

/* Each scanline is filter byte 0 followed by one byte per pixel. */
static void render(unsigned char *raw)
{
    const size_t stride = QG_TILESET_PIXELS + 1;
    memset(raw, 0, stride * QG_TILESET_PIXELS);
    for (unsigned code = 0; code < 256; code++) {
        unsigned char rows[QG_TILE_SIZE];
        qg_tileset_glyph(code, rows);
        size_t x0 = (code % QG_TILESET_COLUMNS) * QG_TILE_SIZE;
        size_t y0 = (code / QG_TILESET_COLUMNS) * QG_TILE_SIZE;
        for (size_t r = 0; r < QG_TILE_SIZE; r++)
            for (size_t c = 0; c < QG_TILE_SIZE; c++)
                if (rows[r] & (0x80u >> c))
                    raw[(y0 + r) * stride + 1 + x0 + c] = 0xFF;
    }
}

int qg_tileset_png_append(qg_buf *out)
{
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    unsigned char raw[(QG_TILESET_PIXELS + 1) * QG_TILESET_PIXELS];
    render(raw);
    unsigned char ihdr[13];
    put_be32(ihdr, QG_TILESET_PIXELS);
    put_be32(ihdr + 4, QG_TILESET_PIXELS);
    ihdr[8] = 8;  /* bit depth */
    ihdr[9] = 0;  /* grayscale */
    ihdr[10] = ihdr[11] = ihdr[12] = 0;
    qg_buf idat;
    qg_buf_init(&idat);
    int ok = qg_deflate(&idat, raw, sizeof raw, 0);
    if (ok) {
        qg_buf_append(out, signature, sizeof signature);
        put_chunk(out, "IHDR", ihdr, sizeof ihdr);
        put_chunk(out, "IDAT", (const unsigned char *)idat.data, idat.len);
        put_chunk(out, "IEND", (const unsigned char *)"", 0);
    }
    qg_buf_free(&idat);
    return ok && !out->failed;
}

qg_status qg_tileset_png(unsigned char **out, size_t *len)
{
    qg_buf png;
    qg_buf_init(&png);
    if (!qg_tileset_png_append(&png)) {
        qg_buf_free(&png);
        return QG_ERR_NOMEM;
    }
    *len = png.len;
    *out = (unsigned char *)qg_buf_take(&png);
    return QG_OK;
}

/* A level as a PNG picture through libpng: each cell an 8x8 glyph of the
 * TMX tileset's font in the cell's colour, on black. Without libpng the
 * call says so instead of writing anything. */
#include "questgrid/render.h"
#include "formats/formats.h"

#include <stdlib.h>
#include <string.h>

#ifdef QG_HAVE_LIBPNG
#include <png.h>

int qg_render_has_png(void)
{
    return 1;
}

/* One row of cells drawn into 8 rows of RGB pixels. */
static void draw_row(const qg_level *level, int y, const qg_render_options *o,
                     unsigned char *pixels, size_t stride)
{
    int sx = -1, sy = -1, has_start = qg_level_player_start(level, &sx, &sy);
    qg_cell cell;
    memset(pixels, 0, stride * QG_TILE_SIZE);
    for (int x = 0; x < qg_level_width(level); x++) {
        if (qg_level_cell(level, x, y, &cell) != QG_OK || !cell.in_map)
            continue;
        uint32_t rgb = qg_render_cell_colour(&cell, has_start && x == sx && y == sy, o).rgb;
        unsigned char rows[QG_TILE_SIZE];
        qg_tileset_glyph(cell.glyph, rows);
        for (int r = 0; r < QG_TILE_SIZE; r++)
            for (int c = 0; c < QG_TILE_SIZE; c++) {
                if (!(rows[r] & (0x80u >> c)))
                    continue;
                unsigned char *p = pixels + (size_t)r * stride + ((size_t)x * QG_TILE_SIZE + c) * 3;
                p[0] = (unsigned char)(rgb >> 16);
                p[1] = (unsigned char)(rgb >> 8);
                p[2] = (unsigned char)rgb;
            }
    }
}

static void write_to_buf(png_structp png, png_bytep data, png_size_t len)
{
    qg_buf_append(png_get_io_ptr(png), data, len);
}

static void no_flush(png_structp png)
{
    (void)png;
}

/* libpng reports errors by longjmp: everything it may leave behind is
 * owned by the caller, so nothing leaks when it jumps. */
static int encode(const qg_level *level, const qg_render_options *o, qg_buf *out,
                  unsigned char *pixels, size_t stride)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return 0;
    }
    png_set_write_fn(png, out, write_to_buf, no_flush);
    png_set_IHDR(png, info, (png_uint_32)(qg_level_width(level) * QG_TILE_SIZE),
                 (png_uint_32)(qg_level_height(level) * QG_TILE_SIZE), 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < qg_level_height(level); y++) {
        draw_row(level, y, o, pixels, stride);
        for (int r = 0; r < QG_TILE_SIZE; r++)
            png_write_row(png, pixels + (size_t)r * stride);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return !out->failed;
}

qg_status qg_render_png(const qg_level *level, const qg_render_options *options,
                        unsigned char **out, size_t *len, qg_diags *diags)
{
    size_t stride = (size_t)qg_level_width(level) * QG_TILE_SIZE * 3;
    unsigned char *pixels = malloc(stride * QG_TILE_SIZE + 1);
    qg_buf png;
    qg_buf_init(&png);
    int ok = pixels && encode(level, options, &png, pixels, stride);
    free(pixels);
    if (!ok) {
        qg_buf_free(&png);
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0, "the PNG could not be made (out of memory)");
        return QG_ERR_NOMEM;
    }
    *len = png.len;
    *out = (unsigned char *)qg_buf_take(&png);
    return QG_OK;
}

#else

int qg_render_has_png(void)
{
    return 0;
}

qg_status qg_render_png(const qg_level *level, const qg_render_options *options,
                        unsigned char **out, size_t *len, qg_diags *diags)
{
    (void)level;
    (void)options;
    *out = NULL;
    *len = 0;
    qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0,
                 "this questgrid was built without libpng: no PNG output (install libpng-dev "
                 "and run configure again; SVG and HTML need nothing)");
    return QG_ERR_INVALID;
}

#endif

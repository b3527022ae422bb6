/* A level as a PNG picture through libpng: each cell the character the
 * game draws it with, in the TMX tileset's 8x8 font scaled to the cell
 * size, in the cell's colour, on black, and the legend below. Without
 * libpng the call says so instead of writing anything. */
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

/* The picture: its cell size, its columns, the map's rows, then a blank
 * row and the legend's lines (a character, a space, the text). */
typedef struct picture {
    const qg_level *level;
    const qg_render_options *o;
    int cell, cols, rows;
    char **lines;               /* the legend's texts, CP437 bytes */
    unsigned *keys;             /* their characters */
    qg_cell *key_cells;         /* their cells, for the colour */
    int line_count, line_cap;
    int failed;
} picture;

/* A legend line holds at most this many characters (longer ones end in
 * "..."), so that no text makes the picture wide. */
#define MAX_LINE 100

static void add_line(void *user, unsigned char glyph, const qg_cell *cell, const char *text)
{
    (void)glyph;
    picture *p = user;
    if (p->line_count == p->line_cap) {
        int cap = p->line_cap ? 2 * p->line_cap : 32;
        char **lines = realloc(p->lines, (size_t)cap * sizeof *lines);
        unsigned *keys = lines ? realloc(p->keys, (size_t)cap * sizeof *keys) : NULL;
        qg_cell *cells = keys ? realloc(p->key_cells, (size_t)cap * sizeof *cells) : NULL;
        if (lines)
            p->lines = lines;
        if (keys)
            p->keys = keys;
        if (!cells) {
            p->failed = 1;
            return;
        }
        p->key_cells = cells;
        p->line_cap = cap;
    }
    /* UTF-8 text into CP437 bytes, '?' for what the font lacks */
    char *line = malloc(MAX_LINE + 1);
    if (!line) {
        p->failed = 1;
        return;
    }
    size_t n = 0;
    for (const char *t = text; *t && n < MAX_LINE;) {
        unsigned code = qg_utf8_code(t);
        unsigned char c = code >= 0x20 && code < 0x7F ? (unsigned char)code : qg_cp437_byte(code);
        line[n++] = (char)(c ? c : '?');
        t++;
        while ((*t & 0xC0) == 0x80)
            t++;
    }
    if (n == MAX_LINE)
        memcpy(line + MAX_LINE - 3, "...", 3);
    line[n] = '\0';
    p->lines[p->line_count] = line;
    p->keys[p->line_count] = cell ? qg_render_cell_char(cell, 0, p->o) : '@';
    if (cell)
        p->key_cells[p->line_count] = *cell;
    p->line_count++;
}

static int plan(picture *p)
{
    if (!qg_legend_each(p->level, p->o->vocab, add_line, p))
        p->failed = 1;
    int x, y;
    char start[64];
    if (qg_level_player_start(p->level, &x, &y)) {
        snprintf(start, sizeof start, "player start: row %d, column %d", y, x);
        add_line(p, '@', NULL, start);
    }
    p->cols = qg_level_width(p->level);
    for (int i = 0; i < p->line_count; i++) {
        int width = 2 + (int)strlen(p->lines[i]);
        p->cols = width > p->cols ? width : p->cols;
    }
    p->rows = qg_level_height(p->level) + (p->line_count ? 1 + p->line_count : 0);
    return !p->failed;
}

static void free_picture(picture *p)
{
    for (int i = 0; i < p->line_count; i++)
        free(p->lines[i]);
    free(p->lines);
    free(p->keys);
    free(p->key_cells);
}

/* A character of the 8x8 font drawn into a cell of cell x cell pixels. */
static void draw_char(unsigned char byte, uint32_t rgb, int cell, unsigned char *pixels,
                      size_t stride, int col)
{
    unsigned char rows[QG_TILE_SIZE];
    qg_tileset_glyph(byte, rows);
    int scale = cell / QG_TILE_SIZE, pad = (cell - scale * QG_TILE_SIZE) / 2;
    for (int r = 0; r < QG_TILE_SIZE * scale; r++)
        for (int c = 0; c < QG_TILE_SIZE * scale; c++) {
            if (!(rows[r / scale] & (0x80u >> (c / scale))))
                continue;
            unsigned char *px = pixels + (size_t)(r + pad) * stride +
                                ((size_t)col * (size_t)cell + (size_t)(c + pad)) * 3;
            px[0] = (unsigned char)(rgb >> 16);
            px[1] = (unsigned char)(rgb >> 8);
            px[2] = (unsigned char)rgb;
        }
}

/* The font's byte for a code point; the cell's own glyph when CP437 has
 * none. */
static unsigned char font_byte(unsigned code, unsigned char fallback)
{
    unsigned char b = code >= 0x20 && code < 0x7F ? (unsigned char)code : qg_cp437_byte(code);
    return b ? b : fallback;
}

/* One row of the picture drawn into cell rows of RGB pixels. */
static void draw_row(const picture *p, int y, unsigned char *pixels, size_t stride)
{
    memset(pixels, 0, stride * (size_t)p->cell);
    int height = qg_level_height(p->level);
    if (y < height) {
        int sx = -1, sy = -1, has_start = qg_level_player_start(p->level, &sx, &sy);
        qg_cell cell;
        for (int x = 0; x < qg_level_width(p->level); x++) {
            if (qg_level_cell(p->level, x, y, &cell) != QG_OK || !cell.in_map)
                continue;
            int start = has_start && x == sx && y == sy;
            uint32_t rgb = qg_render_cell_colour(&cell, start, p->o).rgb;
            draw_char(font_byte(qg_render_cell_char(&cell, start, p->o), cell.glyph), rgb,
                      p->cell, pixels, stride, x);
        }
        return;
    }
    int line = y - height - 1;
    if (line < 0 || line >= p->line_count)
        return;
    int is_start = p->keys[line] == '@' && !strncmp(p->lines[line], "player start", 12);
    uint32_t rgb = is_start ? 0xFFFFFF : qg_render_cell_colour(&p->key_cells[line], 0, p->o).rgb;
    draw_char(font_byte(p->keys[line], '?'), rgb, p->cell, pixels, stride, 0);
    for (int i = 0; p->lines[line][i]; i++)
        draw_char((unsigned char)p->lines[line][i], 0xD8D8D8, p->cell, pixels, stride, 2 + i);
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
static int encode(const picture *p, qg_buf *out, unsigned char *pixels, size_t stride)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return 0;
    }
    png_set_write_fn(png, out, write_to_buf, no_flush);
    png_set_IHDR(png, info, (png_uint_32)(p->cols * p->cell), (png_uint_32)(p->rows * p->cell),
                 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < p->rows; y++) {
        draw_row(p, y, pixels, stride);
        for (int r = 0; r < p->cell; r++)
            png_write_row(png, pixels + (size_t)r * stride);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return !out->failed;
}

qg_status qg_render_png(const qg_level *level, const qg_render_options *options,
                        unsigned char **out, size_t *len, qg_diags *diags)
{
    if (qg_render_check_size(level, diags) != QG_OK)
        return QG_ERR_LIMIT;
    int cell = options->cell ? options->cell : QG_PNG_CELL;
    if (cell < QG_PNG_CELL_MIN || cell > QG_PNG_CELL_MAX) {
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0, "a cell of %d pixels: PNG cells are %d "
                     "to %d pixels", cell, QG_PNG_CELL_MIN, QG_PNG_CELL_MAX);
        return QG_ERR_INVALID;
    }
    picture p = {level, options, cell, 0, 0, NULL, NULL, NULL, 0, 0, 0};
    int ok = plan(&p);
    size_t stride = (size_t)p.cols * (size_t)cell * 3;
    unsigned char *pixels = ok ? malloc(stride * (size_t)cell + 1) : NULL;
    qg_buf png;
    qg_buf_init(&png);
    ok = pixels && encode(&p, &png, pixels, stride);
    free(pixels);
    free_picture(&p);
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

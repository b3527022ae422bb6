/* REXPaint .xp reader: gzip (or plain) data, capped when inflated; layer 1
 * gives glyphs and the map's extent, the data layers (4 and up) things and
 * the player start exactly, layers 2 and 3 what was drawn without data. */
#include "formats/xp.h"

#include <string.h>

typedef struct xp_reader {
    const char *path;
    qg_diags *diags;
    const unsigned char *data;
    size_t len, at;
    int errors;
    size_t drawn;    /* things read from what was drawn, without data */
    size_t ignored;  /* cells drawn on layers 4 and up, which hold data */
    qg_level *level;
} xp_reader;

static void report(xp_reader *r, qg_severity severity, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void report(xp_reader *r, qg_severity severity, const char *fmt, ...)
{
    qg_buf message;
    qg_buf_init(&message);
    va_list ap;
    va_start(ap, fmt);
    qg_buf_vprintf(&message, fmt, ap);
    va_end(ap);
    qg_diags_add(r->diags, severity, r->path, 0, 0, NULL, 0, "%s",
                 message.data ? message.data : "out of memory");
    qg_buf_free(&message);
    if (severity == QG_ERROR)
        r->errors++;
}

static int get_i32(xp_reader *r, int32_t *out)
{
    if (r->len - r->at < 4)
        return 0;
    const unsigned char *b = r->data + r->at;
    *out = (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                     (uint32_t)b[3] << 24);
    r->at += 4;
    return 1;
}

typedef struct xp_cell {
    int32_t glyph;
    uint32_t fg, bg;
} xp_cell;

static xp_cell cell_at(const xp_reader *r, size_t layer_start, int height, int x, int y)
{
    const unsigned char *b = r->data + layer_start +
                             XP_CELL_BYTES * ((size_t)x * (size_t)height + (size_t)y);
    xp_cell c;
    c.glyph = (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                        (uint32_t)b[3] << 24);
    c.fg = (uint32_t)b[4] << 16 | (uint32_t)b[5] << 8 | b[6];
    c.bg = (uint32_t)b[7] << 16 | (uint32_t)b[8] << 8 | b[9];
    return c;
}

static void read_terrain(xp_reader *r, size_t start, int width, int height)
{
    size_t wide = 0;
    for (int x = 0; x < width; x++)
        for (int y = 0; y < height; y++) {
            xp_cell c = cell_at(r, start, height, x, y);
            if (c.bg == XP_TRANSPARENT)
                continue;
            if (c.glyph < 0 || c.glyph > 255) {
                wide++;
                c.glyph = '?';
            }
            qg_level_set_glyph(r->level, x, y, (unsigned char)c.glyph);
        }
    if (wide)
        report(r, QG_WARNING, "%zu glyph codes outside 0..255 (an extended font) "
                              "are read as '?'", wide);
}

static int check_in_map(xp_reader *r, int layer, int x, int y)
{
    qg_cell cell;
    qg_level_cell(r->level, x, y, &cell);
    if (!cell.in_map)
        report(r, QG_ERROR, "layer %d marks cell (%d,%d), which layer 1 leaves out of the map",
               layer + 1, x, y);
    return cell.in_map;
}

/* A data cell: the start or one thing, exactly. */
static void read_fact(xp_reader *r, int layer, int x, int y, xp_cell c)
{
    unsigned slot = (c.fg >> 8) & 0xFF, kind = c.fg & 0xFF;
    if (!check_in_map(r, layer, x, y))
        return;
    if (slot == XP_START_SLOT) {
        qg_level_set_player_start(r->level, x, y);
        return;
    }
    if (slot >= QG_SLOTS || kind == QG_THING_NONE || kind > QG_THING_REWARD) {
        report(r, QG_WARNING, "layer %d: data cell (%d,%d) holds slot %u, kind %u, which "
                              "questgrid does not write; not carried", layer + 1, x, y, slot, kind);
        return;
    }
    qg_level_set_thing(r->level, x, y, (qg_slot)slot, (qg_thing_kind)kind, c.glyph, NULL);
}

/* A cell drawn on the objects or monsters layer that no data cell
 * explains (drawn by hand in REXPaint): a random thing of the layer. */
static void read_drawn(xp_reader *r, int layer, int x, int y, xp_cell c)
{
    qg_cell cell;
    qg_level_cell(r->level, x, y, &cell);
    if (!check_in_map(r, layer, x, y))
        return;
    if (layer == XP_MONSTERS && c.glyph == XP_START_GLYPH) {
        if (!qg_level_player_start(r->level, NULL, NULL))
            qg_level_set_player_start(r->level, x, y);
        return;
    }
    if (layer == XP_MONSTERS && cell.things[QG_SLOT_MONSTER].kind == QG_THING_NONE) {
        qg_level_set_thing(r->level, x, y, QG_SLOT_MONSTER, QG_THING_RANDOM, 0, NULL);
        r->drawn++;
    } else if (layer == XP_OBJECTS) {
        for (int s = 0; s < QG_SLOTS; s++)
            if (s != QG_SLOT_MONSTER && cell.things[s].kind != QG_THING_NONE)
                return;
        qg_level_set_thing(r->level, x, y, QG_SLOT_OBJECT, QG_THING_RANDOM, 0, NULL);
        r->drawn++;
    }
}

static void read_layer(xp_reader *r, int layer, size_t start, int width, int height)
{
    for (int x = 0; x < width; x++)
        for (int y = 0; y < height; y++) {
            xp_cell c = cell_at(r, start, height, x, y);
            if (layer >= XP_DATA && c.bg == XP_TRANSPARENT && (c.fg >> 16) == XP_DATA_TAG)
                read_fact(r, layer, x, y, c);
            else if (layer < XP_DATA && c.bg != XP_TRANSPARENT)
                read_drawn(r, layer, x, y, c);
            else if (c.bg != XP_TRANSPARENT)
                r->ignored++;
        }
}

static qg_status read_layers(xp_reader *r, int32_t layers)
{
    int width = 0, height = 0;
    size_t starts[XP_MAX_LAYERS];
    for (int32_t i = 0; i < layers; i++) {
        int32_t w, h;
        if (!get_i32(r, &w) || !get_i32(r, &h)) {
            report(r, QG_ERROR, "layer %d: the file ends inside its size", (int)i + 1);
            return QG_ERR_CORRUPT;
        }
        if (w <= 0 || h <= 0 || (i && (w != width || h != height)) ||
            (uint64_t)w * (uint64_t)h > (r->len - r->at) / XP_CELL_BYTES) {
            report(r, QG_ERROR, "layer %d: size %d×%d is invalid, differs from layer 1 "
                                "or exceeds the file", (int)i + 1, (int)w, (int)h);
            return QG_ERR_CORRUPT;
        }
        starts[i] = r->at;
        r->at += (size_t)w * (size_t)h * XP_CELL_BYTES;
        width = w;
        height = h;
    }
    r->level = qg_level_new(width, height);
    if (!r->level)
        return QG_ERR_NOMEM;
    read_terrain(r, starts[0], width, height);
    /* exact data first, so that what is drawn is read only where no data
     * explains it */
    for (int32_t i = layers - 1; i > 0; i--)
        read_layer(r, (int)i, starts[i], width, height);
    if (r->drawn)
        report(r, QG_NOTE, "%zu things drawn on layers 2 and 3 without questgrid's data "
                           "layers are read as random objects and monsters", r->drawn);
    if (r->ignored)
        report(r, QG_WARNING, "%zu cells drawn on layers 4 to %d are not read (those layers "
                              "hold questgrid's data)", r->ignored, (int)layers);
    if (r->at != r->len)
        report(r, QG_WARNING, "%zu bytes after the last layer are ignored", r->len - r->at);
    return r->errors ? QG_ERR_PARSE : QG_OK;
}

static qg_status parse(xp_reader *r)
{
    int32_t first, layers;
    if (!get_i32(r, &first)) {
        report(r, QG_ERROR, "not a REXPaint file: too short");
        return QG_ERR_CORRUPT;
    }
    /* Files before REXPaint R9 start with the layer count itself. */
    if (first >= 0)
        layers = first;
    else if (!get_i32(r, &layers))
        layers = 0;
    if (layers < 1 || layers > 9) {
        report(r, QG_ERROR, "not a REXPaint file: %d layers (1 to 9 expected)", (int)layers);
        return QG_ERR_CORRUPT;
    }
    return read_layers(r, layers);
}

/* gzip's trailer tells the inflated size (modulo 4 GiB): one buffer of
 * that size instead of one grown by doubling, which held the old copy and
 * the new at once. Only a hint: a file that lies gets a buffer grown as
 * before. */
static void reserve_inflated(qg_buf *inflated, const unsigned char *data, size_t len)
{
    if (len < 18)
        return;
    const unsigned char *t = data + len - 4;
    uint32_t size = (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 |
                    (uint32_t)t[3] << 24;
    if (size <= XP_MAX_BYTES && !qg_buf_reserve(inflated, size)) {
        qg_buf_free(inflated);
        qg_buf_init(inflated);
    }
}

qg_status qg_xp_read(const char *path, const unsigned char *data, size_t len,
                     qg_level **out, qg_diags *diags)
{
    xp_reader r;
    memset(&r, 0, sizeof r);
    r.path = path ? path : "";
    r.diags = diags;
    *out = NULL;
    qg_buf inflated;
    qg_buf_init(&inflated);
    if (len >= 2 && data[0] == 0x1F && data[1] == 0x8B) {
        reserve_inflated(&inflated, data, len);
        size_t rest = 0;
        qg_status s = qg_inflate(&inflated, data, len, XP_MAX_BYTES, &rest);
        if (s == QG_OK && rest)
            report(&r, QG_WARNING, "%zu bytes after the gzip data are not gzip data (ignored)",
                   rest);
        if (s != QG_OK) {
            if (s == QG_ERR_LIMIT)
                report(&r, QG_ERROR, "the file inflates to more than %u bytes", XP_MAX_BYTES);
            else
                report(&r, QG_ERROR, "the gzip data is damaged (%s)", qg_status_string(s));
            qg_buf_free(&inflated);
            return s == QG_ERR_LIMIT ? QG_ERR_LIMIT : QG_ERR_CORRUPT;
        }
        data = (const unsigned char *)inflated.data;
        len = inflated.len;
    }
    r.data = data;
    r.len = len;
    qg_status status = parse(&r);
    qg_buf_free(&inflated);
    if (status != QG_OK) {
        qg_level_free(r.level);
        return status;
    }
    *out = r.level;
    return QG_OK;
}

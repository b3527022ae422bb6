/* REXPaint .xp writer: gzip of version, layer count and two column-major
 * layers of 10-byte cells (int32 glyph, fg r,g,b, bg r,g,b). What the
 * format cannot carry is counted and reported, never dropped silently. */
#include "formats/xp.h"

#include <stdlib.h>
#include <string.h>

const xp_mark xp_marks[QG_SLOTS] = {
    {QG_SLOT_MONSTER, 'M', 'm', 0xFF4040},
    {QG_SLOT_ARTIFACT, 'A', 'a', 0xFFFF40},
    {QG_SLOT_OBJECT, 'O', 'o', 0x40FFFF},
    {QG_SLOT_EGO, 'E', 'e', 0x40FF40},
    {QG_SLOT_TRAP, 'T', 't', 0xFF9020},
};

enum lost_kind { LOST_FEATURE, LOST_FLAGS, LOST_SPECIAL, LOST_THING_KIND,
                 LOST_THING_VALUE, LOST_THING_NAME, LOST_STACKED, LOST_KINDS };

static const char *const lost_what[LOST_KINDS] = {
    "feature indices and names", "cave_info flags and vault masks",
    "special, mimic and mflag values",
    "things that are clones, rewards, names or tags",
    "thing indices outside 0..16777215 (or 16711935)",
    "names of things", "more than one thing (or a thing under the player start) per cell",
};

typedef struct xp_writer {
    const qg_level *level;
    qg_buf raw;
    size_t lost[LOST_KINDS];
    int start_x, start_y, has_start;
} xp_writer;

static void put_i32(qg_buf *out, int32_t v)
{
    uint32_t u = (uint32_t)v;
    unsigned char b[4] = {(unsigned char)u, (unsigned char)(u >> 8),
                          (unsigned char)(u >> 16), (unsigned char)(u >> 24)};
    qg_buf_append(out, b, 4);
}

static void put_cell(qg_buf *out, int32_t glyph, uint32_t fg, uint32_t bg)
{
    put_i32(out, glyph);
    unsigned char colours[6] = {(unsigned char)(fg >> 16), (unsigned char)(fg >> 8),
                                (unsigned char)fg, (unsigned char)(bg >> 16),
                                (unsigned char)(bg >> 8), (unsigned char)bg};
    qg_buf_append(out, colours, 6);
}

static void count_losses(xp_writer *w, const qg_cell *cell)
{
    if (cell->feature != -1 || cell->feature_name)
        w->lost[LOST_FEATURE]++;
    if (cell->cave_info || cell->vault_mask)
        w->lost[LOST_FLAGS]++;
    if (cell->special || cell->mimic || cell->mflag)
        w->lost[LOST_SPECIAL]++;
}

static int carried_value(const qg_thing *t)
{
    return t->index >= 0 && (uint32_t)t->index <= XP_MAX_VALUE &&
           (uint32_t)t->index != XP_TRANSPARENT;
}

/* Writes the layer 2 cell of (x, y): the start, or the first thing. */
static void put_content(xp_writer *w, int x, int y, const qg_cell *cell)
{
    int shown = w->has_start && x == w->start_x && y == w->start_y;
    if (shown)
        put_cell(&w->raw, XP_START_GLYPH, 0xFFFFFF, 0);
    for (int i = 0; i < QG_SLOTS; i++) {
        const qg_thing *t = &cell->things[xp_marks[i].slot];
        if (t->kind == QG_THING_NONE)
            continue;
        if (t->name)
            w->lost[LOST_THING_NAME]++;
        if (t->kind != QG_THING_INDEX && t->kind != QG_THING_RANDOM) {
            w->lost[LOST_THING_KIND]++;
        } else if (!carried_value(t)) {
            w->lost[LOST_THING_VALUE]++;
        } else if (shown) {
            w->lost[LOST_STACKED]++;
        } else {
            char glyph = t->kind == QG_THING_INDEX ? xp_marks[i].index_glyph
                                                   : xp_marks[i].random_glyph;
            put_cell(&w->raw, glyph, xp_marks[i].fg, (uint32_t)t->index);
            shown = 1;
        }
    }
    if (!shown)
        put_cell(&w->raw, 0, 0, XP_TRANSPARENT);
}

static void put_layer(xp_writer *w, int content)
{
    int width = qg_level_width(w->level), height = qg_level_height(w->level);
    put_i32(&w->raw, width);
    put_i32(&w->raw, height);
    for (int x = 0; x < width; x++)
        for (int y = 0; y < height; y++) {
            qg_cell cell;
            qg_level_cell(w->level, x, y, &cell);
            if (content)
                put_content(w, x, y, &cell);
            else if (!cell.in_map)
                put_cell(&w->raw, 0, 0, XP_TRANSPARENT);
            else {
                count_losses(w, &cell);
                put_cell(&w->raw, cell.glyph, 0xC0C0C0, 0);
            }
        }
}

static void report_losses(const xp_writer *w, qg_diags *diags)
{
    for (int k = 0; k < LOST_KINDS; k++)
        if (w->lost[k])
            qg_diags_add(diags, QG_WARNING, "", 0, 0, NULL, 0,
                         ".xp does not carry %s (%zu cells)", lost_what[k], w->lost[k]);
    size_t markers = qg_level_marker_count(w->level);
    size_t props = qg_level_property_count(w->level);
    if (markers)
        qg_diags_add(diags, QG_WARNING, "", 0, 0, NULL, 0,
                     ".xp does not carry markers (%zu)", markers);
    if (props || qg_level_name(w->level))
        qg_diags_add(diags, QG_WARNING, "", 0, 0, NULL, 0,
                     ".xp does not carry the level's name or properties (%zu)", props);
}

qg_status qg_xp_write(const qg_level *level, const qg_write_options *options,
                      unsigned char **out, size_t *len, qg_diags *diags)
{
    xp_writer w;
    memset(&w, 0, sizeof w);
    w.level = level;
    qg_buf_init(&w.raw);
    w.has_start = qg_level_player_start(level, &w.start_x, &w.start_y);
    qg_cell start_cell;
    if (w.has_start && (qg_level_cell(level, w.start_x, w.start_y, &start_cell) != QG_OK ||
                        !start_cell.in_map)) {
        qg_diags_add(diags, QG_WARNING, "", 0, 0, NULL, 0,
                     ".xp does not carry a player start outside the map (%d,%d)",
                     w.start_x, w.start_y);
        w.has_start = 0;
    }
    put_i32(&w.raw, XP_VERSION);
    put_i32(&w.raw, 2);
    put_layer(&w, 0);
    put_layer(&w, 1);
    qg_buf packed;
    qg_buf_init(&packed);
    int ok = !w.raw.failed && qg_deflate(&packed, w.raw.data, w.raw.len, 1);
    qg_buf_free(&w.raw);
    if (!ok) {
        qg_buf_free(&packed);
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0, "out of memory writing .xp");
        return QG_ERR_NOMEM;
    }
    report_losses(&w, diags);
    *len = packed.len;
    *out = (unsigned char *)qg_buf_take(&packed);
    return QG_OK;
}

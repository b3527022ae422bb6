/* REXPaint .xp writer: gzip of version, layer count and column-major
 * layers of 10-byte cells (int32 glyph, fg r,g,b, bg r,g,b): terrain,
 * objects and monsters as REXPaint should show them, in the game's
 * colours, then transparent data layers holding each cell's things
 * exactly (see convert.h). What the format cannot carry is counted and
 * reported, never dropped silently. */
#include "formats/xp.h"
#include "questgrid/render.h"

#include <stdlib.h>
#include <string.h>

const xp_mark xp_marks[QG_SLOTS] = {
    {QG_SLOT_MONSTER, 'M', 'm'},
    {QG_SLOT_OBJECT, 'O', 'o'},
    {QG_SLOT_EGO, 'E', 'e'},
    {QG_SLOT_ARTIFACT, 'A', 'a'},
    {QG_SLOT_TRAP, 'T', 't'},
};

enum lost_kind { LOST_FEATURE, LOST_FLAGS, LOST_SPECIAL, LOST_THING_KIND, LOST_THING_NAME,
                 LOST_ODDS, LOST_KINDS };

static const char *const lost_what[LOST_KINDS] = {
    "feature indices and names", "cave_info flags and vault masks",
    "special, mimic and mflag values",
    "things given by name or tag (Crawl specs, Hengband tags)",
    "names of things",
    "chances and placing flags",
};

/* On the objects layer, the first of these a cell holds is shown. */
static const qg_slot object_order[] = {QG_SLOT_ARTIFACT, QG_SLOT_OBJECT, QG_SLOT_EGO,
                                       QG_SLOT_TRAP};
static const int slot_vocab[QG_SLOTS] = {QG_VOCAB_MONSTER, QG_VOCAB_OBJECT, -1,
                                         QG_VOCAB_OBJECT, QG_VOCAB_FEATURE};

typedef struct xp_writer {
    const qg_level *level;
    qg_render_options style;
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

static void put_empty(qg_buf *out)
{
    put_cell(out, 0, 0, XP_TRANSPARENT);
}

static int carried(const qg_thing *t)
{
    return t->kind == QG_THING_INDEX || t->kind == QG_THING_RANDOM ||
           t->kind == QG_THING_CLONE || t->kind == QG_THING_REWARD;
}

static void count_losses(xp_writer *w, const qg_cell *cell)
{
    if (cell->feature != -1 || cell->feature_name)
        w->lost[LOST_FEATURE]++;
    if (cell->cave_info || cell->vault_mask)
        w->lost[LOST_FLAGS]++;
    if (cell->special || cell->mimic || cell->mflag)
        w->lost[LOST_SPECIAL]++;
    if (cell->feature_chance)
        w->lost[LOST_ODDS]++;
    for (int s = 0; s < QG_SLOTS; s++) {
        const qg_thing *t = &cell->things[s];
        if (t->kind != QG_THING_NONE && !carried(t))
            w->lost[LOST_THING_KIND]++;
        else if (t->kind != QG_THING_NONE && t->name)
            w->lost[LOST_THING_NAME]++;
        if (t->kind != QG_THING_NONE && (t->chance || t->flags || t->depth))
            w->lost[LOST_ODDS]++;
    }
}

/* A thing as the game draws it: its G: glyph and colour, else a mark. */
static void put_thing(xp_writer *w, qg_slot slot, const qg_thing *t)
{
    const xp_mark *mark = &xp_marks[0];
    for (int i = 0; i < QG_SLOTS; i++)
        if (xp_marks[i].slot == slot)
            mark = &xp_marks[i];
    char glyph = t->kind == QG_THING_RANDOM ? mark->random_glyph : mark->index_glyph;
    char own;
    if ((t->kind == QG_THING_INDEX || t->kind == QG_THING_CLONE) && slot_vocab[slot] >= 0 &&
        slot != QG_SLOT_ARTIFACT &&
        qg_vocab_look(w->style.vocab, (qg_vocab_kind)slot_vocab[slot], t->index, &own, NULL))
        glyph = own;
    qg_cell only;
    memset(&only, 0, sizeof only);
    only.feature = -1;
    only.things[slot] = *t;
    put_cell(&w->raw, (unsigned char)glyph, qg_render_cell_colour(&only, 0, &w->style).rgb, 0);
}

static void put_visible(xp_writer *w, int layer, int x, int y, const qg_cell *cell)
{
    if (layer == XP_MONSTERS) {
        if (w->has_start && x == w->start_x && y == w->start_y)
            put_cell(&w->raw, XP_START_GLYPH, 0xFFFFFF, 0);
        else if (carried(&cell->things[QG_SLOT_MONSTER]))
            put_thing(w, QG_SLOT_MONSTER, &cell->things[QG_SLOT_MONSTER]);
        else
            put_empty(&w->raw);
        return;
    }
    for (size_t i = 0; i < sizeof object_order / sizeof *object_order; i++)
        if (carried(&cell->things[object_order[i]])) {
            put_thing(w, object_order[i], &cell->things[object_order[i]]);
            return;
        }
    put_empty(&w->raw);
}

/* The nth fact of a cell (the player start, then its things in slot
 * order); 0 when it has fewer. */
static int fact(const xp_writer *w, int x, int y, const qg_cell *cell, int n, int *slot,
                const qg_thing **thing)
{
    if (w->has_start && x == w->start_x && y == w->start_y && n-- == 0) {
        *slot = XP_START_SLOT;
        *thing = NULL;
        return 1;
    }
    for (int s = 0; s < QG_SLOTS; s++)
        if (carried(&cell->things[s]) && n-- == 0) {
            *slot = s;
            *thing = &cell->things[s];
            return 1;
        }
    return 0;
}

static void put_data(xp_writer *w, int n, int x, int y, const qg_cell *cell)
{
    int slot;
    const qg_thing *t;
    if (!fact(w, x, y, cell, n, &slot, &t)) {
        put_empty(&w->raw);
        return;
    }
    uint32_t fg = (uint32_t)XP_DATA_TAG << 16 | (uint32_t)slot << 8 | (t ? (uint32_t)t->kind : 0);
    put_cell(&w->raw, t ? t->index : 0, fg, XP_TRANSPARENT);
}

static void put_layer(xp_writer *w, int layer)
{
    int width = qg_level_width(w->level), height = qg_level_height(w->level);
    put_i32(&w->raw, width);
    put_i32(&w->raw, height);
    for (int x = 0; x < width; x++)
        for (int y = 0; y < height; y++) {
            qg_cell cell;
            qg_level_cell(w->level, x, y, &cell);
            if (!cell.in_map) {
                put_empty(&w->raw);
            } else if (layer == XP_TERRAIN) {
                count_losses(w, &cell);
                qg_cell terrain = cell;
                memset(terrain.things, 0, sizeof terrain.things);
                put_cell(&w->raw, cell.glyph, qg_render_cell_colour(&terrain, 0, &w->style).rgb, 0);
            } else if (layer < XP_DATA) {
                put_visible(w, layer, x, y, &cell);
            } else {
                put_data(w, layer - XP_DATA, x, y, &cell);
            }
        }
}

static int most_facts(const xp_writer *w)
{
    int most = 0;
    for (int y = 0; y < qg_level_height(w->level); y++)
        for (int x = 0; x < qg_level_width(w->level); x++) {
            qg_cell cell;
            qg_level_cell(w->level, x, y, &cell);
            int slot, n = 0;
            const qg_thing *t;
            while (cell.in_map && fact(w, x, y, &cell, n, &slot, &t))
                n++;
            if (n > most)
                most = n;
        }
    return most;
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
    w.style.vocab = options ? options->vocab : NULL;
    w.style.palette = options ? options->palette : NULL;
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
    /* at most a start and five things a cell: 3 + 6 layers, REXPaint's 9 */
    int layers = XP_DATA + most_facts(&w);
    put_i32(&w.raw, XP_VERSION);
    put_i32(&w.raw, layers);
    for (int layer = 0; layer < layers; layer++)
        put_layer(&w, layer);
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

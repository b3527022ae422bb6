/* A level as text: the glyph grid and a legend naming what each glyph
 * stands for. Reads only the level and a vocabulary, so any front end's
 * levels render the same way. */
#include "questgrid/render.h"
#include "formats/formats.h"
#include "core/groups.h"

#include <stdlib.h>
#include <string.h>

typedef struct entry {
    qg_cell cell;
    long next;  /* next entry with the same glyph, or -1 */
} entry;

typedef struct legend {
    entry *items;
    size_t count, cap;
    long first[256];
    long last[256];
} legend;

static int collect(void *user, int x, int y, const qg_cell *cell)
{
    legend *l = user;
    (void)x;
    (void)y;
    for (long i = l->first[cell->glyph]; i >= 0; i = l->items[i].next)
        if (qg_cell_same(&l->items[i].cell, cell))
            return 0;
    entry *e = QG_PUSH(l->items, l->count, l->cap);
    if (!e)
        return 1;
    e->cell = *cell;
    e->next = -1;
    long at = (long)l->count - 1;
    if (l->last[cell->glyph] >= 0)
        l->items[l->last[cell->glyph]].next = at;
    else
        l->first[cell->glyph] = at;
    l->last[cell->glyph] = at;
    return 0;
}

static void bits(qg_buf *b, const char *label, uint32_t value, const char *(*name)(uint32_t))
{
    if (!value)
        return;
    qg_buf_printf(b, ", %s %lu (", label, (unsigned long)value);
    const char *sep = "";
    uint32_t other = 0;
    for (int i = 0; i < 32; i++) {
        uint32_t bit = 1u << i;
        if (!(value & bit))
            continue;
        const char *n = name(bit);
        if (n) {
            qg_buf_printf(b, "%s%s", sep, n);
            sep = "|";
        } else {
            other |= bit;
        }
    }
    if (other)
        qg_buf_printf(b, "%s0x%lX", sep, (unsigned long)other);
    qg_buf_putc(b, ')');
}

static const char *const slot_words[QG_SLOTS] = {"monster", "object", "ego", "artifact", "trap"};
static const int slot_vocab[QG_SLOTS] = {QG_VOCAB_MONSTER, QG_VOCAB_OBJECT, QG_VOCAB_EGO,
                                         QG_VOCAB_ARTIFACT, QG_VOCAB_FEATURE};

static void indexed(qg_buf *b, const qg_vocab *vocab, int slot, int32_t index)
{
    const char *name = slot_vocab[slot] >= 0
                           ? qg_vocab_name(vocab, (qg_vocab_kind)slot_vocab[slot], index)
                           : NULL;
    if (name)
        qg_buf_printf(b, "%s (%ld)", name, (long)index);
    else
        qg_buf_printf(b, "%s %ld", slot_words[slot], (long)index);
}

static void thing(qg_buf *b, const qg_vocab *vocab, int slot, const qg_thing *t)
{
    if (t->kind == QG_THING_NONE)
        return;
    qg_buf_printf(b, ", %s: ", slot_words[slot]);
    switch (t->kind) {
    case QG_THING_RANDOM:
        qg_buf_printf(b, "random %s", slot_words[slot]);
        if (t->name)
            qg_buf_printf(b, " of %s", t->name);
        if (t->index)
            qg_buf_printf(b, " %+ld", (long)t->index);
        break;
    case QG_THING_FORMATION:
        qg_buf_printf(b, "formation member %ld", (long)t->index);
        if (t->name)
            qg_buf_printf(b, " of %s", t->name);
        break;
    case QG_THING_CLONE:
        qg_buf_puts(b, "clone of ");
        indexed(b, vocab, slot, t->index);
        break;
    case QG_THING_REWARD:
        qg_buf_puts(b, "the quest reward");
        break;
    case QG_THING_NAME:
    case QG_THING_TAG:
        qg_buf_puts(b, t->name ? t->name : "?");
        break;
    default:
        indexed(b, vocab, slot, t->index);
        if (t->name)
            qg_buf_printf(b, " %s", t->name);
        break;
    }
    if (t->depth)
        qg_buf_printf(b, " %+ld", (long)t->depth);
    for (int i = 0; i < 32; i++)
        if (t->flags & (1u << i))
            qg_buf_printf(b, " %s", qg_thing_flag_name(1u << i) ? qg_thing_flag_name(1u << i)
                                                                : "?");
    if (t->chance)
        qg_buf_printf(b, " (%ld%%)", (long)t->chance);
}

static void describe(qg_buf *b, const qg_vocab *vocab, const qg_cell *c)
{
    const char *feature = c->feature_name;
    if (!feature && c->feature >= 0)
        feature = qg_vocab_name(vocab, QG_VOCAB_FEATURE, c->feature);
    if (feature && c->feature >= 0)
        qg_buf_printf(b, "%s (%ld)", feature, (long)c->feature);
    else if (feature)
        qg_buf_puts(b, feature);
    else if (c->feature >= 0)
        qg_buf_printf(b, "feature %ld", (long)c->feature);
    else
        qg_buf_puts(b, "no feature");
    if (c->feature_chance)
        qg_buf_printf(b, " (%ld%%, else floor)", (long)c->feature_chance);
    bits(b, "cave_info", c->cave_info, qg_info_name);
    bits(b, "mask", c->vault_mask, qg_mask_name);
    for (int s = 0; s < QG_SLOTS; s++)
        thing(b, vocab, s, &c->things[s]);
    if (c->special)
        qg_buf_printf(b, ", special %ld", (long)c->special);
    if (c->mimic)
        qg_buf_printf(b, ", mimic %ld", (long)c->mimic);
    if (c->mflag)
        qg_buf_printf(b, ", mflag %lu", (unsigned long)c->mflag);
}

static unsigned char shown(unsigned char glyph)
{
    return glyph >= 0x20 && glyph < 0x7f ? glyph : '?';
}

/* One row in colour: an escape where the colour changes, reset at the end
 * so that nothing after the grid is coloured. */
static void coloured_row(const qg_level *level, int y, int end,
                         const qg_render_options *options, FILE *out)
{
    int sx = -1, sy = -1, has_start = qg_level_player_start(level, &sx, &sy);
    int current = -1;
    qg_cell cell;
    for (int x = 0; x < end; x++) {
        qg_level_cell(level, x, y, &cell);
        int sgr = 0;
        if (cell.in_map)
            sgr = qg_render_cell_colour(&cell, has_start && x == sx && y == sy, options).sgr;
        if (sgr != current) {
            fprintf(out, "\033[%dm", sgr);
            current = sgr;
        }
        fputc(cell.in_map ? shown(cell.glyph) : ' ', out);
    }
    if (current > 0)
        fputs("\033[0m", out);
}

/* 0 when memory ran out (nothing written). */
static int grid(const qg_level *level, const qg_render_options *options, FILE *out)
{
    int w = qg_level_width(level), h = qg_level_height(level);
    qg_cell cell;
    char *row = malloc((size_t)w + 1);
    if (!row)
        return 0;
    for (int y = 0; y < h; y++) {
        int end = 0;
        for (int x = 0; x < w; x++) {
            qg_level_cell(level, x, y, &cell);
            row[x] = (char)(cell.in_map ? shown(cell.glyph) : ' ');
            if (cell.in_map)
                end = x + 1;
        }
        if (options->colour)
            coloured_row(level, y, end, options, out);
        else
            fwrite(row, 1, (size_t)end, out);
        fputc('\n', out);
    }
    free(row);
    return 1;
}

/* One line a kind of marker (its cell when it has one), or with verbose
 * one a cell: 0 when memory ran out. */
static int markers(const qg_level *level, int verbose, FILE *out)
{
    size_t n = qg_level_marker_count(level), count = 0;
    const char **specs = n ? malloc(n * sizeof *specs) : NULL;
    qg_text_group *groups = NULL;
    if (n && !specs)
        return 0;
    for (size_t i = 0; i < n; i++)
        specs[i] = qg_level_marker(level, i, NULL, NULL);
    int ok = verbose || qg_text_groups(specs, n, &groups, &count) == QG_OK;
    for (size_t g = 0; ok && g < (verbose ? n : count); g++) {
        int x, y;
        size_t first = verbose ? g : groups[g].first, cells = verbose ? 1 : groups[g].count;
        const char *spec = qg_level_marker(level, first, &x, &y);
        if (cells == 1)
            fprintf(out, "marker at row %d, column %d: %s\n", y, x, spec);
        else
            fprintf(out, "marker %s: %zu cells, the first at row %d, column %d\n", spec, cells,
                    y, x);
    }
    free(groups);
    free(specs);
    return ok;
}

/* The player start. */
static void extras(const qg_level *level, FILE *out)
{
    int x, y;
    if (qg_level_player_start(level, &x, &y))
        fprintf(out, "player start: row %d, column %d\n", y, x);
}

qg_status qg_render_text(const qg_level *level, const qg_vocab *vocab, FILE *out)
{
    qg_render_options options = {vocab, NULL, 0, NULL, 0, 0};
    return qg_render_text_with(level, &options, out);
}

int qg_legend_each(const qg_level *level, const qg_vocab *vocab, qg_legend_fn fn, void *user)
{
    legend l;
    memset(&l, 0, sizeof l);
    memset(l.first, 0xff, sizeof l.first);
    memset(l.last, 0xff, sizeof l.last);
    if (qg_level_foreach(level, collect, &l)) {
        free(l.items);
        return 0;
    }
    qg_buf line;
    qg_buf_init(&line);
    for (int g = 0; g < 256; g++)
        for (long i = l.first[g]; i >= 0; i = l.items[i].next) {
            qg_buf_reset(&line);
            describe(&line, vocab, &l.items[i].cell);
            if (!line.failed)
                fn(user, (unsigned char)g, &l.items[i].cell, line.data ? line.data : "");
        }
    int ok = !line.failed;
    qg_buf_free(&line);
    free(l.items);
    return ok;
}

typedef struct text_legend {
    const qg_render_options *options;
    FILE *out;
} text_legend;

static void print_legend_line(void *user, unsigned char glyph, const qg_cell *cell,
                              const char *text)
{
    const text_legend *t = user;
    int sgr = t->options->colour ? qg_render_cell_colour(cell, 0, t->options).sgr : 0;
    if (sgr)
        fprintf(t->out, "  \033[%dm%c\033[0m  %s\n", sgr, shown(glyph), text);
    else
        fprintf(t->out, "  %c  %s\n", shown(glyph), text);
}

qg_status qg_render_text_with(const qg_level *level, const qg_render_options *options,
                              FILE *out)
{
    if (!level || !out)
        return QG_ERR_INVALID;
    const char *name = qg_level_name(level);
    fprintf(out, "%s (%dx%d)\n", name && name[0] ? name : "level",
            qg_level_width(level), qg_level_height(level));
    if (!grid(level, options, out))
        return QG_ERR_NOMEM;
    fputs("legend:\n", out);
    text_legend t = {options, out};
    if (!qg_legend_each(level, options->vocab, print_legend_line, &t) ||
        !markers(level, options->verbose, out))
        return QG_ERR_NOMEM;
    extras(level, out);
    return ferror(out) ? QG_ERR_IO : QG_OK;
}

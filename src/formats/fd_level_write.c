/* F:/D: writer from a level, in the records of the output dialect: the
 * records the level's properties came from (Q: lines, a room template's
 * T:/R:/D: lines, a vault's name:/rows:/columns:), in the order of the
 * properties, so that reading the file gives them back in that order; one
 * letter (F: or L:) per distinct glyph and cell, the glyph itself when it
 * is free to be a letter; the map rows; P:. A dialect whose maps use a
 * built-in legend gets the cells' own glyphs, checked by reading the file
 * back. What the dialect has no place for (markers, other properties,
 * holes in rows) is written as comments and warned about. */
#include "formats/fd_out.h"
#include "fd/dialect.h"
#include "des/glyphs.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LETTERS 94

typedef struct letter_def {
    qg_cell cell;        /* a cell with this spec (pointers into the level) */
    const char *quest;   /* the cell's `quest "name"` marker (a ToME special
                            naming a quest), or NULL */
    unsigned char letter;
    int implied;         /* a room builder's own meaning of the letter: no
                            L: line */
} letter_def;

typedef struct level_writer {
    const qg_level *level;
    const fd_dialect_row *row;
    fd_out o;
    letter_def defs[MAX_LETTERS];
    int def_count;
    int taken[256];
    unsigned char *letters;  /* per cell: its letter, 0 outside the map */
    unsigned char hole;      /* the undefined letter written for holes */
    size_t holes, unmapped, masked;
    int too_many;
} level_writer;

static int has_form(const fd_dialect_row *row, fd_rec rec)
{
    for (const fd_form *f = row->forms; f && f->key; f++)
        if (f->rec == rec)
            return 1;
    return 0;
}

static const fd_form *form_of(const fd_dialect_row *row, fd_rec rec)
{
    for (const fd_form *f = row->forms; f && f->key; f++)
        if (f->rec == rec)
            return f;
    return NULL;
}

static int same_name(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static int same_spec(const qg_cell *a, const qg_cell *b)
{
    if (a->glyph != b->glyph || a->feature != b->feature || !same_name(a->feature_name, b->feature_name) ||
        a->cave_info != b->cave_info || a->special != b->special || a->mimic != b->mimic ||
        a->mflag != b->mflag || a->feature_chance != b->feature_chance)
        return 0;
    for (int s = 0; s < QG_SLOTS; s++)
        if (a->things[s].kind != b->things[s].kind || a->things[s].index != b->things[s].index ||
            !same_name(a->things[s].name, b->things[s].name) ||
            a->things[s].chance != b->things[s].chance || a->things[s].depth != b->things[s].depth ||
            (a->things[s].flags & ~QG_THING_UNTRAPPED) != (b->things[s].flags & ~QG_THING_UNTRAPPED))
            return 0;
    return 1;
}

/* ' ' is kept only as a cell's own glyph (ToME skips undefined spaces).
 * ':' and '/' end an F: line's fields (the games' tokenize()), so they name
 * no F: letter; an L: line takes its letter as a byte (FrogComposband's
 * L:::FLOWER), so a dialect without F: letters keeps them. */
static int usable_letter(const fd_dialect_row *row, int c)
{
    if (c < ' ' || c >= 0x7F)
        return 0;
    return (c != ':' && c != '/') || !has_form(row, FD_REC_LETTER);
}

static unsigned char free_letter(level_writer *w, unsigned char wanted)
{
    if (usable_letter(w->row, wanted) && !w->taken[wanted])
        return wanted;
    static const char pool[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
        "!\"$%&'()*+,-.;<=>?@[\\]^_`{|}~#";
    for (const char *p = pool; *p; p++)
        if (!w->taken[(unsigned char)*p])
            return (unsigned char)*p;
    return 0;
}

/* ToME links special -1 gates in reading order as (y << 8) + x both ways:
 * a linked pair is written as -1 again, so the reader links it anew. */
static int linked_gate(const level_writer *w, int x, int y, const qg_cell *cell)
{
    if (!w->row->gate_pairs || cell->special <= 0)
        return 0;
    qg_cell other;
    int ox = cell->special & 0xFF, oy = cell->special >> 8;
    return qg_level_cell(w->level, ox, oy, &other) == QG_OK && other.in_map &&
           other.special == (y << 8) + x;
}

/* A FORMATION room's digit with its formation member: the digit is its
 * letter, whose L: line (the '0' one with the formation's kind) gives
 * the rest of the cell. */
static int formation_member(const qg_cell *c)
{
    const qg_thing *m = &c->things[QG_SLOT_MONSTER];
    return m->kind == QG_THING_FORMATION && c->glyph == '0' + m->index;
}

/* A room map's player glyph: on a cell with nothing else, which no letter
 * may define (the dialects that read '@' so). */
static int player_mark(const level_writer *w, const qg_cell *c)
{
    if (w->row->room || !w->row->player_glyph || c->glyph != w->row->player_glyph ||
        c->feature >= 0 || c->feature_name || c->cave_info)
        return 0;
    for (int s = 0; s < QG_SLOTS; s++)
        if (c->things[s].kind != QG_THING_NONE)
            return 0;
    return 1;
}

/* Whether reading the rows leaves the start at (sx, sy): the last player
 * glyph read marks it, so it must be there. */
static int start_marked(const level_writer *w, int sx, int sy)
{
    int width = qg_level_width(w->level), height = qg_level_height(w->level);
    for (int y = height - 1; y >= 0; y--)
        for (int x = width - 1; x >= 0; x--) {
            qg_cell cell;
            if (w->letters[(size_t)y * (size_t)width + (size_t)x] == w->row->player_glyph &&
                qg_level_cell(w->level, x, y, &cell) == QG_OK && player_mark(w, &cell))
                return x == sx && y == sy;
        }
    return 0;
}

/* The fixed letter a room builder gives a random door of that kind (the
 * cell's "random door: …" marker), or 0. */
static unsigned char door_letter(const level_writer *w, int x, int y)
{
    for (size_t i = 0; w->row->room && i < qg_level_marker_count(w->level); i++) {
        int mx, my;
        const char *spec = qg_level_marker(w->level, i, &mx, &my);
        if (mx != x || my != y || strncmp(spec, "random door: ", 13) != 0)
            continue;
        for (const fd_fixed_letter *f = w->row->room->fixed; f->letter; f++)
            if (f->door && strcmp(f->door, spec + 13) == 0 && !f->thing)
                return f->letter;
    }
    return 0;
}

/* The `quest "name"` marker of a cell, or NULL. */
static const char *quest_marker(const qg_level *level, int x, int y)
{
    for (size_t i = 0; i < qg_level_marker_count(level); i++) {
        int mx, my;
        const char *spec = qg_level_marker(level, i, &mx, &my);
        if (mx == x && my == y && strncmp(spec, "quest \"", 7) == 0)
            return spec;
    }
    return NULL;
}

static int same_text_or_null(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* A dialect whose maps have no letter lines: its built-in legend alone
 * gives glyphs their meaning (Angband 4.2's vault files). A legend beside
 * letter lines only fills in what a map leaves undefined. */
static int legend_only(const fd_dialect_row *row)
{
    return row->legend && !has_form(row, FD_REC_LETTER) && !has_form(row, FD_REC_GRID);
}

static int assign_letter(void *user, int x, int y, const qg_cell *found)
{
    level_writer *w = user;
    w->masked += found->vault_mask != 0;
    size_t at = (size_t)y * (size_t)qg_level_width(w->level) + (size_t)x;
    /* the built-in legend gives the glyphs their meaning; a room builder's
       code its random doors */
    unsigned char door = door_letter(w, x, y);
    if (legend_only(w->row) || player_mark(w, found) || door) {
        w->letters[at] = door ? door : found->glyph;
        w->taken[w->letters[at]] = 1;
        return 0;
    }
    qg_cell gate;
    const qg_cell *cell = found;
    if (linked_gate(w, x, y, found)) {
        gate = *found;
        gate.special = -1;
        cell = &gate;
    }
    const char *quest = w->row->f_fields[0] ? quest_marker(w->level, x, y) : NULL;
    int member = w->row->room && formation_member(cell);
    int i = 0;
    while (i < w->def_count &&
           !(same_spec(&w->defs[i].cell, cell) && same_text_or_null(w->defs[i].quest, quest)))
        i++;
    if (i < w->def_count && member && w->defs[i].letter != cell->glyph)
        i = w->def_count;
    if (i == w->def_count) {
        unsigned char letter = w->def_count < MAX_LETTERS ? free_letter(w, cell->glyph) : 0;
        if (member && letter != cell->glyph) {
            fd_out_warn(&w->o, "FORMATION members at '%c' differ in what else their cells "
                               "hold; the cell at row %d, column %d is written as one of them",
                        cell->glyph, y, x);
            for (i = 0; i < w->def_count && w->defs[i].letter != cell->glyph; i++)
                ;
            w->letters[at] = cell->glyph;
            return 0;
        }
        if (!letter) {
            w->too_many = 1;
            return 1;
        }
        w->taken[letter] = 1;
        w->defs[i].cell = *cell;
        w->defs[i].quest = quest;
        w->defs[i].letter = letter;
        w->defs[i].implied = 0;
        w->def_count++;
    }
    w->letters[at] = w->defs[i].letter;
    return 0;
}

static void spec_of(level_writer *w, const letter_def *d, qg_fd_spec *spec);

/* The level a room file of rows text (with the letters written so far)
 * builds, read as check_legend reads; NULL when it gives none. */
static qg_level *probe(level_writer *w, const char *rows)
{
    qg_buf text;
    qg_buf_init(&text);
    qg_buf_puts(&text, "T:QUEST:NORMAL\n");
    fd_out o = w->o;
    o.buf = &text;
    o.diags = NULL;
    for (int i = 0; i < w->def_count; i++)
        if (w->defs[i].letter == '.' && !w->defs[i].implied) {
            qg_fd_spec spec;
            spec_of(w, &w->defs[i], &spec);
            fd_put_grid(&o, &spec);
            qg_buf_putc(&text, '\n');
        }
    qg_buf_printf(&text, "M:%s\n", rows);
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.dialect = w->o.dialect;
    opt.vocab = w->o.vocab;
    opt.no_includes = 1;
    qg_mapdef *def = NULL;
    qg_level *built = NULL;
    if (!text.failed && qg_fd_parse("probe", text.data, text.len, &opt, &def, NULL) == QG_OK)
        qg_fd_resolve(def, &opt, NULL, &built, NULL);
    qg_mapdef_free(def);
    qg_buf_free(&text);
    return built;
}

/* A letter of the room builder's own (the fixed letters, v_info.txt's
 * global ones) whose cells are what it builds without an L: line is
 * written without one, keeping the glyph's meaning (an undefined '@' is a
 * meaner monster, a defined one the start). */
static void imply_letters(level_writer *w)
{
    for (int i = 0; w->row->room && i < w->def_count; i++) {
        letter_def *d = &w->defs[i];
        if (d->letter != d->cell.glyph || d->letter == '.' || d->letter == ' ')
            continue;
        char rows[2] = {(char)d->letter, '\0'};
        qg_level *built = probe(w, rows);
        qg_cell cell;
        if (built && qg_level_cell(built, 0, 0, &cell) == QG_OK && qg_cell_same(&cell, &d->cell) &&
            !qg_level_player_start(built, NULL, NULL))
            d->implied = 1;
        qg_level_free(built);
    }
}

/* Another letter for every cell written as letter (its definition kept). */
static int move_letter(level_writer *w, unsigned char letter)
{
    unsigned char to = free_letter(w, 0);
    if (!to)
        return 0;
    w->taken[to] = 1;
    for (int i = 0; i < w->def_count; i++)
        if (w->defs[i].letter == letter)
            w->defs[i].letter = to;
    size_t cells = (size_t)qg_level_width(w->level) * (size_t)qg_level_height(w->level);
    for (size_t at = 0; at < cells; at++)
        if (w->letters[at] == letter)
            w->letters[at] = to;
    return 1;
}

/* Whether a letter has an L: line. */
static int defined(const level_writer *w, unsigned char letter)
{
    for (int i = 0; i < w->def_count; i++)
        if (w->defs[i].letter == letter && !w->defs[i].implied)
            return 1;
    return 0;
}

/* Where a room builder puts the start: the last '@' of the rows, else the
 * last '<' (rooms.c, second pass), when the letter has an L: line; 0 when
 * neither is there. */
static int start_read(const level_writer *w, int *sx, int *sy)
{
    int width = qg_level_width(w->level);
    size_t cells = (size_t)width * (size_t)qg_level_height(w->level);
    long at_sign = -1, stair = -1;
    int at_defined = defined(w, '@'), stair_defined = defined(w, '<');
    for (size_t at = 0; at < cells; at++) {
        if (w->letters[at] == '@' && at_defined)
            at_sign = (long)at;
        if (w->letters[at] == '<' && stair_defined)
            stair = (long)at;
    }
    long at = at_sign >= 0 ? at_sign : stair;
    *sx = at >= 0 ? (int)(at % width) : -1;
    *sy = at >= 0 ? (int)(at / width) : -1;
    return at >= 0;
}

/* A room template marks the start with its '@' (else '<') letter: the
 * start cell gets a definition of its own under '@' when the rows would
 * put it elsewhere, and '@' and '<' go to other letters in a level
 * without one. */
static void room_start(level_writer *w)
{
    int sx, sy, rx, ry;
    int has = qg_level_player_start(w->level, &sx, &sy), read = start_read(w, &rx, &ry);
    if (!w->row->room || (has && read && rx == sx && ry == sy) || (!has && !read))
        return;
    if ((w->taken['@'] && !move_letter(w, '@')) ||
        (!has && w->taken['<'] && !move_letter(w, '<'))) {
        w->too_many = 1;
        return;
    }
    if (!has || w->def_count >= MAX_LETTERS) {
        w->too_many |= has;
        return;
    }
    letter_def *d = &w->defs[w->def_count++];
    qg_level_cell(w->level, sx, sy, &d->cell);
    d->quest = NULL;
    d->letter = '@';
    d->implied = 0;
    w->taken['@'] = 1;
    w->letters[(size_t)sy * (size_t)qg_level_width(w->level) + (size_t)sx] = '@';
}

/* A feature known only by name (a Crawl level) or by glyph (a drawing):
 * the vocabulary, else the mapping's Crawl names, else its glyphs, else
 * the Crawl feature the glyph stands for by itself. */
static int32_t feature_index(const level_writer *w, const qg_cell *c)
{
    const qg_mapping *m = w->o.mapping;
    int32_t index = -1;
    if (c->feature_name && w->o.vocab)
        index = qg_vocab_lookup(w->o.vocab, QG_VOCAB_FEATURE, c->feature_name);
    const qg_mapping_entry *e = NULL;
    if (index < 0 && m && c->feature_name)
        e = qg_mapping_by_crawl_name(m, QG_VOCAB_FEATURE, c->feature_name);
    if (index < 0 && m && !c->feature_name)
        e = qg_mapping_by_glyph(m, QG_VOCAB_FEATURE, c->glyph);
    if (index < 0 && m && !c->feature_name && (!e || e->index < 0))
        e = qg_mapping_by_crawl_name(m, QG_VOCAB_FEATURE, des_glyph_info(c->glyph)->feature);
    return e && e->index >= 0 ? e->index : index;
}

/* A feature known by name where the dialect names features by tag: the
 * name when the vocabulary has it (or there is none to ask), else the tag
 * of the entry the mapping gives the name (a Crawl level's features),
 * else the vocabulary's feature 0, as the index dialects write. */
static const char *feature_tag(level_writer *w, const qg_cell *c)
{
    const qg_vocab *v = w->o.vocab;
    if (!v || !qg_vocab_size(v, QG_VOCAB_FEATURE) ||
        qg_vocab_lookup(v, QG_VOCAB_FEATURE, c->feature_name) >= 0)
        return c->feature_name;
    int32_t index = feature_index(w, c);
    const char *tag = index >= 0 ? qg_vocab_tag(v, QG_VOCAB_FEATURE, (int)index) : NULL;
    if (tag)
        return tag;
    tag = qg_vocab_tag(v, QG_VOCAB_FEATURE, 0);
    fd_out_warn(&w->o, "unmapped feature '%s' (glyph '%c'): no tag of the vocabulary; "
                       "written as %s", c->feature_name, c->glyph, tag ? tag : "it is");
    w->unmapped++;
    return tag ? tag : c->feature_name;
}

/* The feature and things of a cell as the output game's own (see
 * fd_translate_spec). A feature known by neither index nor name is the
 * Crawl feature its glyph draws in a drawing or a Crawl level, floor in
 * an Angband-family level (a letter that says no feature). */
static void translate_spec(level_writer *w, const qg_cell *c, qg_fd_spec *spec)
{
    const char *name = c->feature_name;
    if (c->feature < 0 && !name)
        name = qg_game_is_crawl(qg_translator_source(w->o.translator))
                   ? des_glyph_info(c->glyph)->feature
                   : "floor";
    spec->feature.kind = c->feature >= 0 ? QG_THING_INDEX : QG_THING_TAG;
    spec->feature.index = c->feature;
    spec->feature.name = name;
    if (!fd_translate_spec(&w->o, spec))
        w->unmapped++;
}

static void spec_of(level_writer *w, const letter_def *d, qg_fd_spec *spec)
{
    const qg_cell *c = &d->cell;
    memset(spec, 0, sizeof *spec);
    spec->letter = d->letter;
    spec->feature.kind = QG_THING_INDEX;
    spec->feature.index = c->feature;
    memcpy(spec->things, c->things, sizeof spec->things);
    if (w->o.translator && (c->feature >= 0 || c->feature_name ||
                            (w->row->f_fields[0] != FD_F_END && !has_form(w->row, FD_REC_GRID)))) {
        translate_spec(w, c, spec);
    } else if (c->feature < 0 && !c->feature_name &&
        (w->row->f_fields[0] == FD_F_END || has_form(w->row, FD_REC_GRID))) {
        spec->feature.kind = QG_THING_NONE;
    } else if (c->feature < 0 && c->feature_name && w->row->tag_features) {
        spec->feature.kind = QG_THING_TAG;
        spec->feature.name = feature_tag(w, c);
    } else if (c->feature < 0) {
        int32_t index = feature_index(w, c);
        if (index < 0) {
            fd_out_warn(&w->o, "unmapped feature '%s' (glyph '%c'): no f_info entry in "
                               "the vocabulary; written as feature 0",
                        c->feature_name ? c->feature_name : "(none)", c->glyph);
            w->unmapped++;
            index = 0;
        }
        spec->feature.index = index;
    }
    spec->cave_info = c->cave_info;
    spec->feature_chance = c->feature_chance;
    spec->special = c->special;
    spec->mimic = c->mimic;
    spec->mflag = c->mflag;
}

/* What an F: line cannot say: no feature, things known by name only. */
static int needs_grid(const qg_fd_spec *s)
{
    if (s->feature.kind == QG_THING_NONE)
        return 1;
    for (int slot = 0; slot < QG_SLOTS; slot++)
        if (s->things[slot].kind == QG_THING_NAME)
            return 1;
    return 0;
}

static void put_letters(level_writer *w)
{
    int letters = has_form(w->row, FD_REC_LETTER), grids = has_form(w->row, FD_REC_GRID);
    qg_fd_spec specs[MAX_LETTERS];
    for (int i = 0; i < w->def_count; i++)
        if (!w->defs[i].implied)
            spec_of(w, &w->defs[i], &specs[i]);
    /* nothing more is written of what the translator refused */
    if (w->o.translator && qg_translator_refused(w->o.translator))
        return;
    for (int i = 0; i < w->def_count; i++) {
        if (w->defs[i].implied)
            continue;
        qg_fd_spec spec = specs[i];
        qg_thing *member = &spec.things[QG_SLOT_MONSTER];
        /* the '0' letter of a FORMATION room names the members' kind */
        if (member->kind == QG_THING_FORMATION && member->index == 0)
            *member = (qg_thing){QG_THING_RANDOM, member->depth, member->name, 0, member->flags, 0};
        int grid = !letters || (grids && needs_grid(&spec));
        char name[512];
        const char *quest = w->defs[i].quest;
        if (quest) {
            /* quest "name" → name */
            size_t n = strlen(quest) - 7;
            n = n && quest[7 + n - 1] == '"' ? n - 1 : n;
            snprintf(name, sizeof name, "%.*s", (int)n, quest + 7);
            spec.special_name = name;
        }
        if (grid)
            fd_put_grid(&w->o, &spec);
        else
            fd_put_spec(&w->o, &spec, 0);
        qg_buf_putc(w->o.buf, '\n');
    }
}

/* Holes (cells outside the map between cells inside it): ToME leaves a
 * cell whose letter no F: line defines alone, and such a hole is written
 * so. The other games' readers (and questgrid's) refuse an undefined
 * letter, and nothing else leaves a cell alone: a hole becomes floor,
 * under a letter of its own, and a warning says so. */
static void choose_hole(level_writer *w)
{
    int width = qg_level_width(w->level), height = qg_level_height(w->level);
    for (int y = 0; y < height; y++) {
        int last = -1;
        for (int x = 0; x < width; x++)
            if (w->letters[(size_t)y * (size_t)width + (size_t)x])
                last = x;
        for (int x = 0; x < last; x++)
            if (!w->letters[(size_t)y * (size_t)width + (size_t)x])
                w->holes++;
    }
    if (w->row->space_passes || !w->holes) {
        w->hole = w->taken[' '] ? free_letter(w, 0) : ' ';
        w->too_many |= !w->hole;
        return;
    }
    qg_cell floor;
    memset(&floor, 0, sizeof floor);
    floor.glyph = '.';
    floor.in_map = 1;
    floor.feature = -1;
    floor.feature_name = "floor";
    int i = 0;
    while (i < w->def_count && !same_spec(&w->defs[i].cell, &floor))
        i++;
    if (i == w->def_count) {
        unsigned char letter = w->def_count < MAX_LETTERS ? free_letter(w, floor.glyph) : 0;
        if (!letter) {
            w->too_many = 1;
            return;
        }
        w->taken[letter] = 1;
        w->defs[i].cell = floor;
        w->defs[i].quest = NULL;
        w->defs[i].letter = letter;
        w->def_count++;
    }
    w->hole = w->defs[i].letter;
    fd_out_warn(&w->o, "%zu cells outside the map lie between cells inside it: %s leaves no "
                       "cell alone, so they are written as floor ('%c')", w->holes,
                qg_fd_dialect_name(w->o.dialect), w->hole);
}

static void put_rows(level_writer *w)
{
    int width = qg_level_width(w->level), height = qg_level_height(w->level);
    const fd_form *row_form = form_of(w->row, FD_REC_ROW);
    const char *key = row_form ? row_form->key : "D";
    for (int y = 0; y < height; y++) {
        const unsigned char *row = w->letters + (size_t)y * (size_t)width;
        int end = width;
        /* where ' ' leaves a cell alone, the rows keep the level's width */
        while (!w->row->space_passes && end > 0 && !row[end - 1])
            end--;
        qg_buf_printf(w->o.buf, "%s:", key);
        for (int x = 0; x < end; x++)
            qg_buf_putc(w->o.buf, row[x] ? row[x] : w->hole);
        qg_buf_putc(w->o.buf, '\n');
    }
    int sx, sy;
    if (!qg_level_player_start(w->level, &sx, &sy))
        return;
    /* a start the map marks with the player glyph (a room template's '@'
       or '<', see room_start) needs no P: line */
    if (w->row->room || (w->row->player_glyph && start_marked(w, sx, sy)))
        return;
    if (has_form(w->row, FD_REC_PLAYER))
        qg_buf_printf(w->o.buf, "P:%d:%d\n", sy, sx);
    else
        fd_out_warn(&w->o, "%s has no player start record; the start (row %d, column %d) is "
                           "dropped", qg_fd_dialect_name(w->o.dialect), sy, sx);
}

/* Keys the resolver sets from what the file is (its dialect, its kind,
 * the screens P: sizes) or that a quest record writes with others. */
static int implied_key(const char *key)
{
    static const char *const keys[] = {"dialect", "kind", "file", "line", "cur_hgt", "cur_wid",
                                       "quest", "game", "scrambled", NULL};
    for (int i = 0; keys[i]; i++)
        if (strcmp(key, keys[i]) == 0)
            return 1;
    return 0;
}

static const char *const quest_fields[] = {
    "quest_type", "quest_num_mon", "quest_cur_num", "quest_max_num", "quest_level",
    "quest_monster", "quest_artifact", "quest_dungeon", "quest_flags", NULL};

static int quest_field(const char *key)
{
    for (int i = 0; quest_fields[i]; i++)
        if (strcmp(key, quest_fields[i]) == 0)
            return 1;
    return 0;
}

/* Q:[$]n: — the English marker where the dialect keeps two languages. */
static void quest_prefix(level_writer *w, const char *number)
{
    qg_buf_printf(w->o.buf, "Q:%s%s:", w->row->bilingual ? "$" : "", number);
}

/* Q:n:Q:type:num_mon:cur_num:max_num:level:monster:artifact[:dungeon]:flags */
static void put_quest_definition(level_writer *w, const char *number)
{
    const qg_level *l = w->level;
    quest_prefix(w, number);
    qg_buf_putc(w->o.buf, 'Q');
    for (int i = 0; quest_fields[i]; i++) {
        const char *v = qg_level_get_property(l, quest_fields[i]);
        if (i == 7 && !w->row->quest_dungeon) {
            if (v && strcmp(v, "0") != 0)
                fd_out_warn(&w->o, "%s has no quest dungeon field (dungeon %s is dropped)",
                            qg_fd_dialect_name(w->o.dialect), v);
            continue;
        }
        qg_buf_printf(w->o.buf, ":%s", v ? v : "0");
    }
    qg_buf_putc(w->o.buf, '\n');
}

/* The record form whose text sets the property key. */
static const fd_form *property_form(const fd_dialect_row *row, const char *key)
{
    for (const fd_form *f = row->forms; f && f->key; f++)
        if (f->property && f->rec != FD_REC_IGNORED && strcmp(f->property, key) == 0)
            return f;
    return NULL;
}

/* One property as the record it came from; 0 when the dialect has none. */
static int put_property(level_writer *w, const char *key, const char *value, size_t *at)
{
    const qg_level *l = w->level;
    const char *number = qg_level_get_property(l, "quest");
    const fd_form *form = property_form(w->row, key);
    const fd_form *head = form_of(w->row, FD_REC_MAP_HEAD);
    int quests = has_form(w->row, FD_REC_QUEST) && number;
    const fd_form *quest_head = form_of(w->row, FD_REC_QUEST_HEAD);
    if (!strcmp(key, "name") && head) {
        qg_buf_printf(w->o.buf, "%s:%s\n", head->key, value);
    } else if (!strcmp(key, "name") && quest_head && number) {
        const char *level = qg_level_get_property(l, "quest_level");
        qg_buf_printf(w->o.buf, "%s:%s:%s:%s\n", quest_head->key, number, level ? level : "0",
                      value);
    } else if (!strcmp(key, "quest_level") && quest_head && number) {
        /* written with the name */
    } else if (!strcmp(key, "name") && quests) {
        quest_prefix(w, number);
        qg_buf_printf(w->o.buf, "N:%s\n", value);
    } else if (!strcmp(key, "quest_type") && quests) {
        put_quest_definition(w, number);
    } else if (quest_field(key) && quests && qg_level_get_property(l, "quest_type")) {
        /* written with quest_type */
    } else if (!strcmp(key, "quest_text") && quests) {
        quest_prefix(w, number);
        qg_buf_printf(w->o.buf, "T:%s\n", value);
    } else if (!strcmp(key, "quest_reward") && quests && w->row->quest_rewards) {
        quest_prefix(w, number);
        qg_buf_putc(w->o.buf, 'R');
        for (; *at < qg_level_property_count(l); ++*at) {
            const char *v;
            if (strcmp(qg_level_property(l, *at, &v), "quest_reward") != 0)
                break;
            qg_buf_printf(w->o.buf, ":%s", v);
        }
        --*at;
        qg_buf_putc(w->o.buf, '\n');
    } else if (form) {
        qg_buf_printf(w->o.buf, "%s:%s\n", form->key, value);
    } else if (!strcmp(key, "record")) {
        qg_buf_printf(w->o.buf, "%s\n", value);
    } else {
        return 0;
    }
    return 1;
}

/* The records the properties came from, in their order; what has no
 * record, and markers, become comments. */
static void put_letters(level_writer *w);

/* A room's SCRAMBLE names letters defined before it: the letters come
 * before the first one, the properties keeping their order. (A level's
 * drawn picks are in its cells: the file, like the game's, draws anew.) */
static int put_scramble(level_writer *w, const char *key, const char *value, int *lettered)
{
    if (!w->row->room || strcmp(key, "scramble") != 0)
        return 0;
    if (!*lettered)
        put_letters(w);
    *lettered = 1;
    qg_buf_printf(w->o.buf, "!:%s\n", value);
    return 1;
}

static void put_properties(level_writer *w)
{
    const qg_level *l = w->level;
    size_t commented = 0;
    int lettered = 0;
    for (size_t i = 0; i < qg_level_property_count(l); i++) {
        const char *value;
        const char *key = qg_level_property(l, i, &value);
        if (put_scramble(w, key, value, &lettered) || implied_key(key) ||
            put_property(w, key, value, &i))
            continue;
        qg_buf_printf(w->o.buf, "# %s: %s\n", key, value);
        commented++;
    }
    if (!lettered)
        put_letters(w);
    size_t markers = 0;
    for (size_t i = 0; i < qg_level_marker_count(l); i++) {
        int x, y;
        const char *spec = qg_level_marker(l, i, &x, &y);
        qg_cell cell;
        int gate = strncmp(spec, "gate ", 5) == 0 &&
                   qg_level_cell(l, x, y, &cell) == QG_OK && linked_gate(w, x, y, &cell);
        int quest = strncmp(spec, "quest \"", 7) == 0 && qg_level_cell(l, x, y, &cell) == QG_OK;
        /* a room's random doors are its fixed door letters */
        int door = w->row->room && strncmp(spec, "random door: ", 13) == 0;
        if (gate || quest || door)
            continue;
        qg_buf_printf(w->o.buf, "# marker at row %d, column %d: %s\n", y, x, spec);
        markers++;
    }
    if (commented)
        fd_out_warn(&w->o, "%s has no record for %zu level properties (tags, depth, …); "
                           "they are written as comments", qg_fd_dialect_name(w->o.dialect),
                    commented);
    if (markers)
        fd_out_warn(&w->o, "F:/D: has no markers; %zu are written as comments", markers);
    if (w->masked)
        fd_out_warn(&w->o, "F:/D: has no vault masks (%zu cells have some)", w->masked);
}

/* A dialect with a built-in legend says nothing of a cell but its glyph:
 * the file is read back and every cell that comes out different is an
 * error. A room template is read back too: what its builder makes
 * otherwise is warned about. */
static void check_legend(level_writer *w, const char *text, size_t len)
{
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.dialect = w->o.dialect;
    opt.vocab = w->o.vocab;
    opt.no_includes = 1;
    qg_diags *d = qg_diags_new();
    qg_mapdef *def = NULL;
    qg_level *back = NULL;
    if (qg_fd_parse("written", text, len, &opt, &def, d) == QG_OK)
        qg_fd_resolve(def, &opt, NULL, &back, d);
    size_t bad = 0;
    int bx = 0, by = 0;
    for (int y = 0; back && y < qg_level_height(w->level); y++)
        for (int x = 0; x < qg_level_width(w->level); x++) {
            qg_cell a, b;
            qg_level_cell(w->level, x, y, &a);
            if (qg_level_cell(back, x, y, &b) == QG_OK && qg_cell_same(&a, &b))
                continue;
            if (!bad++) {
                bx = x;
                by = y;
            }
        }
    if ((!back || bad) && w->row->room)
        fd_out_warn(&w->o, "%s builds %zu cells (first at row %d, column %d) of the file "
                           "otherwise than the level has them", qg_fd_dialect_name(w->o.dialect),
                    back ? bad : (size_t)qg_level_width(w->level), by, bx);
    else if (!back || bad)
        qg_diags_add(w->o.diags, QG_ERROR, "", 0, 0, NULL, 0,
                     "%s has a built-in legend only: %zu cells (first at row %d, column %d) "
                     "hold what no glyph of it stands for", qg_fd_dialect_name(w->o.dialect),
                     back ? bad : (size_t)qg_level_width(w->level), by, bx);
    qg_level_free(back);
    qg_mapdef_free(def);
    qg_diags_free(d);
}

qg_status qg_fd_write_level(const qg_level *level, const qg_write_options *options,
                            char **out, size_t *len, qg_diags *diags)
{
    /* the games lay a map into arrays of their size (and past them) */
    if (qg_level_width(level) > QG_FD_MAX_WID || qg_level_height(level) > QG_FD_MAX_HGT) {
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0,
                     "the level is %d x %d, larger than the games' %d x %d: they would write "
                     "past the end of their map", qg_level_width(level), qg_level_height(level),
                     QG_FD_MAX_WID, QG_FD_MAX_HGT);
        return QG_ERR_LIMIT;
    }
    level_writer *w = calloc(1, sizeof *w);
    size_t cells = (size_t)qg_level_width(level) * (size_t)qg_level_height(level);
    unsigned char *letters = calloc(cells, 1);
    qg_buf buf;
    qg_buf_init(&buf);
    if (!w || !letters) {
        free(w);
        free(letters);
        return QG_ERR_NOMEM;
    }
    w->level = level;
    w->letters = letters;
    w->o.buf = &buf;
    w->o.diags = diags;
    w->o.vocab = options ? options->vocab : NULL;
    w->o.mapping = options ? options->mapping : NULL;
    w->o.translator = options ? options->translator : NULL;
    const char *own = qg_level_get_property(level, "dialect");
    int from = own ? qg_fd_dialect_from_name(own) : -1;
    w->o.dialect = options && options->fd_dialect != QG_FD_AUTO ? options->fd_dialect
                   : from > QG_FD_AUTO ? (qg_fd_dialect)from : QG_FD_ZANGBAND;
    w->row = fd_row(w->o.dialect);
    qg_buf_printf(&buf, "# %s: written by questgrid %s (%s)\n",
                  qg_level_name(level) ? qg_level_name(level) : "level", qg_version(),
                  qg_fd_dialect_name(w->o.dialect));
    qg_level_foreach(level, assign_letter, w);
    imply_letters(w);
    room_start(w);
    qg_status status = QG_OK;
    if (!w->too_many) {
        put_properties(w);
        choose_hole(w);
        put_letters(w);
    }
    if (w->too_many) {
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0,
                     "the level has more distinct cells than F:/D: has letters (%d)",
                     MAX_LETTERS);
        status = QG_ERR_LIMIT;
    } else {
        put_rows(w);
        if (buf.failed)
            status = QG_ERR_NOMEM;
    }
    /* what the translator refused is reported by its caller: no file */
    if (status == QG_OK && w->o.translator && qg_translator_refused(w->o.translator))
        status = QG_ERR_INVALID;
    if (status == QG_OK && (legend_only(w->row) || w->row->room)) {
        size_t errors = qg_diags_count_severity(diags, QG_ERROR);
        check_legend(w, buf.data, buf.len);
        if (qg_diags_count_severity(diags, QG_ERROR) > errors)
            status = QG_ERR_INVALID;
    }
    if (status == QG_OK) {
        *len = buf.len;
        *out = qg_buf_take(&buf);
    }
    qg_buf_free(&buf);
    free(letters);
    free(w);
    return status;
}

/* F:/D: writer from a level: one F: letter per distinct glyph and cell
 * (the glyph itself when it is free to be a letter), D: rows, P:, and Q: records
 * from the quest properties the F:/D: resolver sets. What F:/D: has no
 * place for (markers, other properties, holes in rows) is written as
 * comments and warned about. */
#include "formats/fd_out.h"
#include "des/glyphs.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LETTERS 94

typedef struct letter_def {
    qg_cell cell;        /* a cell with this spec (pointers into the level) */
    unsigned char letter;
} letter_def;

typedef struct level_writer {
    const qg_level *level;
    fd_out o;
    letter_def defs[MAX_LETTERS];
    int def_count;
    int taken[256];
    unsigned char *letters;  /* per cell: its letter, 0 outside the map */
    unsigned char hole;      /* the undefined letter written for holes */
    size_t holes, unmapped, masked;
    int too_many;
} level_writer;

static int same_name(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static int same_spec(const qg_cell *a, const qg_cell *b)
{
    if (a->glyph != b->glyph || a->feature != b->feature || !same_name(a->feature_name, b->feature_name) ||
        a->cave_info != b->cave_info || a->special != b->special || a->mimic != b->mimic ||
        a->mflag != b->mflag)
        return 0;
    for (int s = 0; s < QG_SLOTS; s++)
        if (a->things[s].kind != b->things[s].kind || a->things[s].index != b->things[s].index ||
            !same_name(a->things[s].name, b->things[s].name))
            return 0;
    return 1;
}

/* ' ' is kept only as a cell's own glyph (ToME skips undefined spaces). */
static int usable_letter(int c)
{
    return c >= ' ' && c < 0x7F && c != ':' && c != '/';
}

static unsigned char free_letter(level_writer *w, unsigned char wanted)
{
    if (usable_letter(wanted) && !w->taken[wanted])
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
    if (w->o.dialect != QG_FD_TOME || cell->special <= 0)
        return 0;
    qg_cell other;
    int ox = cell->special & 0xFF, oy = cell->special >> 8;
    return qg_level_cell(w->level, ox, oy, &other) == QG_OK && other.in_map &&
           other.special == (y << 8) + x;
}

static int assign_letter(void *user, int x, int y, const qg_cell *found)
{
    level_writer *w = user;
    w->masked += found->vault_mask != 0;
    qg_cell gate;
    const qg_cell *cell = found;
    if (linked_gate(w, x, y, found)) {
        gate = *found;
        gate.special = -1;
        cell = &gate;
    }
    int i = 0;
    while (i < w->def_count && !same_spec(&w->defs[i].cell, cell))
        i++;
    if (i == w->def_count) {
        unsigned char letter = w->def_count < MAX_LETTERS ? free_letter(w, cell->glyph) : 0;
        if (!letter) {
            w->too_many = 1;
            return 1;
        }
        w->taken[letter] = 1;
        w->defs[i].cell = *cell;
        w->defs[i].letter = letter;
        w->def_count++;
    }
    w->letters[(size_t)y * (size_t)qg_level_width(w->level) + (size_t)x] = w->defs[i].letter;
    return 0;
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

static void spec_of(level_writer *w, const letter_def *d, qg_fd_spec *spec)
{
    const qg_cell *c = &d->cell;
    memset(spec, 0, sizeof *spec);
    spec->letter = d->letter;
    spec->feature.kind = QG_THING_INDEX;
    spec->feature.index = c->feature;
    if (c->feature < 0) {
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
    memcpy(spec->things, c->things, sizeof spec->things);
    spec->special = c->special;
    spec->mimic = c->mimic;
    spec->mflag = c->mflag;
}

static void put_letters(level_writer *w)
{
    for (int i = 0; i < w->def_count; i++) {
        qg_fd_spec spec;
        spec_of(w, &w->defs[i], &spec);
        fd_put_spec(&w->o, &spec, 0);
        qg_buf_putc(w->o.buf, '\n');
    }
}

/* Holes (cells outside the map between cells inside it) are written as a
 * letter no F: line defines: ToME leaves such a cell alone, the others
 * place the zeroed letter (feature 0) there. */
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
    w->hole = w->taken[' '] ? free_letter(w, 0) : ' ';
    if (!w->hole) {
        w->too_many = 1;
        return;
    }
    if (w->holes && w->o.dialect != QG_FD_TOME)
        fd_out_warn(&w->o, "%zu cells outside the map lie between cells inside it; they are "
                           "written as '%c', which no F: line defines (the games put feature "
                           "0 there)", w->holes, w->hole);
}

static void put_rows(level_writer *w)
{
    int width = qg_level_width(w->level), height = qg_level_height(w->level);
    for (int y = 0; y < height; y++) {
        const unsigned char *row = w->letters + (size_t)y * (size_t)width;
        int end = width;
        /* ToME sizes a level by its rows, spaces included */
        while (w->o.dialect != QG_FD_TOME && end > 0 && !row[end - 1])
            end--;
        qg_buf_puts(w->o.buf, "D:");
        for (int x = 0; x < end; x++)
            qg_buf_putc(w->o.buf, row[x] ? row[x] : w->hole);
        qg_buf_putc(w->o.buf, '\n');
    }
    int sx, sy;
    if (qg_level_player_start(w->level, &sx, &sy))
        qg_buf_printf(w->o.buf, "P:%d:%d\n", sy, sx);
}

static int resolver_key(const char *key)
{
    static const char *const keys[] = {"dialect", "kind", "cur_hgt", "cur_wid", "name",
                                       "quest", "quest_text", "record"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (strcmp(key, keys[i]) == 0)
            return 1;
    return strncmp(key, "quest_", 6) == 0;
}

static void put_quest(level_writer *w)
{
    const qg_level *l = w->level;
    const char *number = qg_level_get_property(l, "quest");
    if (!number)
        return;
    const char *name = qg_level_get_property(l, "name");
    if (!name)
        name = qg_level_name(l);
    if (name)
        qg_buf_printf(w->o.buf, "Q:%s:N:%s\n", number, name);
    static const char *const fields[] = {
        "quest_type", "quest_num_mon", "quest_cur_num", "quest_max_num", "quest_level",
        "quest_monster", "quest_artifact", "quest_dungeon", "quest_flags"};
    if (qg_level_get_property(l, "quest_type")) {
        qg_buf_printf(w->o.buf, "Q:%s:Q", number);
        for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
            const char *v = qg_level_get_property(l, fields[i]);
            int dungeon = i == 7;
            if (dungeon && w->o.dialect != QG_FD_HENGBAND) {
                if (v && strcmp(v, "0") != 0)
                    fd_out_warn(&w->o, "%s has no quest dungeon field (dungeon %s is dropped)",
                                qg_fd_dialect_name(w->o.dialect), v);
                continue;
            }
            qg_buf_printf(w->o.buf, ":%s", v ? v : "0");
        }
        qg_buf_putc(w->o.buf, '\n');
    }
    for (size_t i = 0; i < qg_level_property_count(l); i++) {
        const char *value;
        const char *key = qg_level_property(l, i, &value);
        if (strcmp(key, "quest_text") == 0)
            qg_buf_printf(w->o.buf, "Q:%s:T:%s\n", number, value);
    }
}

/* Records the resolver carried verbatim, then what has no record. */
static void put_properties(level_writer *w)
{
    const qg_level *l = w->level;
    size_t commented = 0;
    for (size_t i = 0; i < qg_level_property_count(l); i++) {
        const char *value;
        const char *key = qg_level_property(l, i, &value);
        if (strcmp(key, "record") == 0)
            qg_buf_printf(w->o.buf, "%s\n", value);
        else if (!resolver_key(key)) {
            qg_buf_printf(w->o.buf, "# %s: %s\n", key, value);
            commented++;
        }
    }
    size_t markers = 0;
    for (size_t i = 0; i < qg_level_marker_count(l); i++) {
        int x, y;
        const char *spec = qg_level_marker(l, i, &x, &y);
        qg_cell cell;
        int gate = strncmp(spec, "gate ", 5) == 0 &&
                   qg_level_cell(l, x, y, &cell) == QG_OK && linked_gate(w, x, y, &cell);
        if (gate)
            continue;
        qg_buf_printf(w->o.buf, "# marker at row %d, column %d: %s\n", y, x, spec);
        markers++;
    }
    if (commented)
        fd_out_warn(&w->o, "F:/D: has no record for %zu level properties (tags, depth, …); "
                           "they are written as comments", commented);
    if (markers)
        fd_out_warn(&w->o, "F:/D: has no markers; %zu are written as comments", markers);
    if (w->masked)
        fd_out_warn(&w->o, "F:/D: has no vault masks (%zu cells have some)", w->masked);
}

qg_status qg_fd_write_level(const qg_level *level, const qg_write_options *options,
                            char **out, size_t *len, qg_diags *diags)
{
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
    const char *own = qg_level_get_property(level, "dialect");
    qg_fd_dialect from = own ? (qg_fd_dialect)qg_fd_dialect_from_name(own) : QG_FD_ZANGBAND;
    w->o.dialect = options && options->fd_dialect != QG_FD_AUTO ? options->fd_dialect
                   : from > QG_FD_AUTO ? from : QG_FD_ZANGBAND;
    qg_buf_printf(&buf, "# %s: written by questgrid %s (%s)\n",
                  qg_level_name(level) ? qg_level_name(level) : "level", qg_version(),
                  qg_fd_dialect_name(w->o.dialect));
    qg_level_foreach(level, assign_letter, w);
    qg_status status = QG_OK;
    if (!w->too_many) {
        put_quest(w);
        put_properties(w);
        put_letters(w);
        choose_hole(w);
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
    if (status == QG_OK) {
        *len = buf.len;
        *out = qg_buf_take(&buf);
    }
    qg_buf_free(&buf);
    free(letters);
    free(w);
    return status;
}

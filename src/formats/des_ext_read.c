/* Reading back a level from a .des map with #qg: lines: its MAP rows
 * placed at the level's origin, each glyph standing for the exact cell
 * its #qg:glyph line gives, then the cells that differ, markers, the
 * player start, the name and the properties. No Lua runs: the #qg: lines
 * say everything, also for maps larger than Crawl allows. */
#include "formats/des_ext.h"
#include "core/level.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct text_line {
    const char *p;
    size_t len;
    int number;
} text_line;

typedef struct reader {
    const char *path;
    qg_diags *diags;
    qg_level *level;
    qg_cell glyphs[256];
    unsigned char defined[256];
    int outside;               /* the glyph for cells outside the map, or -1 */
    int x0, y0;
    int failed;
    /* names of glyph cells (owned) */
    char *names[256][QG_SLOTS + 1];
} reader;

static void fail(reader *r, const text_line *l, int col, const char *what)
{
    qg_diags_add(r->diags, QG_ERROR, r->path, l->number, col, l->p, l->len, "%s", what);
    r->failed = 1;
}

static int next_line(const char **p, const char *end, text_line *l, int *number)
{
    if (*p >= end)
        return 0;
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    l->p = *p;
    l->len = nl ? (size_t)(nl - *p) : (size_t)(end - *p);
    while (l->len && l->p[l->len - 1] == '\r')
        l->len--;
    l->number = ++*number;
    *p = nl ? nl + 1 : end;
    return 1;
}

static int starts(const text_line *l, const char *word)
{
    size_t n = strlen(word);
    return l->len >= n && memcmp(l->p, word, n) == 0;
}

/* A cell's fields; names are malloc'd into names[0..QG_SLOTS]. */
static int read_cell(des_ext_words *w, qg_cell *c, char *names[QG_SLOTS + 1])
{
    long v[8];
    memset(c, 0, sizeof *c);
    c->in_map = 1;
    if (!des_ext_number(w, &v[0]) || v[0] < 0 || v[0] > 255 || !des_ext_number(w, &v[1]) ||
        !des_ext_string(w, &names[0]))
        return 0;
    for (int i = 2; i < 7; i++)
        if (!des_ext_number(w, &v[i]))
            return 0;
    c->glyph = (unsigned char)v[0];
    c->feature = (int32_t)v[1];
    c->feature_name = names[0];
    c->cave_info = (uint32_t)v[2];
    c->vault_mask = (uint32_t)v[3];
    c->special = (int32_t)v[4];
    c->mimic = (int32_t)v[5];
    c->mflag = (uint32_t)v[6];
    for (int s = 0; s < QG_SLOTS; s++) {
        char kind[16];
        long index;
        if (!des_ext_keyword(w, kind, sizeof kind) || !des_ext_number(w, &index) ||
            !des_ext_string(w, &names[s + 1]))
            return 0;
        qg_thing_kind k = qg_thing_kind_from_name(kind);
        if (k == QG_THING_NONE && strcmp(kind, "none") != 0)
            return 0;
        c->things[s] = (qg_thing){k, (int32_t)index, names[s + 1], 0, 0, 0};
    }
    char odds[8];
    if (w->p >= w->end)
        return 1;
    if (!des_ext_keyword(w, odds, sizeof odds) || strcmp(odds, "odds") != 0 ||
        !des_ext_number(w, &v[7]))
        return 0;
    c->feature_chance = (int32_t)v[7];
    for (int s = 0; s < QG_SLOTS; s++) {
        long chance, flags, depth;
        if (!des_ext_number(w, &chance) || !des_ext_number(w, &flags) ||
            !des_ext_number(w, &depth))
            return 0;
        c->things[s].chance = (int32_t)chance;
        c->things[s].flags = (uint32_t)flags;
        c->things[s].depth = (int32_t)depth;
    }
    return w->p >= w->end;
}

static void free_names(char *names[QG_SLOTS + 1])
{
    for (int i = 0; i <= QG_SLOTS; i++) {
        free(names[i]);
        names[i] = NULL;
    }
}

static void put_cell(reader *r, int x, int y, const qg_cell *c)
{
    r->failed |= qg_level_copy_cell(r->level, x, y, c) != QG_OK;
}

static void glyph_line(reader *r, const text_line *l, des_ext_words *w)
{
    long g;
    qg_cell cell;
    char *names[QG_SLOTS + 1] = {0};
    if (!des_ext_number(w, &g) || g < 0 || g > 255) {
        fail(r, l, des_ext_column(w), "#qg:glyph needs a glyph (a byte value)");
    } else if (r->defined[g]) {
        fail(r, l, des_ext_column(w), "a second #qg:glyph line for this glyph");
    } else if (!read_cell(w, &cell, names)) {
        fail(r, l, des_ext_column(w), "malformed cell in a #qg:glyph line");
    } else {
        r->glyphs[g] = cell;
        r->defined[g] = 1;
        memcpy(r->names[g], names, sizeof names);
        return;
    }
    free_names(names);
}

static void cell_line(reader *r, const text_line *l, des_ext_words *w)
{
    long x, y;
    qg_cell cell;
    char *names[QG_SLOTS + 1] = {0};
    if (!des_ext_number(w, &x) || !des_ext_number(w, &y) || !read_cell(w, &cell, names))
        fail(r, l, des_ext_column(w), "malformed #qg:cell line (x y cell)");
    else if (x < 0 || y < 0 || x >= qg_level_width(r->level) || y >= qg_level_height(r->level))
        fail(r, l, DES_EXT_PREFIX_LEN + 1, "#qg:cell outside the level");
    else if (qg_level_clear_cell(r->level, (int)x, (int)y) == QG_OK)
        put_cell(r, (int)x, (int)y, &cell);
    free_names(names);
}

/* #qg:name, #qg:start, #qg:prop, #qg:marker. */
static void level_line(reader *r, const text_line *l, des_ext_words *w, const char *key)
{
    char *a = NULL, *b = NULL;
    long x, y;
    int ok = 1;
    if (!strcmp(key, "name")) {
        ok = des_ext_string(w, &a) && qg_level_set_name(r->level, a) == QG_OK;
    } else if (!strcmp(key, "start")) {
        ok = des_ext_number(w, &x) && des_ext_number(w, &y);
        if (ok)
            qg_level_set_player_start(r->level, (int)x, (int)y);
    } else if (!strcmp(key, "prop")) {
        ok = des_ext_string(w, &a) && des_ext_string(w, &b) && a && b &&
             qg_level_add_property(r->level, a, b) == QG_OK;
    } else if (!strcmp(key, "marker")) {
        ok = des_ext_number(w, &x) && des_ext_number(w, &y) && des_ext_string(w, &a) && a &&
             qg_level_add_marker(r->level, (int)x, (int)y, a) == QG_OK;
    } else {
        fail(r, l, DES_EXT_PREFIX_LEN + 1, "unknown #qg: line (level, outside, glyph, cell, "
                                           "marker, start, name, prop)");
    }
    if (!ok)
        fail(r, l, des_ext_column(w), "malformed #qg: line");
    free(a);
    free(b);
}

static void map_row(reader *r, const text_line *l, int y)
{
    for (size_t i = 0; i < l->len && !r->failed; i++) {
        unsigned char g = (unsigned char)l->p[i];
        if (g == ' ' || (int)g == r->outside)
            continue;
        if (!r->defined[g]) {
            char what[80];
            snprintf(what, sizeof what, "glyph '%c' has no #qg:glyph line", g >= ' ' && g < 0x7F ? g : '?');
            fail(r, l, (int)i + 1, what);
            return;
        }
        put_cell(r, r->x0 + (int)i, r->y0 + y, &r->glyphs[g]);
    }
}

/* The level line: width height and the MAP's origin. */
static int level_size(reader *r, const text_line *l)
{
    des_ext_words w = {l->p + DES_EXT_PREFIX_LEN, l->p + l->len, l->p};
    char key[16];
    long width, height, x0, y0;
    if (!des_ext_keyword(&w, key, sizeof key) || strcmp(key, "level") != 0)
        return 0;
    if (!des_ext_number(&w, &width) || !des_ext_number(&w, &height) || !des_ext_number(&w, &x0) ||
        !des_ext_number(&w, &y0) || width <= 0 || height <= 0 || x0 < 0 || y0 < 0 ||
        (size_t)width * (size_t)height > QG_LEVEL_MAX_CELLS) {
        fail(r, l, des_ext_column(&w), "#qg:level needs width height x0 y0 within the limits");
        return 1;
    }
    r->level = qg_level_new((int)width, (int)height);
    r->x0 = (int)x0;
    r->y0 = (int)y0;
    if (!r->level)
        r->failed = 1;
    return 1;
}

/* One #qg: line; cells that differ from their glyph's (#qg:cell) only in
 * the second pass, after the MAP rows. */
static void ext_line(reader *r, const text_line *l, int pass)
{
    des_ext_words w = {l->p + DES_EXT_PREFIX_LEN, l->p + l->len, l->p};
    char key[16];
    long g;
    if (!des_ext_keyword(&w, key, sizeof key) || !strcmp(key, "level"))
        return;
    if ((pass == 2) != !strcmp(key, "cell"))
        return;
    if (!strcmp(key, "glyph"))
        glyph_line(r, l, &w);
    else if (!strcmp(key, "cell"))
        cell_line(r, l, &w);
    else if (!strcmp(key, "outside") && des_ext_number(&w, &g) && g >= 0 && g < 256)
        r->outside = (int)g;
    else
        level_line(r, l, &w, key);
}

/* The lines of one map: from its NAME: line to the next one. */
static int find_map(const char *data, size_t len, const char *name, const char **start,
                    const char **end, int *first_line)
{
    const char *p = data, *stop = data + len;
    text_line l;
    int number = 0, in_map = 0;
    *start = NULL;
    while (next_line(&p, stop, &l, &number)) {
        if (starts(&l, "MAP") && l.len == 3)
            in_map = 1;
        else if (starts(&l, "ENDMAP"))
            in_map = 0;
        if (in_map || !starts(&l, "NAME:"))
            continue;
        if (*start) {
            *end = l.p;
            return 1;
        }
        const char *n = l.p + 5;
        size_t n_len = l.len - 5;
        while (n_len && *n == ' ') {
            n++;
            n_len--;
        }
        if (!name || (strlen(name) == n_len && memcmp(n, name, n_len) == 0)) {
            *start = l.p;
            *first_line = number;
        }
    }
    *end = stop;
    return *start != NULL;
}

qg_status qg_des_read_level(const char *path, const char *data, size_t len, const char *map,
                            qg_level **out, qg_diags *diags)
{
    *out = NULL;
    const char *start, *end;
    int number;
    if (!find_map(data, len, map, &start, &end, &number))
        return QG_ERR_NOTFOUND;
    reader *r = calloc(1, sizeof *r);
    if (!r)
        return QG_ERR_NOMEM;
    r->path = path ? path : "";
    r->diags = diags;
    r->outside = -1;
    int first = 0;
    for (const char *q = data; q < start; q++)
        first += *q == '\n';
    text_line l;
    /* The size first, then everything else in order. */
    int found = 0;
    number = first;
    for (const char *q = start; !found && next_line(&q, end, &l, &number);)
        found = starts(&l, DES_EXT_PREFIX) && level_size(r, &l);
    if (!found || !r->level) {
        qg_status st = !found ? QG_ERR_NOTFOUND : r->failed ? QG_ERR_PARSE : QG_ERR_NOMEM;
        free(r);
        return st;
    }
    for (int pass = 1; pass <= 2; pass++) {
        const char *p = start;
        int in_map = 0, y = 0;
        number = first;
        while (next_line(&p, end, &l, &number) && !r->failed) {
            if (in_map && starts(&l, "ENDMAP"))
                in_map = 0;
            else if (in_map && pass == 1)
                map_row(r, &l, y++);
            else if (!in_map && starts(&l, "MAP") && l.len == 3)
                in_map = 1;
            else if (!in_map && starts(&l, DES_EXT_PREFIX))
                ext_line(r, &l, pass);
        }
    }
    for (int g = 0; g < 256; g++)
        free_names(r->names[g]);
    qg_status st = r->failed ? (qg_diags_count_severity(diags, QG_ERROR) ? QG_ERR_PARSE
                                                                          : QG_ERR_NOMEM)
                             : QG_OK;
    if (st == QG_OK)
        *out = r->level;
    else
        qg_level_free(r->level);
    free(r);
    return st;
}

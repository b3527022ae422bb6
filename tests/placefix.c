#include "placefix.h"

#include <string.h>

static uint32_t glyph_class(char g)
{
    switch (g) {
    case '#': return QG_FEAT_WALL | QG_FEAT_SOLID | QG_FEAT_OPAQUE;
    case 'X': return QG_FEAT_WALL | QG_FEAT_SOLID | QG_FEAT_OPAQUE | QG_FEAT_PERMANENT;
    case '.': return QG_FEAT_FLOOR;
    case 'w': return QG_FEAT_DEEP_WATER;
    case 'W': return QG_FEAT_SHALLOW;
    case 'l': return QG_FEAT_LAVA;
    case '+': return QG_FEAT_DOOR | QG_FEAT_OPAQUE;
    }
    return 0;
}

int32_t fix_feature(char glyph)
{
    return (int32_t)((glyph_class(glyph) << 8) | (unsigned char)glyph);
}

static uint32_t classify(void *user, int32_t f)
{
    (void)user;
    return (uint32_t)f >> 8;
}

static int32_t translate(void *user, const qg_cell *cell)
{
    (void)user;
    return (int32_t)((qg_cell_class(cell) << 8) | (cell->glyph == '@' ? '.' : cell->glyph));
}

static int occupied(void *user, int x, int y)
{
    tcave *c = user;
    return x == c->occupied_x && y == c->occupied_y;
}

static void init(tcave *c, int w, int h)
{
    memset(c->info, 0, sizeof c->info);
    memset(c->mask, 0, sizeof c->mask);
    memset(c->special, 0, sizeof c->special);
    c->occupied_x = c->occupied_y = -1;
    c->cave = (qg_cave){w, h, c->feature, c->info, c->mask, c->special,
                        classify, translate, occupied, fix_feature('.'), c, NULL};
}

void fix_cave(tcave *c, const char *const *rows, int nrows)
{
    int w = (int)strlen(rows[0]);
    init(c, w, nrows);
    for (int y = 0; y < nrows; y++)
        for (int x = 0; x < w; x++)
            c->feature[y * w + x] = fix_feature(rows[y][x]);
}

void fix_cave_fill(tcave *c, int w, int h, char glyph)
{
    init(c, w, h);
    for (int i = 0; i < w * h; i++)
        c->feature[i] = fix_feature(glyph);
}

const char *fix_render(tcave *c)
{
    char *p = c->text;
    for (int y = 0; y < c->cave.height; y++) {
        for (int x = 0; x < c->cave.width; x++)
            *p++ = (char)(c->feature[y * c->cave.width + x] & 0xff);
        if (y + 1 < c->cave.height)
            *p++ = '\n';
    }
    *p = '\0';
    return c->text;
}

qg_level *fix_level(const char *const *rows, int nrows, const char *orient,
                    const char *tags)
{
    int w = 0;
    for (int y = 0; y < nrows; y++)
        if ((int)strlen(rows[y]) > w)
            w = (int)strlen(rows[y]);
    qg_level *l = qg_level_new(w, nrows);
    for (int y = 0; y < nrows; y++)
        for (int x = 0; rows[y][x]; x++)
            if (rows[y][x] != ' ')
                qg_level_set_glyph(l, x, y, (unsigned char)rows[y][x]);
    if (orient)
        qg_level_add_property(l, "orient", orient);
    if (tags)
        qg_level_add_property(l, "tags", tags);
    qg_level_set_name(l, "fixture");
    return l;
}

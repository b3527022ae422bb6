/* Walking a resolved level: which cells connect (doors pass, deep water
 * and lava do not), for the Lua helpers has_exit_from_glyph and
 * glyphs_connected and for the designer checks. */
#include "place/internal.h"

#include <stdlib.h>
#include <string.h>

void walk_free(walk_grid *g)
{
    free(g->part);
    free(g->walk);
    free(g->queue);
    free(g->seen);
}

int walk_build(walk_grid *g, const qg_level *level)
{
    g->w = qg_level_width(level);
    g->h = qg_level_height(level);
    size_t n = (size_t)g->w * (size_t)g->h;
    g->part = calloc(n, 1);
    g->walk = calloc(n, 1);
    g->queue = malloc(n * sizeof *g->queue);
    g->seen = calloc(n, 1);
    if (!g->part || !g->walk || !g->queue || !g->seen) {
        walk_free(g);
        return 0;
    }
    qg_cell c;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            qg_level_cell(level, x, y, &c);
            size_t at = (size_t)y * (size_t)g->w + (size_t)x;
            g->part[at] = c.in_map && c.glyph != ' ';
            uint32_t cls = qg_cell_class(&c);
            g->walk[at] = g->part[at] &&
                !(cls & (QG_FEAT_SOLID | QG_FEAT_DEEP_WATER | QG_FEAT_LAVA));
        }
    return 1;
}

static const int dx4[4] = {0, 1, 0, -1}, dy4[4] = {-1, 0, 1, 0};

int walk_on_edge(const walk_grid *g, int at)
{
    int x = at % g->w, y = at / g->w;
    for (int k = 0; k < 4; k++) {
        int nx = x + dx4[k], ny = y + dy4[k];
        if (nx < 0 || ny < 0 || nx >= g->w || ny >= g->h || !g->part[ny * g->w + nx])
            return 1;
    }
    return 0;
}

int walk_search(walk_grid *g, const int *starts, size_t nstarts,
                       int (*goal)(const walk_grid *g, int at, const void *ctx),
                       const void *ctx)
{
    size_t head = 0, tail = 0;
    memset(g->seen, 0, (size_t)g->w * (size_t)g->h);
    for (size_t i = 0; i < nstarts; i++) {
        g->seen[starts[i]] = 1;
        g->queue[tail++] = starts[i];
    }
    while (head < tail) {
        int at = g->queue[head++];
        if (goal(g, at, ctx))
            return at;
        int x = at % g->w, y = at / g->w;
        for (int k = 0; k < 4; k++) {
            int nx = x + dx4[k], ny = y + dy4[k];
            if (nx < 0 || ny < 0 || nx >= g->w || ny >= g->h)
                continue;
            int n = ny * g->w + nx;
            if (g->seen[n] || (!g->walk[n] && !goal(g, n, ctx)))
                continue;
            g->seen[n] = 1;
            g->queue[tail++] = n;
        }
    }
    return -1;
}

int walk_goal_edge(const walk_grid *g, int at, const void *ctx)
{
    (void)ctx;
    return g->walk[at] && walk_on_edge(g, at);
}

int walk_goal_cell(const walk_grid *g, int at, const void *ctx)
{
    (void)g;
    return at == *(const int *)ctx;
}

static int first_glyph(const qg_level *level, unsigned char glyph)
{
    int n = qg_level_width(level) * qg_level_height(level);
    const unsigned char *g = qg_level_glyphs(level), *in = qg_level_in_map(level);
    for (int i = 0; i < n; i++)
        if (in[i] && g[i] == glyph)
            return i;
    return -1;
}

int qg_level_has_exit_from_glyph(const qg_level *level, unsigned char glyph)
{
    int n = qg_level_width(level) * qg_level_height(level);
    const unsigned char *g = qg_level_glyphs(level), *in = qg_level_in_map(level);
    size_t count = 0;
    for (int i = 0; i < n; i++)
        count += in[i] && g[i] == glyph;
    if (!count)
        return 0;
    int *starts = malloc(count * sizeof *starts);
    walk_grid grid;
    if (!starts || !walk_build(&grid, level)) {
        free(starts);
        return 0;
    }
    count = 0;
    for (int i = 0; i < n; i++)
        if (in[i] && g[i] == glyph)
            starts[count++] = i;
    int found = walk_search(&grid, starts, count, walk_goal_edge, NULL) >= 0;
    free(starts);
    walk_free(&grid);
    return found;
}

int qg_level_glyphs_connected(const qg_level *level, unsigned char g1, unsigned char g2)
{
    int from = first_glyph(level, g1), to = first_glyph(level, g2);
    if (from < 0 || to < 0)
        return 0;
    walk_grid grid;
    if (!walk_build(&grid, level))
        return 0;
    int found = walk_search(&grid, &from, 1, walk_goal_cell, &to) >= 0;
    walk_free(&grid);
    return found;
}


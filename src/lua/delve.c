/* delve(ngb_min, ngb_max, connchance, cellnum, top): Kusigrosz's cave
 * digger as Crawl's dgn-delve.cc runs it on a map. Rock ('x') next to
 * dug ground (any traversable glyph) goes into a store; cells are pulled
 * from the top of the store at random and dug into floor when they have
 * between ngb_min and ngb_max dug neighbours and, unless connchance
 * allows it, would not join two separate dug areas. */
#include "lua/builder.h"

#include <limits.h>
#include <string.h>

typedef struct store {
    int *x, *y;
    size_t count, cap;
} store;

typedef struct delver {
    lua_State *L;
    lrt_map *map;
    qg_rng *rng;
    store s;
    lrt_glyphs dug;     /* the traversable glyphs */
} delver;

static int diggable(const lrt_map *map, int x, int y)
{
    return lrt_cell(map, x, y) == 'x';
}

static int dug(const delver *d, int x, int y)
{
    return lrt_glyph_in(&d->dug, lrt_cell(d->map, x, y));
}

static void push(delver *d, int x, int y)
{
    if (d->s.count == d->s.cap)
        luaL_error(d->L, "delve: the store of cells to dig is full");
    d->s.x[d->s.count] = x;
    d->s.y[d->s.count++] = y;
}

/* A cell from the top entries of the store, removed with the rest moved
 * down; 0 when the store is empty (or, as in Crawl, the cell is (0, 0),
 * which stands for nothing there). */
static int pull(delver *d, int top, int *x, int *y)
{
    if (!d->s.count)
        return 0;
    if (top > (int)d->s.count)
        top = (int)d->s.count;
    size_t i = d->s.count - 1 - (size_t)qg_rng_below(d->rng, top);
    *x = d->s.x[i];
    *y = d->s.y[i];
    memmove(d->s.x + i, d->s.x + i + 1, (d->s.count - i - 1) * sizeof *d->s.x);
    memmove(d->s.y + i, d->s.y + i + 1, (d->s.count - i - 1) * sizeof *d->s.y);
    d->s.count--;
    lrt_charge(d->L, 1 + d->s.count / 64);
    return *x || *y;
}

/* Digs a cell and stores its diggable neighbours in a random order. */
static void dig(delver *d, int x, int y)
{
    if (!diggable(d->map, x, y))
        return;
    lrt_set_cell(d->map, x, y, '.');
    int order[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    for (int left = 8; left > 0; left--) {
        int r = qg_rng_below(d->rng, left);
        int nx = x + lrt_compass[order[r]][0], ny = y + lrt_compass[order[r]][1];
        order[r] = order[left - 1];
        if (diggable(d->map, nx, ny))
            push(d, nx, ny);
    }
}

static int neighbours(const delver *d, int x, int y)
{
    int n = 0;
    for (int i = 0; i < 8; i++)
        n += dug(d, x + lrt_compass[i][0], y + lrt_compass[i][1]);
    return n;
}

/* Separate groups of dug neighbours around the cell (diagonals join only
 * through the cardinal cells between them). */
static int groups(const delver *d, int x, int y)
{
    int prev2 = 0, prev = dug(d, x + lrt_compass[0][0], y + lrt_compass[0][1]), n = 0;
    for (int i = 7; i >= 0; i--) {
        int cur = dug(d, x + lrt_compass[i][0], y + lrt_compass[i][1]);
        if (cur && !prev && ((i & 1) || !prev2))
            n++;
        prev2 = prev;
        prev = cur;
    }
    return prev && !n ? 1 : n;
}

static int is_seed(const delver *d, int x, int y)
{
    for (int i = 0; i < 8; i++)
        if (dug(d, x + lrt_compass[i][0], y + lrt_compass[i][1]))
            return 1;
    return 0;
}

/* Stores the rock next to dug ground; with none, the rock cell nearest the
 * middle of all rock. Returns how much rock there is. */
static int make_seed(delver *d)
{
    const lrt_map *map = d->map;
    long sx = 0, sy = 0;
    int count = 0;
    for (int y = 0; y < map->height; y++)
        for (int x = 0; x < map->width; x++)
            if (diggable(map, x, y)) {
                if (is_seed(d, x, y))
                    push(d, x, y);
                sx += x;
                sy += y;
                count++;
            }
    if (d->s.count || !count)
        return count;
    int cx = (int)(sx / count), cy = (int)(sy / count), bx = 0, by = 0;
    long best = LONG_MAX;
    for (int y = 0; y < map->height; y++)
        for (int x = 0; x < map->width; x++) {
            long dist = (long)(x - cx) * (x - cx) + (long)(y - cy) * (y - cy);
            if (diggable(map, x, y) && dist < best)
                best = dist, bx = x, by = y;
        }
    push(d, bx, by);
    return count;
}

static int may_connect(delver *d, int x, int y, int connchance)
{
    return groups(d, x, y) <= 1 || qg_rng_x_chance_in_y(d->rng, connchance, 100);
}

/* Crawl's ARG_INT over Lua 5.1: a number truncated, anything else 0. */
static int arg(lua_State *L, int index, int def)
{
    if (lua_isnone(L, index))
        return def;
    return lua_type(L, index) == LUA_TNUMBER ? (int)lrt_checkint(L, index) : 0;
}

int lrt_l_delve(lua_State *L)
{
    static const int denominator[12] = {0, 0, 8, 7, 6, 5, 5, 4, 4, 4, 3, 3};
    lrt_map *map = lrt_check_map(L, 1);
    int ngb_min = arg(L, 2, 2), ngb_max = arg(L, 3, 3), connchance = arg(L, 4, 0);
    int cellnum = arg(L, 5, -1), top = arg(L, 6, 125);
    if (ngb_min < 1 || ngb_min > 3 || ngb_max < ngb_min || ngb_max > 8)
        return luaL_error(L, "delve: needs 1 <= ngb_min <= 3 and ngb_min <= ngb_max <= 8");
    if (connchance < 0 || connchance > 100 || top < 1)
        return luaL_error(L, "delve: needs connchance from 0 to 100 and top above 0");
    size_t cells = (size_t)map->width * map->height;
    delver d = {L, map, &lrt_runtime(L)->rng, {NULL, NULL, 0, cells * 9 + 64}, {{0}}};
    lrt_glyphs_of(&d.dug, LRT_TRAVERSABLE);
    d.s.x = lrt_scratch(L, d.s.cap, sizeof *d.s.x);
    d.s.y = lrt_scratch(L, d.s.cap, sizeof *d.s.y);
    int world = make_seed(&d);
    if (cellnum < 0)
        cellnum = world / denominator[ngb_min + ngb_max];
    if (cellnum > world)
        return luaL_error(L, "delve: %d cells asked for, %d can be dug", cellnum, world);
    int delved = 0;
    for (int retries = 0;; retries++) {
        int cx, cy, x, y, seed_goal = delved + 2 * ngb_min;
        if (!pull(&d, INT_MAX, &cx, &cy))
            return 0;
        push(&d, cx, cy);
        /* first a small seed around one cell, ignoring ngb_min */
        while (delved < seed_goal && delved < cellnum && pull(&d, top, &x, &y)) {
            long off = (long)(x - cx) * (x - cx) + (long)(y - cy) * (y - cy);
            if (!diggable(map, x, y) || off > 2 || neighbours(&d, x, y) > ngb_max ||
                !may_connect(&d, x, y, connchance))
                continue;
            dig(&d, x, y);
            delved++;
        }
        while (delved < cellnum && pull(&d, top, &x, &y)) {
            int n;
            if (!diggable(map, x, y) || (n = neighbours(&d, x, y)) < ngb_min ||
                n > ngb_max || !may_connect(&d, x, y, connchance))
                continue;
            dig(&d, x, y);
            delved++;
        }
        /* some parameters (2,2 and sometimes 3,3) get stuck */
        if (delved >= cellnum || retries >= 50)
            return 0;
        make_seed(&d);
    }
}

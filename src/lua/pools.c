/* add_pools{x1, y1, x2, y2, replace, border, pool_size, seed_separation,
 * contents}: as Crawl's dgn_add_pools. Seeds are scattered over the
 * replace cells of the box (one per pool_size cells, at least
 * seed_separation apart) and grow, a random open cell at a time, until
 * they meet; cells between two pools or beside other ground stay paths
 * (border), and each pool is filled with a glyph drawn from contents
 * ({glyph = weight, ...}; floor when empty). */
#include "lua/builder.h"

#include <stdlib.h>

enum { NO_POOL = 999997, IN_LIST = 999998, BORDER = 999999, FORBIDDEN = 1000000 };

typedef struct weighted {
    char glyph;
    int weight;
} weighted;

static int by_glyph(const void *a, const void *b)
{
    return ((const weighted *)a)->glyph - ((const weighted *)b)->glyph;
}

/* The contents table as glyphs repeated by weight (capped at 10000 each,
 * as Crawl does), in glyph order: Lua's own table order changes from run
 * to run, and a seed must give the same pools. */
static char *fill_glyphs(lua_State *L, int *count)
{
    weighted entries[256];
    int n = 0;
    *count = 0;
    if (lua_getfield(L, 2, "contents") == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            if (lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TNUMBER) {
                char glyph = lua_tostring(L, -2)[0];
                lua_Integer w = lua_tointeger(L, -1);
                if (glyph && w > 0 && n < 256) {
                    entries[n++] = (weighted){glyph, w > 10000 ? 10000 : (int)w};
                    *count += entries[n - 1].weight;
                }
            }
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    qsort(entries, (size_t)n, sizeof *entries, by_glyph);
    char *glyphs = lrt_scratch(L, (size_t)*count + 1, 1);
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < entries[i].weight; j++)
            glyphs[k++] = entries[i].glyph;
    if (!*count) {
        glyphs[0] = '.';
        *count = 1;
    }
    return glyphs;
}

typedef struct pools {
    int *index;      /* w * h, column-major as Crawl's */
    int w, h;
    int *open;       /* x, y pairs */
    int open_count;
} pools;

static int *cell(pools *p, int x, int y)
{
    return &p->index[x * p->h + y];
}

static void open_around(pools *p, int x, int y, int only_unpooled)
{
    static const int orth[4][2] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};
    for (int i = 0; i < 4; i++) {
        int nx = x + orth[i][0], ny = y + orth[i][1];
        if (nx < 0 || ny < 0 || nx >= p->w || ny >= p->h ||
            (only_unpooled && *cell(p, nx, ny) != NO_POOL))
            continue;
        *cell(p, nx, ny) = IN_LIST;
        p->open[2 * p->open_count] = nx;
        p->open[2 * p->open_count + 1] = ny;
        p->open_count++;
    }
}

/* Crawl's _get_pool_seed_positions: up to (cells + random) / size seeds
 * from the replace cells, each far enough from those kept. */
static int place_seeds(qg_rng *rng, pools *p, int size, int separation, int *seeds,
                       int *spare)
{
    int floors = 0, kept = 0;
    for (int x = 0; x < p->w; x++)
        for (int y = 0; y < p->h; y++)
            if (*cell(p, x, y) == NO_POOL)
                spare[2 * floors] = x, spare[2 * floors + 1] = y, floors++;
    if (size < 1)
        size = 1;
    int goal = (int)(((long)floors + qg_rng_below(rng, size)) / size);
    long sep2 = (long)separation * separation;
    for (int i = 0; i < goal && floors > 0; i++) {
        int k = qg_rng_below(rng, floors), x = spare[2 * k], y = spare[2 * k + 1];
        spare[2 * k] = spare[2 * (floors - 1)];
        spare[2 * k + 1] = spare[2 * (floors - 1) + 1];
        floors--;
        int close = 0;
        for (int s = 0; s < kept && !close; s++) {
            long dx = x - seeds[2 * s], dy = y - seeds[2 * s + 1];
            close = dx * dx + dy * dy < sep2;
        }
        if (!close)
            seeds[2 * kept] = x, seeds[2 * kept + 1] = y, kept++;
    }
    return kept;
}

/* The pool a cell joins from its neighbours: the one pool beside it, a
 * border between two pools or beside other ground, or none yet. */
static int joined_pool(pools *p, int x, int y)
{
    int chosen = NO_POOL;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int nx = x + dx, ny = y + dy;
            if ((!dx && !dy) || nx < 0 || ny < 0 || nx >= p->w || ny >= p->h)
                continue;
            int n = *cell(p, nx, ny);
            if (n == FORBIDDEN || (n < NO_POOL && chosen != NO_POOL && chosen != n))
                return BORDER;
            if (n < NO_POOL)
                chosen = n;
        }
    return chosen;
}

int lrt_l_add_pools(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_glyphs replace;
    lrt_arg_glyphs(L, "replace", ".", &replace);
    char border = lrt_arg_char(L, "border", '.');
    int size = lrt_arg_int(L, "pool_size", 100);
    int separation = lrt_arg_int(L, "seed_separation", 2);
    int glyph_count;
    char *glyphs = fill_glyphs(L, &glyph_count);
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    if (b.x1 < 0 || b.y1 < 0 || b.x2 >= map->width || b.y2 >= map->height)
        return luaL_error(L, "add_pools: the box (%d, %d)-(%d, %d) is not inside the map",
                          b.x1, b.y1, b.x2, b.y2);
    pools p = {NULL, b.x2 - b.x1 + 1, b.y2 - b.y1 + 1, NULL, 0};
    size_t cells = (size_t)p.w * p.h;
    p.index = lrt_scratch(L, cells, sizeof *p.index);
    /* every cell once, and up to 4 more around each seed */
    p.open = lrt_scratch(L, cells * 10, sizeof *p.open);
    int *seeds = lrt_scratch(L, cells * 2, sizeof *seeds);
    int *spare = lrt_scratch(L, cells * 2, sizeof *spare);
    for (int x = 0; x < p.w; x++)
        for (int y = 0; y < p.h; y++)
            *cell(&p, x, y) = lrt_glyph_in(&replace, lrt_cell(map, b.x1 + x, b.y1 + y))
                                  ? NO_POOL : FORBIDDEN;
    qg_rng *rng = &lrt_runtime(L)->rng;
    int count = place_seeds(rng, &p, size, separation, seeds, spare);
    for (int s = 0; s < count; s++) {
        *cell(&p, seeds[2 * s], seeds[2 * s + 1]) = s;
        open_around(&p, seeds[2 * s], seeds[2 * s + 1], 0);
    }
    while (p.open_count) {
        lrt_charge(L, 9);
        int k = qg_rng_below(rng, p.open_count), x = p.open[2 * k], y = p.open[2 * k + 1];
        p.open[2 * k] = p.open[2 * (p.open_count - 1)];
        p.open[2 * k + 1] = p.open[2 * (p.open_count - 1) + 1];
        p.open_count--;
        int pool = joined_pool(&p, x, y);
        *cell(&p, x, y) = pool;
        if (pool != NO_POOL)
            open_around(&p, x, y, 1);
    }
    char *pool_glyph = lrt_scratch(L, (size_t)count + 1, 1);
    for (int s = 0; s < count; s++)
        pool_glyph[s] = glyphs[qg_rng_below(rng, glyph_count)];
    for (int x = 0; x < p.w; x++)
        for (int y = 0; y < p.h; y++) {
            int i = *cell(&p, x, y);
            if (i < count)
                lrt_set_cell(map, b.x1 + x, b.y1 + y, pool_glyph[i]);
            else if (i == NO_POOL || i == BORDER)
                lrt_set_cell(map, b.x1 + x, b.y1 + y, border);
        }
    return 0;
}

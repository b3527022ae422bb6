/* Crawl's level-wide C++ layouts (dgn-layouts.cc, dgn-shoals.cc,
 * dgn-swamp.cc, with dgn-height.cc and the dungeon.cc helpers they use),
 * built on the level around the map (level.h). Each is called from a
 * map's Lua (layout_basic(), dgn.layout_swamp(), …) and follows Crawl's
 * algorithm step by step with the project's generator: a seed gives the
 * same level on every machine, not the level Crawl would give.
 *
 * What the level has not got: no vault is placed on it before the layout
 * (the layout is the level's first builder), so Crawl's MMT_VAULT checks
 * never refuse a cell; no monster or item stands on it. */
#ifndef QG_LUA_LAYOUT_H
#define QG_LUA_LAYOUT_H

#include "lua/level.h"

#define GXM LRT_MAX_WIDTH
#define GYM LRT_MAX_HEIGHT

typedef struct lrt_layout {
    lua_State *L;
    qg_runtime *rt;
    qg_rng *rng;
    lrt_level *level;
    lrt_feature_class cls;
    char branch[32];
    int depth;       /* you.depth: the level in its branch, from 1 */
    int absdepth0;   /* env.absdepth0: the absolute depth, from 0 */
    int *height;     /* the heightmap (GXM x GYM, [y * GXM + x]), or NULL */
} lrt_layout;

typedef struct lrt_pos {
    int x, y;
} lrt_pos;

/* The level glyphs of the features the layouts draw. */
enum {
    G_ROCK = 'x', G_STONE = 'c', G_METAL = 'v', G_CRYSTAL = 'b', G_TREE = 't',
    G_FLOOR = '.', G_DOOR = '+', G_DEEP = 'w', G_SHALLOW = 'W', G_LAVA = 'l',
    G_DOWN_I = '}', G_DOWN_II = ')', G_DOWN_III = ']', G_HATCH_DOWN = '>',
    G_UP_I = '{', G_UP_II = '(', G_UP_III = '[', G_HATCH_UP = '<'
};

/* The level, its feature classes and the place, for a layout call. */
void lrt_layout_begin(lua_State *L, lrt_layout *lay);
/* The glyph of a feature with no .des glyph of its own (mangrove, …). */
unsigned char lrt_layout_glyph(lrt_layout *lay, const char *feature);
int lrt_layout_in_branch(const lrt_layout *lay, const char *branch);

static inline unsigned char *lrt_at(lrt_layout *lay, int x, int y)
{
    return &lay->level->grid[y][x];
}

/* Crawl's in_bounds (not on the level's outermost cells) and
 * map_bounds_with_margin. */
static inline int lrt_in_bounds(int x, int y)
{
    return x > 0 && x < GXM - 1 && y > 0 && y < GYM - 1;
}

static inline int lrt_in_margin(int x, int y, int margin)
{
    return x >= margin && x < GXM - margin && y >= margin && y < GYM - margin;
}

/* ---- Crawl's random helpers over the project's generator ---------------- */

int lrt_random2avg(qg_rng *rng, int max, int rolls);
/* random_range(lo, hi, rolls): lo + random2avg(hi - lo + 1, rolls). */
int lrt_random_range_avg(qg_rng *rng, int lo, int hi, int rolls);
int lrt_roll_dice(qg_rng *rng, int count, int sides);
/* random_choose_weighted(w1, v1, w2, v2, …): n pairs, Crawl's reservoir
 * draw (one random2 per pair after the first). */
int lrt_choose_weighted(qg_rng *rng, const int (*pairs)[2], int n);

/* ---- dungeon.cc's level helpers --------------------------------------------- */

/* radius * cos or sin of a whole number of degrees, truncated as Crawl's
 * static_cast<int> does; a product within 1e-9 of a whole number is that
 * number, so that no libm's last bit changes a level. */
int lrt_polar(int radius, double trig);
/* dgn_random_point_from: a point at that distance from c in a random
 * direction, inside the margin; (0, 0) after 70 misses. */
lrt_pos lrt_point_from(lrt_layout *lay, lrt_pos c, int radius, int margin);
lrt_pos lrt_point_in_margin(lrt_layout *lay, int margin);
int lrt_has_adjacent(lrt_layout *lay, int x, int y, unsigned char glyph);
/* count_feature_in_box over [x0, x1) x [y0, y1). */
int lrt_count_in_box(lrt_layout *lay, int x0, int y0, int x1, int y1, unsigned char glyph);
/* dgn_replace_area over the box, corners included. */
void lrt_replace_area(lrt_layout *lay, int x1, int y1, int x2, int y2, unsigned char from,
                      unsigned char to);
/* dgn_place_stone_stairs: the three pairs of stone stairs (and, when
 * hatches is set, one time in two a pair of escape hatches) that the
 * level lacks, each on a random floor cell beside floor. Raises a Lua
 * error when no such cell is left (Crawl vetoes the level). */
void lrt_place_stone_stairs(lrt_layout *lay, int hatches);
/* join_the_dots: floor along the shortest orthogonal path from one point
 * to the other through wall, floor and liquid. */
void lrt_join_the_dots(lrt_layout *lay, lrt_pos from, lrt_pos to);

/* ---- dgn-height.cc ---------------------------------------------------------- */

void lrt_heights_init(lrt_layout *lay, int height);
/* dgn_island_centred_at: n points around c each raised by a draw from
 * [lo, hi] (an atoll first sinks its centre). */
void lrt_island_at(lrt_layout *lay, lrt_pos c, int points, int radius, int lo, int hi,
                   int margin, int atoll);
/* dgn_smooth_height_at with max_height (INT_MIN for none) and
 * dgn_smooth_heights (radius 1, one pass). */
void lrt_smooth_height_at(lrt_layout *lay, int x, int y, int radius, int max_height);
void lrt_smooth_heights(lrt_layout *lay);

/* The layouts, as dgn functions (api_layout.c registers them). */
int lrt_l_layout_basic(lua_State *L);
int lrt_l_layout_bigger_room(lua_State *L);
int lrt_l_layout_chaotic_city(lua_State *L);
int lrt_l_layout_shoals(lua_State *L);
int lrt_l_layout_swamp(lua_State *L);

#endif

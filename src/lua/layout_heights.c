/* Crawl's heightmap layouts: the Shoals (dgn-shoals.cc: islands raised
 * out of the sea, cliffs, water by height) and the Swamp (dgn-swamp.cc:
 * slushy patches in a mangrove forest). */
#include "lua/layout.h"

#include <math.h>

/* ---- layout_shoals ----------------------------------------------------------- */

enum { SHOALS_MARGIN = 6, SHT_STONE = 400, SHT_ROCK = 135, SHT_FLOOR = 0,
       SHT_SHALLOW_WATER = -30, ISLAND_COLLIDE_DIST2 = 5 * 5, ATOLL_ROLL = 10 };

static unsigned char shoals_feature(int height)
{
    return height >= SHT_STONE ? G_STONE
         : height >= SHT_ROCK ? G_ROCK
         : height >= SHT_FLOOR ? G_FLOOR
         : height >= SHT_SHALLOW_WATER ? G_SHALLOW : G_DEEP;
}

/* dgn_island_plan::pick_island_spot: up to 15 tries for a centre not
 * within 5 cells of an earlier island. */
static lrt_pos island_spot(lrt_layout *lay, const lrt_pos *islands, int count)
{
    lrt_pos c = {0, 0};
    for (int i = 0; i < 15; i++) {
        c = lrt_point_in_margin(lay, SHOALS_MARGIN * 2);
        int collides = 0;
        for (int k = 0; k < count && !collides; k++) {
            int dx = islands[k].x - c.x, dy = islands[k].y - c.y;
            collides = dx * dx + dy * dy < ISLAND_COLLIDE_DIST2;
        }
        if (!collides)
            break;
    }
    return c;
}

/* dgn_island_plan::build_island with the Shoals' plan: a main mound and
 * up to three smaller ones beside it, each an atoll one time in ten. */
static void build_island(lrt_layout *lay, lrt_pos c)
{
    qg_rng *rng = lay->rng;
    int points = qg_rng_range(rng, 50, 60), radius = qg_rng_range(rng, 3, 10);
    lrt_island_at(lay, c, points, radius, 80, 110, SHOALS_MARGIN,
                  qg_rng_x_chance_in_y(rng, ATOLL_ROLL, 100));
    int extra = qg_rng_range(rng, 0, 3);
    for (int i = 0; i < extra; i++) {
        int offset = qg_rng_range(rng, 2, 10);
        lrt_pos aux = lrt_point_from(lay, c, offset, SHOALS_MARGIN);
        if (!aux.x && !aux.y)
            continue;
        points = qg_rng_range(rng, 25, 45);
        radius = qg_rng_range(rng, 2, 7);
        lrt_island_at(lay, aux, points, radius, 50, 65, SHOALS_MARGIN,
                      qg_rng_x_chance_in_y(rng, ATOLL_ROLL, 100));
    }
}

/* _shoals_build_cliff: a line of high mounds 6 to 15 cells long. */
static void build_cliff(lrt_layout *lay)
{
    qg_rng *rng = lay->rng;
    lrt_pos centre = lrt_point_in_margin(lay, SHOALS_MARGIN * 2);
    int length = qg_rng_range(rng, 6, 15);
    double angle = qg_rng_below(rng, 360) * 3.14159265358979323846 / 180.0;
    for (int i = 0; i < length; i += 3) {
        int distance = i - length / 2;
        lrt_pos along = {centre.x + lrt_polar(distance, cos(angle)),
                         centre.y + lrt_polar(distance, sin(angle))};
        along.x += qg_rng_range(rng, -2, 2);
        along.y += qg_rng_range(rng, -2, 2);
        lrt_island_at(lay, along, qg_rng_range(rng, 40, 60), 3, 100, 130, SHOALS_MARGIN, 0);
    }
}

/* layout_shoals(): the sea raised into 20 - 2 x (depth - 1) islands and a
 * few cliffs, smoothed; each cell's height gives its terrain (stone, rock,
 * floor, shallow or deep water), the level's rim is open sea; then the
 * stone stairs. Crawl goes on to deepen the heightmap under the water and
 * at the edges, which only the tides read later in the game; it changes no
 * cell of the level, and is left out. */
int lrt_l_layout_shoals(lua_State *L)
{
    lrt_layout lay;
    lrt_layout_begin(L, &lay);
    unsigned char sea = lrt_layout_glyph(&lay, "open_sea");
    lrt_replace_area(&lay, 0, 0, GXM - 1, GYM - 1, G_ROCK, sea);
    lrt_heights_init(&lay, SHT_SHALLOW_WATER - 3);
    int islands = 20 - (lay.depth - 1) * 2;
    lrt_pos centres[20];
    for (int i = 0; i < islands && i < 20; i++) {
        centres[i] = island_spot(&lay, centres, i);
        build_island(&lay, centres[i]);
    }
    int cliffs = lrt_random_range_avg(lay.rng, 0, 6, 2);
    for (int i = 0; i < cliffs; i++)
        build_cliff(&lay);
    lrt_smooth_heights(&lay);
    for (int y = 1; y < GYM - 1; y++)
        for (int x = 1; x < GXM - 1; x++)
            *lrt_at(&lay, x, y) = shoals_feature(lay.height[y * GXM + x]);
    lrt_place_stone_stairs(&lay, 0);
    return 0;
}

/* ---- layout_swamp ------------------------------------------------------------ */

/* _swamp_slushy_patches: low mounds on a grid every 4 cells, fuzzed,
 * higher towards the centre. */
static void slushy_patches(lrt_layout *lay, int depth_multiplier)
{
    const int margin = 15, interval = 4, fuzz = 9;
    for (int y = margin; y < GYM - margin - 1; y += interval)
        for (int x = margin; x < GXM - margin - 1; x += interval) {
            lrt_pos c = lrt_point_from(lay, (lrt_pos){x, y}, fuzz, margin);
            int dx = GXM / 2 - c.x, dy = GYM / 2 - c.y;
            int offset = (1600 - (dx * dx + dy * dy)) * 10 / 1600;
            int points = qg_rng_range(lay->rng, 5, 25 - depth_multiplier / 2);
            int radius = qg_rng_range(lay->rng, 2, 6);
            lrt_island_at(lay, c, points, radius, 8 + offset, 17 + offset, margin, 0);
        }
}

/* layout_swamp(): patches raised out of a low heightmap and smoothed;
 * high ground is shallow water (more of it deeper down), then floor, a
 * ring of shallow water, and mangroves below; a border of mangroves six
 * cells wide. */
int lrt_l_layout_swamp(lua_State *L)
{
    lrt_layout lay;
    lrt_layout_begin(L, &lay);
    unsigned char mangrove = lrt_layout_glyph(&lay, "mangrove");
    lrt_heights_init(&lay, -19);
    slushy_patches(&lay, (lay.depth - 1) * 3);
    lrt_smooth_heights(&lay);
    const int margin = 6;
    for (int y = 0; y < GYM; y++)
        for (int x = 0; x < GXM; x++) {
            int h = lay.height[y * GXM + x];
            unsigned char g = h > 8 - lay.depth * 2 ? G_SHALLOW
                            : h > -8 ? G_FLOOR
                            : h > -10 ? G_SHALLOW : mangrove;
            if (x < margin || y < margin || x >= GXM - margin || y >= GYM - margin)
                g = mangrove;
            *lrt_at(&lay, x, y) = g;
        }
    return 0;
}

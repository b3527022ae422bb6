/* What Crawl's level-wide layouts share (layout.h): the call's set-up,
 * Crawl's random helpers, dungeon.cc's level helpers and the heightmap
 * of dgn-height.cc. */
#include "lua/layout.h"
#include "lua/builder.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void lrt_layout_begin(lua_State *L, lrt_layout *lay)
{
    memset(lay, 0, sizeof *lay);
    lay->L = L;
    lay->rt = lrt_runtime(L);
    lay->rng = &lay->rt->rng;
    lay->level = lrt_level_get(L);
    lay->level->built = 1;
    lrt_level_classes(lay->level, &lay->cls);
    char branch[sizeof lay->branch];
    snprintf(lay->branch, sizeof lay->branch, "%s", lrt_branch(lay->rt, branch, sizeof branch));
    lay->depth = lrt_depth(lay->rt);
    lay->absdepth0 = lrt_absdepth(lay->rt) - 1;
}

unsigned char lrt_layout_glyph(lrt_layout *lay, const char *feature)
{
    unsigned char g = lrt_level_glyph(lay->L, lay->level, feature);
    lrt_level_classes(lay->level, &lay->cls);
    return g;
}

int lrt_layout_in_branch(const lrt_layout *lay, const char *branch)
{
    return strcmp(lay->branch, branch) == 0;
}

/* ---- random helpers ------------------------------------------------------- */

int lrt_random2avg(qg_rng *rng, int max, int rolls)
{
    int sum = qg_rng_below(rng, max);
    for (int i = 0; i < rolls - 1; i++)
        sum += qg_rng_below(rng, max + 1);
    return rolls > 0 ? sum / rolls : sum;
}

int lrt_random_range_avg(qg_rng *rng, int lo, int hi, int rolls)
{
    return lo + lrt_random2avg(rng, hi - lo + 1, rolls);
}

int lrt_roll_dice(qg_rng *rng, int count, int sides)
{
    int sum = 0;
    for (int i = 0; i < count; i++)
        sum += 1 + qg_rng_below(rng, sides);
    return sum;
}

int lrt_choose_weighted(qg_rng *rng, const int (*pairs)[2], int n)
{
    int chosen = pairs[0][1], total = pairs[0][0];
    for (int i = 1; i < n; i++) {
        total += pairs[i][0];
        if (qg_rng_below(rng, total) < pairs[i][0])
            chosen = pairs[i][1];
    }
    return chosen;
}

/* ---- level helpers ---------------------------------------------------------- */

int lrt_polar(int radius, double trig)
{
    double v = radius * trig, r = nearbyint(v);
    return fabs(v - r) < 1e-9 ? (int)r : (int)v;
}

lrt_pos lrt_point_from(lrt_layout *lay, lrt_pos c, int radius, int margin)
{
    for (int attempts = 0; attempts < 70; attempts++) {
        double angle = qg_rng_below(lay->rng, 360) * 3.14159265358979323846 / 180.0;
        lrt_pos p = {c.x + lrt_polar(radius, cos(angle)), c.y + lrt_polar(radius, sin(angle))};
        if (lrt_in_margin(p.x, p.y, margin))
            return p;
    }
    return (lrt_pos){0, 0};
}

lrt_pos lrt_point_in_margin(lrt_layout *lay, int margin)
{
    lrt_pos p;
    p.x = qg_rng_range(lay->rng, margin, GXM - margin - 1);
    p.y = qg_rng_range(lay->rng, margin, GYM - margin - 1);
    return p;
}

int lrt_has_adjacent(lrt_layout *lay, int x, int y, unsigned char glyph)
{
    for (int d = 0; d < 8; d++) {
        int nx = x + lrt_compass[d][0], ny = y + lrt_compass[d][1];
        if (nx >= 0 && ny >= 0 && nx < GXM && ny < GYM && *lrt_at(lay, nx, ny) == glyph)
            return 1;
    }
    return 0;
}

int lrt_count_in_box(lrt_layout *lay, int x0, int y0, int x1, int y1, unsigned char glyph)
{
    int n = 0;
    lrt_charge(lay->L, (size_t)(x1 > x0 ? x1 - x0 : 0) * (size_t)(y1 > y0 ? y1 - y0 : 0));
    for (int x = x0 < 0 ? 0 : x0; x < x1 && x < GXM; x++)
        for (int y = y0 < 0 ? 0 : y0; y < y1 && y < GYM; y++)
            n += *lrt_at(lay, x, y) == glyph;
    return n;
}

void lrt_replace_area(lrt_layout *lay, int x1, int y1, int x2, int y2, unsigned char from,
                      unsigned char to)
{
    for (int x = x1 < 0 ? 0 : x1; x <= x2 && x < GXM; x++)
        for (int y = y1 < 0 ? 0 : y1; y <= y2 && y < GYM; y++)
            if (*lrt_at(lay, x, y) == from)
                *lrt_at(lay, x, y) = to;
}

/* A floor cell beside floor away from the level's edge: 500 random tries,
 * then every such cell with equal chance; (0, 0) when there is none. */
static lrt_pos random_floor_beside_floor(lrt_layout *lay)
{
    for (int i = 0; i < 500; i++) {
        lrt_pos p = {qg_rng_range(lay->rng, 2, GXM - 3), qg_rng_range(lay->rng, 2, GYM - 3)};
        if (*lrt_at(lay, p.x, p.y) == G_FLOOR && lrt_has_adjacent(lay, p.x, p.y, G_FLOOR))
            return p;
    }
    lrt_pos chosen = {0, 0};
    int found = 0;
    for (int y = 1; y < GYM - 1; y++)
        for (int x = 1; x < GXM - 1; x++)
            if (*lrt_at(lay, x, y) == G_FLOOR && lrt_has_adjacent(lay, x, y, G_FLOOR) &&
                qg_rng_one_chance_in(lay->rng, ++found))
                chosen = (lrt_pos){x, y};
    return chosen;
}

void lrt_place_stone_stairs(lrt_layout *lay, int hatches)
{
    static const unsigned char down[4] = {G_DOWN_I, G_DOWN_II, G_DOWN_III, G_HATCH_DOWN};
    static const unsigned char up[4] = {G_UP_I, G_UP_II, G_UP_III, G_HATCH_UP};
    int has[LRT_GLYPHS] = {0};
    for (int y = 0; y < GYM; y++)
        for (int x = 0; x < GXM; x++)
            has[*lrt_at(lay, x, y)] = 1;
    int pairs = 3 + (hatches && qg_rng_coinflip(lay->rng));
    for (int i = 0; i < pairs; i++)
        for (int k = 0; k < 2; k++) {
            unsigned char stair = k ? up[i] : down[i];
            if (has[stair])
                continue;
            lrt_pos p = random_floor_beside_floor(lay);
            if (!p.x && !p.y)
                luaL_error(lay->L, "Cannot place feature at random floor square "
                                   "(Crawl vetoes such a level)");
            *lrt_at(lay, p.x, p.y) = stair;
        }
}

static int dots_overwrite(lrt_layout *lay, unsigned char g)
{
    return lay->cls.wall[g] || g == G_FLOOR || g == G_DEEP || g == G_SHALLOW || g == G_LAVA;
}

void lrt_join_the_dots(lrt_layout *lay, lrt_pos from, lrt_pos to)
{
    if ((from.x == to.x && from.y == to.y) || !lrt_in_bounds(from.x, from.y) ||
        !lrt_in_bounds(to.x, to.y))
        return;
    static const int step[4][2] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};
    short *dist = lrt_scratch(lay->L, (size_t)GXM * GYM, sizeof *dist);
    lrt_pos *queue = lrt_scratch(lay->L, (size_t)GXM * GYM, sizeof *queue);
    lrt_charge(lay->L, (size_t)GXM * GYM * 4);
    int head = 0, tail = 0;
    dist[to.y * GXM + to.x] = 1;
    queue[tail++] = to;
    while (head < tail && !dist[from.y * GXM + from.x]) {
        lrt_pos c = queue[head++];
        for (int d = 0; d < 4; d++) {
            int x = c.x + step[d][0], y = c.y + step[d][1];
            if (!lrt_in_bounds(x, y) || dist[y * GXM + x])
                continue;
            dist[y * GXM + x] = (short)(dist[c.y * GXM + c.x] + 1);
            queue[tail++] = (lrt_pos){x, y};
        }
    }
    /* from the start, always to a neighbour one step nearer the end */
    for (lrt_pos at = from;;) {
        if (dots_overwrite(lay, *lrt_at(lay, at.x, at.y)))
            *lrt_at(lay, at.x, at.y) = G_FLOOR;
        if (at.x == to.x && at.y == to.y)
            break;
        for (int d = 0; d < 4; d++) {
            int x = at.x + step[d][0], y = at.y + step[d][1];
            if (lrt_in_bounds(x, y) && dist[y * GXM + x] == dist[at.y * GXM + at.x] - 1) {
                at = (lrt_pos){x, y};
                break;
            }
        }
    }
}

/* ---- the heightmap ------------------------------------------------------------- */

void lrt_heights_init(lrt_layout *lay, int height)
{
    lay->height = lrt_scratch(lay->L, (size_t)GXM * GYM, sizeof *lay->height);
    for (int i = 0; i < GXM * GYM; i++)
        lay->height[i] = height;
}

void lrt_island_at(lrt_layout *lay, lrt_pos c, int points, int radius, int lo, int hi,
                   int margin, int atoll)
{
    if (atoll) {
        lrt_island_at(lay, c, points, radius, -hi, -lo, margin, 0);
        radius += 3;
    }
    lrt_charge(lay->L, (size_t)(points > 0 ? points : 0) * 8);
    for (int i = 0; i < points; i++) {
        int rad = qg_rng_below(lay->rng, 1 + radius);
        lrt_pos p = lrt_point_from(lay, c, rad, margin);
        if (p.x || p.y)
            lay->height[p.y * GXM + p.x] += qg_rng_range(lay->rng, lo, hi);
    }
}

void lrt_smooth_height_at(lrt_layout *lay, int x, int y, int radius, int max_height)
{
    if (!lrt_in_bounds(x, y))
        return;
    int *h = lay->height;
    if (max_height != INT_MIN && h[y * GXM + x] > max_height)
        return;
    int max_delta = radius * radius * 2 + 2, divisor = 0, total = 0;
    for (int ny = y - radius; ny <= y + radius; ny++)
        for (int nx = x - radius; nx <= x + radius; nx++) {
            if (!lrt_in_bounds(nx, ny))
                continue;
            int nh = h[ny * GXM + nx];
            if (max_height != INT_MIN && nh > max_height)
                continue;
            int weight = max_delta - ((x - nx) * (x - nx) + (y - ny) * (y - ny));
            divisor += weight;
            total += nh * weight;
        }
    if (divisor)
        h[y * GXM + x] = total / divisor;
}

/* From the centre outwards, the four quadrants together, as Crawl does. */
void lrt_smooth_heights(lrt_layout *lay)
{
    const int xspan = GXM / 2, yspan = GYM / 2;
    lrt_charge(lay->L, (size_t)GXM * GYM * 9);
    for (int y = yspan - 1; y >= 0; y--)
        for (int x = xspan - 1; x >= 0; x--) {
            lrt_smooth_height_at(lay, x, y, 1, INT_MIN);
            lrt_smooth_height_at(lay, 2 * xspan - x - 1, y, 1, INT_MIN);
            lrt_smooth_height_at(lay, x, 2 * yspan - y - 1, 1, INT_MIN);
            lrt_smooth_height_at(lay, 2 * xspan - x - 1, 2 * yspan - y - 1, 1, INT_MIN);
        }
}

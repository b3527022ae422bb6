/* Crawl's layout builders (l-dgnbld.cc) that carve whole layouts out of
 * the map grid: corridors between points, round and irregular rooms,
 * smeared and spotted caves, pools, delved tunnels, windows, doors made
 * sense of. They follow Crawl's algorithms step by step with the project's
 * generator, so a seed gives the same layout on every machine (not the
 * layout Crawl's own generator would give). Where Crawl reads the level
 * around the map (vault masks), a map compiled or resolved on its own has
 * none. */
#include "lua/builder.h"
#include "lua/layout.h"

#include <stdlib.h>
#include <string.h>

/* ---- join_the_dots --------------------------------------------------- */

typedef struct point {
    int x, y;
} point;

static int sign_of(int v)
{
    return (v > 0) - (v < 0);
}

/* Crawl's _calculate_join_the_dots_path without vaults to avoid: steps
 * from one end towards the other, straight or in proportion to the
 * distance left on each axis; returns the cell count. */
static int dots_path(qg_rng *rng, point from, point to, int straight, int diagonals,
                     point *cells)
{
    int n = 0;
    point at = from;
    for (;;) {
        cells[n++] = at;
        if (at.x == to.x && at.y == to.y)
            return n;
        int mx = sign_of(to.x - at.x), my = sign_of(to.y - at.y);
        int good_x = mx != 0, good_y = my != 0, good_xy = good_x && good_y && diagonals;
        point next_x = {at.x + mx, at.y}, next_y = {at.x, at.y + my};
        point next_xy = {at.x + mx, at.y + my};
        if (straight) {
            at = good_xy ? next_xy : good_x ? next_x : next_y;
            continue;
        }
        int dx = abs(at.x - to.x), dy = abs(at.y - to.y), sum = dx + dy;
        int least = dx < dy ? dx : dy, most = sum - least;
        /* half the chance: a diagonal step is worth two others */
        if (good_xy && (qg_rng_x_chance_in_y(rng, least, most * 2) || (!good_x && !good_y)))
            at = next_xy;
        else if (good_x && (qg_rng_x_chance_in_y(rng, dx, sum) || !good_y))
            at = next_x;
        else
            at = next_y;
    }
}

/* join_the_dots{x1, y1, x2, y2, passable, fill, force_straight,
 * allow_diagonals, thickness}: a corridor of fill between the two points
 * through every cell that is not passable, never on the map's edge. Both
 * directions are drawn up and one is kept at random, as Crawl does when
 * neither meets a vault. */
static int l_join_the_dots(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    point from = {lrt_arg_int(L, "x1", -1), lrt_arg_int(L, "y1", -1)};
    point to = {lrt_arg_int(L, "x2", -1), lrt_arg_int(L, "y2", -1)};
    lrt_glyphs pass;
    lrt_arg_glyphs(L, "passable", LRT_TRAVERSABLE, &pass);
    char fill = lrt_arg_char(L, "fill", '.');
    int straight = lrt_arg_bool(L, "force_straight", 0);
    int diagonals = lrt_arg_bool(L, "allow_diagonals", 0);
    int thickness = lrt_arg_int(L, "thickness", 1);
    lrt_check_coord(L, map, from.x, from.y);
    lrt_check_coord(L, map, to.x, to.y);
    if (from.x == to.x && from.y == to.y)
        return 0;
    size_t most = (size_t)map->width + (size_t)map->height + 1;
    point *one = lrt_scratch(L, most, sizeof *one), *two = lrt_scratch(L, most, sizeof *two);
    qg_rng *rng = &lrt_runtime(L)->rng;
    int n1 = dots_path(rng, from, to, straight, diagonals, one);
    int n2 = dots_path(rng, to, from, straight, diagonals, two);
    int first = qg_rng_coinflip(rng);
    const point *path = first ? one : two;
    int n = first ? n1 : n2;
    if (thickness < 0 || thickness > LRT_MAX_WIDTH + LRT_MAX_HEIGHT)
        return 0;
    int lo = -thickness / 2, hi = lo + thickness;
    for (int i = 0; i < n; i++)
        for (int dx = lo; dx < hi; dx++)
            for (int dy = lo; dy < hi; dy++) {
                int x = path[i].x + dx, y = path[i].y + dy;
                if (x >= 1 && x < map->width - 1 && y >= 1 && y < map->height - 1 &&
                    !lrt_glyph_in(&pass, lrt_cell(map, x, y)))
                    lrt_set_cell(map, x, y, fill);
            }
    return 0;
}

/* ---- make_round_box ----------------------------------------------------- */

enum { OUTSIDE, WALL, FLOOR, DOOR };

/* The ellipse filling the box, hollowed: a wall cell all of whose
 * neighbours are inside becomes floor. */
static void draw_round(unsigned char *g, int w, int h)
{
    float rx = (w - 1.0f) * 0.5f, ry = (h - 1.0f) * 0.5f;
    for (int x = 0; x < w; x++)
        for (int y = 0; y < h; y++) {
            float fx = (x - rx) / (rx + 0.5f), fy = (y - ry) / (ry + 0.5f);
            if (fx * fx + fy * fy <= 1.0f)
                g[y * w + x] = WALL;
        }
    for (int x = 1; x < w - 1; x++)
        for (int y = 1; y < h - 1; y++) {
            int inner = g[y * w + x] == WALL;
            for (int dy = -1; inner && dy <= 1; dy++)
                for (int dx = -1; inner && dx <= 1; dx++)
                    inner = g[(y + dy) * w + x + dx] != OUTSIDE;
            if (inner)
                g[y * w + x] = FLOOR;
        }
}

/* A straight stretch of wall with passable ground of the map just
 * outside the room, on one side. */
static int door_spot(const lrt_map *map, const unsigned char *g, int w, int h,
                     int x, int y, int ox, int oy, const lrt_glyphs *pass)
{
    int xm = x > 0 && g[y * w + x - 1] == WALL, xp = x + 1 < w && g[y * w + x + 1] == WALL;
    int ym = y > 0 && g[(y - 1) * w + x] == WALL, yp = y + 1 < h && g[(y + 1) * w + x] == WALL;
    int rx = ox + x, ry = oy + y;
    if (xm && xp && !ym && !yp)
        return (lrt_glyph_in(pass, lrt_cell(map, rx, ry - 1)) &&
                (y == 0 || g[(y - 1) * w + x] == OUTSIDE)) ||
               (lrt_glyph_in(pass, lrt_cell(map, rx, ry + 1)) &&
                (y + 1 >= h || g[(y + 1) * w + x] == OUTSIDE));
    if (!xm && !xp && ym && yp)
        return (lrt_glyph_in(pass, lrt_cell(map, rx - 1, ry)) &&
                (x == 0 || g[y * w + x - 1] == OUTSIDE)) ||
               (lrt_glyph_in(pass, lrt_cell(map, rx + 1, ry)) &&
                (x + 1 >= w || g[y * w + x + 1] == OUTSIDE));
    return 0;
}

/* make_round_box{x1, y1, x2, y2, floor, wall, door, door_count, passable,
 * veto_gates, veto_if_no_doors}: an elliptical room filling the box, doors
 * on straight stretches of its wall that open onto passable ground;
 * returns whether it was drawn (veto_if_no_doors refuses a room no door
 * fits). */
static int l_make_round_box(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    char floor = lrt_arg_char(L, "floor", '.'), wall = lrt_arg_char(L, "wall", 'x');
    char door = lrt_arg_char(L, "door", '+');
    int door_count = lrt_arg_int(L, "door_count", 1);
    lrt_glyphs pass;
    lrt_arg_glyphs(L, "passable", LRT_TRAVERSABLE, &pass);
    int veto_gates = lrt_arg_bool(L, "veto_gates", 0);
    int veto_if_no_doors = lrt_arg_bool(L, "veto_if_no_doors", 0);
    /* Crawl would write past the grid; the room is kept to it */
    lrt_box inside = {b.x1 < 0 ? 0 : b.x1, b.y1 < 0 ? 0 : b.y1,
                      b.x2 >= map->width ? map->width - 1 : b.x2,
                      b.y2 >= map->height ? map->height - 1 : b.y2};
    int w = inside.x2 - inside.x1 + 1, h = inside.y2 - inside.y1 + 1;
    if (w < 1 || h < 1) {
        lua_pushboolean(L, !veto_if_no_doors);
        return 1;
    }
    unsigned char *g = lrt_scratch(L, (size_t)w * h, 1);
    point *spots = lrt_scratch(L, (size_t)w * h, sizeof *spots);
    draw_round(g, w, h);
    int count = 0, placed = 0;
    for (int x = 0; x < w; x++)
        for (int y = 0; y < h; y++)
            if (g[y * w + x] == WALL && door_spot(map, g, w, h, x, y, inside.x1, inside.y1, &pass))
                spots[count++] = (point){x, y};
    qg_rng *rng = &lrt_runtime(L)->rng;
    while (placed < door_count && count > 0) {
        int i = qg_rng_below(rng, count);
        point p = spots[i];
        spots[i] = spots[--count];
        int gate = veto_gates &&
                   ((p.x > 0 && g[p.y * w + p.x - 1] == DOOR) ||
                    (p.x + 1 < w && g[p.y * w + p.x + 1] == DOOR) ||
                    (p.y > 0 && g[(p.y - 1) * w + p.x] == DOOR) ||
                    (p.y + 1 < h && g[(p.y + 1) * w + p.x] == DOOR));
        if (!gate) {
            g[p.y * w + p.x] = DOOR;
            placed++;
        }
    }
    if (!placed && veto_if_no_doors) {
        lua_pushboolean(L, 0);
        return 1;
    }
    const char glyph[] = {0, wall, floor, door};
    for (int x = 0; x < w; x++)
        for (int y = 0; y < h; y++)
            if (g[y * w + x] != OUTSIDE)
                lrt_set_cell(map, inside.x1 + x, inside.y1 + y, glyph[g[y * w + x]]);
    lua_pushboolean(L, 1);
    return 1;
}

/* ---- neighbourhood rewrites -------------------------------------------- */

/* widen_paths{x1, y1, x2, y2, find, replace, passable, percent, boxy}: a
 * find glyph becomes replace with a chance that grows with its passable
 * neighbours (4, or 8 when boxy), each adding percent as an independent
 * chance; every cell is judged before any changes. */
static int l_widen_paths(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_glyphs find, pass;
    lrt_arg_glyphs(L, "find", "", &find);
    char repl = lrt_arg_char(L, "replace", '.');
    lrt_arg_glyphs(L, "passable", LRT_TRAVERSABLE, &pass);
    int percent = lrt_arg_int(L, "percent", 100);
    /* a chance past certain is certain: the powers below stay in range */
    percent = percent < 0 ? 0 : percent > 100 ? 100 : percent;
    int boxy = lrt_arg_bool(L, "boxy", 0);
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    lrt_box_inside_border(map, &b);
    /* in Crawl's float arithmetic, so that the chances are its own */
    float each = (float)(1.0 - percent / 100.0f), left = 1.0f;
    int chance[9];
    for (int i = 0; i < 9; i++) {
        chance[i] = 100 - (int)(left * 100);
        left *= each;
    }
    qg_rng *rng = &lrt_runtime(L)->rng;
    unsigned char *widen = lrt_scratch(L, (size_t)map->width * map->height, 1);
    for (int y = b.y1; y <= b.y2; y++)
        for (int x = b.x1; x <= b.x2; x++) {
            if (!lrt_glyph_in(&find, lrt_cell(map, x, y)))
                continue;
            int n = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    n += (dx || dy) && (boxy || !dx || !dy) &&
                         lrt_glyph_in(&pass, lrt_cell(map, x + dx, y + dy));
            widen[y * map->width + x] = (unsigned char)qg_rng_x_chance_in_y(rng, chance[n], 100);
        }
    for (int y = b.y1; y <= b.y2; y++)
        for (int x = b.x1; x <= b.x2; x++)
            if (widen[y * map->width + x])
                lrt_set_cell(map, x, y, repl);
    return 0;
}

/* Crawl's _wall_is_empty: walking both ways along the wall from (x, y)
 * (along x when horizontal) while floor lies on both sides, every cell is
 * wall. */
static int wall_is_empty(const lrt_map *map, int x, int y, const lrt_glyphs *wall,
                         const lrt_glyphs *floor, int horizontal, int max_check)
{
    int nx = horizontal ? 0 : 1, ny = horizontal ? 1 : 0;
    for (int d = 1; d >= -1; d -= 2) {
        int lx = horizontal ? d : 0, ly = horizontal ? 0 : d;
        for (int n = 1; n <= max_check; n++) {
            int px = x + lx * n, py = y + ly * n;
            if (!lrt_glyph_in(floor, lrt_cell(map, px + nx, py + ny)) ||
                !lrt_glyph_in(floor, lrt_cell(map, px - nx, py - ny)))
                break;
            if (!lrt_glyph_in(wall, lrt_cell(map, px, py)))
                return 0;
        }
    }
    return 1;
}

/* The cells of the box in a random order (Crawl's random_rectangle_iterator),
 * in a scratch buffer on the stack. */
static point *shuffled_cells(lua_State *L, const lrt_box *b, int *count)
{
    int w = b->x2 - b->x1 + 1, h = b->y2 - b->y1 + 1;
    *count = w > 0 && h > 0 ? w * h : 0;
    point *cells = lrt_scratch(L, (size_t)*count, sizeof *cells);
    for (int i = 0; i < *count; i++)
        cells[i] = (point){b->x1 + i % w, b->y1 + i / w};
    qg_rng *rng = &lrt_runtime(L)->rng;
    for (int i = *count - 1; i > 0; i--) {
        int j = qg_rng_below(rng, i + 1);
        point t = cells[i];
        cells[i] = cells[j];
        cells[j] = t;
    }
    return cells;
}

/* connect_adjacent_rooms{x1, y1, x2, y2, wall, floor, replace, min, max,
 * check_distance}: of a random min..max cells of the box, each wall
 * between two floors in a straight wall becomes replace. */
static int l_connect_adjacent_rooms(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_glyphs wall, floor;
    lrt_arg_glyphs(L, "wall", "xcvbmn", &wall);
    lrt_arg_glyphs(L, "floor", ".", &floor);
    char repl = lrt_arg_char(L, "replace", '.');
    int max = lrt_arg_int(L, "max", 1), min = lrt_arg_int(L, "min", max);
    int check = lrt_arg_int(L, "check_distance", 9999);
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    lrt_box_inside_border(map, &b);
    if (min < 0)
        return luaL_error(L, "Invalid min connections: %d", min);
    if (max < min)
        return luaL_error(L, "Invalid max connections: %d (min is %d)", max, min);
    qg_rng *rng = &lrt_runtime(L)->rng;
    int count = qg_rng_range(rng, min, max), cells;
    point *order = shuffled_cells(L, &b, &cells);
    for (int i = 0; i < cells && count > 0; i++, count--) {
        int x = order[i].x, y = order[i].y;
        if (!lrt_glyph_in(&wall, lrt_cell(map, x, y)))
            continue;
        if ((lrt_glyph_in(&floor, lrt_cell(map, x, y - 1)) &&
             lrt_glyph_in(&floor, lrt_cell(map, x, y + 1)) &&
             wall_is_empty(map, x, y, &wall, &floor, 1, check)) ||
            (lrt_glyph_in(&floor, lrt_cell(map, x - 1, y)) &&
             lrt_glyph_in(&floor, lrt_cell(map, x + 1, y)) &&
             wall_is_empty(map, x, y, &wall, &floor, 0, check)))
            lrt_set_cell(map, x, y, repl);
    }
    return 0;
}

/* Whether a door with these open neighbours joins two sides: in a
 * straight wall, or across a diagonal one (Crawl's cases, drawn in its
 * source). */
static int door_connects(int n, int ne, int e, int se, int s, int sw, int w, int nw)
{
    if (!s && !n && (e || w) && (e || se || ne) && (w || sw || nw))
        return 1;
    if (!e && !w && (s || n) && (s || ne || nw) && (n || se || sw))
        return 1;
    if (se && nw && s == e && n == w && (s != w || (!s && !w && !sw && !ne)))
        return 1;
    if (sw && ne && s == w && n == e && (s != e || (!s && !e && !se && !nw)))
        return 1;
    return 0;
}

/* remove_disconnected_doors{x1, y1, x2, y2, door, open, replace}: doors
 * that join nothing (and gates) become replace. */
static int l_remove_disconnected_doors(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_glyphs door, open;
    lrt_arg_glyphs(L, "door", "+", &door);
    lrt_arg_glyphs(L, "open", LRT_TRAVERSABLE, &open);
    char repl = lrt_arg_char(L, "replace", '.');
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    lrt_box_inside_border(map, &b);
    for (int y = b.y1; y <= b.y2; y++)
        for (int x = b.x1; x <= b.x2; x++) {
            if (!lrt_glyph_in(&door, lrt_cell(map, x, y)))
                continue;
            int is[8];
            for (int d = 0; d < 8; d++)
                is[d] = lrt_glyph_in(&open, lrt_cell(map, x + lrt_compass[d][0],
                                                     y + lrt_compass[d][1]));
            if (!door_connects(is[0], is[1], is[2], is[3], is[4], is[5], is[6], is[7]))
                lrt_set_cell(map, x, y, repl);
        }
    return 0;
}

/* Whether a wall cell whose neighbours (in compass order) are open or
 * walled as given is where Crawl's add_windows cuts a window: across a
 * straight wall, a bent one, or a diagonal one two or three cells thick. */
static int window_fits(const int *open, const int *walled)
{
    enum { N, NE, E, SE, S, SW, W, NW };
    return (open[S] && open[N] && walled[E] && walled[W]) ||
           (open[E] && open[W] && walled[S] && walled[N]) ||
           (walled[E] && walled[W] &&
            ((open[SE] && open[NW] && walled[SW] && walled[NE]) ||
             (open[SW] && open[NE] && walled[SE] && walled[NW]))) ||
           (walled[S] && walled[N] && walled[E] && walled[W] &&
            ((open[SE] && open[NW]) || (open[SW] && open[NE]))) ||
           (walled[S] && walled[E] && open[N] && open[W] && open[SE]) ||
           (walled[S] && walled[W] && open[N] && open[E] && open[SW]) ||
           (walled[N] && walled[W] && open[S] && open[E] && open[NW]) ||
           (walled[N] && walled[E] && open[S] && open[W] && open[NE]);
}

/* add_windows{x1, y1, x2, y2, wall, open, window}: windows in the walls
 * between open cells, cut as the box is walked (a window, being wall,
 * still counts as wall for the cells after it). */
static int l_add_windows(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_glyphs wall, open;
    lrt_arg_glyphs(L, "wall", "xcvbmn", &wall);
    lrt_arg_glyphs(L, "open", LRT_TRAVERSABLE, &open);
    char window = lrt_arg_char(L, "window", 'm');
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    lrt_box_inside_border(map, &b);
    for (int y = b.y1; y <= b.y2; y++)
        for (int x = b.x1; x <= b.x2; x++) {
            if (!lrt_glyph_in(&wall, lrt_cell(map, x, y)))
                continue;
            int is_open[8], is_wall[8];
            for (int d = 0; d < 8; d++) {
                char g = lrt_cell(map, x + lrt_compass[d][0], y + lrt_compass[d][1]);
                is_open[d] = lrt_glyph_in(&open, g);
                is_wall[d] = lrt_glyph_in(&wall, g);
            }
            if (window_fits(is_open, is_wall))
                lrt_set_cell(map, x, y, window);
        }
    return 0;
}

/* ---- random growth ------------------------------------------------------ */

/* smear_map{x1, y1, x2, y2, iterations, smear, onto, boxy}: each iteration
 * turns one onto cell beside a smear cell (diagonally too, unless boxy)
 * into smear. Crawl draws the column from x1 + 1 to y2 - 1 (sic); a
 * column past the map holds no onto glyph and is drawn again. */
static int l_smear_map(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    int iterations = lrt_arg_int(L, "iterations", 1);
    char smear = lrt_arg_char(L, "smear", 'x');
    lrt_glyphs onto;
    int any_onto = lrt_arg_glyphs(L, "onto", ".", &onto);
    int boxy = lrt_arg_bool(L, "boxy", 0);
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 1))
        return 0;
    qg_rng *rng = &lrt_runtime(L)->rng;
    long sanity = 0, max_sanity = (long)iterations * 10;
    for (int i = 0; i < iterations; i++) {
        int x, y, straights, diagonals;
        do {
            do {
                if (sanity++ > max_sanity)
                    return 0;
                lrt_charge(L, 1);
                x = qg_rng_range(rng, b.x1 + 1, b.y2 - 1);
                y = qg_rng_range(rng, b.y1 + 1, b.y2 - 1);
            } while (any_onto && !lrt_glyph_in(&onto, lrt_cell(map, x, y)));
            diagonals = lrt_cell(map, x + 1, y + 1) == smear ||
                        lrt_cell(map, x - 1, y + 1) == smear ||
                        lrt_cell(map, x - 1, y - 1) == smear ||
                        lrt_cell(map, x + 1, y - 1) == smear;
            straights = lrt_cell(map, x + 1, y) == smear || lrt_cell(map, x - 1, y) == smear ||
                        lrt_cell(map, x, y + 1) == smear || lrt_cell(map, x, y - 1) == smear;
        } while (!straights && (boxy || !diagonals));
        lrt_set_cell(map, x, y, smear);
    }
    return 0;
}

/* spotty_map{x1, y1, x2, y2, replace, fill, boxy, iterations}: spots of
 * fill (3x3 when boxy, a plus otherwise) opened around random points that
 * lie near a cell not of replace; the default number of spots is random,
 * and drawn even when iterations is given, as in Crawl. */
static int l_spotty_map(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_glyphs replace;
    lrt_arg_glyphs(L, "replace", "x", &replace);
    char fill = lrt_arg_char(L, "fill", '.');
    int boxy = lrt_arg_bool(L, "boxy", 1);
    qg_rng *rng = &lrt_runtime(L)->rng;
    int iterations = lrt_arg_int(L, "iterations", qg_rng_below(rng, boxy ? 750 : 1500));
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 4))
        return 0;
    long sanity = 0, max_sanity = (long)iterations * 10;
    static const int ring[9][2] = {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1},
                                   {-2, 0}, {2, 0}, {0, -2}, {0, 2}};
    for (int i = 0; i < iterations; i++) {
        int x, y, solid;
        do {
            if (sanity++ > max_sanity)
                return 0;
            lrt_charge(L, 9);
            x = qg_rng_range(rng, b.x1 + 4, b.x2 - 4);
            y = qg_rng_range(rng, b.y1 + 4, b.y2 - 4);
            solid = 1;
            for (int k = 0; k < 9 && solid; k++)
                solid = lrt_glyph_in(&replace, lrt_cell(map, x + ring[k][0], y + ring[k][1]));
        } while (solid);
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                if ((boxy || !dx || !dy) && lrt_glyph_in(&replace, lrt_cell(map, x + dx, y + dy)))
                    lrt_set_cell(map, x + dx, y + dy, fill);
    }
    return 0;
}

/* ---- distances and zones -------------------------------------------------- */

/* Breadth-first over traversable cells (all 8 directions) from every cell
 * in from; returns the number of cells reached and the index in queue
 * where the last distance begins. */
static int spread(const lrt_map *map, const lrt_glyphs *from, point *queue,
                  unsigned char *seen, int *last_start)
{
    lrt_glyphs traversable;
    lrt_glyphs_of(&traversable, LRT_TRAVERSABLE);
    int n = 0;
    for (int x = map->width - 1; x >= 0; x--)
        for (int y = map->height - 1; y >= 0; y--)
            if (lrt_glyph_in(from, lrt_cell(map, x, y))) {
                seen[y * map->width + x] = 1;
                queue[n++] = (point){x, y};
            }
    int begin = 0, end = n;
    *last_start = 0;
    while (begin < end) {
        *last_start = begin;
        for (int i = begin; i < end; i++)
            for (int d = 0; d < 8; d++) {
                int x = queue[i].x + lrt_compass[d][0], y = queue[i].y + lrt_compass[d][1];
                if (!lrt_glyph_in(&traversable, lrt_cell(map, x, y)) ||
                    seen[y * map->width + x])
                    continue;
                seen[y * map->width + x] = 1;
                queue[n++] = (point){x, y};
            }
        begin = end;
        end = n;
    }
    return n;
}

/* farthest_from(beacons): a cell, picked at random, of those that the most
 * steps over traversable ground separate from the nearest beacon glyph
 * (nil, nil without one). Crawl's source means this; the layer
 * bookkeeping of its 0.2x versions slips to the cell queued second to
 * last (and asserts when one cell is all there is beyond the beacons),
 * which is not copied. */
static int l_farthest_from(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    lrt_glyphs beacons;
    lrt_glyphs_of(&beacons, luaL_checkstring(L, 2));
    size_t cells = (size_t)map->width * map->height;
    lrt_charge(L, cells * 9);
    point *queue = lrt_scratch(L, cells, sizeof *queue);
    unsigned char *seen = lrt_scratch(L, cells, 1);
    int last, n = spread(map, &beacons, queue, seen, &last);
    if (!n) {
        lua_pushnil(L);
        lua_pushnil(L);
        return 2;
    }
    point p = queue[qg_rng_range(&lrt_runtime(L)->rng, last, n - 1)];
    lua_pushinteger(L, p.x);
    lua_pushinteger(L, p.y);
    return 2;
}

/* Crawl's map_lines::fill_zone: marks the passable cells of the box
 * reachable from start (all 8 directions) with zone; whether one of them
 * holds a wanted glyph. */
static int fill_zone(const lrt_map *map, const lrt_box *b, int *zones, point *stack, point start,
                     int zone, const lrt_glyphs *wanted, const lrt_glyphs *pass)
{
    int found = 0, top = 0;
    zones[start.y * map->width + start.x] = zone;
    stack[top++] = start;
    while (top) {
        point c = stack[--top];
        found |= lrt_glyph_in(wanted, lrt_cell(map, c.x, c.y));
        for (int d = 0; d < 8; d++) {
            int x = c.x + lrt_compass[d][0], y = c.y + lrt_compass[d][1];
            if (x < b->x1 || x > b->x2 || y < b->y1 || y > b->y2 ||
                !lrt_glyph_in(pass, lrt_cell(map, x, y)) || zones[y * map->width + x])
                continue;
            zones[y * map->width + x] = zone;
            stack[top++] = (point){x, y};
        }
    }
    return found;
}

/* fill_disconnected{x1, y1, x2, y2, fill, passable, wanted}: every zone of
 * passable cells in the box that holds no wanted glyph (stairs, exits)
 * becomes fill. */
static int l_fill_disconnected(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    char fill = lrt_arg_char(L, "fill", 'x');
    lrt_glyphs pass, wanted;
    lrt_arg_glyphs(L, "passable", LRT_TRAVERSABLE, &pass);
    lrt_arg_glyphs(L, "wanted", "{}()[]<>@", &wanted);
    if (b.x1 < 0)
        b.x1 = 0;
    if (b.y1 < 0)
        b.y1 = 0;
    if (b.x2 >= map->width)
        b.x2 = map->width - 1;
    if (b.y2 >= map->height)
        b.y2 = map->height - 1;
    size_t cells = (size_t)map->width * map->height;
    int *zones = lrt_scratch(L, cells, sizeof *zones);
    point *stack = lrt_scratch(L, cells, sizeof *stack);
    int zone = 0;
    for (int y = b.y1; y <= b.y2; y++)
        for (int x = b.x1; x <= b.x2; x++) {
            if (zones[y * map->width + x] || !lrt_glyph_in(&pass, lrt_cell(map, x, y)))
                continue;
            if (fill_zone(map, &b, zones, stack, (point){x, y}, ++zone, &wanted, &pass))
                continue;
            for (int fy = b.y1; fy <= b.y2; fy++)
                for (int fx = b.x1; fx <= b.x2; fx++)
                    if (zones[fy * map->width + fx] == zone)
                        lrt_set_cell(map, fx, fy, fill);
        }
    return 0;
}

void lrt_open_layout(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"join_the_dots", l_join_the_dots}, {"make_round_box", l_make_round_box},
        {"make_irregular_box", lrt_l_make_irregular_box},
        {"widen_paths", l_widen_paths}, {"connect_adjacent_rooms", l_connect_adjacent_rooms},
        {"remove_disconnected_doors", l_remove_disconnected_doors},
        {"add_windows", l_add_windows}, {"smear_map", l_smear_map},
        {"spotty_map", l_spotty_map}, {"add_pools", lrt_l_add_pools},
        {"delve", lrt_l_delve}, {"farthest_from", l_farthest_from},
        {"fill_disconnected", l_fill_disconnected},
        {"layout_basic", lrt_l_layout_basic}, {"layout_bigger_room", lrt_l_layout_bigger_room},
        {"layout_chaotic_city", lrt_l_layout_chaotic_city},
        {"layout_shoals", lrt_l_layout_shoals}, {"layout_swamp", lrt_l_layout_swamp},
        {NULL, NULL}};
    lua_getglobal(L, "dgn");
    luaL_setfuncs(L, fns, 0);
    lua_pop(L, 1);
}

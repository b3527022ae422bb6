/* Crawl's simple builder primitives (l-dgnbld.cc) over the map grid: boxes,
 * shapes, replacements and counts. Each takes the map and a table of
 * named arguments, e.g. fill_area{fill = 'x'}, read as Crawl reads them;
 * the builders that carve whole layouts are in api_layout.c. A cell that
 * Crawl would write outside the grid is left alone. */
#include "lua/builder.h"

#include <stdlib.h>
#include <string.h>

static void fill_box(lrt_map *map, int x1, int y1, int x2, int y2, char fill)
{
    for (int y = y1 < 0 ? 0 : y1; y <= y2 && y < map->height; y++)
        for (int x = x1 < 0 ? 0 : x1; x <= x2 && x < map->width; x++)
            lrt_set_cell(map, x, y, fill);
}

/* fill_area{x1, y1, x2, y2, fill, border}: the box filled, its edge drawn
 * with border when that differs. */
static int l_fill_area(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    char fill = lrt_arg_char(L, "fill", 'x');
    char border = lrt_arg_char(L, "border", fill);
    fill_box(map, b.x1, b.y1, b.x2, b.y2, fill);
    if (border == fill)
        return 0;
    fill_box(map, b.x1, b.y1, b.x2, b.y1, border);
    fill_box(map, b.x1, b.y2, b.x2, b.y2, border);
    fill_box(map, b.x1, b.y1, b.x1, b.y2, border);
    fill_box(map, b.x2, b.y1, b.x2, b.y2, border);
    return 0;
}

/* extend_map{width, height, fill}: the grid grown to at least that size. */
static int l_extend_map(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    int h = lrt_arg_int(L, "height", 1), w = lrt_arg_int(L, "width", 1);
    char fill = lrt_arg_char(L, "fill", 'x');
    int nw = w > map->width ? w : map->width, nh = h > map->height ? h : map->height;
    if (!lrt_map_resize(map, nw, nh, fill))
        return lrt_map_error(L, map, "extend_map: %dx%d is larger than %dx%d", nw, nh,
                             LRT_MAX_WIDTH, LRT_MAX_HEIGHT);
    return 0;
}

/* make_box{x1, y1, x2, y2, floor, wall, thickness}. */
static int l_make_box(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    char floor = lrt_arg_char(L, "floor", '.'), wall = lrt_arg_char(L, "wall", 'x');
    int t = lrt_arg_int(L, "thickness", 1);
    fill_box(map, b.x1, b.y1, b.x2, b.y2, wall);
    if (t >= 0 && t <= LRT_MAX_WIDTH)
        fill_box(map, b.x1 + t, b.y1 + t, b.x2 - t, b.y2 - t, floor);
    return 0;
}

/* Shapes around (x, y) of the given radius, by the cells they keep:
 * Crawl's circle (rx^2 + ry^2 < (radius + 1/2)^2), diamond, square and
 * square without its corners. */
enum shape { SHAPE_CIRCLE, SHAPE_DIAMOND, SHAPE_SQUARE, SHAPE_ROUNDED_SQUARE };

static int in_shape(enum shape shape, int64_t rx, int64_t ry, int64_t r)
{
    switch (shape) {
    case SHAPE_CIRCLE: return rx * rx + ry * ry <= r * r + r;
    case SHAPE_DIAMOND: return llabs(rx) + llabs(ry) <= r;
    case SHAPE_SQUARE: return 1;
    case SHAPE_ROUNDED_SQUARE: return llabs(rx) != r || llabs(ry) != r;
    }
    return 0;
}

static int make_shape(lua_State *L, enum shape shape)
{
    lrt_map *map = lrt_builder_args(L);
    int cx = lrt_arg_int(L, "x", -1), cy = lrt_arg_int(L, "y", -1);
    int r = lrt_arg_int(L, "radius", 1);
    char fill = lrt_arg_char(L, "fill", 'x');
    lrt_check_coord(L, map, cx, cy);
    for (int y = 0; y < map->height; y++)
        for (int x = 0; x < map->width; x++) {
            int64_t rx = x - cx, ry = y - cy;
            if (llabs(rx) <= r && llabs(ry) <= r && in_shape(shape, rx, ry, r))
                lrt_set_cell(map, x, y, fill);
        }
    return 0;
}

static int l_make_circle(lua_State *L)
{
    return make_shape(L, SHAPE_CIRCLE);
}

static int l_make_diamond(lua_State *L)
{
    return make_shape(L, SHAPE_DIAMOND);
}

static int l_make_square(lua_State *L)
{
    return make_shape(L, SHAPE_SQUARE);
}

static int l_make_rounded_square(lua_State *L)
{
    return make_shape(L, SHAPE_ROUNDED_SQUARE);
}

/* make_box_doors{x1, y1, x2, y2, number, thickness, door, inner_door,
 * between_doors, veto_gates, passable}: doors cut through a box's walls
 * at random places with passable cells on both sides; returns how many. */
static int l_make_box_doors(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    int number = lrt_arg_int(L, "number", 1), thick = lrt_arg_int(L, "thickness", 1);
    char door = lrt_arg_char(L, "door", '+'), inner = lrt_arg_char(L, "inner_door", '.');
    char between = lrt_arg_char(L, "between_doors", '.');
    int veto_gates = lrt_arg_bool(L, "veto_gates", 0);
    lrt_glyphs pass;
    lrt_arg_glyphs(L, "passable", LRT_TRAVERSABLE, &pass);
    qg_runtime *rt = lrt_runtime(L);
    int64_t size_x = (int64_t)b.x2 - b.x1 + 1 - (int64_t)thick * 2;
    int64_t size_y = (int64_t)b.y2 - b.y1 + 1 - (int64_t)thick * 2;
    int64_t positions = size_x * 2 + size_y * 2;
    int doors = 0, sanity = 0;
    if (size_x < 0 || size_y < 0 || positions <= 0 || positions > INT32_MAX || number < 0 ||
        number > 10000) {
        lua_pushinteger(L, 0);
        return 1;
    }
    lrt_charge(L, (size_t)number * 100);
    while (doors < number) {
        int p = qg_rng_below(&rt->rng, (int32_t)positions), side, x, y;
        if (p < size_x) {
            side = 0, x = b.x1 + thick + p, y = b.y1;
        } else if (p < size_x * 2) {
            side = 1, x = b.x1 + thick + (p - (int)size_x), y = b.y2;
        } else if (p < size_x * 2 + size_y) {
            side = 2, x = b.x1, y = b.y1 + thick + (p - (int)size_x * 2);
        } else {
            side = 3, x = b.x2, y = b.y1 + thick + (p - (int)size_x * 2 - (int)size_y);
        }
        int good;
        if (side < 2)
            good = lrt_glyph_in(&pass, lrt_cell(map, x, y - (side == 0 ? 1 : thick))) &&
                   lrt_glyph_in(&pass, lrt_cell(map, x, y + (side == 1 ? 1 : thick))) &&
                   !(veto_gates && (lrt_cell(map, x - 1, y) == door ||
                                    lrt_cell(map, x + 1, y) == door));
        else
            good = lrt_glyph_in(&pass, lrt_cell(map, x - (side == 2 ? 1 : thick), y)) &&
                   lrt_glyph_in(&pass, lrt_cell(map, x + (side == 3 ? 1 : thick), y)) &&
                   !(veto_gates && (lrt_cell(map, x, y - 1) == door ||
                                    lrt_cell(map, x, y + 1) == door));
        if (!good) {
            if (++sanity >= number * 100)
                break;
            continue;
        }
        doors++;
        lrt_set_cell(map, x, y, door);
        for (int i = 1; i < thick; i++) {
            x += side == 2 ? 1 : side == 3 ? -1 : 0;
            y += side == 0 ? 1 : side == 1 ? -1 : 0;
            lrt_set_cell(map, x, y, between);
        }
        if (thick > 1)
            lrt_set_cell(map, x, y, inner);
    }
    lua_pushinteger(L, doors);
    return 1;
}

/* replace_area{x1, y1, x2, y2, find, replace}: every find glyph in the box
 * becomes replace. */
static int l_replace_area(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_glyphs find;
    lrt_arg_glyphs(L, "find", "", &find);
    if (lua_getfield(L, 2, "replace") == LUA_TNIL)
        return lrt_map_error(L, map, "replace_area needs a replace glyph");
    lua_pop(L, 1);
    char repl = lrt_arg_char(L, "replace", '.');
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    for (int y = b.y1; y <= b.y2; y++)
        for (int x = b.x1; x <= b.x2; x++)
            if (lrt_glyph_in(&find, lrt_cell(map, x, y)))
                lrt_set_cell(map, x, y, repl);
    return 0;
}

/* replace_first{x, y, xdir, ydir, find, replace, required}: the first find
 * glyph from (x, y) stepping by (xdir, ydir) becomes replace. */
static int l_replace_first(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    int x = lrt_arg_int(L, "x", 0), y = lrt_arg_int(L, "y", 0);
    int dx = lrt_arg_int(L, "xdir", 2), dy = lrt_arg_int(L, "ydir", 2);
    char find = lrt_arg_char(L, "find", '\0'), repl = lrt_arg_char(L, "replace", '\0');
    int required = lrt_arg_bool(L, "required", 0);
    lrt_check_coord(L, map, x, y);
    if (dx < -1 || dx > 1)
        return luaL_error(L, "Invalid xdir: %d", dx);
    if (dy < -1 || dy > 1)
        return luaL_error(L, "Invalid ydir: %d", dy);
    /* standing still (Crawl would look at the one cell for ever) */
    int steps = dx || dy ? LRT_MAX_WIDTH + LRT_MAX_HEIGHT : 1;
    for (; steps > 0 && lrt_cell(map, x, y); steps--, x += dx, y += dy)
        if (lrt_cell(map, x, y) == find) {
            lrt_set_cell(map, x, y, repl);
            return 0;
        }
    if (required)
        return luaL_error(L, "Could not find feature '%c' to replace", find);
    return 0;
}

/* replace_random{x1, y1, x2, y2, find, replace, required}: one find glyph
 * of the box, picked uniformly, becomes replace. */
static int l_replace_random(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    char find = lrt_arg_char(L, "find", '\0'), repl = lrt_arg_char(L, "replace", '\0');
    int required = lrt_arg_bool(L, "required", 0);
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    int count = 0;
    for (int y = b.y1; y <= b.y2; y++)
        for (int x = b.x1; x <= b.x2; x++)
            count += lrt_cell(map, x, y) && lrt_cell(map, x, y) == find;
    if (!count) {
        if (required)
            return luaL_error(L, "Could not find '%c'", find);
        return 0;
    }
    int pick = qg_rng_below(&lrt_runtime(L)->rng, count);
    for (int y = b.y1; y <= b.y2; y++)
        for (int x = b.x1; x <= b.x2; x++)
            if (lrt_cell(map, x, y) && lrt_cell(map, x, y) == find && pick-- == 0)
                lrt_set_cell(map, x, y, repl);
    return 0;
}

/* replace_closest{x, y, x1, y1, x2, y2, find, replace, required}: of the
 * find glyphs in the box, the one nearest (x, y) by Chebyshev distance
 * becomes replace, ties picked uniformly. */
static int l_replace_closest(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    int cx = lrt_arg_int(L, "x", 0), cy = lrt_arg_int(L, "y", 0);
    char find = lrt_arg_char(L, "find", '\0'), repl = lrt_arg_char(L, "replace", '\0');
    int required = lrt_arg_bool(L, "required", 0);
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    qg_runtime *rt = lrt_runtime(L);
    int64_t best = 10000;
    int ties = 0, bx = 0, by = 0;
    for (int y = b.y1; y <= b.y2; y++)
        for (int x = b.x1; x <= b.x2; x++) {
            if (!lrt_cell(map, x, y) || lrt_cell(map, x, y) != find)
                continue;
            int64_t ddx = llabs((int64_t)x - cx), ddy = llabs((int64_t)y - cy);
            int64_t d = ddx > ddy ? ddx : ddy;
            if (d < best) {
                best = d, ties = 1, bx = x, by = y;
            } else if (d == best && qg_rng_one_chance_in(&rt->rng, ++ties)) {
                bx = x, by = y;
            }
        }
    if (!ties) {
        if (required)
            return luaL_error(L, "Could not find '%c'", find);
        return 0;
    }
    lrt_set_cell(map, bx, by, repl);
    return 0;
}

static int count_in_box(const lrt_map *map, const lrt_box *b, const lrt_glyphs *feat)
{
    int n = 0;
    for (int y = b->y1; y <= b->y2; y++)
        for (int x = b->x1; x <= b->x2; x++)
            n += lrt_glyph_in(feat, lrt_cell(map, x, y));
    return n;
}

static int l_count_feature_in_box(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    lrt_glyphs feat;
    lrt_arg_glyphs(L, "feat", "", &feat);
    lua_pushinteger(L, count_in_box(map, &b, &feat));
    return 1;
}

static int l_count_antifeature_in_box(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    lua_Integer area = ((lua_Integer)b.x2 - b.x1 + 1) * ((lua_Integer)b.y2 - b.y1 + 1);
    lrt_glyphs feat;
    lrt_arg_glyphs(L, "feat", "", &feat);
    lua_pushinteger(L, area - count_in_box(map, &b, &feat));
    return 1;
}

/* count_neighbors{x, y, feat}: feat glyphs in the 3x3 box around (x, y),
 * the cell itself included. */
static int l_count_neighbors(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_glyphs feat;
    lrt_arg_glyphs(L, "feat", "", &feat);
    int x = lrt_arg_int(L, "x", -1), y = lrt_arg_int(L, "y", -1);
    lrt_check_coord(L, map, x, y);
    lrt_box b = {x - 1, y - 1, x + 1, y + 1};
    lua_pushinteger(L, count_in_box(map, &b, &feat));
    return 1;
}

/* count_passable_neighbors{x, y, passable}: of the 8 cells around. */
static int l_count_passable_neighbors(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_glyphs pass;
    lrt_arg_glyphs(L, "passable", LRT_TRAVERSABLE, &pass);
    int x = lrt_arg_int(L, "x", -1), y = lrt_arg_int(L, "y", -1);
    int n = 0;
    if (lrt_cell(map, x, y))
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                n += (dx || dy) && lrt_glyph_in(&pass, lrt_cell(map, x + dx, y + dy));
    lua_pushinteger(L, n);
    return 1;
}

static int l_is_valid_coord(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    int x = lrt_arg_int(L, "x", -1), y = lrt_arg_int(L, "y", -1);
    lua_pushboolean(L, x >= 0 && y >= 0 && x < map->width && y < map->height);
    return 1;
}

static int l_is_passable_coord(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    int x = lrt_arg_int(L, "x", -1), y = lrt_arg_int(L, "y", -1);
    lrt_glyphs pass;
    lrt_arg_glyphs(L, "passable", LRT_TRAVERSABLE, &pass);
    lrt_check_coord(L, map, x, y);
    lua_pushboolean(L, lrt_glyph_in(&pass, lrt_cell(map, x, y)));
    return 1;
}

/* find_in_area{x1, y1, x2, y2, find}: whether a find glyph is in the box
 * (find_vault asks about vaults already placed on the level: none here). */
static int l_find_in_area(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_arg_bool(L, "find_vault", 0);
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    lrt_glyphs find;
    lrt_arg_glyphs(L, "find", "x", &find);
    lua_pushboolean(L, count_in_box(map, &b, &find) > 0);
    return 1;
}

/* remove_isolated_glyphs{x1, y1, x2, y2, find, replace, percent, boxy}: a
 * find glyph (picked with percent chance) with no find glyph beside it
 * (diagonals too when boxy) becomes replace; the outermost cells stay. */
static int l_remove_isolated_glyphs(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_glyphs find;
    lrt_arg_glyphs(L, "find", "", &find);
    char repl = lrt_arg_char(L, "replace", '.');
    int percent = lrt_arg_int(L, "percent", 100);
    int boxy = lrt_arg_bool(L, "boxy", 0);
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    lrt_box_inside_border(map, &b);
    qg_runtime *rt = lrt_runtime(L);
    for (int y = b.y1; y <= b.y2; y++)
        for (int x = b.x1; x <= b.x2; x++) {
            if (!lrt_glyph_in(&find, lrt_cell(map, x, y)) ||
                !qg_rng_x_chance_in_y(&rt->rng, percent, 100))
                continue;
            int lonely = 1;
            for (int dy = -1; dy <= 1 && lonely; dy++)
                for (int dx = -1; dx <= 1 && lonely; dx++)
                    if ((dx || dy) && (boxy || !dx || !dy) &&
                        lrt_glyph_in(&find, lrt_cell(map, x + dx, y + dy)))
                        lonely = 0;
            if (lonely)
                lrt_set_cell(map, x, y, repl);
        }
    return 0;
}

/* octa_room{x1, y1, x2, y2, oblique, outside, inside, replace}: the box's
 * cells (those of replace, when given) become inside within an octagon
 * whose corners are cut oblique cells deep, outside elsewhere. */
static int l_octa_room(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    int shorter = map->width < map->height ? map->width : map->height;
    int ob = lrt_arg_int(L, "oblique", shorter / 2 - 1);
    char outside = lrt_arg_char(L, "outside", 'x'), inside = lrt_arg_char(L, "inside", '.');
    const char *replace = lrt_arg_str(L, "replace", "");
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    for (int y = b.y1; y <= b.y2; y++)
        for (int x = b.x1; x <= b.x2; x++) {
            char c = lrt_cell(map, x, y);
            if (!c || (*replace && !strchr(replace, c)))
                continue;
            int64_t cut = 0, left = (int64_t)ob + b.x1 - x, right = (int64_t)ob + x - b.x2;
            cut += left > 0 ? left : 0;
            cut += right > 0 ? right : 0;
            int in = y >= b.y1 + cut && y <= b.y2 - cut;
            lrt_set_cell(map, x, y, in ? inside : outside);
        }
    return 0;
}

void lrt_open_builder(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"fill_area", l_fill_area}, {"extend_map", l_extend_map},
        {"make_box", l_make_box}, {"make_circle", l_make_circle},
        {"make_diamond", l_make_diamond}, {"make_square", l_make_square},
        {"make_rounded_square", l_make_rounded_square},
        {"make_box_doors", l_make_box_doors},
        {"replace_area", l_replace_area}, {"replace_first", l_replace_first},
        {"replace_random", l_replace_random}, {"replace_closest", l_replace_closest},
        {"count_feature_in_box", l_count_feature_in_box},
        {"count_antifeature_in_box", l_count_antifeature_in_box},
        {"count_neighbors", l_count_neighbors},
        {"count_passable_neighbors", l_count_passable_neighbors},
        {"find_in_area", l_find_in_area}, {"is_valid_coord", l_is_valid_coord},
        {"is_passable_coord", l_is_passable_coord},
        {"remove_isolated_glyphs", l_remove_isolated_glyphs},
        {"octa_room", l_octa_room},
        {NULL, NULL}};
    lua_getglobal(L, "dgn");
    luaL_setfuncs(L, fns, 0);
    lua_pop(L, 1);
}

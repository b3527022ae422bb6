/* Crawl's builder primitives (l-dgnbld.cc) over the map grid: each takes
 * the map and a table of named arguments, e.g. fill_area{fill = 'x'}. */
#include "lua/rt.h"

#include <string.h>

static int opt_int(lua_State *L, const char *key, int def)
{
    int v = def;
    if (lua_getfield(L, 2, key) != LUA_TNIL)
        v = (int)lrt_checkint(L, -1);
    lua_pop(L, 1);
    return v;
}

static char opt_glyph(lua_State *L, const char *key, char def)
{
    char v = def;
    if (lua_getfield(L, 2, key) == LUA_TSTRING && lua_rawlen(L, -1) > 0)
        v = lua_tostring(L, -1)[0];
    lua_pop(L, 1);
    return v;
}

static const char *opt_string(lua_State *L, const char *key, const char *def)
{
    const char *v = def;
    if (lua_getfield(L, 2, key) == LUA_TSTRING)
        v = lua_tostring(L, -1);
    lua_pop(L, 1); /* the string stays alive in the argument table */
    return v;
}

typedef struct box {
    int x1, y1, x2, y2;
} box;

static lrt_map *args(lua_State *L, box *b)
{
    lrt_map *map = lrt_check_map(L, 1);
    if (lua_isnoneornil(L, 2)) {
        lua_settop(L, 1);
        lua_newtable(L);
    }
    luaL_checktype(L, 2, LUA_TTABLE);
    if (b) {
        b->x1 = opt_int(L, "x1", 0);
        b->y1 = opt_int(L, "y1", 0);
        b->x2 = opt_int(L, "x2", map->width - 1);
        b->y2 = opt_int(L, "y2", map->height - 1);
        /* a box is clipped to the grid; the loops then stay small */
        if (b->x1 < 0)
            b->x1 = 0;
        if (b->y1 < 0)
            b->y1 = 0;
        if (b->x2 >= map->width)
            b->x2 = map->width - 1;
        if (b->y2 >= map->height)
            b->y2 = map->height - 1;
    }
    lrt_charge(L, (size_t)map->width * map->height);
    return map;
}

static int l_fill_area(lua_State *L)
{
    box b;
    lrt_map *map = args(L, &b);
    char fill = opt_glyph(L, "fill", 'x');
    for (int y = b.y1; y <= b.y2; y++)
        for (int x = b.x1; x <= b.x2; x++)
            lrt_set_cell(map, x, y, fill);
    return 0;
}

static int l_extend_map(lua_State *L)
{
    lrt_map *map = args(L, NULL);
    int w = opt_int(L, "width", 1), h = opt_int(L, "height", 1);
    char fill = opt_glyph(L, "fill", 'x');
    int nw = w > map->width ? w : map->width, nh = h > map->height ? h : map->height;
    if (!lrt_map_resize(map, nw, nh, fill))
        return lrt_map_error(L, map, "extend_map: %dx%d is larger than %dx%d", nw, nh,
                             LRT_MAX_WIDTH, LRT_MAX_HEIGHT);
    return 0;
}

static int l_make_box(lua_State *L)
{
    box b;
    lrt_map *map = args(L, &b);
    char floor = opt_glyph(L, "floor", '.'), wall = opt_glyph(L, "wall", 'x');
    int thick = opt_int(L, "thickness", 1);
    for (int y = b.y1; y <= b.y2; y++)
        for (int x = b.x1; x <= b.x2; x++) {
            int edge = x < b.x1 + thick || x > b.x2 - thick || y < b.y1 + thick ||
                       y > b.y2 - thick;
            lrt_set_cell(map, x, y, edge ? wall : floor);
        }
    return 0;
}

static int l_make_circle(lua_State *L)
{
    lrt_map *map = args(L, NULL);
    int cx = opt_int(L, "x", 0), cy = opt_int(L, "y", 0), r = opt_int(L, "radius", 1);
    char fill = opt_glyph(L, "fill", 'x');
    int64_t r2 = (int64_t)r * r;
    for (int y = 0; y < map->height; y++)
        for (int x = 0; x < map->width; x++)
            if ((int64_t)(x - cx) * (x - cx) + (int64_t)(y - cy) * (y - cy) <= r2)
                lrt_set_cell(map, x, y, fill);
    return 0;
}

static int l_replace_area(lua_State *L)
{
    box b;
    lrt_map *map = args(L, &b);
    const char *find = opt_string(L, "find", "");
    char repl = opt_glyph(L, "replace", '.');
    for (int y = b.y1; y <= b.y2; y++)
        for (int x = b.x1; x <= b.x2; x++) {
            char c = lrt_cell(map, x, y);
            if (c && strchr(find, c))
                lrt_set_cell(map, x, y, repl);
        }
    return 0;
}

static int l_replace_first(lua_State *L)
{
    lrt_map *map = args(L, NULL);
    int x = opt_int(L, "x", 0), y = opt_int(L, "y", 0);
    int dx = opt_int(L, "xdir", 0), dy = opt_int(L, "ydir", 0);
    dx = (dx > 0) - (dx < 0);
    dy = (dy > 0) - (dy < 0);
    if (x < 0 || y < 0 || x >= map->width || y >= map->height) {
        lua_pushboolean(L, 0);
        return 1;
    }
    char find = opt_glyph(L, "find", '.'), repl = opt_glyph(L, "replace", '.');
    if (!dx && !dy)
        return lrt_map_error(L, map, "replace_first: xdir and ydir cannot both be 0");
    for (; lrt_cell(map, x, y); x += dx, y += dy)
        if (lrt_cell(map, x, y) == find) {
            lrt_set_cell(map, x, y, repl);
            lua_pushboolean(L, 1);
            return 1;
        }
    lua_pushboolean(L, 0);
    return 1;
}

static int l_replace_random(lua_State *L)
{
    lrt_map *map = args(L, NULL);
    char find = opt_glyph(L, "find", '.'), repl = opt_glyph(L, "replace", '.');
    qg_runtime *rt = lrt_runtime(L);
    int seen = 0, px = -1, py = -1;
    for (int y = 0; y < map->height; y++)
        for (int x = 0; x < map->width; x++)
            if (lrt_cell(map, x, y) == find && qg_rng_one_chance_in(&rt->rng, ++seen)) {
                px = x;
                py = y;
            }
    if (px >= 0)
        lrt_set_cell(map, px, py, repl);
    lua_pushboolean(L, px >= 0);
    return 1;
}

static int l_count_feature_in_box(lua_State *L)
{
    box b;
    lrt_map *map = args(L, &b);
    const char *feat = opt_string(L, "feat", "");
    int n = 0;
    for (int y = b.y1; y <= b.y2; y++)
        for (int x = b.x1; x <= b.x2; x++) {
            char c = lrt_cell(map, x, y);
            n += c && strchr(feat, c) != NULL;
        }
    lua_pushinteger(L, n);
    return 1;
}

static int l_count_antifeature_in_box(lua_State *L)
{
    box b;
    lrt_map *map = args(L, &b);
    const char *feat = opt_string(L, "feat", "");
    int n = 0;
    for (int y = b.y1; y <= b.y2; y++)
        for (int x = b.x1; x <= b.x2; x++) {
            char c = lrt_cell(map, x, y);
            n += c && strchr(feat, c) == NULL;
        }
    lua_pushinteger(L, n);
    return 1;
}

static int has_neighbour(lrt_map *map, int x, int y, const char *find, int boxy)
{
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            if ((!dx && !dy) || (!boxy && dx && dy))
                continue;
            char c = lrt_cell(map, x + dx, y + dy);
            if (c && strchr(find, c))
                return 1;
        }
    return 0;
}

/* remove_isolated_glyphs{find, replace, percent, boxy}: a find glyph with
 * no find glyph beside it (diagonals too when boxy) becomes replace. */
static int l_remove_isolated_glyphs(lua_State *L)
{
    lrt_map *map = args(L, NULL);
    const char *find = opt_string(L, "find", "");
    char repl = opt_glyph(L, "replace", '.');
    int percent = opt_int(L, "percent", 100);
    lua_getfield(L, 2, "boxy");
    int boxy = lua_toboolean(L, -1);
    lua_pop(L, 1);
    qg_runtime *rt = lrt_runtime(L);
    for (int y = 0; y < map->height; y++)
        for (int x = 0; x < map->width; x++) {
            char c = lrt_cell(map, x, y);
            if (c && strchr(find, c) && !has_neighbour(map, x, y, find, boxy) &&
                qg_rng_x_chance_in_y(&rt->rng, percent, 100))
                lrt_set_cell(map, x, y, repl);
        }
    return 0;
}

/* octa_room{x1, y1, x2, y2, oblique, replace, inside, outside}: the box
 * with its corners cut off at oblique cells. */
static int l_octa_room(lua_State *L)
{
    box b;
    lrt_map *map = args(L, &b);
    int ob = opt_int(L, "oblique", 0);
    const char *replace = opt_string(L, "replace", "");
    char inside = opt_glyph(L, "inside", '.'), outside = opt_glyph(L, "outside", '\0');
    for (int y = b.y1; y <= b.y2; y++)
        for (int x = b.x1; x <= b.x2; x++) {
            int in = (x - b.x1) + (y - b.y1) >= ob && (b.x2 - x) + (y - b.y1) >= ob &&
                     (x - b.x1) + (b.y2 - y) >= ob && (b.x2 - x) + (b.y2 - y) >= ob;
            char c = lrt_cell(map, x, y);
            if (in && (!*replace || (c && strchr(replace, c))))
                lrt_set_cell(map, x, y, inside);
            else if (!in && outside)
                lrt_set_cell(map, x, y, outside);
        }
    return 0;
}

static int l_find_in_area(lua_State *L)
{
    box b;
    lrt_map *map = args(L, &b);
    const char *find = opt_string(L, "find", "");
    for (int y = b.y1; y <= b.y2; y++)
        for (int x = b.x1; x <= b.x2; x++) {
            char c = lrt_cell(map, x, y);
            if (c && strchr(find, c)) {
                lua_pushboolean(L, 1);
                return 1;
            }
        }
    lua_pushboolean(L, 0);
    return 1;
}

static int l_is_valid_coord(lua_State *L)
{
    lrt_map *map = args(L, NULL);
    int x = opt_int(L, "x", -1), y = opt_int(L, "y", -1);
    lua_pushboolean(L, x >= 0 && y >= 0 && x < map->width && y < map->height);
    return 1;
}

void lrt_open_builder(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"fill_area", l_fill_area}, {"extend_map", l_extend_map},
        {"make_box", l_make_box}, {"make_circle", l_make_circle},
        {"replace_area", l_replace_area}, {"replace_first", l_replace_first},
        {"replace_random", l_replace_random},
        {"count_feature_in_box", l_count_feature_in_box},
        {"find_in_area", l_find_in_area}, {"is_valid_coord", l_is_valid_coord},
        {"count_antifeature_in_box", l_count_antifeature_in_box},
        {"remove_isolated_glyphs", l_remove_isolated_glyphs},
        {"octa_room", l_octa_room},
        {NULL, NULL}};
    lua_getglobal(L, "dgn");
    luaL_setfuncs(L, fns, 0);
    lua_pop(L, 1);
}

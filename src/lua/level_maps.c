/* Maps a level builder places on the level around the map, as Crawl's
 * Lua builders do (v_rooms.lua and layout/hyper_*.lua for Vaults and
 * other rooms-and-corridors layouts, ziggurat.lua, bailey and bazaar
 * portals): dgn.map_by_tag and dgn.map_by_name give a map of the corpus,
 * dgn.resolve_map runs it (its Lua, subvaults and validation), and
 * dgn.place_map, dgn.reuse_map and dgn.fill_grd_area draw on the level;
 * dgn.mapsize and dgn.inspect_map look at a resolved map. The maps live
 * for one run; those the level keeps become the resolved map's
 * subvaults, so each cell keeps its own map's KFEAT, KMONS and marks. */
#include "lua/level.h"
#include "lua/run.h"
#include "core/buf.h"

#include <stdlib.h>
#include <string.h>

/* Maps one run may resolve for its level builders: each is C memory. */
#define LRT_MAX_RUN_MAPS 1024
#define MAPGEN_BORDER 2

/* Takes map over for the run and pushes the Lua object for it. */
static struct lrt_run_map *keep(lua_State *L, lrt_map *map, int resolved)
{
    qg_runtime *rt = lrt_runtime(L);
    if (!map)
        luaL_error(L, "not enough memory");
    struct lrt_run_map *slot = rt->run_map_count < LRT_MAX_RUN_MAPS
                                   ? QG_PUSH(rt->run_maps, rt->run_map_count, rt->run_map_cap)
                                   : NULL;
    if (!slot) {
        lrt_map_free(map);
        luaL_error(L, "more than %d maps resolved in one run, or out of memory",
                   LRT_MAX_RUN_MAPS);
    }
    *slot = (struct lrt_run_map){map, NULL, resolved};
    lrt_push_map(L, map);
    slot->ref = lua_touserdata(L, -1);
    if (lua_getfield(L, LUA_REGISTRYINDEX, RUN_MAPS_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, RUN_MAPS_KEY);
    }
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    lua_pop(L, 1);
    return slot;
}

static struct lrt_run_map *run_map_of(lua_State *L, int index)
{
    lrt_map *map = lrt_check_map(L, index);
    qg_runtime *rt = lrt_runtime(L);
    for (size_t i = 0; i < rt->run_map_count; i++)
        if (rt->run_maps[i].map == map)
            return &rt->run_maps[i];
    luaL_argerror(L, index, "a map from dgn.map_by_tag, dgn.map_by_name or dgn.resolve_map");
    return NULL;
}

/* A map of the corpus as a Lua object: its name, place in its file and
 * index tags, not yet run. */
static int push_mapdef(lua_State *L, const qg_mapdef *def)
{
    if (!def)
        return 0;
    lrt_map *map = lrt_map_new(qg_mapdef_name(def), qg_mapdef_file(def), qg_mapdef_line(def));
    if (map)
        lrt_map_from_def(map, def);
    const char *tags = map ? qg_mapdef_get_property(def, "tags") : NULL;
    for (const char *s = tags; s && *s;) {
        s += strspn(s, " ");
        size_t len = strcspn(s, " ");
        if (len && !lrt_strs_add(&map->tags, s, len)) {
            lrt_map_free(map);
            map = NULL;
            break;
        }
        s += len;
    }
    keep(L, map, 0);
    return 1;
}

/* dgn.map_by_tag(tag): a map with the tag for this place, by weight. */
static int l_map_by_tag(lua_State *L)
{
    return push_mapdef(L, lrt_pick_map(lrt_runtime(L), luaL_checkstring(L, 1)));
}

static int l_map_by_name(lua_State *L)
{
    return push_mapdef(L, qg_runtime_find_map(lrt_runtime(L), luaL_checkstring(L, 1)));
}

/* The resolved form of a map object (resolving a mapdef, with the tags
 * the builder gave it), or NULL with the reason kept for
 * dgn.last_builder_error. */
static struct lrt_run_map *resolved(lua_State *L, int index)
{
    struct lrt_run_map *r = run_map_of(L, index);
    if (r->resolved)
        return r;
    qg_runtime *rt = lrt_runtime(L);
    const qg_mapdef *def = r->map->def;
    qg_diags *diags = qg_diags_new();
    lrt_map *map = def && diags ? lrt_resolve_nested(rt, def, rt->map, &r->map->tags, diags) : NULL;
    if (!map) {
        free(rt->builder_error);
        rt->builder_error = qg_strdup(diags && qg_diags_count(diags)
                                          ? qg_diags_get(diags, 0)->message : "");
        qg_diags_free(diags);
        if (rt->budget_exhausted)
            luaL_error(L, "instruction budget exceeded (resolving map %s)", r->map->name);
        return NULL;
    }
    qg_diags_free(diags);
    return keep(L, map, 1);
}

/* dgn.resolve_map(map): the map resolved, twice (as Crawl's map and
 * vault placement), or nil. */
static int l_resolve_map(lua_State *L)
{
    struct lrt_run_map *r = run_map_of(L, 1);
    if (r->resolved) {
        lua_pushvalue(L, 1);
    } else if (!resolved(L, 1)) {
        return 0;
    }
    lua_pushvalue(L, -1);
    return 2;
}

static int l_mapsize(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    lua_pushinteger(L, map->width);
    lua_pushinteger(L, map->height);
    return 2;
}

/* dgn.inspect_map(vplace, x, y): the feature number there, whether it is
 * an exit ('@') and whether it is outside the map (' '). */
static int l_inspect_map(lua_State *L)
{
    struct lrt_run_map *r = run_map_of(L, 1);
    int x = (int)lrt_checkint(L, 2), y = (int)lrt_checkint(L, 3);
    lrt_map *map = r->map;
    unsigned char g = (unsigned char)lrt_cell(map, x, y);
    size_t sub = g && map->cell_sub ? map->cell_sub[(size_t)y * map->width + x] : 0;
    char buf[96];
    const char *feature = g ? lrt_glyph_feature(sub ? map->subs[sub - 1] : map, g, buf,
                                                sizeof buf) : "unseen";
    lrt_push_feature_number(L, feature);
    lua_pushboolean(L, g == '@');
    lua_pushboolean(L, g == ' ' || !g);
    return 3;
}

/* dgn.reuse_map(vplace, x, y, hflip, vflip, rotate): the resolved map
 * mirrored and turned as asked (1 clockwise, -1 anticlockwise) and drawn
 * with its top left at (x, y). */
static int l_reuse_map(lua_State *L)
{
    struct lrt_run_map *r = run_map_of(L, 1);
    if (!r->resolved)
        return luaL_argerror(L, 1, "a map from dgn.resolve_map");
    int x = (int)lrt_checkint(L, 2), y = (int)lrt_checkint(L, 3);
    int hflip = lua_toboolean(L, 4), vflip = lua_toboolean(L, 5);
    lua_Integer rot = lua_isnoneornil(L, 6) ? 0 : lrt_checkint(L, 6);
    lrt_map *map = r->map;
    if ((hflip && !lrt_map_mirror(map, 1)) || (vflip && !lrt_map_mirror(map, 0)) ||
        (rot && !lrt_map_rotate(map, rot > 0)))
        return luaL_error(L, "not enough memory");
    lrt_level_place(L, lrt_level_get(L), map, x, y);
    return 0;
}

/* No cell of the map at (x, y) falls on a cell another placed map drew. */
static int fits(const lrt_level *level, const lrt_map *map, int x0, int y0)
{
    for (int y = 0; y < map->height; y++)
        for (int x = 0; x < map->width; x++)
            if (lrt_cell(map, x, y) != ' ' && level->owner[y0 + y][x0 + x])
                return 0;
    return 1;
}

/* Where a map without a given centre goes: the whole level for an
 * encompass map, else a random free spot inside the border (along the
 * edge its ORIENT names). 0 when none is found in 100 tries. */
static int pick_spot(qg_runtime *rt, const lrt_level *level, const lrt_map *map, int *x,
                     int *y)
{
    const char *orient = map->orient ? map->orient : "";
    int xmax = LRT_MAX_WIDTH - MAPGEN_BORDER - map->width;
    int ymax = LRT_MAX_HEIGHT - MAPGEN_BORDER - map->height;
    if (strcmp(orient, "encompass") == 0) {
        *x = *y = 0;
        return 1;
    }
    if (xmax < MAPGEN_BORDER || ymax < MAPGEN_BORDER)
        return 0;
    for (int t = 0; t < 100; t++) {
        *x = qg_rng_range(&rt->rng, MAPGEN_BORDER, xmax);
        *y = qg_rng_range(&rt->rng, MAPGEN_BORDER, ymax);
        if (strstr(orient, "north"))
            *y = MAPGEN_BORDER;
        if (strstr(orient, "south"))
            *y = ymax;
        if (strstr(orient, "west"))
            *x = MAPGEN_BORDER;
        if (strstr(orient, "east"))
            *x = xmax;
        if (fits(level, map, *x, *y))
            return 1;
    }
    return 0;
}

/* dgn.place_map(map, check_collision, no_exits, x, y): the map resolved
 * (when it is not yet) and drawn centred on (x, y), or where it fits;
 * an encompass map takes the whole level. true when it was placed. */
static int l_place_map(lua_State *L)
{
    struct lrt_run_map *r = resolved(L, 1);
    if (!r) {
        lua_pushboolean(L, 0);
        return 1;
    }
    lrt_level *level = lrt_level_get(L);
    lrt_map *map = r->map;
    int x, y;
    if (!lua_isnoneornil(L, 4) && !lua_isnoneornil(L, 5)) {
        x = (int)lrt_checkint(L, 4) - map->width / 2;
        y = (int)lrt_checkint(L, 5) - map->height / 2;
    } else if (!pick_spot(lrt_runtime(L), level, map, &x, &y)) {
        qg_runtime *rt = lrt_runtime(L);
        free(rt->builder_error);
        rt->builder_error = qg_strdup("no room on the level");
        lua_pushboolean(L, 0);
        return 1;
    }
    if (map->orient && strcmp(map->orient, "encompass") == 0) {
        memset(level->grid, 'x', sizeof level->grid);
        memset(level->owner, 0, sizeof level->owner);
    }
    lrt_level_place(L, level, map, x, y);
    lua_pushboolean(L, 1);
    return 1;
}

/* dgn.fill_grd_area(x1, y1, x2, y2, feature): the box, corners included,
 * made of the feature (cells off the level left out). */
static int l_fill_grd_area(lua_State *L)
{
    int x1 = (int)lrt_checkint(L, 1), y1 = (int)lrt_checkint(L, 2);
    int x2 = (int)lrt_checkint(L, 3), y2 = (int)lrt_checkint(L, 4);
    const char *feature = lrt_feature_arg(L, 5);
    lrt_level *level = lrt_level_get(L);
    unsigned char g = lrt_level_glyph(L, level, feature);
    for (int y = y1 < 0 ? 0 : y1; y <= y2 && y < LRT_MAX_HEIGHT; y++)
        for (int x = x1 < 0 ? 0 : x1; x <= x2 && x < LRT_MAX_WIDTH; x++) {
            level->grid[y][x] = g;
            level->owner[y][x] = 0;
        }
    level->built = 1;
    return 0;
}

/* A marker on a level cell (the level's marks, as a map's). */
static void mark_cell(lua_State *L, int x, int y, const char *spec)
{
    if (x < 0 || y < 0 || x >= LRT_MAX_WIDTH || y >= LRT_MAX_HEIGHT)
        luaL_error(L, "(%d, %d) is outside the level", x, y);
    lrt_level *level = lrt_level_get(L);
    if (!level->marks && !(level->marks = lrt_map_new("level marks", NULL, 0)))
        luaL_error(L, "not enough memory for the level");
    if (!lrt_map_add_mark(level->marks, x, y, spec))
        luaL_error(L, "too many marks on the level, or out of memory");
    level->built = 1;
}

/* dgn.register_feature_marker(x, y, feature): "feat:NAME" there. */
static int l_register_feature_marker(lua_State *L)
{
    int x = (int)lrt_checkint(L, 1), y = (int)lrt_checkint(L, 2);
    lua_pushfstring(L, "feat:%s", lrt_feature_arg(L, 3));
    mark_cell(L, x, y, lua_tostring(L, -1));
    return 0;
}

/* dgn.register_lua_marker(x, y, table or function): a Lua marker there
 * ("lua"; its table lives in the game). */
static int l_register_lua_marker(lua_State *L)
{
    int x = (int)lrt_checkint(L, 1), y = (int)lrt_checkint(L, 2);
    if (!lua_istable(L, 3) && !lua_isfunction(L, 3))
        return luaL_argerror(L, 3, "a marker table or function");
    mark_cell(L, x, y, "lua");
    return 0;
}

static int l_last_builder_error(lua_State *L)
{
    const char *e = lrt_runtime(L)->builder_error;
    lua_pushstring(L, e ? e : "");
    return 1;
}

/* dgn.hook(map, name, fn), the library's, noting a post_place hook: it
 * runs when the map is placed on the game's level, which a map resolved
 * alone never is. */
static int l_hook(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TUSERDATA && lua_type(L, 2) == LUA_TSTRING &&
        strcmp(lua_tostring(L, 2), "post_place") == 0)
        lrt_check_map(L, 1)->post_place = 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

void lrt_watch_place_hooks(lua_State *L)
{
    lua_getglobal(L, "dgn");
    if (lua_type(L, -1) != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    lua_pushliteral(L, "hook");
    if (lua_rawget(L, -2) == LUA_TFUNCTION && !lua_iscfunction(L, -1)) {
        lua_pushcclosure(L, l_hook, 1);
        lua_pushliteral(L, "hook");
        lua_insert(L, -2);
        lua_rawset(L, -3);
    } else {
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

void lrt_open_level_maps(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"map_by_tag", l_map_by_tag}, {"map_by_name", l_map_by_name},
        {"resolve_map", l_resolve_map}, {"mapsize", l_mapsize},
        {"inspect_map", l_inspect_map}, {"reuse_map", l_reuse_map},
        {"place_map", l_place_map}, {"fill_grd_area", l_fill_grd_area},
        {"last_builder_error", l_last_builder_error},
        {"register_feature_marker", l_register_feature_marker},
        {"register_lua_marker", l_register_lua_marker}, {NULL, NULL}};
    lua_getglobal(L, "dgn");
    luaL_setfuncs(L, fns, 0);
    lua_pop(L, 1);
}

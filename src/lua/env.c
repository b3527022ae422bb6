/* The per-map environment, as Crawl's dgn_map_meta_wrap builds it: every
 * dgn function is offered bound to the map (kfeat(...) is dgn.kfeat(map,
 * ...)), _G is the environment itself, mapgrd addresses the grid, and any
 * other name falls back to the globals. */
#include "lua/rt.h"

#include <string.h>

#define MAP_META "questgrid.map"
#define COLUMN_META "questgrid.mapgrd.column"
#define ENV_KEY "questgrid.env"
#define ENV_REF_KEY "questgrid.env_map"

typedef struct lrt_map_ref map_ref;
struct lrt_map_ref {
    lrt_map *map;
};

/* mapgrd[x]: the map's reference is the column's user value, so the
 * column cannot outlive it. */
typedef struct column_ref {
    map_ref *ref;
    int x;
} column_ref;

void lrt_push_map(lua_State *L, lrt_map *map)
{
    map_ref *ref = lua_newuserdatauv(L, sizeof *ref, 0);
    ref->map = map;
    luaL_setmetatable(L, MAP_META);
}

void lrt_map_ref_forget(void *ref)
{
    if (ref)
        ((map_ref *)ref)->map = NULL;
}

lrt_map *lrt_check_map(lua_State *L, int index)
{
    map_ref *ref = luaL_checkudata(L, index, MAP_META);
    if (!ref->map)
        luaL_error(L, "the map this function was bound to is gone");
    return ref->map;
}

static int map_tostring(lua_State *L)
{
    map_ref *ref = luaL_checkudata(L, 1, MAP_META);
    lua_pushfstring(L, "map %s", ref->map ? ref->map->name : "(gone)");
    return 1;
}

/* ---- mapgrd[x][y] ------------------------------------------------------ */

static lrt_map *column_map(lua_State *L, const column_ref *col)
{
    if (!col->ref->map)
        luaL_error(L, "the map this function was bound to is gone");
    return col->ref->map;
}

/* The column at index 1, its metatable the function's upvalue: builders
 * read the grid cell by cell, and finding the metatable by its name in
 * the registry cost more than the rest of a read. */
static column_ref *check_column(lua_State *L)
{
    column_ref *col = lua_touserdata(L, 1);
    if (!col || !lua_getmetatable(L, 1) || !lua_rawequal(L, -1, lua_upvalueindex(1)))
        luaL_typeerror(L, 1, COLUMN_META);
    lua_pop(L, 1);
    return col;
}

/* The metamethods below and bound_call are C calls the interpreter makes
 * for one instruction: each charges a call (budget.h). */
static int column_index(lua_State *L)
{
    lrt_charge(L, LRT_CALL_UNITS);
    column_ref *col = check_column(L);
    lua_Integer y = lrt_checkint(L, 2);
    char c = lrt_cell(column_map(L, col), col->x, (int)y);
    if (!c)
        return 0;
    lua_pushlstring(L, &c, 1);
    return 1;
}

static int column_newindex(lua_State *L)
{
    lrt_charge(L, LRT_CALL_UNITS);
    column_ref *col = check_column(L);
    lrt_map *map = column_map(L, col);
    lua_Integer y = lrt_checkint(L, 2);
    size_t len;
    const char *v = luaL_checklstring(L, 3, &len);
    if (len < 1)
        return luaL_error(L, "mapgrd needs a glyph (map %s)", map->name);
    if (col->x < 0 || col->x >= map->width || y < 0 || y >= map->height)
        return luaL_error(L, "mapgrd[%d][%d] is outside the map (map %s)",
                          col->x, (int)y, map->name);
    lrt_set_cell(map, col->x, (int)y, v[0]);
    return 0;
}

/* A column is made once per x and kept in the table: builders walk the
 * grid cell by cell, and mapgrd[x] then costs a table read. */
static int mapgrd_index(lua_State *L)
{
    lrt_charge(L, LRT_CALL_UNITS);
    lua_Integer x = lrt_checkint(L, 2);
    lua_getfield(L, lua_upvalueindex(1), "map");
    lrt_check_map(L, -1);
    column_ref *col = lua_newuserdatauv(L, sizeof *col, 1);
    col->ref = lua_touserdata(L, -2);
    col->x = (int)x;
    lua_pushvalue(L, -2);
    lua_setiuservalue(L, -2, 1);
    luaL_setmetatable(L, COLUMN_META);
    if (lua_isinteger(L, 2)) {
        lua_pushvalue(L, 2);
        lua_pushvalue(L, -2);
        lua_rawset(L, 1);
    }
    return 1;
}

/* dgn.mapgrd_table(map): a table whose [x][y] reads and writes the grid. */
static int mapgrd_table(lua_State *L)
{
    lrt_check_map(L, 1);
    lua_newtable(L);
    lua_newtable(L);
    lua_newtable(L);
    lua_pushvalue(L, 1);
    lua_setfield(L, -2, "map");
    lua_pushcclosure(L, mapgrd_index, 1);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
    return 1;
}

/* ---- bound functions ---------------------------------------------------- */

static int bound_call(lua_State *L)
{
    lrt_charge(L, LRT_CALL_UNITS);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_rotate(L, 1, 2);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* Whether name is one of the library's hook names (dgn.MAP_HOOK_NAMES). */
static int is_hook_name(lua_State *L, const char *name)
{
    int found = 0, top = lua_gettop(L);
    lua_getfield(L, LUA_REGISTRYINDEX, "questgrid.dgn");
    if (lua_getfield(L, -1, "MAP_HOOK_NAMES") == LUA_TTABLE)
        for (lua_Integer i = 1; !found && lua_rawgeti(L, -1, i) == LUA_TSTRING; i++) {
            found = strcmp(lua_tostring(L, -1), name) == 0;
            lua_pop(L, 1);
        }
    lua_settop(L, top);
    return found;
}

/* __index(env, key): a dgn function bound to the map (cached in env);
 * mapgrd and the HOOK_* tables Crawl's environment holds, made when first
 * asked for; else the global. */
static int env_index(lua_State *L)
{
    lrt_charge(L, LRT_CALL_UNITS + LRT_ENTRY_UNITS);
    lua_getfield(L, LUA_REGISTRYINDEX, "questgrid.dgn");
    lua_pushvalue(L, 2);
    if (lua_rawget(L, -2) == LUA_TFUNCTION) {
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_pushcclosure(L, bound_call, 2);
        lua_pushvalue(L, 2);
        lua_pushvalue(L, -2);
        lua_rawset(L, 1);
        return 1;
    }
    lua_settop(L, 2);
    const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "";
    if (strcmp(key, "mapgrd") == 0 ||
        (strncmp(key, "HOOK_", 5) == 0 && is_hook_name(L, key + 5))) {
        if (key[0] == 'm') {
            lua_pushcfunction(L, mapgrd_table);
            lua_pushvalue(L, lua_upvalueindex(1));
            lua_call(L, 1, 1);
        } else {
            lua_newtable(L);
        }
        lua_pushvalue(L, 2);
        lua_pushvalue(L, -2);
        lua_rawset(L, 1);
        return 1;
    }
    lua_pushglobaltable(L);
    lua_pushvalue(L, 2);
    lua_gettable(L, -2);
    lrt_map_view(L);
    return 1;
}

/* Whether env's __index is env_index, so that a name missing from env
 * and present in the dgn table becomes a bound function. */
static int looks_up_dgn(lua_State *L, int env)
{
    if (!lua_getmetatable(L, env))
        return 0;
    lua_pushliteral(L, "__index");
    int own = lua_rawget(L, -2) == LUA_TFUNCTION && lua_tocfunction(L, -1) == env_index;
    lua_pop(L, 2);
    return own;
}

/* How env[name] is a directive: BOUND (the bound function is pushed),
 * UNBOUND (env_index would bind the dgn function pushed), or NONE
 * (nothing pushed). */
enum { NONE, BOUND, UNBOUND };

static int find_directive(lua_State *L, int env, const char *name, size_t len)
{
    lua_pushlstring(L, name, len);
    int type = lua_rawget(L, env);
    if (type == LUA_TFUNCTION && lua_tocfunction(L, -1) == bound_call)
        return BOUND;
    lua_pop(L, 1);
    if (type != LUA_TNIL || !looks_up_dgn(L, env))
        return NONE;
    lua_getfield(L, LUA_REGISTRYINDEX, "questgrid.dgn");
    lua_pushlstring(L, name, len);
    if (lua_rawget(L, -2) == LUA_TFUNCTION) {
        lua_remove(L, -2);
        return UNBOUND;
    }
    lua_pop(L, 2);
    return NONE;
}

int lrt_env_directive(lua_State *L, int env, const char *name, size_t len)
{
    int found = find_directive(L, env, name, len);
    if (found == UNBOUND) {
        lua_pop(L, 1);
        lua_pushlstring(L, name, len);
        lua_gettable(L, env);
    }
    return found != NONE;
}

lua_CFunction lrt_env_directive_cfunction(lua_State *L, int env, const char *name, size_t len)
{
    int found = find_directive(L, env, name, len);
    if (found == NONE)
        return NULL;
    if (found == BOUND)
        lua_getupvalue(L, -1, 1);
    lua_CFunction f = lua_tocfunction(L, -1);
    lua_pop(L, found == BOUND ? 2 : 1);
    return f;
}

/* dgn._map_envs[NAME] = env, as Crawl's dgn_map_meta_wrap keeps them
 * (raw: the table is the runtime's own bookkeeping). */
static void register_env(lua_State *L, lrt_map *map, int env)
{
    lua_getfield(L, LUA_REGISTRYINDEX, "questgrid.dgn");
    lua_pushliteral(L, "_map_envs");
    if (lua_rawget(L, -2) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushliteral(L, "_map_envs");
        lua_pushvalue(L, -2);
        lua_rawset(L, -4);
    }
    lua_pushstring(L, map->name);
    lua_pushvalue(L, env);
    lua_rawset(L, -3);
    lua_pop(L, 2);
}

/* The environment of the map in the registry is the one for map: the
 * runtime remembers in C which map it was made for, so that an
 * environment left behind by a run cut short is never taken for
 * another map's. */
static int env_is_for(lua_State *L, qg_runtime *rt, lrt_map *map)
{
    if (rt->env_map != map || !rt->env_ref || rt->env_ref->map != map)
        return 0;
    if (lua_getfield(L, LUA_REGISTRYINDEX, ENV_KEY) == LUA_TTABLE)
        return 1;
    lua_pop(L, 1);
    return 0;
}

void lrt_push_env(lua_State *L, qg_runtime *rt, lrt_map *map)
{
    if (env_is_for(L, rt, map))
        return;
    /* an environment left by a run cut short: its map is gone */
    if (rt->env_ref)
        rt->env_ref->map = NULL;
    lua_newtable(L);
    int env = lua_gettop(L);
    lrt_push_map(L, map);
    int ud = lua_gettop(L);
    /* an ordinary global assignment, as Crawl's dgn_set_map makes it: a
     * game library that guards its globals sees it (and when it refuses,
     * nothing of the environment is recorded) */
    lua_pushvalue(L, ud);
    lua_setglobal(L, "g_dgn_curr_map");
    rt->env_ref = lua_touserdata(L, ud);
    rt->env_map = map;
    lua_pushvalue(L, ud);
    lua_setfield(L, LUA_REGISTRYINDEX, ENV_REF_KEY);
    lua_createtable(L, 0, 1);
    lua_pushvalue(L, ud);
    lua_pushcclosure(L, env_index, 1);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, env);
    lua_pushvalue(L, env);
    lua_setfield(L, env, "_G");
    lua_pushvalue(L, ud);
    lua_setfield(L, env, "wrapped_instance");
    register_env(L, map, env);
    lua_pushvalue(L, env);
    lua_setfield(L, LUA_REGISTRYINDEX, ENV_KEY);
    lua_pop(L, 1);
}

/* Ends a run: the map object is invalidated first, in C, so that closures
 * kept by Lua cannot reach freed memory whatever happens after; then the
 * runtime's bookkeeping is cleared with raw sets, which run no Lua. */
void lrt_forget_env(qg_runtime *rt)
{
    if (rt->env_ref)
        rt->env_ref->map = NULL;
    rt->env_ref = NULL;
    rt->env_map = NULL;
}

void lrt_drop_env(lua_State *L)
{
    lrt_forget_env(lrt_runtime(L));
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, ENV_KEY);
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, ENV_REF_KEY);
    lua_pushglobaltable(L);
    lua_pushliteral(L, "g_dgn_curr_map");
    lua_pushnil(L);
    lua_rawset(L, -3);
    lua_getfield(L, LUA_REGISTRYINDEX, "questgrid.dgn");
    lua_pushliteral(L, "_map_envs");
    lua_pushnil(L);
    lua_rawset(L, -3);
    lua_pop(L, 2);
}

void lrt_env_save(lua_State *L, lrt_env_saved *saved)
{
    qg_runtime *rt = lrt_runtime(L);
    lua_getfield(L, LUA_REGISTRYINDEX, ENV_KEY);
    saved->env = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_getfield(L, LUA_REGISTRYINDEX, ENV_REF_KEY);
    saved->map_ud = luaL_ref(L, LUA_REGISTRYINDEX);
    saved->map_ref = rt->env_ref;
    saved->map = rt->env_map;
    rt->env_ref = NULL;
    rt->env_map = NULL;
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, ENV_KEY);
}

void lrt_env_restore(lua_State *L, const lrt_env_saved *saved)
{
    qg_runtime *rt = lrt_runtime(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, saved->env);
    luaL_unref(L, LUA_REGISTRYINDEX, saved->env);
    lua_rawgeti(L, LUA_REGISTRYINDEX, saved->map_ud);
    luaL_unref(L, LUA_REGISTRYINDEX, saved->map_ud);
    if (lua_type(L, -2) != LUA_TTABLE || !saved->map_ref || !saved->map) {
        lua_pop(L, 2);
        return;
    }
    rt->env_ref = saved->map_ref;
    rt->env_map = saved->map;
    lua_pushglobaltable(L);
    lua_pushliteral(L, "g_dgn_curr_map");
    lua_pushvalue(L, -3);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, ENV_REF_KEY);
    register_env(L, saved->map, lua_gettop(L));
    lua_setfield(L, LUA_REGISTRYINDEX, ENV_KEY);
}

/* ---- setfenv for the library's chunks -------------------------------- */

static const char env_maker[] =
    "local e = ... return function() return e end";

static int l_setfenv(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    luaL_checktype(L, 2, LUA_TTABLE);
    if (lua_iscfunction(L, 1))
        return luaL_error(L, "setfenv: cannot change the environment of a C function");
    for (int i = 1;; i++) {
        const char *name = lua_getupvalue(L, 1, i);
        if (!name)
            break;
        lua_pop(L, 1);
        if (strcmp(name, "_ENV") != 0)
            continue;
        lua_getfield(L, LUA_REGISTRYINDEX, "questgrid.envmaker");
        lua_pushvalue(L, 2);
        lua_call(L, 1, 1);
        lua_upvaluejoin(L, 1, i, -1, 1);
        lua_pop(L, 1);
        break;
    }
    lua_settop(L, 1);
    return 1;
}

/* The dgn table's missing fields raise an error naming the function. */
static int dgn_missing(lua_State *L)
{
    const char *key = lua_tostring(L, 2);
    if (!key || key[0] == '_' || (key[0] >= 'A' && key[0] <= 'Z'))
        return 0;
    qg_runtime *rt = lrt_runtime(L);
    rt->unprovided = 1;
    return luaL_error(L, "%s.%s is not provided by questgrid%s%s%s%s",
                      lua_tostring(L, lua_upvalueindex(1)), key,
                      rt->map ? " (map " : "", rt->map ? rt->map->name : "",
                      rt->map ? ")" : "", lrt_no_library_hint(rt));
}

static void guard_table(lua_State *L, const char *name)
{
    lua_getglobal(L, name);
    lua_createtable(L, 0, 1);
    lua_pushstring(L, name);
    lua_pushcclosure(L, dgn_missing, 1);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
    lua_pop(L, 1);
}

void lrt_open_env(lua_State *L)
{
    luaL_newmetatable(L, MAP_META);
    lua_pushcfunction(L, map_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pop(L, 1);
    luaL_newmetatable(L, COLUMN_META);
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, column_index, 1);
    lua_setfield(L, -2, "__index");
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, column_newindex, 1);
    lua_setfield(L, -2, "__newindex");
    lua_pop(L, 1);
    lrt_load_builtin(L, env_maker, sizeof env_maker - 1, "=envmaker");
    lua_setfield(L, LUA_REGISTRYINDEX, "questgrid.envmaker");
    /* setfenv as Crawl 0.28's Lua 5.1 library calls it, crawl.setfenv as
     * current Crawl's (Lua 5.4) dungeon.lua does */
    lua_register(L, "setfenv", l_setfenv);
    lua_getglobal(L, "crawl");
    lua_pushcfunction(L, l_setfenv);
    lua_setfield(L, -2, "setfenv");
    lua_pop(L, 1);
    lua_getglobal(L, "dgn");
    lua_pushcfunction(L, mapgrd_table);
    lua_setfield(L, -2, "mapgrd_table");
    lua_setfield(L, LUA_REGISTRYINDEX, "questgrid.dgn");
    guard_table(L, "dgn");
    guard_table(L, "crawl");
    guard_table(L, "you");
}

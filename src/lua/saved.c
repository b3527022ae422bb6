/* A saved state of the runtime and the return to it. A compile runs every
 * .des file from the state the game's library left (then the global Lua
 * of the files before it, run again), so that what one file's Lua defines
 * or changes reaches no other file, whatever the order or the thread the
 * files are run in: the cache is the same for any number of jobs.
 *
 * Lua has no copy of a state, so the save is a copy of every table the
 * registry reaches (the globals, the library's tables, the metatables)
 * and of every function's upvalues, and the return puts each of them
 * back: a key added since is removed, one changed or removed is set
 * again. Objects made since the save are no longer reached and are
 * collected. Two tables are left out: the save itself and the kept
 * chunks (compiled library files and preludes, which survive a return so
 * that running one again costs no compile). */
#include "lua/run.h"

#define SAVED_KEY "questgrid.saved"

/* The save: [1] = {table, copy, metatable or false, entries, ...},
 * [2] = {function, {upvalues}, count, ...}. */
enum { SAVED_TABLES = 1, SAVED_FUNCTIONS = 2 };

/* Appends the value on top to the sequence at index (pops it). */
static void append(lua_State *L, int seq)
{
    lua_rawseti(L, seq, (lua_Integer)lua_rawlen(L, seq) + 1);
}

/* Queues the value at index for the walk when it is a table or a
 * function not yet seen. */
static void queue(lua_State *L, int index, int seen, int work)
{
    int type = lua_type(L, index);
    if (type != LUA_TTABLE && type != LUA_TFUNCTION)
        return;
    lua_pushvalue(L, index);
    if (lua_rawget(L, seen) != LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    lua_pop(L, 1);
    lua_pushvalue(L, index);
    lua_pushboolean(L, 1);
    lua_rawset(L, seen);
    lua_pushvalue(L, index);
    append(L, work);
}

/* The table on top, copied into the save's tables; its keys, values and
 * metatable queued. */
static void save_table(lua_State *L, int tables, int seen, int work)
{
    int t = lua_gettop(L);
    lua_newtable(L);
    int copy = t + 1;
    lua_Integer entries = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        queue(L, -2, seen, work);
        queue(L, -1, seen, work);
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, copy);
        entries++;
    }
    lua_pushvalue(L, t);
    append(L, tables);
    lua_pushvalue(L, copy);
    append(L, tables);
    if (lua_getmetatable(L, t))
        queue(L, -1, seen, work);
    else
        lua_pushboolean(L, 0);
    append(L, tables);
    lua_pushinteger(L, entries);
    append(L, tables);
    lua_settop(L, t - 1);
}

/* The function on top: its upvalues saved and queued. */
static void save_function(lua_State *L, int functions, int seen, int work)
{
    int f = lua_gettop(L);
    lua_newtable(L);
    int n = 0;
    while (lua_getupvalue(L, f, n + 1)) {
        queue(L, -1, seen, work);
        lua_rawseti(L, f + 1, ++n);
    }
    if (n) {
        lua_pushvalue(L, f);
        append(L, functions);
        lua_pushvalue(L, f + 1);
        append(L, functions);
        lua_pushinteger(L, n);
        append(L, functions);
    }
    lua_settop(L, f - 1);
}

/* Protected: takes the save, replacing any earlier one. */
static int save_body(lua_State *L)
{
    lua_settop(L, 0);
    lua_newtable(L);                           /* 1: the save */
    lua_pushvalue(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, SAVED_KEY);
    lrt_push_kept(L, NULL);                    /* 2: the kept chunks */
    lua_newtable(L);                           /* 3: seen */
    lua_newtable(L);                           /* 4: the work list */
    lua_newtable(L);                           /* 5: tables */
    lua_newtable(L);                           /* 6: functions */
    for (int left_out = 1; left_out <= 2; left_out++) {
        lua_pushvalue(L, left_out);
        lua_pushboolean(L, 1);
        lua_rawset(L, 3);
    }
    queue(L, LUA_REGISTRYINDEX, 3, 4);
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1))
        queue(L, -1, 3, 4);
    lua_settop(L, 6);
    for (lua_Integer n; (n = (lua_Integer)lua_rawlen(L, 4)) > 0;) {
        lua_rawgeti(L, 4, n);
        lua_pushnil(L);
        lua_rawseti(L, 4, n);
        if (lua_type(L, -1) == LUA_TTABLE)
            save_table(L, 5, 3, 4);
        else
            save_function(L, 6, 3, 4);
    }
    lua_pushvalue(L, 5);
    lua_rawseti(L, 1, SAVED_TABLES);
    lua_pushvalue(L, 6);
    lua_rawseti(L, 1, SAVED_FUNCTIONS);
    return 0;
}

/* Puts table t back as its copy holds it (entries: the copy's count). */
static void restore_table(lua_State *L, int t, int copy, lua_Integer entries)
{
    lua_Integer kept = 0;
    int base = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pushvalue(L, -2);
        if (lua_rawget(L, copy) == LUA_TNIL) {
            lua_pushvalue(L, -3);
            lua_pushnil(L);
            lua_rawset(L, t);            /* clearing a field is allowed in next */
        } else {
            kept++;
            if (!lua_rawequal(L, -1, -2)) {
                lua_pushvalue(L, -3);
                lua_insert(L, -2);
                lua_rawset(L, t);        /* so is changing one */
            }
        }
        lua_settop(L, base + 1);
    }
    if (kept == entries)
        return;
    lua_pushnil(L);
    while (lua_next(L, copy)) {
        lua_pushvalue(L, -2);
        if (lua_rawget(L, t) == LUA_TNIL) {
            lua_pushvalue(L, -3);
            lua_pushvalue(L, -3);
            lua_rawset(L, t);
        }
        lua_settop(L, base + 1);
    }
}

static int restore_body(lua_State *L)
{
    lua_settop(L, 0);
    if (lua_getfield(L, LUA_REGISTRYINDEX, SAVED_KEY) != LUA_TTABLE)
        return luaL_error(L, "no saved state to return to");
    lua_rawgeti(L, 1, SAVED_TABLES);            /* 2 */
    lua_rawgeti(L, 1, SAVED_FUNCTIONS);         /* 3 */
    lua_Integer n = (lua_Integer)lua_rawlen(L, 2);
    for (lua_Integer i = 1; i + 3 <= n; i += 4) {
        lua_rawgeti(L, 2, i);                   /* 4: the table */
        lua_rawgeti(L, 2, i + 1);               /* 5: its copy */
        lua_rawgeti(L, 2, i + 3);
        lua_Integer entries = lua_tointeger(L, -1);
        lua_pop(L, 1);
        restore_table(L, 4, 5, entries);
        lua_rawgeti(L, 2, i + 2);               /* 6: its metatable, or false */
        if (!lua_getmetatable(L, 4))
            lua_pushboolean(L, 0);
        if (!lua_rawequal(L, 6, 7)) {
            if (lua_type(L, 6) == LUA_TTABLE)
                lua_pushvalue(L, 6);
            else
                lua_pushnil(L);
            lua_setmetatable(L, 4);
        }
        lua_settop(L, 3);
    }
    n = (lua_Integer)lua_rawlen(L, 3);
    for (lua_Integer i = 1; i + 2 <= n; i += 3) {
        lua_rawgeti(L, 3, i);                   /* 4: the function */
        lua_rawgeti(L, 3, i + 1);               /* 5: its upvalues */
        lua_rawgeti(L, 3, i + 2);
        int count = (int)lua_tointeger(L, -1);
        lua_pop(L, 1);
        for (int u = 1; u <= count; u++) {
            lua_getupvalue(L, 4, u);
            lua_rawgeti(L, 5, u);
            if (lua_rawequal(L, -1, -2))
                lua_pop(L, 2);
            else if (!lua_setupvalue(L, 4, u))
                lua_pop(L, 2);
            else
                lua_pop(L, 1);
        }
        lua_settop(L, 3);
    }
    return 0;
}

static qg_status protected(qg_runtime *rt, lua_CFunction body, const char *what,
                           qg_diags *diags)
{
    int status = lrt_protect(rt->L, body, NULL);
    if (status == LUA_OK)
        return QG_OK;
    qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0, "%s: %s", what,
                 lua_tostring(rt->L, -1) ? lua_tostring(rt->L, -1) : "error");
    lua_settop(rt->L, 0);
    return status == LUA_ERRMEM ? QG_ERR_NOMEM : QG_ERR_LUA;
}

qg_status qg_runtime_save(qg_runtime *rt, qg_diags *diags)
{
    return protected(rt, save_body, "saving the Lua state", diags);
}

qg_status qg_runtime_restore(qg_runtime *rt, qg_diags *diags)
{
    lrt_end_run(rt);
    return protected(rt, restore_body, "returning to the saved Lua state", diags);
}

/* The sandbox: a Lua state whose allocator enforces a memory cap, whose
 * budget (budget.h) no pcall, coroutine or handler can swallow, and which
 * offers only libraries that cannot touch files, the process or bytecode,
 * each of their functions charged (charged.c, pattern.c). */
#include "lua/rt.h"

#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int lrt_panic(lua_State *L)
{
    (void)L;
    abort();
}

/* The collector runs in generational mode, a minor collection once the
 * heap has grown by this many percent. What a runtime holds is mostly old
 * (the game's library and every file's globals, some 2.4 MB for Crawl)
 * and what a map makes is mostly young and dies with its run. The
 * incremental mode's default let as much garbage as there was live data
 * pile up before each cycle, spread over slabs and malloc's heap that then
 * stay partly used, so a compile's footprint grew with the corpus: 13.5,
 * 17.3, 18.4 MiB for 1, 2 and 4 copies of Crawl 0.28, against 14.7, 15.3
 * and 16.1 MiB here, in the same CPU time (5 and 15 do worse). */
enum { LRT_GC_MINOR = 10 };

lua_State *lrt_state_new(qg_runtime *rt)
{
    lua_State *L = lua_newstate(lrt_alloc, rt);
    if (!L)
        return NULL;
    *(qg_runtime **)lua_getextraspace(L) = rt;
    lua_atpanic(L, lrt_panic);
    lrt_budget_hook(L);
    lua_gc(L, LUA_GCGEN, LRT_GC_MINOR, 0);
    return L;
}

void lrt_load_builtin(lua_State *L, const char *code, size_t len, const char *name)
{
    if (luaL_loadbufferx(L, code, len, name, "t") != LUA_OK)
        lua_error(L);
}

/* ---- protected calls that cannot swallow the budget ------------------ */

/* Running out of instructions or memory ends the chunk: a map's own
 * pcall passes both on. */
static int rethrow_if_exhausted(lua_State *L, int status)
{
    qg_runtime *rt = lrt_runtime(L);
    if (status == LUA_ERRMEM || (status != LUA_OK && rt->budget_exhausted))
        return lua_error(L);
    return 0;
}

/* The calls on the stack, to a power of two (at least half of them):
 * each probe walks from the top, so this reads about four times the
 * stack. */
static size_t stack_depth(lua_State *L)
{
    lua_Debug ar;
    int depth = 0, probe = 1;
    while (probe < (1 << 24) && lua_getstack(L, probe, &ar)) {
        depth = probe;
        probe *= 2;
    }
    return (size_t)depth;
}

/* An error caught: besides the throw, Lua reads the whole stack of calls
 * after it (ldo.c, luaD_shrinkstack), as the depth probe does again, so
 * an error caught under a deep recursion costs as the recursion is deep. */
void lrt_charge_error(lua_State *L)
{
    lrt_charge(L, LRT_ERROR_UNITS + 2 * stack_depth(L));
}

static int finish_pcall(lua_State *L, int status, lua_KContext extra)
{
    if (status != LUA_OK && status != LUA_YIELD) {
        rethrow_if_exhausted(L, status);
        lrt_charge_error(L);
        lua_pushboolean(L, 0);
        lua_pushvalue(L, -2);
        return 2;
    }
    return lua_gettop(L) - (int)extra;
}

static int safe_pcall(lua_State *L)
{
    luaL_checkany(L, 1);
    lrt_charge(L, LRT_CALL_UNITS + LRT_ENTRY_UNITS + (size_t)lua_gettop(L) / LRT_VALUES);
    lua_pushboolean(L, 1);
    lua_insert(L, 1);
    int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, finish_pcall);
    return finish_pcall(L, status, 0);
}

/* A map's message handler runs only while the budget lasts: an error
 * raised by the count hook calls the handler from inside the hook, where
 * no hook runs, so a looping handler could never be stopped; and a handler
 * must not replace the budget error. */
static int guarded_handler(lua_State *L)
{
    if (lrt_runtime(L)->budget_exhausted)
        return 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int safe_xpcall(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lrt_charge(L, LRT_CALL_UNITS + LRT_ENTRY_UNITS + (size_t)n / LRT_VALUES);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, guarded_handler, 1);
    lua_replace(L, 2);
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2);
    int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, finish_pcall);
    return finish_pcall(L, status, 2);
}

/* coroutine.resume and coroutine.close catch the errors of the
 * coroutine (close: of its to-be-closed variables), as pcall does. */
static int safe_catching_call(lua_State *L)
{
    lrt_charge(L, LRT_SWITCH_UNITS + (size_t)lua_gettop(L) / LRT_VALUES);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    if (lua_toboolean(L, 1) == 0) {
        if (lrt_runtime(L)->budget_exhausted) {
            lua_pushvalue(L, 2);
            return lua_error(L);
        }
        lrt_charge_error(L);
    }
    return lua_gettop(L);
}

/* ---- loading: text only ------------------------------------------------ */

int lrt_load(lua_State *L, const char *code, size_t len, const char *chunkname,
             int env_index)
{
    if (env_index < 0)
        env_index = lua_gettop(L) + env_index + 1;
    int status = luaL_loadbufferx(L, code, len, chunkname, "t");
    if (status == LUA_OK && env_index) {
        lua_pushvalue(L, env_index);
        if (!lua_setupvalue(L, -2, 1))
            lua_pop(L, 1);
    }
    return status;
}

static int safe_load(lua_State *L)
{
    size_t len;
    const char *code = luaL_checklstring(L, 1, &len);
    lrt_charge(L, LRT_CALL_UNITS + lrt_units_of((double)len, LRT_PARSE_BYTES));
    const char *name = luaL_optstring(L, 2, "=(load)");
    const char *mode = luaL_optstring(L, 3, "t");
    if (strchr(mode, 'b') && !strchr(mode, 't'))
        return luaL_error(L, "binary chunks are not allowed");
    int env = !lua_isnone(L, 4) ? 4 : 0;
    if (lrt_load(L, code, len, name, env) != LUA_OK) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    return 1;
}

static int safe_setmetatable(lua_State *L)
{
    lrt_charge(L, LRT_CALL_UNITS + LRT_ENTRY_UNITS);
    if (lua_type(L, 2) == LUA_TTABLE &&
        lua_getfield(L, 2, "__gc") != LUA_TNIL)
        return luaL_error(L, "__gc metamethods are not allowed in maps");
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
}

/* ---- the shared libraries, read-only to maps ------------------------- */

/* Maps see string, table, math, utf8 and coroutine through read-only
 * proxies (lrt_map_view): what one map assigns there cannot reach the
 * next. For the same reason getmetatable('') gives a read-only stand-in
 * whose __index is the string library's view. */
static const char library_proxies[] =
    "local names = ...\n"
    "local views = {}\n"
    "for _, name in ipairs(names) do\n"
    "  local lib = _G[name]\n"
    "  views[lib] = setmetatable({}, {\n"
    "    __index = lib,\n"
    "    __newindex = function() error(\"maps may not change the library '\" .. name .. \"'\", 2) end,\n"
    "    __pairs = function() return pairs(lib) end,\n"
    "    __len = function() return #lib end,\n"
    "    __metatable = false})\n"
    "end\n"
    "local strings = setmetatable({}, {__index = {__index = views[string]},\n"
    "  __newindex = function() error(\"maps may not change the string metatable\", 2) end,\n"
    "  __metatable = false})\n"
    "return views, strings\n";

static void open_library_views(lua_State *L)
{
    static const char *const names[] = {"string", "table", "math", "utf8", "coroutine"};
    lrt_load_builtin(L, library_proxies, sizeof library_proxies - 1, "=libraries");
    lua_createtable(L, 5, 0);
    for (int i = 0; i < 5; i++) {
        lua_pushstring(L, names[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_call(L, 1, 2);
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    lua_pushvalue(L, -3);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 3);
    lua_setfield(L, LUA_REGISTRYINDEX, LRT_LIBRARY_VIEWS);
}

void lrt_map_view(lua_State *L)
{
    if (lua_type(L, -1) != LUA_TTABLE)
        return;
    lua_getfield(L, LUA_REGISTRYINDEX, LRT_LIBRARY_VIEWS);
    lua_pushvalue(L, -2);
    if (lua_rawget(L, -2) == LUA_TTABLE) {
        lua_replace(L, -3);
        lua_pop(L, 1);
        return;
    }
    lua_pop(L, 2);
}

/* ---- math.random on the project's RNG ---------------------------------- */

static int rng_random(lua_State *L)
{
    qg_runtime *rt = lrt_runtime(L);
    lua_Integer lo, hi;
    switch (lua_gettop(L)) {
    case 0:
        lua_pushnumber(L, qg_rng_real(&rt->rng));
        return 1;
    case 1:
        lo = 1;
        hi = luaL_checkinteger(L, 1);
        break;
    default:
        lo = luaL_checkinteger(L, 1);
        hi = luaL_checkinteger(L, 2);
        break;
    }
    luaL_argcheck(L, lo <= hi, lua_gettop(L), "interval is empty");
    luaL_argcheck(L, lo >= INT32_MIN && hi <= INT32_MAX, 1, "interval too large");
    lua_pushinteger(L, qg_rng_range(&rt->rng, (int32_t)lo, (int32_t)hi));
    return 1;
}

static int rng_randomseed(lua_State *L)
{
    (void)L;
    return 0;
}

static int math_pow(lua_State *L)
{
    lua_Number x = luaL_checknumber(L, 1), y = luaL_checknumber(L, 2);
    lua_pushnumber(L, x);
    lua_pushnumber(L, y);
    lua_arith(L, LUA_OPPOW);
    return 1;
}

/* ---- chunks kept compiled ----------------------------------------------- */

#define KEPT_KEY "questgrid.kept"

void lrt_push_kept(lua_State *L, const char *kind)
{
    if (lua_getfield(L, LUA_REGISTRYINDEX, KEPT_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, KEPT_KEY);
    }
    if (!kind)
        return;
    if (lua_getfield(L, -1, kind) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, kind);
    }
    lua_remove(L, -2);
}

/* ---- pairs in a fixed order ---------------------------------------------- */

/* Lua 5.4 seeds its string hashes from the time and addresses, so next()
 * visits string keys in an order that changes from run to run; maps that
 * draw random numbers inside a pairs() loop would then differ for the same
 * seed. pairs() here visits numbers, then strings, in sorted order (other
 * keys after them). */
static const char ordered_pairs[] =
    "local next, type, sort, getmetatable = next, type, table.sort, getmetatable\n"
    "local rank = {number = 1, string = 2, boolean = 3}\n"
    "local function before(a, b)\n"
    "  local ta, tb = type(a), type(b)\n"
    "  if ta ~= tb then return (rank[ta] or 4) < (rank[tb] or 4) end\n"
    "  if ta == 'number' or ta == 'string' then return a < b end\n"
    "  if ta == 'boolean' then return b and not a end\n"
    "  return false\n"
    "end\n"
    "return function(t)\n"
    "  local mt = getmetatable(t)\n"
    "  if type(mt) == 'table' and mt.__pairs then return mt.__pairs(t) end\n"
    "  local keys, n = {}, 0\n"
    "  for k in next, t do n = n + 1 keys[n] = k end\n"
    "  if n > 1 then sort(keys, before) end\n"
    "  local i = 0\n"
    "  return function(tt)\n"
    "    i = i + 1\n"
    "    local k = keys[i]\n"
    "    if k == nil then return nil end\n"
    "    return k, tt[k]\n"
    "  end, t, nil\n"
    "end\n";

static void open_ordered_pairs(lua_State *L)
{
    lrt_load_builtin(L, ordered_pairs, sizeof ordered_pairs - 1, "=pairs");
    lua_call(L, 0, 1);
    lua_setglobal(L, "pairs");
}

/* ---- opening the sandbox ----------------------------------------------- */

static void wrap_with_original(lua_State *L, const char *table, const char *name,
                               lua_CFunction fn)
{
    if (table)
        lua_getglobal(L, table);
    else
        lua_pushglobaltable(L);
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, fn, 1);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
}

static void remove_globals(lua_State *L)
{
    static const char *const unsafe[] = {
        "dofile", "loadfile", "require", "print", "collectgarbage",
        "io", "os", "package", "debug", NULL};
    for (const char *const *n = unsafe; *n; n++) {
        lua_pushnil(L);
        lua_setglobal(L, *n);
    }
    lua_getglobal(L, "string");
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    lua_pop(L, 1);
}

void lrt_open_sandbox(lua_State *L, qg_runtime *rt)
{
    (void)rt;
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base}, {LUA_TABLIBNAME, luaopen_table},
        {LUA_STRLIBNAME, luaopen_string}, {LUA_MATHLIBNAME, luaopen_math},
        {LUA_COLIBNAME, luaopen_coroutine}, {LUA_UTF8LIBNAME, luaopen_utf8},
        {NULL, NULL}};
    for (const luaL_Reg *lib = libs; lib->func; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
    remove_globals(L);
    lua_getglobal(L, "math");
    lua_pushcfunction(L, rng_random);
    lua_setfield(L, -2, "random");
    lua_pushcfunction(L, rng_randomseed);
    lua_setfield(L, -2, "randomseed");
    lua_pushcfunction(L, math_pow);
    lua_setfield(L, -2, "pow");
    lua_pop(L, 1);
    /* every C function so far charged; what follows charges itself */
    lrt_charge_libraries(L);
    lrt_charge_iterators(L);
    lrt_open_patterns(L);
    lua_register(L, "pcall", safe_pcall);
    lua_register(L, "xpcall", safe_xpcall);
    lua_register(L, "load", safe_load);
    lua_register(L, "loadstring", safe_load);
    open_ordered_pairs(L);
    wrap_with_original(L, NULL, "setmetatable", safe_setmetatable);
    wrap_with_original(L, "coroutine", "resume", safe_catching_call);
    wrap_with_original(L, "coroutine", "close", safe_catching_call);
    lua_getglobal(L, "table");
    lua_getfield(L, -1, "unpack");
    lua_setglobal(L, "unpack");
    lua_pop(L, 1);
    open_library_views(L);
}

/* ---- errors ----------------------------------------------------------- */

static int traceback_handler(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            msg = lua_tostring(L, -1);
        else
            msg = lua_pushfstring(L, "(error object is a %s value)",
                                  luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

int lrt_pcall(lua_State *L, int nargs, int nresults)
{
    qg_runtime *rt = lrt_runtime(L);
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, traceback_handler);
    lua_insert(L, base);
    lrt_enter(rt);
    int status = lua_pcall(L, nargs, nresults, base);
    lrt_leave(rt);
    lua_remove(L, base);
    return status;
}

int lrt_protect(lua_State *L, lua_CFunction fn, void *ud)
{
    lua_pushcfunction(L, fn);
    lua_pushlightuserdata(L, ud);
    return lrt_pcall(L, 1, 0);
}

char *lrt_rewrite_error(const char *msg, const char *chunkname,
                        const char *file, int first_line, const char *map)
{
    qg_buf out;
    qg_buf_init(&out);
    size_t nlen = strlen(chunkname);
    const char *p = msg;
    while (*p) {
        const char *hit = strstr(p, chunkname);
        if (!hit || hit[nlen] != ':' || hit[nlen + 1] < '0' || hit[nlen + 1] > '9') {
            if (!hit) {
                qg_buf_puts(&out, p);
                break;
            }
            qg_buf_append(&out, p, (size_t)(hit - p) + nlen);
            p = hit + nlen;
            continue;
        }
        qg_buf_append(&out, p, (size_t)(hit - p));
        char *end;
        long line = strtol(hit + nlen + 1, &end, 10);
        qg_buf_printf(&out, "%s:%ld (map %s)", file, line + first_line - 1, map);
        p = end;
    }
    return qg_buf_take(&out);
}

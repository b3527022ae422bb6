/* you.*: the player, answered from the caller's context (place, xl and
 * named variables "you.NAME" or "NAME"); a fresh character otherwise. */
#include "lua/rt.h"
#include "des/branches.h"

#include <stdlib.h>
#include <string.h>

static const char *context_var(lua_State *L, const char *name)
{
    qg_runtime *rt = lrt_runtime(L);
    if (!rt->context || !rt->context->vars)
        return NULL;
    char key[64];
    snprintf(key, sizeof key, "you.%s", name);
    const char *v = qg_vars_get(rt->context->vars, key);
    return v ? v : qg_vars_get(rt->context->vars, name);
}

static int l_branch(lua_State *L)
{
    char buf[32];
    lua_pushstring(L, lrt_branch(lrt_runtime(L), buf, sizeof buf));
    return 1;
}

static int l_depth(lua_State *L)
{
    lua_pushinteger(L, lrt_depth(lrt_runtime(L)));
    return 1;
}

static int l_absdepth(lua_State *L)
{
    lua_pushinteger(L, lrt_absdepth(lrt_runtime(L)));
    return 1;
}

/* l-you.cc you_in_branch: the branch's abbreviation, short or long name,
 * any case; a name of no branch is an error. */
static int l_in_branch(lua_State *L)
{
    char buf[32];
    qg_runtime *rt = lrt_runtime(L);
    const char *want = luaL_checkstring(L, 1);
    const des_branch *b = des_branch_by_any_name(rt->branches, want, strlen(want));
    if (!b)
        return lrt_branch_error(L, 1, want);
    lua_pushboolean(L, strcmp(lrt_branch(rt, buf, sizeof buf), b->name) == 0);
    return 1;
}

static int l_where(lua_State *L)
{
    char buf[32];
    qg_runtime *rt = lrt_runtime(L);
    lua_pushfstring(L, "%s:%d", lrt_branch(rt, buf, sizeof buf), lrt_depth(rt));
    return 1;
}

static int l_depth_fraction(lua_State *L)
{
    char buf[32];
    qg_runtime *rt = lrt_runtime(L);
    int total = lrt_branch_depth(rt, lrt_branch(rt, buf, sizeof buf));
    lua_pushnumber(L, (lua_Number)lrt_depth(rt) / (lua_Number)(total > 0 ? total : 1));
    return 1;
}

static int l_at_branch_bottom(lua_State *L)
{
    char buf[32];
    qg_runtime *rt = lrt_runtime(L);
    lua_pushboolean(L, lrt_depth(rt) >= lrt_branch_depth(rt, lrt_branch(rt, buf, sizeof buf)));
    return 1;
}

static int l_xl(lua_State *L)
{
    qg_runtime *rt = lrt_runtime(L);
    const char *v = context_var(L, "xl");
    int xl = v ? atoi(v) : rt->context && rt->context->xl > 0 ? rt->context->xl : 1;
    lua_pushinteger(L, xl);
    return 1;
}

/* you.var(NAME): a variable of the context (--var NAME=VALUE) as a
 * string, or nil; converted F:/D: conditionals read $NAME through it. */
static int l_you_var(lua_State *L)
{
    const char *v = context_var(L, luaL_checkstring(L, 1));
    if (v)
        lua_pushstring(L, v);
    else
        lua_pushnil(L);
    return 1;
}

/* A value from the context, else the default kept as upvalue 1 (noted as
 * a fresh game's answer under the name in upvalue 3). */
static int l_var(lua_State *L)
{
    const char *name = lua_tostring(L, lua_upvalueindex(2));
    const char *v = context_var(L, name);
    if (!v) {
        lrt_note_asked(lrt_runtime(L), lua_tostring(L, lua_upvalueindex(3)));
        lua_pushvalue(L, lua_upvalueindex(1));
        return 1;
    }
    if (lua_type(L, lua_upvalueindex(1)) == LUA_TBOOLEAN)
        lua_pushboolean(L, strcmp(v, "0") != 0 && strcmp(v, "false") != 0);
    else if (lua_type(L, lua_upvalueindex(1)) == LUA_TNUMBER)
        lua_pushinteger(L, atol(v));
    else
        lua_pushstring(L, v);
    return 1;
}

static void add_var(lua_State *L, const char *name, int type, const char *text)
{
    if (type == LUA_TBOOLEAN)
        lua_pushboolean(L, 0);
    else if (type == LUA_TNUMBER)
        lua_pushinteger(L, 0);
    else
        lua_pushstring(L, text);
    lua_pushstring(L, name);
    lua_pushfstring(L, "you.%s", name);
    lua_pushcclosure(L, l_var, 3);
    lua_setfield(L, -2, name);
}

void lrt_open_you(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"branch", l_branch}, {"depth", l_depth}, {"absdepth", l_absdepth},
        {"in_branch", l_in_branch}, {"where", l_where},
        {"depth_fraction", l_depth_fraction},
        {"at_branch_bottom", l_at_branch_bottom}, {"xl", l_xl},
        {"var", l_you_var}, {NULL, NULL}};
    static const char *const flags[] = {
        "uniques", "have_rune", "see_cell", "silenced", "have_orb",
        "taking_stairs", "unrands", "is_level_on_stack", "hear_pos", NULL};
    static const char *const numbers[] = {
        "zigs_completed", "turns", "num_runes", "piety", "piety_rank",
        "mutation", "base_skill", "get_base_mutation_level", NULL};
    lua_newtable(L);
    luaL_setfuncs(L, fns, 0);
    for (const char *const *n = flags; *n; n++)
        add_var(L, *n, LUA_TBOOLEAN, NULL);
    for (const char *const *n = numbers; *n; n++)
        add_var(L, *n, LUA_TNUMBER, NULL);
    add_var(L, "race", LUA_TSTRING, "Human");
    add_var(L, "god", LUA_TSTRING, "No God");
    add_var(L, "name", LUA_TSTRING, "questgrid");
    add_var(L, "class", LUA_TSTRING, "Fighter");
    add_var(L, "monster", LUA_TSTRING, "human");
    add_var(L, "genus", LUA_TSTRING, "human");
    add_var(L, "species", LUA_TSTRING, "Human");
    lua_setglobal(L, "you");
}

/* Where a map is resolved: the place "Branch:depth" and what the game's
 * branch table (qg_runtime_options.branches) says about it, answered to
 * you.* and dgn.*. */
#include "lua/rt.h"
#include "des/branches.h"

#include <stdlib.h>
#include <string.h>

qg_status lrt_set_branches(qg_runtime *rt, const qg_branches *given, qg_diags *diags)
{
    rt->branches = given;
    if (given)
        return QG_OK;
    char *dir = NULL;
    qg_status st = qg_data_find("des/vocab", &dir, diags);
    if (st == QG_OK)
        st = qg_branches_load(dir, NULL, &rt->own_branches, diags);
    free(dir);
    rt->branches = rt->own_branches;
    return st;
}

static const char *place_of(const qg_runtime *rt)
{
    return rt->place ? rt->place : "D:1";
}

static const des_branch *branch_here(const qg_runtime *rt)
{
    const char *place = place_of(rt);
    return des_branch_by_any_name(rt->branches, place, strcspn(place, ":"));
}

const char *lrt_branch(const qg_runtime *rt, char *buf, size_t size)
{
    const des_branch *b = branch_here(rt);
    if (b)
        return b->name;
    const char *place = place_of(rt);
    size_t len = strcspn(place, ":");
    if (len >= size)
        len = size - 1;
    memcpy(buf, place, len);
    buf[len] = '\0';
    return buf;
}

int lrt_depth(const qg_runtime *rt)
{
    const char *colon = strchr(place_of(rt), ':');
    int depth = colon ? atoi(colon + 1) : 1;
    return depth > 0 ? depth : 1;
}

int lrt_branch_depth(const qg_runtime *rt, const char *branch)
{
    const des_branch *b = des_branch_by_any_name(rt->branches, branch, strlen(branch));
    return b ? b->levels : -1;
}

int lrt_absdepth(const qg_runtime *rt)
{
    const des_branch *b = branch_here(rt);
    return (b ? b->absdepth : 0) + lrt_depth(rt);
}

void lrt_note_asked(qg_runtime *rt, const char *name)
{
    const size_t most = sizeof rt->asked / sizeof *rt->asked;
    for (size_t i = 0; i < rt->asked_count; i++)
        if (strcmp(rt->asked[i], name) == 0)
            return;
    if (rt->asked_count < most)
        rt->asked[rt->asked_count++] = name;
}

int lrt_branch_error(lua_State *L, int arg, const char *name)
{
    const qg_branches *t = lrt_runtime(L)->branches;
    size_t best_len;
    const char *best = des_branch_closest(t, name, strlen(name), &best_len);
    if (best)
        return luaL_error(L, "bad argument #%d: '%s' matches no branches of %s; did you "
                          "mean '%s'?", arg, name, qg_branches_game(t),
                          lua_pushlstring(L, best, best_len));
    return luaL_error(L, "bad argument #%d: '%s' matches no branches of %s", arg, name,
                      qg_branches_game(t));
}

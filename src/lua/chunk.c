/* One chunk of a map run in its environment, and a Lua error reported at
 * the map: the messages made readable (a missing function named, the
 * chunk's lines as the .des file's). */
#include "lua/run.h"

#include <stdlib.h>
#include <string.h>

/* Makes a Lua error readable: "attempt to call a nil value (global 'f')"
 * names the missing function. */
static char *describe_error(const char *msg, const char *chunkname,
                            const qg_des_chunk *chunk, const char *map, const char *hint)
{
    char *text = lrt_rewrite_error(msg, chunkname, chunk->file ? chunk->file : "?",
                                   chunk->first_line, map);
    static const char *const kinds[] = {"(global '", "(field '", "(method '"};
    for (int k = 0; text && k < 3; k++) {
        const char *hit = strstr(text, "attempt to call a nil value ");
        const char *name = hit ? strstr(hit, kinds[k]) : NULL;
        if (!name)
            continue;
        name += strlen(kinds[k]);
        size_t len = strcspn(name, "'\n");
        /* Lua's own message closes the name with "')"; one of the map's
         * that only looks like it is kept as it is */
        if (name[len] != '\'' || name[len + 1] != ')')
            continue;
        qg_buf out;
        qg_buf_init(&out);
        qg_buf_append(&out, text, (size_t)(hit - text));
        qg_buf_printf(&out, "function '%.*s' is not provided (map %s)%s", (int)len, name, map,
                      hint);
        qg_buf_puts(&out, name + len + 2);
        free(text);
        return qg_buf_take(&out);
    }
    return text;
}

static int first_line_of(const char *msg, const char *chunkname)
{
    const char *hit = strstr(msg, chunkname);
    if (!hit)
        return 0;
    hit += strlen(chunkname);
    return *hit == ':' ? atoi(hit + 1) : 0;
}

qg_status lrt_run_chunk(qg_runtime *rt, lrt_map *map, const qg_des_chunk *chunk,
                        qg_chunk_kind kind, int *result, qg_diags *diags)
{
    lua_State *L = rt->L;
    static const char *const chunknames[QG_CHUNK_KINDS] = {
        "=dlprelude", "=dlmapchunk", "=dlmain", "=dlvalidate", "=dlveto", "=dlepilogue"};
    const char *chunkname = chunknames[kind];
    lrt_budget_reset(rt);
    lrt_push_env(L, rt, map);
    int status = lrt_load(L, chunk->code, chunk->len, chunkname, -1);
    if (status == LUA_OK)
        status = lrt_pcall(L, 0, 1);
    if (status == LUA_OK) {
        if (result)
            *result = lua_toboolean(L, -1);
        lua_settop(L, 0);
        return QG_OK;
    }
    char budget[80];
    const char *msg = lua_tostring(L, -1);
    if (!msg)
        msg = "error object is not a string";
    msg = lrt_error_text(rt, status, msg, budget, sizeof budget);
    lrt_mark_unprovided(rt, status, msg);
    char *text = describe_error(msg, chunkname + 1, chunk, map->name, lrt_no_library_hint(rt));
    int line = first_line_of(msg, chunkname + 1);
    qg_diags_add(diags, QG_ERROR, chunk->file ? chunk->file : "",
                 line ? line + chunk->first_line - 1 : chunk->first_line, 0, NULL, 0,
                 "%s", text ? text : msg);
    free(text);
    lua_settop(L, 0);
    return lrt_error_status(rt, status);
}

qg_status lrt_report_lua_error(qg_runtime *rt, const lrt_map *map, const char *what,
                               int status, qg_diags *diags)
{
    lua_State *L = rt->L;
    char budget[80];
    const char *msg = lrt_error_text(rt, status, lua_type(L, -1) == LUA_TSTRING
                                                     ? lua_tostring(L, -1) : "error",
                                     budget, sizeof budget);
    lrt_mark_unprovided(rt, status, msg);
    qg_diags_add(diags, QG_ERROR, map->file ? map->file : "", map->line, 0, NULL, 0,
                 "%s (%s, map %s)", msg, what, map->name);
    lua_settop(L, 0);
    return lrt_error_status(rt, status);
}

/* The runtime: one sandboxed state per runtime with every API family
 * opened, holding the game's Lua library and the files' global preludes
 * (the runs of a map's chunks are run.c's). */
#include "lua/run.h"
#include "lua/level.h"
#include "lua/watch.h"
#include "core/file.h"
#include "core/mapdef.h"

#include <stdlib.h>
#include <string.h>

static int setup_state(lua_State *L)
{
    qg_runtime *rt = lrt_runtime(L);
    lua_settop(L, 0);
    lrt_open_sandbox(L, rt);
    lrt_open_dgn(L);
    lrt_open_crawl(L);
    lrt_open_noise(L);
    lrt_open_you(L);
    lrt_open_header(L);
    lrt_open_transforms(L);
    lrt_open_keyed(L);
    lrt_open_builder(L);
    lrt_open_layout(L);
    lrt_open_level(L);
    lrt_open_level_maps(L);
    lrt_open_env(L);
    lrt_open_library(L);
    return 0;
}

static qg_status protected_setup(qg_runtime *rt, lua_CFunction fn, void *ud,
                                 const char *what, qg_diags *diags)
{
    lua_State *L = rt->L;
    lrt_operation_start(rt);
    int status = lrt_protect(L, fn, ud);
    if (status == LUA_OK)
        return QG_OK;
    qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0, "%s: %s", what,
                 lua_tostring(L, -1) ? lua_tostring(L, -1) : "error");
    lua_settop(L, 0);
    return status == LUA_ERRMEM ? QG_ERR_NOMEM : QG_ERR_LUA;
}

qg_status qg_runtime_library_des_files(qg_runtime *rt, char ***files, size_t *count,
                                       qg_diags *diags)
{
    *files = NULL;
    *count = 0;
    qg_status st = protected_setup(rt, lrt_load_loadmaps, NULL, "running dlua/loadmaps.lua",
                                   diags);
    if (st)
        return st;
    lua_State *L = rt->L;
    lua_getfield(L, LUA_REGISTRYINDEX, "questgrid.des_files");
    size_t n = (size_t)lua_rawlen(L, -1);
    *files = calloc(n ? n : 1, sizeof **files);
    for (size_t i = 0; *files && i < n; i++) {
        lua_rawgeti(L, -1, (lua_Integer)i + 1);
        (*files)[i] = qg_strdup(lua_tostring(L, -1));
        lua_pop(L, 1);
        if (!(*files)[i])
            st = QG_ERR_NOMEM;
        (*count)++;
    }
    lua_settop(L, 0);
    if (!*files)
        return QG_ERR_NOMEM;
    return st;
}

qg_runtime *qg_runtime_new(const qg_runtime_options *options, qg_diags *diags)
{
    qg_runtime *rt = calloc(1, sizeof *rt);
    if (!rt)
        return NULL;
    rt->mem_limit = options && options->memory_limit ? options->memory_limit
                                                     : LRT_DEFAULT_MEMORY;
    qg_rng_seed(&rt->rng, 0, 0);
    qg_status st = lrt_budget_init(rt, options ? options->instruction_limit : 0);
    if (st != QG_OK) {
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0, "%s",
                     st == QG_ERR_INVALID
                         ? "QUESTGRID_LUA_TIME_LIMIT is not a number of seconds"
                         : "cannot start the thread that watches Lua's time");
        qg_runtime_free(rt);
        return NULL;
    }
    if (lrt_set_branches(rt, options ? options->branches : NULL, diags) != QG_OK) {
        qg_runtime_free(rt);
        return NULL;
    }
    if (options && options->lua_path_count) {
        rt->lua_paths = calloc(options->lua_path_count, sizeof *rt->lua_paths);
        for (size_t i = 0; rt->lua_paths && i < options->lua_path_count; i++)
            if ((rt->lua_paths[i] = qg_strdup(options->lua_paths[i])))
                rt->lua_path_count++;
    }
    rt->L = lrt_state_new(rt);
    if (!rt->L || (options && options->lua_path_count && !rt->lua_paths)) {
        qg_runtime_free(rt);
        return NULL;
    }
    library_load load = {rt, diags};
    /* the runtime's own set-up is the same work whatever the budget */
    unsigned long limit = rt->instr_limit;
    rt->instr_limit = LRT_DEFAULT_INSTRUCTIONS;
    qg_status setup = protected_setup(rt, setup_state, NULL, "setting up the Lua runtime",
                                      diags);
    rt->instr_limit = limit;
    if (setup != QG_OK ||
        (rt->lua_path_count &&
         protected_setup(rt, lrt_load_library, &load, "loading the Lua library",
                         diags) != QG_OK)) {
        qg_runtime_free(rt);
        return NULL;
    }
    return rt;
}

void qg_runtime_free(qg_runtime *rt)
{
    if (!rt)
        return;
    lrt_level_free(rt);
    lrt_run_maps_free(rt);
    if (rt->L)
        lua_close(rt->L);
    lrt_watch_free(rt->watch);
    lrt_file_begin(rt);
    lrt_pool_free(&rt->pool);
    for (size_t i = 0; i < rt->lua_path_count; i++)
        free(rt->lua_paths[i]);
    free(rt->lua_paths);
    qg_branches_free(rt->own_branches);
    for (size_t i = 0; i < rt->map_count; i++)
        qg_mapdef_free(rt->maps[i]);
    free(rt->maps);
    free(rt);
}

/* A prelude_run's status when nothing was kept under its key. */
enum { NOT_KEPT = -1 };

typedef struct prelude_run {
    qg_runtime *rt;
    const qg_des_chunk *chunk;  /* NULL: run the one kept under key */
    lua_Integer key;            /* 0: keep none */
    int status;
} prelude_run;

/* Pushes the prelude compiled, padded to its .des lines so that the
 * functions it defines report their own file and line wherever they are
 * called from; on a compile error the message instead. */
static int load_prelude(lua_State *L, const qg_des_chunk *chunk)
{
    lua_pushfstring(L, "@%s", chunk->file ? chunk->file : "?");
    qg_buf code;
    qg_buf_init(&code);
    for (int i = 1; i < chunk->first_line; i++)
        qg_buf_putc(&code, '\n');
    qg_buf_append(&code, chunk->code, chunk->len);
    int status = LUA_ERRMEM;
    if (code.failed)
        lua_pushliteral(L, "not enough memory");
    else
        status = lrt_load(L, code.data, code.len, lua_tostring(L, -1), 0);
    qg_buf_free(&code);
    lua_remove(L, -2);
    return status;
}

/* Loads (or takes the kept) prelude and runs it; protected. The
 * prelude's own status is kept apart from errors around it. */
static int prelude_body(lua_State *L)
{
    prelude_run *p = lua_touserdata(L, 1);
    lua_settop(L, 0);
    if (p->key)
        lrt_push_kept(L, "preludes");
    if (!p->key || lua_rawgeti(L, 1, p->key) != LUA_TFUNCTION) {
        lua_settop(L, p->key ? 1 : 0);
        if (!p->chunk) {
            p->status = NOT_KEPT;
            return 0;
        }
        p->status = load_prelude(L, p->chunk);
        qg_runtime *rt = p->rt;
        if (p->status == LUA_OK && p->key &&
            p->chunk->len <= LRT_KEPT_PRELUDE_BYTES - rt->kept_prelude_bytes) {
            lua_pushvalue(L, -1);
            lua_rawseti(L, 1, p->key);
            rt->kept_prelude_bytes += p->chunk->len;
        }
    }
    if (p->status == LUA_OK)
        p->status = lrt_pcall(L, 0, 0);
    if (p->status != LUA_OK)
        lua_setfield(L, LUA_REGISTRYINDEX, "questgrid.prelude_error");
    return 0;
}

static qg_status run_prelude(qg_runtime *rt, prelude_run *p, qg_diags *diags)
{
    lua_State *L = rt->L;
    if (p->chunk)
        lrt_compile_operation_start(rt, p->chunk->file);
    else
        lrt_operation_start(rt);
    int status = lrt_protect(L, prelude_body, p);
    if (status == LUA_OK && p->status == NOT_KEPT)
        return QG_ERR_NOTFOUND;
    if (status == LUA_OK && p->status == LUA_OK)
        return QG_OK;
    if (status == LUA_OK) {
        lua_getfield(L, LUA_REGISTRYINDEX, "questgrid.prelude_error");
        status = p->status;
    }
    char budget[80];
    const char *msg = lrt_error_text(rt, status, lua_tostring(L, -1) ? lua_tostring(L, -1)
                                                                     : "error",
                                     budget, sizeof budget);
    lrt_mark_unprovided(rt, status, msg);
    const qg_des_chunk *chunk = p->chunk;
    qg_diags_add(diags, QG_ERROR, chunk && chunk->file ? chunk->file : "",
                 chunk ? chunk->first_line : 0, 0, NULL, 0, "%s", msg);
    lua_settop(L, 0);
    return lrt_error_status(rt, status);
}

qg_status lrt_run_global_prelude(qg_runtime *rt, const qg_des_chunk *chunk,
                                 qg_diags *diags)
{
    prelude_run p = {rt, chunk, 0, LUA_OK};
    return run_prelude(rt, &p, diags);
}

qg_status qg_runtime_run_kept_prelude(qg_runtime *rt, size_t key, const qg_des_chunk *prelude,
                                      qg_diags *diags)
{
    if (key >= (size_t)LUA_MAXINTEGER)
        return QG_ERR_INVALID;
    prelude_run p = {rt, prelude, (lua_Integer)key + 1, LUA_OK};
    lrt_file_begin(rt);
    return run_prelude(rt, &p, diags);
}

/* The runtime: one sandboxed state per runtime holding the game's Lua
 * library and the files' global preludes, and the runs of a map's chunks
 * in its environment (compile-time and seeded). */
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

size_t qg_runtime_map_count(const qg_runtime *rt)
{
    return rt->map_count;
}

qg_mapdef *qg_runtime_map(const qg_runtime *rt, size_t index)
{
    return index < rt->map_count ? rt->maps[index] : NULL;
}

qg_mapdef *qg_runtime_find_map(const qg_runtime *rt, const char *name)
{
    for (size_t i = 0; i < rt->map_count; i++)
        if (strcmp(qg_mapdef_name(rt->maps[i]), name) == 0)
            return rt->maps[i];
    return NULL;
}

qg_status lrt_add_map(qg_runtime *rt, qg_mapdef *def)
{
    qg_mapdef **slot = QG_PUSH(rt->maps, rt->map_count, rt->map_cap);
    if (!slot)
        return QG_ERR_NOMEM;
    *slot = def;
    return QG_OK;
}

/* ---- running chunks ------------------------------------------------------ */

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

/* True when the value on top is a hook function or a non-empty table of
 * them (pops it). */
static int is_hook(lua_State *L)
{
    int type = lua_type(L, -1), hook = type == LUA_TFUNCTION;
    if (type == LUA_TTABLE) {
        lua_pushnil(L);
        hook = lua_next(L, -2) != 0;
        if (hook)
            lua_pop(L, 2);
    }
    lua_pop(L, 1);
    return hook;
}

/* Whether the map's environment or the library's global hooks hold a hook
 * of that name: without one, running dgn_map_run_hook changes nothing. */
static int hooks_pending(qg_runtime *rt, lrt_map *map, const char *hook)
{
    lua_State *L = rt->L;
    char var[32];
    snprintf(var, sizeof var, "HOOK_%s", hook);
    lrt_push_env(L, rt, map);
    /* raw: the hook tables are made when first asked for */
    lua_pushstring(L, var);
    lua_rawget(L, -2);
    int pending = is_hook(L);
    lua_pop(L, 1);
    if (!pending && lua_getglobal(L, "dgn") == LUA_TTABLE &&
        lua_getfield(L, -1, "MAP_GLOBAL_HOOKS") == LUA_TTABLE) {
        lua_getfield(L, -1, var);
        pending = is_hook(L);
    }
    lua_settop(L, 0);
    return pending;
}

/* Runs a library hook (dgn_map_run_hook) when the library defines it. */
static qg_status run_hook(qg_runtime *rt, lrt_map *map, const char *hook, qg_diags *diags)
{
    lua_State *L = rt->L;
    if (!hooks_pending(rt, map, hook))
        return QG_OK;
    if (lua_getglobal(L, "dgn_map_run_hook") != LUA_TFUNCTION) {
        lua_pop(L, 1);
        return QG_OK;
    }
    lrt_budget_reset(rt);
    lua_pushstring(L, hook);
    if (lrt_pcall(L, 1, 0) == LUA_OK)
        return QG_OK;
    qg_diags_add(diags, QG_ERROR, map->file ? map->file : "", map->line, 0, NULL, 0,
                 "%s hook: %s (map %s)", hook, lua_tostring(L, -1), map->name);
    lua_settop(L, 0);
    return rt->budget_exhausted ? QG_ERR_LIMIT : QG_ERR_LUA;
}

static qg_status run_optional(qg_runtime *rt, lrt_map *map, const lrt_chunks *chunks,
                              qg_chunk_kind kind, int *result, qg_diags *diags)
{
    const qg_des_chunk *c = chunks->chunk[kind];
    if (!c || !c->len)
        return QG_OK;
    return lrt_run_chunk_direct(rt, map, c, kind, result, diags);
}

qg_status lrt_run_map(qg_runtime *rt, lrt_map *map, const lrt_chunks *chunks,
                      qg_diags *diags)
{
    qg_status st;
    rt->map = map;
    rt->map_runs++;
    if ((st = run_optional(rt, map, chunks, QG_CHUNK_PRELUDE, NULL, diags)) ||
        (st = run_optional(rt, map, chunks, QG_CHUNK_MAPCHUNK, NULL, diags)) ||
        (st = run_hook(rt, map, "pre_main", diags)) ||
        (st = run_optional(rt, map, chunks, QG_CHUNK_MAIN, NULL, diags)) ||
        (st = run_hook(rt, map, "post_main", diags)))
        return st;
    return QG_OK;
}

static int drop_env_body(lua_State *L)
{
    lua_settop(L, 0);
    lrt_drop_env(L);
    return 0;
}

void lrt_end_run(qg_runtime *rt)
{
    lrt_forget_env(rt);
    lrt_level_free(rt);
    lrt_run_maps_free(rt);
    if (lrt_protect(rt->L, drop_env_body, NULL) != LUA_OK)
        lua_settop(rt->L, 0);
    rt->map = NULL;
}

/* ---- compile-time run ---------------------------------------------------- */

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *lrt_sorted_tags(lrt_map *map)
{
    if (map->tags.count > 1)
        qsort(map->tags.items, map->tags.count, sizeof *map->tags.items, compare_strings);
    qg_buf b;
    qg_buf_init(&b);
    qg_buf_putc(&b, '\0');
    b.len = 0;
    for (size_t i = 0; i < map->tags.count; i++) {
        if (i)
            qg_buf_putc(&b, ' ');
        qg_buf_puts(&b, map->tags.items[i]);
    }
    return qg_buf_take(&b);
}

static char *joined(const lrt_strs *strs, const char *sep, long tail)
{
    qg_buf b;
    qg_buf_init(&b);
    qg_buf_putc(&b, '\0');
    b.len = 0;
    for (size_t i = 0; i < strs->count; i++) {
        if (i)
            qg_buf_puts(&b, sep);
        qg_buf_puts(&b, strs->items[i]);
    }
    char num[QG_DECIMAL_SIZE];
    if (tail >= 0) {
        if (strs->count)
            qg_buf_puts(&b, sep);
        qg_buf_puts(&b, qg_decimal(num, tail));
    }
    return qg_buf_take(&b);
}

/* Crawl's fixup(): no ORIENT makes a floating minivault. */
void lrt_fixup(lrt_map *map)
{
    if (map->orient && *map->orient)
        return;
    free(map->orient);
    map->orient = qg_strdup("float");
    int has = 0;
    for (size_t i = 0; i < map->tags.count; i++)
        has |= strcmp(map->tags.items[i], "minivault") == 0;
    if (!has)
        lrt_strs_add(&map->tags, "minivault", 9);
}

static qg_status store_index(qg_mapdef *def, lrt_map *map, const char *default_depth)
{
    char num[QG_DECIMAL_SIZE];
    char *tags = lrt_sorted_tags(map);
    char *depth = joined(&map->depths, ", ", -1);
    char *place = joined(&map->places, ", ", -1);
    char *chance = joined(&map->chance_ranges, ", ", map->chance);
    char *weight = joined(&map->weight_ranges, ", ",
                          map->weight >= 0 ? map->weight : 10);
    qg_status st = QG_ERR_NOMEM;
    if (tags && depth && place && chance && weight) {
        st = qg_props_set(&def->props, "tags", tags);
        if (!st)
            st = qg_props_set(&def->props, "depth", *depth || !default_depth ? depth : default_depth);
        if (!st)
            st = qg_props_set(&def->props, "place", place);
        if (!st)
            st = qg_props_set(&def->props, "orient", map->orient);
        if (!st)
            st = qg_props_set(&def->props, "chance", chance);
        if (!st)
            st = qg_props_set(&def->props, "weight", weight);
        if (!st)
            st = qg_props_set(&def->props, "order",
                              qg_decimal(num, map->has_order ? map->order : 0));
        if (!st)
            st = qg_props_set(&def->props, "desc", map->desc ? map->desc : "");
        if (!st)
            st = qg_props_set(&def->props, "width", qg_decimal(num, map->width));
        if (!st)
            st = qg_props_set(&def->props, "height", qg_decimal(num, map->height));
    }
    free(tags);
    free(depth);
    free(place);
    free(chance);
    free(weight);
    return st;
}

int lrt_has_tag(const char *tags, const char *tag)
{
    size_t n = strlen(tag);
    if (!n)
        return 0;
    for (const char *p = tags; p && (p = strstr(p, tag)) != NULL; p += n)
        if ((p == tags || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

int lrt_builds_the_level(const qg_mapdef *def)
{
    const char *orient = qg_mapdef_get_property(def, "orient");
    return orient && strcmp(orient, "encompass") == 0 &&
           lrt_has_tag(qg_mapdef_get_property(def, "tags"), "layout");
}

typedef struct compile_run {
    qg_runtime *rt;
    lrt_map *map;
    const lrt_chunks *chunks;
    qg_diags *diags;
    int collect_first;
    qg_status st;
} compile_run;

/* A full collection before a run that builds the level, unless the heap
 * holds at most half as much again as the last one left: the garbage such
 * a run starts with stays under half of what the runtime keeps live,
 * whatever ran before it, and a compile of Crawl 0.28 walks its whole
 * heap before 17 of its 75 layouts (-j1), not all of them, which cost
 * about 4% of its CPU for no lower peak (twice: 5 of 75, but 3 MiB more
 * at -j2). */
static void collect_before_level(lua_State *L, qg_runtime *rt)
{
    if (2 * rt->mem_used <= 3 * rt->mem_collected)
        return;
    lua_gc(L, LUA_GCCOLLECT);
    rt->mem_collected = rt->mem_used;
}

/* The chunks of the compile-time run, in Crawl's order; protected. */
static int compile_body(lua_State *L)
{
    compile_run *c = lua_touserdata(L, 1);
    lua_settop(L, 0);
    if (c->collect_first)
        collect_before_level(L, c->rt);
    c->st = lrt_run_map(c->rt, c->map, c->chunks, c->diags);
    if (!c->st)
        c->st = run_optional(c->rt, c->map, c->chunks, QG_CHUNK_VALIDATE, NULL, c->diags);
    if (!c->st)
        c->st = run_optional(c->rt, c->map, c->chunks, QG_CHUNK_EPILOGUE, NULL, c->diags);
    return 0;
}

qg_status lrt_compile_chunks(qg_runtime *rt, qg_mapdef *def, const lrt_chunks *chunks,
                             const char *default_depth, qg_diags *diags)
{
    lrt_map *map = lrt_map_new(qg_mapdef_name(def), qg_mapdef_file(def),
                               qg_mapdef_line(def));
    if (!map)
        return QG_ERR_NOMEM;
    map->validating = 1;
    lrt_compile_operation_start(rt, qg_mapdef_file(def));
    rt->context = NULL;
    rt->place = NULL;
    qg_rng_seed(&rt->rng, 0, 0);
    compile_run c = {rt, map, chunks, diags, lrt_builds_the_level(def), QG_OK};
    int status = lrt_protect(rt->L, compile_body, &c);
    qg_status st = status == LUA_OK
                       ? c.st : lrt_report_lua_error(rt, map, "running the map", status, diags);
    lrt_end_run(rt);
    if (!st) {
        lrt_fixup(map);
        st = store_index(def, map, default_depth);
    }
    lrt_map_free(map);
    return st;
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

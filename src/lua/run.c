/* The run of a map's chunks (chunk.c runs each, direct.c its plain
 * directive calls) and hooks in Crawl's order, the end of a run, and the
 * compile-time run that gives a map its index fields. */
#include "lua/run.h"
#include "lua/level.h"
#include "core/mapdef.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- running chunks ------------------------------------------------------ */

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

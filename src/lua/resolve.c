/* Seeded resolution, as Crawl's _write_vault does it: up to 25 tries of
 * veto, the map's Lua with fresh randomness, and validate; then the
 * epilogue and the level. */
#include "lua/run.h"
#include "lua/level.h"

#include <string.h>

static void set_context(qg_runtime *rt, const qg_context *context)
{
    rt->context = context;
    rt->place = context && context->place ? context->place : "D:1";
}

/* One try: 1 when the map validated (or has no validate chunk), 0 when it
 * must be tried again; vetoed set when the veto chunk refused the map. */
static qg_status try_once(qg_runtime *rt, lrt_map *map, const lrt_chunks *chunks,
                          int *valid, int *vetoed, qg_diags *diags)
{
    qg_status st;
    *valid = 1;
    *vetoed = 0;
    rt->map = map;
    if (chunks->chunk[QG_CHUNK_VETO] && chunks->chunk[QG_CHUNK_VETO]->len) {
        st = lrt_run_chunk(rt, map, chunks->chunk[QG_CHUNK_VETO], QG_CHUNK_VETO,
                           vetoed, diags);
        if (st || *vetoed)
            return st;
    }
    if ((st = lrt_run_map(rt, map, chunks, diags)))
        return st;
    if (chunks->chunk[QG_CHUNK_VALIDATE] && chunks->chunk[QG_CHUNK_VALIDATE]->len)
        st = lrt_run_chunk(rt, map, chunks->chunk[QG_CHUNK_VALIDATE],
                           QG_CHUNK_VALIDATE, valid, diags);
    return st;
}

static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; p && (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

/* A layout that builds the whole level, by its compiled index. */
static int builds_the_level(const qg_mapdef *def)
{
    const char *orient = qg_mapdef_get_property(def, "orient");
    return orient && strcmp(orient, "encompass") == 0 &&
           has_word(qg_mapdef_get_property(def, "tags"), "layout");
}

typedef struct one_try {
    qg_runtime *rt;
    lrt_map *map;
    const lrt_chunks *chunks;
    qg_diags *diags;
    int valid, vetoed;
    qg_status st;
} one_try;

/* One try and, when it validated, the epilogue; protected. A map without
 * a grid that built the level around it resolves to that level. */
static int attempt_body(lua_State *L)
{
    one_try *a = lua_touserdata(L, 1);
    lua_settop(L, 0);
    a->st = try_once(a->rt, a->map, a->chunks, &a->valid, &a->vetoed, a->diags);
    const qg_des_chunk *epilogue = a->chunks->chunk[QG_CHUNK_EPILOGUE];
    if (!a->st && a->valid && !a->vetoed && epilogue && epilogue->len)
        a->st = lrt_run_chunk(a->rt, a->map, epilogue, QG_CHUNK_EPILOGUE, NULL, a->diags);
    if (!a->st && a->valid && !a->vetoed && !lrt_level_into_map(a->rt, a->map))
        a->st = QG_ERR_NOMEM;
    return 0;
}

qg_status lrt_resolve_chunks(qg_runtime *rt, const qg_mapdef *def,
                             const lrt_chunks *chunks, unsigned long long seed,
                             const qg_context *context, qg_level **out,
                             qg_diags *diags)
{
    *out = NULL;
    if (builds_the_level(def))
        lrt_level_operation_start(rt);
    else
        lrt_operation_start(rt);
    set_context(rt, context);
    qg_rng_seed(&rt->rng, seed, 0);
    for (int attempt = 0; attempt < LRT_RESOLVE_TRIES; attempt++) {
        lrt_map *map = lrt_map_new(qg_mapdef_name(def), qg_mapdef_file(def),
                                   qg_mapdef_line(def));
        if (!map)
            return QG_ERR_NOMEM;
        lrt_map_from_def(map, def);
        one_try a = {rt, map, chunks, diags, 1, 0, QG_OK};
        int status = lrt_protect(rt->L, attempt_body, &a);
        qg_status st = status == LUA_OK
                           ? a.st : lrt_report_lua_error(rt, map, "resolving the map", status,
                                                         diags);
        int valid = a.valid, vetoed = a.vetoed;
        lrt_end_run(rt);
        if (!st && vetoed)
            qg_diags_add(diags, QG_ERROR, map->file ? map->file : "", map->line, 0,
                         NULL, 0, "map %s was vetoed by its veto chunk", map->name);
        if (!st && !vetoed && valid) {
            lrt_fixup(map);
            if (map->width < 1 || map->height < 1) {
                qg_diags_add(diags, QG_ERROR, map->file ? map->file : "", map->line, 0,
                             NULL, 0, "map %s has no grid to resolve", map->name);
                st = QG_ERR_INVALID;
            } else {
                st = lrt_build_level(rt, map, out);
            }
        }
        lrt_map_free(map);
        if (st || vetoed)
            return st ? st : QG_ERR_INVALID;
        if (*out)
            return QG_OK;
    }
    qg_diags_add(diags, QG_ERROR, qg_mapdef_file(def) ? qg_mapdef_file(def) : "",
                 qg_mapdef_line(def), 0, NULL, 0,
                 "map %s failed its validate chunk %d times", qg_mapdef_name(def),
                 LRT_RESOLVE_TRIES);
    return QG_ERR_LIMIT;
}

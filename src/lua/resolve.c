/* Seeded resolution, as Crawl's _write_vault does it: up to 25 tries of
 * veto, the map's Lua with fresh randomness, and validate; then the
 * epilogue and the level. */
#include "lua/run.h"
#include "lua/level.h"

#include "core/buf.h"

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
    if (!rt->ignore_veto && chunks->chunk[QG_CHUNK_VETO] && chunks->chunk[QG_CHUNK_VETO]->len) {
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

typedef struct one_try {
    qg_runtime *rt;
    lrt_map *map;
    const lrt_chunks *chunks;
    qg_diags *diags;
    int valid, vetoed;
    int collect_first;  /* a full collection before the run */
    qg_status st;
} one_try;

/* One try and, when it validated, the epilogue; protected. A map without
 * a grid that built the level around it resolves to that level. */
static int attempt_body(lua_State *L)
{
    one_try *a = lua_touserdata(L, 1);
    lua_settop(L, 0);
    if (a->collect_first)
        lua_gc(L, LUA_GCCOLLECT);
    a->st = try_once(a->rt, a->map, a->chunks, &a->valid, &a->vetoed, a->diags);
    const qg_des_chunk *epilogue = a->chunks->chunk[QG_CHUNK_EPILOGUE];
    if (!a->st && a->valid && !a->vetoed && epilogue && epilogue->len)
        a->st = lrt_run_chunk(a->rt, a->map, epilogue, QG_CHUNK_EPILOGUE, NULL, a->diags);
    if (!a->st && a->valid && !a->vetoed && !lrt_level_into_map(a->rt, a->map))
        a->st = QG_ERR_NOMEM;
    return 0;
}

static const char *file_of(const lrt_map *map)
{
    return map->file ? map->file : "";
}

/* The veto chunk refused the map: said at the chunk. */
static void report_veto(const lrt_map *map, const lrt_chunks *chunks, qg_diags *diags)
{
    const qg_des_chunk *veto = chunks->chunk[QG_CHUNK_VETO];
    qg_diags_add(diags, QG_ERROR, veto && veto->file ? veto->file : file_of(map),
                 veto && veto->first_line ? veto->first_line : map->line, 0, NULL, 0,
                 "map %s was vetoed by its veto chunk", map->name);
}

/* A map that ran without drawing a grid, and why that is so when the map
 * says: a dummy, one whose post_place hook does its work on the game's
 * level, one that takes its shape from the SUBVAULT placing it. */
static void report_no_grid(qg_runtime *rt, const lrt_map *map, qg_diags *diags)
{
    int dummy = 0;
    for (size_t i = 0; i < map->tags.count; i++)
        dummy |= strcmp(map->tags.items[i], "dummy") == 0;
    rt->no_level = dummy ? LRT_NO_GRID_DUMMY
                  : map->post_place ? LRT_NO_GRID_POST_PLACE
                  : map->asked_mask ? LRT_NO_GRID_SHAPE
                  : LRT_NO_GRID_OTHER;
    const char *why =
        dummy ? ": it is a dummy (TAGS: dummy), which Crawl picks to place nothing"
        : map->post_place ? ": its post_place hook places other maps on the game's level "
                            "once the map is placed there, which a map resolved alone never is"
        : map->asked_mask ? ": it takes its shape from the SUBVAULT that places it "
                            "(default_subvault_glyphs, subvault_size); resolve a map that "
                            "uses it"
        : "";
    qg_diags_add(diags, QG_ERROR, file_of(map), map->line, 0, NULL, 0,
                 "map %s has no grid to resolve%s", map->name, why);
}

/* After a failure: the questions about the game so far the map asked,
 * answered as for a fresh game, and how to answer them otherwise. */
static void report_asked(const qg_runtime *rt, const qg_mapdef *def, qg_diags *diags)
{
    if (!rt->asked_count)
        return;
    qg_buf names;
    qg_buf_init(&names);
    for (size_t i = 0; i < rt->asked_count; i++)
        qg_buf_printf(&names, "%s%s", i ? ", " : "", rt->asked[i]);
    qg_diags_add(diags, QG_NOTE, qg_mapdef_file(def) ? qg_mapdef_file(def) : "",
                 qg_mapdef_line(def), 0, NULL, 0,
                 "map %s asked about the game so far: %s; answered as for a fresh game "
                 "(--var NAME=VALUE, or the context's variables, answer otherwise)",
                 qg_mapdef_name(def), names.data ? names.data : "");
    qg_buf_free(&names);
}

static qg_status resolve_tries(qg_runtime *rt, const qg_mapdef *def, const lrt_chunks *chunks,
                               qg_level **out, qg_diags *diags);

qg_status lrt_resolve_chunks(qg_runtime *rt, const qg_mapdef *def,
                             const lrt_chunks *chunks, unsigned long long seed,
                             const qg_context *context, qg_level **out,
                             qg_diags *diags)
{
    *out = NULL;
    if (lrt_builds_the_level(def))
        lrt_level_operation_start(rt);
    else
        lrt_operation_start(rt);
    set_context(rt, context);
    qg_rng_seed(&rt->rng, seed, 0);
    rt->asked_count = 0;
    rt->no_level = 0;
    rt->unprovided = 0;
    rt->resolving[0] = def;
    rt->resolving_count = 1;
    qg_status st = resolve_tries(rt, def, chunks, out, diags);
    rt->resolving_count = 0;
    if (st)
        report_asked(rt, def, diags);
    return st;
}

/* Up to LRT_RESOLVE_TRIES runs until one validates. */
static qg_status resolve_tries(qg_runtime *rt, const qg_mapdef *def, const lrt_chunks *chunks,
                               qg_level **out, qg_diags *diags)
{
    for (int attempt = 0; attempt < LRT_RESOLVE_TRIES; attempt++) {
        lrt_map *map = lrt_map_new(qg_mapdef_name(def), qg_mapdef_file(def),
                                   qg_mapdef_line(def));
        if (!map)
            return QG_ERR_NOMEM;
        lrt_map_from_def(map, def);
        one_try a = {rt, map, chunks, diags, 1, 0,
                     attempt == 0 && lrt_builds_the_level(def), QG_OK};
        int status = lrt_protect(rt->L, attempt_body, &a);
        qg_status st = status == LUA_OK
                           ? a.st : lrt_report_lua_error(rt, map, "resolving the map", status,
                                                         diags);
        int valid = a.valid, vetoed = a.vetoed;
        lrt_end_run(rt);
        if (!st && vetoed) {
            report_veto(map, chunks, diags);
            rt->no_level = LRT_VETOED;
        }
        if (!st && !vetoed && valid) {
            lrt_fixup(map);
            if (map->width < 1 || map->height < 1) {
                report_no_grid(rt, map, diags);
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

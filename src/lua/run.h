/* Running a map's chunks: the compile-time run and the seeded resolution,
 * over chunks given directly (the public API gathers them from the .des
 * front end with qg_des_map_chunk). */
#ifndef QG_LUA_RUN_H
#define QG_LUA_RUN_H

#include "lua/rt.h"

typedef struct lrt_chunks {
    const qg_des_chunk *chunk[QG_CHUNK_KINDS]; /* NULL when absent */
} lrt_chunks;

qg_status lrt_add_map(qg_runtime *rt, qg_mapdef *def);
qg_status lrt_run_global_prelude(qg_runtime *rt, const qg_des_chunk *chunk,
                                 qg_diags *diags);
/* Runs one chunk in the map's environment; *result (when not NULL) gets
 * the truth of its first return value. */
qg_status lrt_run_chunk(qg_runtime *rt, lrt_map *map, const qg_des_chunk *chunk,
                        qg_chunk_kind kind, int *result, qg_diags *diags);
/* The same, with the plain directive calls at the head of the chunk
 * called directly instead of compiled (direct.c). */
qg_status lrt_run_chunk_direct(qg_runtime *rt, lrt_map *map, const qg_des_chunk *chunk,
                               qg_chunk_kind kind, int *result, qg_diags *diags);
/* prelude, mapchunk, pre_main hooks, main, post_main hooks. */
qg_status lrt_run_map(qg_runtime *rt, lrt_map *map, const lrt_chunks *chunks,
                      qg_diags *diags);
void lrt_end_run(qg_runtime *rt);
void lrt_fixup(lrt_map *map);
/* A layout that builds the whole level (ORIENT: encompass, tagged
 * layout), by its index or, before its compile, its directives. Such a
 * run is a level's worth of Lua: it starts from a collected heap (at
 * compile time, once the heap has grown by half since the last one), so
 * that what it needs at its peak is its own, not the garbage of the maps
 * run before it (which made a long compile's memory grow with the number
 * of maps). */
int lrt_builds_the_level(const qg_mapdef *def);
/* Whether tag is one of the space-separated words of tags (NULL: none);
 * an empty tag is in no list. */
int lrt_has_tag(const char *tags, const char *tag);
char *lrt_sorted_tags(lrt_map *map);

/* The compile-time run; default_depth (or NULL) applies when the map's Lua
 * set no DEPTH. */
qg_status lrt_compile_chunks(qg_runtime *rt, qg_mapdef *def, const lrt_chunks *chunks,
                             const char *default_depth, qg_diags *diags);
qg_status lrt_resolve_chunks(qg_runtime *rt, const qg_mapdef *def,
                             const lrt_chunks *chunks, unsigned long long seed,
                             const qg_context *context, qg_level **out,
                             qg_diags *diags);

/* map_def.c: the chunks of a .des map definition. */
void lrt_chunks_of(const qg_mapdef *def, lrt_chunks *chunks);
/* Ties a map being resolved to its definition: the seed-era glyph
 * meanings and the MARKER texts its Lua markers came from. */
void lrt_map_from_def(lrt_map *map, const qg_mapdef *def);

/* subvault.c: a SUBVAULT spec merged into the grid of the map being
 * resolved as Crawl's apply_subvault does, when the directive runs (a
 * SUBST after it no longer sees its key glyphs); raises a Lua error when
 * no map could be placed. */
void lrt_apply_subvault(lua_State *L, lrt_map *map, const char *spec);
/* A map with the tag that may be used at the place (weighted by WEIGHT),
 * or NULL: Crawl's random_map_for_tag. */
const qg_mapdef *lrt_pick_map(qg_runtime *rt, const char *tag);
/* A map resolved inside the run of parent (or of no map), starting with
 * tags besides its own, with up to LRT_RESOLVE_TRIES tries to validate;
 * NULL when it never did (the reasons in diags). */
lrt_map *lrt_resolve_nested(qg_runtime *rt, const qg_mapdef *def, const lrt_map *parent,
                            const lrt_strs *tags, qg_diags *diags);

/* build_level.c: the resolved map as a level. */
qg_status lrt_build_level(qg_runtime *rt, lrt_map *map, qg_level **out);

#endif

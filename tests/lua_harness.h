/* Test-only helper: a map definition with Lua chunks given directly (as
 * the .des front end would lower them), for exercising the runtime. */
#ifndef QG_TESTS_LUA_HARNESS_H
#define QG_TESTS_LUA_HARNESS_H

#include "lua/run.h"

typedef struct th_map {
    qg_mapdef *def;
    qg_des_chunk chunk[QG_CHUNK_KINDS];
    lrt_chunks chunks;
} th_map;

/* A map named name in "test.des" with the given mapchunk and main code
 * (either may be NULL). */
th_map *th_map_new(const char *name, const char *mapchunk, const char *main);
void th_map_set(th_map *m, qg_chunk_kind kind, const char *code, int first_line);
void th_map_free(th_map *m);
qg_status th_compile(qg_runtime *rt, th_map *m, qg_diags *diags);
qg_status th_resolve(qg_runtime *rt, th_map *m, unsigned long long seed,
                     const char *place, qg_level **out, qg_diags *diags);
/* The level's glyph rows joined with '\n' (static buffer). */
const char *th_glyphs(const qg_level *level);

#endif

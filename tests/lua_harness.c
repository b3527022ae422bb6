#include "lua_harness.h"
#include "core/mapdef.h"

#include <stdlib.h>
#include <string.h>

th_map *th_map_new(const char *name, const char *mapchunk, const char *main)
{
    th_map *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->def = qg_mapdef_new(QG_FORMAT_DES, name);
    if (!m->def) {
        free(m);
        return NULL;
    }
    qg_mapdef_set_file(m->def, "test.des", 1);
    if (mapchunk)
        th_map_set(m, QG_CHUNK_MAPCHUNK, mapchunk, 1);
    if (main)
        th_map_set(m, QG_CHUNK_MAIN, main, 1);
    return m;
}

void th_map_set(th_map *m, qg_chunk_kind kind, const char *code, int first_line)
{
    m->chunk[kind].code = code;
    m->chunk[kind].len = strlen(code);
    m->chunk[kind].first_line = first_line;
    m->chunk[kind].file = "test.des";
    m->chunks.chunk[kind] = &m->chunk[kind];
}

void th_map_free(th_map *m)
{
    if (!m)
        return;
    qg_mapdef_free(m->def);
    free(m);
}

qg_status th_compile(qg_runtime *rt, th_map *m, qg_diags *diags)
{
    return lrt_compile_chunks(rt, m->def, &m->chunks, NULL, diags);
}

qg_status th_resolve(qg_runtime *rt, th_map *m, unsigned long long seed,
                     const char *place, qg_level **out, qg_diags *diags)
{
    qg_context ctx = {place, 0, NULL};
    return lrt_resolve_chunks(rt, m->def, &m->chunks, seed, &ctx, out, diags);
}

const char *th_glyphs(const qg_level *level)
{
    static char buf[80 * 71 + 1];
    int w = qg_level_width(level), h = qg_level_height(level);
    const unsigned char *g = qg_level_glyphs(level);
    size_t n = 0;
    for (int y = 0; y < h; y++) {
        if (y)
            buf[n++] = '\n';
        for (int x = 0; x < w; x++)
            buf[n++] = g[(size_t)y * w + x] ? (char)g[(size_t)y * w + x] : ' ';
    }
    buf[n] = '\0';
    return buf;
}

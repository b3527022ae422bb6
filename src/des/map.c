#include "des/map.h"

#include <stdlib.h>
#include <string.h>

des_map *des_map_new(int legacy)
{
    des_map *map = calloc(1, sizeof *map);
    if (!map)
        return NULL;
    qg_arena_init(&map->arena);
    map->legacy = legacy;
    return map;
}

void des_map_free(void *payload)
{
    des_map *map = payload;
    if (!map)
        return;
    qg_arena_free(&map->arena);
    free(map->dirs);
    free(map);
}

des_map *des_map_of(const qg_mapdef *def)
{
    if (!def || def->format != QG_FORMAT_DES || def->payload_free != des_map_free)
        return NULL;
    return def->payload;
}

int des_map_finish(des_map *map, des_chunk *work, const char *file)
{
    int ok = 1;
    for (int k = 0; k < QG_CHUNK_KINDS; k++) {
        qg_des_chunk *c = &map->chunks[k];
        const qg_buf *code = &work[k].code;
        c->code = code->len ? qg_arena_strndup(&map->arena, code->data, code->len) : "";
        c->len = c->code && !code->failed ? code->len : 0;
        c->first_line = work[k].first;
        c->file = file;
        if (!c->code || code->failed) {
            c->code = "";
            ok = 0;
        }
        qg_buf_reset(&work[k].code);
        work[k].code.failed = 0;
        work[k].first = work[k].last = -1;
    }
    return ok;
}

const char *qg_chunk_kind_name(qg_chunk_kind kind)
{
    static const char *const names[QG_CHUNK_KINDS] = {
        "prelude", "mapchunk", "main", "validate", "veto", "epilogue",
    };
    return (unsigned)kind < QG_CHUNK_KINDS ? names[kind] : "?";
}

const qg_des_chunk *qg_des_map_chunk(const qg_mapdef *def, qg_chunk_kind kind)
{
    des_map *map = des_map_of(def);
    if (!map || (unsigned)kind >= QG_CHUNK_KINDS || map->chunks[kind].len == 0)
        return NULL;
    return &map->chunks[kind];
}

int qg_des_map_has_lua(const qg_mapdef *def)
{
    des_map *map = des_map_of(def);
    return map && map->has_lua;
}

int qg_des_map_is_legacy(const qg_mapdef *def)
{
    des_map *map = des_map_of(def);
    return map && map->legacy;
}

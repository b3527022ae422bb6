#include "des/map.h"

#include <stdlib.h>
#include <string.h>

des_map *des_map_new(int legacy)
{
    des_map *map = calloc(1, sizeof *map);
    if (!map)
        return NULL;
    for (int k = 0; k < QG_CHUNK_KINDS; k++)
        des_chunk_init(&map->chunks[k]);
    des_arena_init(&map->arena);
    map->legacy = legacy;
    return map;
}

void des_map_free(void *payload)
{
    des_map *map = payload;
    if (!map)
        return;
    for (int k = 0; k < QG_CHUNK_KINDS; k++)
        des_chunk_free(&map->chunks[k]);
    des_arena_free(&map->arena);
    free(map->dirs);
    free(map);
}

des_map *des_map_of(const qg_mapdef *def)
{
    if (!def || def->format != QG_FORMAT_DES || def->payload_free != des_map_free)
        return NULL;
    return def->payload;
}

int des_map_finish(des_map *map, const char *file)
{
    for (int k = 0; k < QG_CHUNK_KINDS; k++) {
        des_chunk *c = &map->chunks[k];
        if (c->code.failed || !qg_buf_reserve(&c->code, 1))
            return 0;
        map->views[k].code = c->code.data;
        map->views[k].len = c->code.len;
        map->views[k].first_line = c->first;
        map->views[k].file = file;
    }
    return 1;
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
    if (!map || (unsigned)kind >= QG_CHUNK_KINDS || map->views[kind].len == 0)
        return NULL;
    return &map->views[kind];
}

int qg_des_map_has_lua(const qg_mapdef *def)
{
    des_map *map = des_map_of(def);
    return map && map->has_lua;
}

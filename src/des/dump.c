/* Crawl's -dump-maps format (maps.cc dump_map, map_def::describe,
 * dlua_chunk::describe). */
#include "des/map.h"

#include <string.h>

static void dump_chunk(const qg_des_chunk *chunk, const char *name, FILE *out)
{
    if (chunk->len == 0)
        return;
    fprintf(out, "function %s()\n", name);
    fwrite(chunk->code, 1, chunk->len, out);
    fputs("\nend\n", out);
}

qg_status qg_des_dump_map(const qg_mapdef *def, FILE *out)
{
    const des_map *map = des_map_of(def);
    if (!map)
        return QG_ERR_INVALID;
    fputs("\n----------------------------------------\nMap: ", out);
    fputs(def->name, out);
    fputc('\n', out);
    for (int k = 0; k < QG_CHUNK_KINDS; k++)
        dump_chunk(&map->chunks[k], qg_chunk_kind_name((qg_chunk_kind)k), out);
    fputc('\n', out);
    return ferror(out) ? QG_ERR_IO : QG_OK;
}

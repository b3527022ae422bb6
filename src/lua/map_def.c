/* A .des map definition as a run of the runtime sees it: its chunks from
 * the front end's lowering and the glyph meanings of its era. */
#include "lua/run.h"
#include "des/map.h"

void lrt_chunks_of(const qg_mapdef *def, lrt_chunks *chunks)
{
    for (int k = 0; k < QG_CHUNK_KINDS; k++)
        chunks->chunk[k] = qg_des_map_chunk(def, (qg_chunk_kind)k);
}

void lrt_map_from_def(lrt_map *map, const qg_mapdef *def)
{
    const des_map *des = des_map_of(def);
    map->def = def;
    map->legacy = des && des->legacy;
}

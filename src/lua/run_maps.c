/* The maps a run resolves for its level builders (level_maps.c keeps them,
 * lrt_level_into_map takes those placed on the level): released or freed
 * at the run's end. */
#include "lua/level.h"

#include <stdlib.h>

void lrt_run_maps_release(qg_runtime *rt, const lrt_map *map)
{
    for (size_t i = 0; i < rt->run_map_count; i++)
        if (rt->run_maps[i].map == map) {
            lrt_map_ref_forget(rt->run_maps[i].ref);
            rt->run_maps[i].map = NULL;
        }
}

void lrt_run_maps_free(qg_runtime *rt)
{
    for (size_t i = 0; i < rt->run_map_count; i++) {
        lrt_map_ref_forget(rt->run_maps[i].ref);
        lrt_map_free(rt->run_maps[i].map);
    }
    free(rt->run_maps);
    rt->run_maps = NULL;
    rt->run_map_count = rt->run_map_cap = 0;
    free(rt->builder_error);
    rt->builder_error = NULL;
    if (rt->L) {
        lua_pushnil(rt->L);
        lua_setfield(rt->L, LUA_REGISTRYINDEX, RUN_MAPS_KEY);
    }
}

/* The maps a runtime holds (added with their files, qg_runtime_add_file):
 * counted, listed and found by name. */
#include "lua/run.h"
#include "core/mapdef.h"

#include <string.h>

size_t qg_runtime_map_count(const qg_runtime *rt)
{
    return rt->map_count;
}

qg_mapdef *qg_runtime_map(const qg_runtime *rt, size_t index)
{
    return index < rt->map_count ? rt->maps[index] : NULL;
}

qg_mapdef *qg_runtime_find_map(const qg_runtime *rt, const char *name)
{
    for (size_t i = 0; i < rt->map_count; i++)
        if (strcmp(qg_mapdef_name(rt->maps[i]), name) == 0)
            return rt->maps[i];
    return NULL;
}

qg_status lrt_add_map(qg_runtime *rt, qg_mapdef *def)
{
    qg_mapdef **slot = QG_PUSH(rt->maps, rt->map_count, rt->map_cap);
    if (!slot)
        return QG_ERR_NOMEM;
    *slot = def;
    return QG_OK;
}

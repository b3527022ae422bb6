/* The public runtime API over .des maps: chunks come from the front end's
 * lowering (qg_des_map_chunk), global preludes run as files are added. */
#include "lua/run.h"
#include "des/map.h"
#include "des/scan.h"

#include <stdlib.h>

int qg_runtime_lacks_library(const qg_runtime *rt)
{
    return rt->unprovided;
}

size_t qg_runtime_map_runs(const qg_runtime *rt)
{
    return rt->map_runs;
}

qg_status qg_runtime_run_prelude(qg_runtime *rt, const qg_des_file *file, qg_diags *diags)
{
    const qg_des_chunk *prelude = qg_des_global_prelude(file);
    lrt_file_begin(rt);
    rt->unprovided = 0;
    qg_status st = prelude ? lrt_run_global_prelude(rt, prelude, diags) : QG_OK;
    return st != QG_OK && st != QG_ERR_NOMEM && rt->unprovided ? QG_ERR_NOTFOUND : st;
}

qg_status qg_runtime_run_text_prelude(qg_runtime *rt, const char *path, const char *text,
                                     size_t len, qg_diags *diags)
{
    qg_des_names *names = qg_des_names_new();
    qg_des_file *file = NULL;
    qg_status st = names ? des_skim(path, text, len, names, &file) : QG_ERR_NOMEM;
    if (st == QG_OK && file)
        st = qg_runtime_run_prelude(rt, file, diags);
    qg_des_file_free(file);
    qg_des_names_free(names);
    return st;
}

qg_status qg_runtime_add_file(qg_runtime *rt, qg_des_file *file, qg_diags *diags)
{
    qg_status st = qg_runtime_run_prelude(rt, file, diags);
    while (qg_des_map_count(file) > 0) {
        qg_mapdef *def = qg_des_take_map(file, 0);
        if (!def || lrt_add_map(rt, def) != QG_OK) {
            qg_mapdef_free(def);
            st = QG_ERR_NOMEM;
            break;
        }
    }
    qg_des_file_free(file);
    return st;
}

qg_status qg_runtime_compile_map(qg_runtime *rt, qg_mapdef *def, qg_diags *diags)
{
    if (qg_mapdef_format(def) != QG_FORMAT_DES)
        return QG_ERR_INVALID;
    lrt_chunks chunks;
    lrt_chunks_of(def, &chunks);
    rt->unprovided = 0;
    /* the front end set "depth" from default-depth when DEPTH was absent */
    const char *fallback = qg_mapdef_get_property(def, "depth");
    char *default_depth = fallback ? qg_strdup(fallback) : NULL;
    qg_status st = lrt_compile_chunks(rt, def, &chunks, default_depth, diags);
    free(default_depth);
    return st;
}

qg_status qg_runtime_resolve(qg_runtime *rt, const qg_mapdef *def,
                             unsigned long long seed, const qg_context *context,
                             qg_level **out, qg_diags *diags)
{
    *out = NULL;
    if (qg_mapdef_format(def) != QG_FORMAT_DES)
        return QG_ERR_INVALID;
    if (context && context->place &&
        qg_branches_check_place(rt->branches, context->place, diags) != QG_OK)
        return QG_ERR_INVALID;
    lrt_chunks chunks;
    lrt_chunks_of(def, &chunks);
    return lrt_resolve_chunks(rt, def, &chunks, seed, context, out, diags);
}

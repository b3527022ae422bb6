/* Loading a level in one call: a file directly, or a quest by number
 * through a q_info.txt-style hub. */
#include "fd/fd_internal.h"

qg_status qg_fd_load_file(const char *path, const qg_fd_options *options,
                          const qg_vars *vars, qg_level **out, qg_diags *diags)
{
    qg_mapdef *def;
    *out = NULL;
    qg_status st = qg_fd_read(path, options, &def, diags);
    if (!def)
        return st;
    qg_status resolved = qg_fd_resolve(def, options, vars, out, diags);
    qg_mapdef_free(def);
    return st != QG_OK ? st : resolved;
}

qg_status qg_fd_load_quest(const char *hub_path, int number,
                           const qg_fd_options *options, const qg_vars *vars,
                           qg_level **out, qg_diags *diags)
{
    *out = NULL;
    if (number < 0)
        return QG_ERR_INVALID;
    qg_vars *own = fd_vars_with(vars, "QUEST_NUMBER", number);
    if (!own)
        return QG_ERR_NOMEM;
    qg_status st = qg_fd_load_file(hub_path, options, own, out, diags);
    qg_vars_free(own);
    return st;
}

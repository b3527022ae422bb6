/* The variables one load runs with: the caller's, with one more set (the
 * hub's $QUEST_NUMBER, a quest state's $QUESTn), so that a hub, a random
 * quest and each quest state resolve from the same starting point. */
#include "fd/fd_internal.h"

qg_vars *fd_vars_with(const qg_vars *vars, const char *name, long value)
{
    qg_vars *copy = qg_vars_new();
    for (size_t i = 0; copy && i < qg_vars_count(vars); i++) {
        const char *at = qg_vars_name_at(vars, i);
        if (qg_vars_set(copy, at, qg_vars_get(vars, at)) != QG_OK) {
            qg_vars_free(copy);
            return NULL;
        }
    }
    if (copy && qg_vars_set_int(copy, name, value) != QG_OK) {
        qg_vars_free(copy);
        return NULL;
    }
    return copy;
}

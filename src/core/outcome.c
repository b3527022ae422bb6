/* What became of one map of a batch: see outcome.h. */
#include "core/outcome.h"

#include <string.h>

qg_outcome qg_outcome_of(int has_level, const qg_diags *run, const char *what)
{
    if (has_level)
        return QG_OUTCOME_RESOLVED;
    int errors = run && qg_diags_count_severity(run, QG_ERROR) > 0;
    return what && !errors ? QG_OUTCOME_DESCRIBED : QG_OUTCOME_FAILED;
}

const char *qg_outcome_why(const qg_diags *run, const char *fallback, size_t *len)
{
    const char *message = fallback;
    for (size_t i = 0; run && i < qg_diags_count(run); i++)
        if (qg_diags_get(run, i)->severity == QG_ERROR) {
            message = qg_diags_get(run, i)->message;
            break;
        }
    *len = strcspn(message, "\n");
    return message;
}

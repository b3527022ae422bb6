/* Diagnostics made apart (on another thread) and taken in later, in the
 * order a run that made them one after another would have. */
#ifndef QG_CORE_DIAG_H
#define QG_CORE_DIAG_H

#include "questgrid/core.h"

/* A list that keeps what model would keep (its severity filter and error
 * limit), without its sink. NULL when out of memory. */
qg_diags *qg_diags_new_like(const qg_diags *model);
/* Adds every diagnostic from holds to to, through to's filter and sink,
 * and counts those from dropped as to would have. */
void qg_diags_take(qg_diags *to, const qg_diags *from);
/* As qg_diags_take, but those of severity left_out (a qg_severity, or -1
 * for none) are left out altogether, neither added nor counted. */
void qg_diags_take_without(qg_diags *to, const qg_diags *from, int left_out);

#endif

/* The one rule of every command over many maps (render, show, check,
 * compile --keep-going): per map, never per run. A map gives a level
 * (resolved), or no level by design and no error (described: said what
 * it is), or it failed, and then what the command writes in its place (a
 * card, a line, a skipped entry of a cache) says why in one line: the
 * first line of its first error. The rest of the maps go on; the exit
 * status says whether any failed. */
#ifndef QG_CORE_OUTCOME_H
#define QG_CORE_OUTCOME_H

#include "questgrid/core.h"

typedef enum qg_outcome { QG_OUTCOME_RESOLVED, QG_OUTCOME_DESCRIBED, QG_OUTCOME_FAILED } qg_outcome;

/* What became of a map from its run: has_level, else described when run
 * holds no error and what (what the map is) is given. */
qg_outcome qg_outcome_of(int has_level, const qg_diags *run, const char *what);

/* Why a map failed: the first line of run's first error (else fallback),
 * its length in *len. */
const char *qg_outcome_why(const qg_diags *run, const char *fallback, size_t *len);

#endif

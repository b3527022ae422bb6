/* A map a compile with keep_going leaves out: still an entry of the cache,
 * of kind QG_KIND_SKIPPED, whose "skipped" property says why as every
 * batch does (core/outcome.h), so that what reads the cache can name it
 * and the reason; qg_cache_next passes over it. */
#include "cache/compile.h"
#include "core/mapdef.h"
#include "core/outcome.h"

#include <stdio.h>

qg_status qgc_mark_skipped(qg_mapdef *def, const qg_diags *why)
{
    size_t len;
    const char *message = qg_outcome_why(why, "it did not compile", &len);
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)len, message);
    qg_mapdef_set_kind(def, QG_KIND_SKIPPED);
    return qg_mapdef_add_property(def, "skipped", line);
}

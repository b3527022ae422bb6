/* A map a compile with keep_going leaves out: still an entry of the cache,
 * of kind QG_KIND_SKIPPED, whose "skipped" property says why (the first
 * line of its first error), so that what reads the cache can name it and
 * the reason; qg_cache_next passes over it. */
#include "cache/compile.h"
#include "core/mapdef.h"

#include <stdio.h>
#include <string.h>

qg_status qgc_mark_skipped(qg_mapdef *def, const qg_diags *why)
{
    const char *message = "it did not compile";
    for (size_t i = 0; why && i < qg_diags_count(why); i++)
        if (qg_diags_get(why, i)->severity == QG_ERROR) {
            message = qg_diags_get(why, i)->message;
            break;
        }
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(message, "\n"), message);
    qg_mapdef_set_kind(def, QG_KIND_SKIPPED);
    return qg_mapdef_add_property(def, "skipped", line);
}

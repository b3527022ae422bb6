/* A cache found corrupt: every reader reports it one way, naming the
 * cache and what is wrong with it. */
#include "cache/reader.h"

#include <stdarg.h>
#include <stdio.h>

qg_status qgc_corrupt(qg_diags *diags, const qg_cache *cache, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    qg_diags_add(diags, QG_ERROR, cache->path, 0, 0, NULL, 0, "corrupt cache: %s", msg);
    return QG_ERR_CORRUPT;
}

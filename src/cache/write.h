/* Putting a finished cache image on disk. */
#ifndef QG_CACHE_WRITE_H
#define QG_CACHE_WRITE_H

#include "questgrid/cache.h"

/* Writes data to a temporary file beside path, fsyncs it, opens and fully
 * verifies the temporary file as a reader would (on jobs threads), then
 * renames it over path and fsyncs the directory. Any failure, or *cancel
 * becoming non-zero, removes the temporary file and leaves path as it
 * was. */
qg_status qgc_write_verified(const char *path, const void *data, size_t len, int jobs,
                             volatile sig_atomic_t *cancel, qg_diags *diags);

#endif

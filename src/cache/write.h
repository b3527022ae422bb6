/* Putting a finished cache image on disk. */
#ifndef QG_CACHE_WRITE_H
#define QG_CACHE_WRITE_H

#include "questgrid/cache.h"

/* Writes the cache's bytes to fd; 0 on failure, with errno set. */
typedef int (*qgc_fill_fn)(int fd, void *user);

/* Writes the cache (fill) to a temporary file beside path, fsyncs it,
 * opens the temporary file as a reader would (header, index, every offset
 * and size) and checks every blob's CRC, then renames it over path and
 * fsyncs the directory. Any failure, or *cancel becoming non-zero, removes
 * the temporary file and leaves path as it was. */
qg_status qgc_write_verified(const char *path, qgc_fill_fn fill, void *user,
                             volatile sig_atomic_t *cancel, qg_diags *diags);

#endif

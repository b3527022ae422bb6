/* Putting a finished cache image on disk. */
#ifndef QG_CACHE_WRITE_H
#define QG_CACHE_WRITE_H

#include "questgrid/cache.h"

/* Writes the cache's bytes to fd; 0 on failure, with errno set. */
typedef int (*qgc_fill_fn)(int fd, void *user);

typedef struct qgc_write_how {
    int follow_symlinks;
    volatile sig_atomic_t *cancel;  /* polled; non-zero aborts, or NULL */
} qgc_write_how;

/* Writes the cache (fill) as every output is written (core/output.h),
 * opening the temporary file as a reader would (header, index, every
 * offset and size) and checking every blob's CRC before it replaces path.
 * Any failure, or *cancel becoming non-zero, removes the temporary file
 * and leaves path as it was. */
qg_status qgc_write_verified(const char *path, qgc_fill_fn fill, void *user,
                             const qgc_write_how *how, qg_diags *diags);

#endif

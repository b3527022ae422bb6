/* How every output file is written: the one rule for -o, for a cache and
 * for any other file the library writes.
 *
 * - The bytes go to a temporary file beside the target, which is synced,
 *   checked when a check is given, and renamed over the target: the old
 *   file survives any failure, a cancel or a kill. The directory is
 *   synced after the rename.
 * - A new file gets the mode the umask gives (as any program's output); a
 *   replaced file keeps its mode.
 * - The path names where the file goes: a symbolic link there is replaced
 *   by the new file, never followed to the file it names (follow_symlinks
 *   asks for the old way). A link to what is not a regular file (a
 *   terminal, a pipe, /dev/stdout) is written through, as is such a file
 *   named directly; a directory is refused.
 * - The temporary file is locked while its writer lives and removed on
 *   every way out of the writer; one left by a killed run (its lock gone
 *   with it) is removed by the next write to the same target. */
#ifndef QG_CORE_OUTPUT_H
#define QG_CORE_OUTPUT_H

#include "questgrid/core.h"

#include <signal.h>
#include <stddef.h>

/* Writes the bytes to fd; 0 on failure, with errno set. */
typedef int (*qg_output_fill)(int fd, void *user);
/* Checks the file written at path before it replaces the target. */
typedef qg_status (*qg_output_check)(const char *path, void *user, qg_diags *diags);

typedef struct qg_output {
    int follow_symlinks;
    int regular_only;              /* refuse a target that is not a regular
                                      file (a cache is only ever one) */
    qg_output_check check;         /* or NULL */
    void *check_user;
    volatile sig_atomic_t *cancel; /* non-zero before the rename: nothing
                                      written; or NULL */
} qg_output;

/* how may be NULL (the defaults above). */
qg_status qg_output_write(const char *path, const qg_output *how, qg_output_fill fill,
                          void *user, qg_diags *diags);
qg_status qg_output_write_bytes(const char *path, const qg_output *how, const void *data,
                                size_t len, qg_diags *diags);

#endif

/* Reading whole files with a size limit, reported as diagnostics. */
#ifndef QG_CORE_FILE_H
#define QG_CORE_FILE_H

#include "questgrid/core.h"

/* The largest text file any reader accepts (a larger one is an error,
 * never a silent truncation). */
#define QG_MAX_TEXT_FILE (64u * 1024u * 1024u)

/* Reads path into a NUL-terminated buffer (*data, *len; free with free()).
 * On failure reports "file: error: …" into diags (when not NULL). */
qg_status qg_read_file(const char *path, size_t max_len, char **data,
                       size_t *len, qg_diags *diags);

/* Writes all len bytes to fd (again after EINTR); 0 on failure, errno
 * set. */
int qg_write_all(int fd, const void *data, size_t len);

/* Joins a directory and a relative name ("dir/name"); NULL on no memory. */
char *qg_path_join(const char *dir, const char *name);
/* The directory part of path ("." when there is none); NULL on no memory. */
char *qg_path_dirname(const char *path);

#endif

#define _XOPEN_SOURCE 700
#include "core/file.h"
#include "core/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static qg_status io_error(qg_diags *diags, const char *path, const char *what)
{
    qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "%s: %s", what,
                 strerror(errno));
    return errno == ENOENT ? QG_ERR_NOTFOUND : QG_ERR_IO;
}

qg_status qg_read_file(const char *path, size_t max_len, char **data,
                       size_t *len, qg_diags *diags)
{
    *data = NULL;
    *len = 0;
    /* Non-blocking open and regular files only: a file naming a FIFO or a
     * device (an include of /dev/zero or of a pipe nobody writes to) must
     * neither hang nor stream forever. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return io_error(diags, path, "cannot open");
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return io_error(diags, path, "cannot read");
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        if (S_ISDIR(st.st_mode)) {
            errno = EISDIR;
            return io_error(diags, path, "cannot read");
        }
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "cannot read: not a regular file");
        return QG_ERR_IO;
    }
    if ((uintmax_t)st.st_size > max_len) {
        close(fd);
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0,
                     "file is larger than the %zu byte limit", max_len);
        return QG_ERR_LIMIT;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return io_error(diags, path, "cannot open");
    }
    qg_buf buf;
    qg_buf_init(&buf);
    if (!qg_buf_reserve(&buf, (size_t)st.st_size)) {
        fclose(f);
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "out of memory");
        return QG_ERR_NOMEM;
    }
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (buf.len + n > max_len) {
            fclose(f);
            qg_buf_free(&buf);
            qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0,
                         "file is larger than the %zu byte limit", max_len);
            return QG_ERR_LIMIT;
        }
        if (!qg_buf_append(&buf, chunk, n)) {
            fclose(f);
            qg_buf_free(&buf);
            qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "out of memory");
            return QG_ERR_NOMEM;
        }
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        qg_buf_free(&buf);
        return io_error(diags, path, "cannot read");
    }
    *len = buf.len;
    *data = qg_buf_take(&buf);
    if (!*data) {
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "out of memory");
        return QG_ERR_NOMEM;
    }
    return QG_OK;
}

int qg_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)  /* 0 for a non-empty write would repeat forever */
            return 0;
        p += n;
        len -= (size_t)n;
    }
    return 1;
}

/* An existing target that is not a regular file (a terminal, a pipe,
 * /dev/stdout, /dev/full) is written to directly: renaming a temporary over
 * it would replace the device node itself. A directory is refused. */
static qg_status write_special(const char *path, const struct stat *st, const void *data,
                               size_t len, qg_diags *diags)
{
    if (S_ISDIR(st->st_mode)) {
        errno = EISDIR;
        return io_error(diags, path, "cannot write");
    }
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return io_error(diags, path, "cannot open");
    int flags = fcntl(fd, F_GETFL);
    int ok = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 && qg_write_all(fd, data, len);
    int saved = errno;
    ok = close(fd) == 0 && ok;
    if (!ok) {
        errno = saved;
        return io_error(diags, path, "cannot write");
    }
    return QG_OK;
}

static qg_status write_replacing(const char *path, const void *data, size_t len,
                                 qg_diags *diags);

qg_status qg_write_file_atomic(const char *path, const void *data, size_t len,
                               qg_diags *diags)
{
    char *target = qg_write_target(path);
    if (!target) {
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "out of memory");
        return QG_ERR_NOMEM;
    }
    struct stat st;
    qg_status status;
    if (stat(target, &st) == 0 && !S_ISREG(st.st_mode))
        status = write_special(target, &st, data, len, diags);
    else
        status = write_replacing(target, data, len, diags);
    free(target);
    return status;
}

/* Through a symbolic link the file it names is replaced, never the link
 * (/dev/stdout is one). */
char *qg_write_target(const char *path)
{
    struct stat link;
    char *resolved = lstat(path, &link) == 0 && S_ISLNK(link.st_mode) ? realpath(path, NULL) : NULL;
    return resolved ? resolved : qg_strdup(path);
}

static qg_status write_replacing(const char *path, const void *data, size_t len,
                                 qg_diags *diags)
{
    qg_buf tmp;
    qg_buf_init(&tmp);
    if (!qg_buf_printf(&tmp, "%s.tmpXXXXXX", path)) {
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "out of memory");
        return QG_ERR_NOMEM;
    }
    int fd = mkstemp(tmp.data);
    if (fd < 0) {
        qg_status st = io_error(diags, path, "cannot create a temporary file");
        qg_buf_free(&tmp);
        return st;
    }
    int ok = qg_write_all(fd, data, len) && fsync(fd) == 0;
    int saved = errno;
    ok = close(fd) == 0 && ok;
    if (ok) {
        ok = chmod(tmp.data, 0644) == 0 && rename(tmp.data, path) == 0;
        saved = errno;
    }
    if (!ok) {
        unlink(tmp.data);
        errno = saved;
        qg_status st = io_error(diags, path, "cannot write");
        qg_buf_free(&tmp);
        return st;
    }
    qg_buf_free(&tmp);
    return QG_OK;
}

char *qg_path_join(const char *dir, const char *name)
{
    qg_buf buf;
    qg_buf_init(&buf);
    if (name[0] == '/' || !dir || !dir[0])
        qg_buf_puts(&buf, name);
    else if (dir[strlen(dir) - 1] == '/')
        qg_buf_printf(&buf, "%s%s", dir, name);
    else
        qg_buf_printf(&buf, "%s/%s", dir, name);
    return qg_buf_take(&buf);
}

char *qg_path_dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return qg_strdup(".");
    if (slash == path)
        return qg_strdup("/");
    return qg_strndup(path, (size_t)(slash - path));
}

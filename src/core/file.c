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

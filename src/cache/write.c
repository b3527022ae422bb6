#define _POSIX_C_SOURCE 200809L
#include "cache/write.h"
#include "cache/reader.h"
#include "core/buf.h"
#include "core/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static qg_status verify_temp(const char *tmp, const char *path, qg_diags *diags)
{
    qg_diags *found = qg_diags_new();
    qg_cache *cache = NULL;
    qg_status st = found ? qg_cache_open(tmp, NULL, &cache, found) : QG_ERR_NOMEM;
    if (st == QG_OK)
        st = qgc_verify_crcs(cache, found);
    qg_cache_close(cache);
    if (st != QG_OK)
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0,
                     "the cache just written fails verification (%s); not installed",
                     found && qg_diags_count(found) ? qg_diags_get(found, 0)->message
                                                    : qg_status_string(st));
    qg_diags_free(found);
    return st;
}

static void sync_directory(const char *path)
{
    char *dir = qg_path_dirname(path);
    int fd = dir ? open(dir, O_RDONLY) : -1;
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

static qg_status write_verified(const char *path, qgc_fill_fn fill, void *user,
                                volatile sig_atomic_t *cancel, qg_diags *diags);

/* A cache is only ever a regular file: through a link the file it names
 * is replaced; a FIFO, device or directory is refused, never replaced. */
qg_status qgc_write_verified(const char *path, qgc_fill_fn fill, void *user,
                             volatile sig_atomic_t *cancel, qg_diags *diags)
{
    char *target = qg_write_target(path);
    if (!target) {
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "out of memory");
        return QG_ERR_NOMEM;
    }
    struct stat st;
    qg_status status;
    if (stat(target, &st) == 0 && !S_ISREG(st.st_mode)) {
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0,
                     "not a regular file: a cache is written only as a regular file");
        status = QG_ERR_IO;
    } else {
        status = write_verified(target, fill, user, cancel, diags);
    }
    free(target);
    return status;
}

static qg_status write_verified(const char *path, qgc_fill_fn fill, void *user,
                                volatile sig_atomic_t *cancel, qg_diags *diags)
{
    qg_buf tmp;
    qg_buf_init(&tmp);
    if (!qg_buf_printf(&tmp, "%s.tmpXXXXXX", path)) {
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "out of memory");
        return QG_ERR_NOMEM;
    }
    int fd = mkstemp(tmp.data);
    if (fd < 0) {
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0,
                     "cannot create a temporary file: %s", strerror(errno));
        qg_buf_free(&tmp);
        return QG_ERR_IO;
    }
    int ok = fill(fd, user) && fsync(fd) == 0 && fchmod(fd, 0644) == 0;
    int saved = errno;
    ok = close(fd) == 0 && ok;
    qg_status st = QG_OK;
    if (!ok) {
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "cannot write: %s",
                     strerror(saved));
        st = QG_ERR_IO;
    }
    if (st == QG_OK)
        st = verify_temp(tmp.data, path, diags);
    if (st == QG_OK && cancel && *cancel) {
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "interrupted; nothing written");
        st = QG_ERR_IO;
    }
    if (st == QG_OK && rename(tmp.data, path) != 0) {
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "cannot rename: %s",
                     strerror(errno));
        st = QG_ERR_IO;
    }
    if (st != QG_OK)
        unlink(tmp.data);
    else
        sync_directory(path);
    qg_buf_free(&tmp);
    return st;
}

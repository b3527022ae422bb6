#define _POSIX_C_SOURCE 200809L
#include "cache/spill.h"
#include "core/buf.h"
#include "core/file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { SPILL_BUFFER = 64 * 1024 };

int qgc_spill_open(qgc_spill *s)
{
    memset(s, 0, sizeof *s);
    s->fd = -1;
    const char *dir = getenv("TMPDIR");
    qg_buf name;
    qg_buf_init(&name);
    qg_buf_printf(&name, "%s/questgrid-spill-XXXXXX", dir && *dir ? dir : "/tmp");
    s->buf = malloc(SPILL_BUFFER);
    if (name.failed || !s->buf) {
        s->err = ENOMEM;
    } else if ((s->fd = mkstemp(name.data)) < 0) {
        s->err = errno;
    } else {
        unlink(name.data);
    }
    qg_buf_free(&name);
    if (s->err) {
        /* a spill that did not open holds nothing: no caller frees it */
        free(s->buf);
        s->buf = NULL;
    }
    return s->err == 0;
}

void qgc_spill_close(qgc_spill *s)
{
    if (s->fd >= 0)
        close(s->fd);
    free(s->buf);
    s->fd = -1;
    s->buf = NULL;
}

int qgc_spill_flush(qgc_spill *s)
{
    if (s->err)
        return 0;
    if (s->len && !qg_write_all(s->fd, s->buf, s->len)) {
        s->err = errno ? errno : EIO;
        return 0;
    }
    s->len = 0;
    return 1;
}

uint64_t qgc_spill_append(qgc_spill *s, const void *data, size_t len)
{
    uint64_t at = s->size;
    /* nothing to append may come as a buffer never allocated (NULL) */
    if (s->err || len == 0)
        return at;
    if (s->len + len > SPILL_BUFFER && !qgc_spill_flush(s))
        return at;
    if (len > SPILL_BUFFER) {
        if (!qg_write_all(s->fd, data, len))
            s->err = errno ? errno : EIO;
    } else {
        memcpy(s->buf + s->len, data, len);
        s->len += len;
    }
    s->size += len;
    return at;
}

int qgc_spill_read(const qgc_spill *s, uint64_t at, void *out, size_t len)
{
    if (at > s->size || len > s->size - at) {
        errno = EINVAL;
        return 0;
    }
    unsigned char *p = out;
    while (len > 0) {
        ssize_t n = pread(s->fd, p, len, (off_t)at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return 0;
        }
        p += n;
        at += (uint64_t)n;
        len -= (size_t)n;
    }
    return 1;
}

int qgc_spill_copy(const qgc_spill *s, uint64_t at, uint64_t len, int fd)
{
    unsigned char *chunk = malloc(SPILL_BUFFER);
    int ok = chunk != NULL;
    if (!ok)
        errno = ENOMEM;
    while (ok && len > 0) {
        size_t n = len < SPILL_BUFFER ? (size_t)len : SPILL_BUFFER;
        ok = qgc_spill_read(s, at, chunk, n) && qg_write_all(fd, chunk, n);
        at += n;
        len -= n;
    }
    free(chunk);
    return ok;
}

void qgc_spill_report(const qgc_spill *s, const char *path, qg_diags *diags)
{
    qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0,
                 "cannot use a scratch file in %s: %s",
                 getenv("TMPDIR") && *getenv("TMPDIR") ? "$TMPDIR" : "/tmp",
                 strerror(s->err ? s->err : EIO));
}

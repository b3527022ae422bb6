/* Writing an output file (output.h has the rule). */
#define _DEFAULT_SOURCE
#include "core/output.h"
#include "core/buf.h"
#include "core/file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static qg_status io_error(qg_diags *diags, const char *path, const char *what)
{
    int err = errno;
    qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "%s: %s", what, strerror(err));
    return err == ENOMEM ? QG_ERR_NOMEM : QG_ERR_IO;
}

/* ---- where the bytes go ------------------------------------------------ */

typedef struct target {
    char *path;      /* the name replaced, or written through */
    int through;     /* write into it (not a regular file) */
    int keep_mode;   /* a regular file replaced: its mode */
    mode_t mode;
} target;

/* A link into /proc names a descriptor of the process (/dev/stdout
 * redirected to a file is one): what it names is written, never the link
 * replaced. */
static int links_to_a_descriptor(const char *path)
{
    char to[16];
    ssize_t n = readlink(path, to, sizeof to);
    return n >= 6 && memcmp(to, "/proc/", 6) == 0;
}

static qg_status refuse(qg_diags *diags, const char *path, const char *why)
{
    qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "%s", why);
    return QG_ERR_IO;
}

/* Through a link, with follow_symlinks: the file it names. */
static char *followed(const char *path)
{
    char *resolved = realpath(path, NULL);
    return resolved ? resolved : qg_strdup(path);
}

static qg_status find_target(const char *path, const qg_output *how, target *t,
                             qg_diags *diags)
{
    memset(t, 0, sizeof *t);
    struct stat link, st;
    if (lstat(path, &link) != 0) {
        if (errno != ENOENT)
            return io_error(diags, path, "cannot write");
        t->path = qg_strdup(path);
        return t->path ? QG_OK : QG_ERR_NOMEM;
    }
    int is_link = S_ISLNK(link.st_mode);
    int names = is_link ? stat(path, &st) == 0 : (st = link, 1);
    if (names && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return io_error(diags, path, "cannot write");
    }
    if (names && !S_ISREG(st.st_mode)) {
        if (how->regular_only)
            return refuse(diags, path, "not a regular file: a cache is written only as a "
                                       "regular file");
        t->through = 1;
    } else if (is_link && names && links_to_a_descriptor(path)) {
        if (how->regular_only)
            return refuse(diags, path, "a descriptor of the process: a cache is written "
                                       "only as a regular file");
        t->through = 1;
    } else if (!is_link || how->follow_symlinks) {
        t->keep_mode = names;
        t->mode = st.st_mode & 07777;
    }
    t->path = is_link && how->follow_symlinks && !t->through ? followed(path) : qg_strdup(path);
    return t->path ? QG_OK : QG_ERR_NOMEM;
}

/* A terminal, a pipe, a device: written into, never replaced (a pipe
 * nobody reads is an error, not a hang). */
static qg_status write_through(const char *path, qg_output_fill fill, void *user,
                               qg_diags *diags)
{
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return io_error(diags, path, "cannot open");
    struct stat st;
    int flags = fcntl(fd, F_GETFL);
    int ok = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 &&
             fstat(fd, &st) == 0 && (!S_ISREG(st.st_mode) || ftruncate(fd, 0) == 0) &&
             fill(fd, user);
    int saved = errno;
    ok = close(fd) == 0 && ok;
    if (!ok) {
        errno = saved;
        return io_error(diags, path, "cannot write");
    }
    return QG_OK;
}

/* ---- temporary files ----------------------------------------------------- */

#define TEMP_TAIL ".tmp"
#define TEMP_RANDOM 6

static int is_temp_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* name is base + ".tmp" + six letters or digits (mkstemp's names too). */
static int is_temp_of(const char *name, const char *base, size_t base_len)
{
    size_t tail = sizeof TEMP_TAIL - 1;
    if (strlen(name) != base_len + tail + TEMP_RANDOM || memcmp(name, base, base_len) != 0 ||
        memcmp(name + base_len, TEMP_TAIL, tail) != 0)
        return 0;
    for (const char *p = name + base_len + tail; *p; p++)
        if (!is_temp_char(*p))
            return 0;
    return 1;
}

/* Temporary files of the target whose writer is gone: each writer holds a
 * lock on its own until it is done, and the lock dies with the process. */
static void remove_stale_temps(const char *path)
{
    char *dir = qg_path_dirname(path);
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    DIR *d = dir ? opendir(dir) : NULL;
    free(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_temp_of(e->d_name, base, strlen(base)))
            continue;
        int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        struct stat st;
        if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
            flock(fd, LOCK_EX | LOCK_NB) == 0)
            unlinkat(dirfd(d), e->d_name, 0);
        if (fd >= 0)
            close(fd);
    }
    closedir(d);
}

/* Creates and locks path + ".tmp" + six letters: the mode the umask gives
 * to a new file (the kernel applies it). -1 with errno on failure. */
static int create_temp(const char *path, qg_buf *name)
{
    static const char letters[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    unsigned long long x = (unsigned long long)now.tv_nsec ^
                           ((unsigned long long)getpid() << 32) ^ (uintptr_t)name;
    for (int attempt = 0; attempt < 100; attempt++) {
        name->len = 0;
        qg_buf_printf(name, "%s" TEMP_TAIL, path);
        for (int i = 0; i < TEMP_RANDOM; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            qg_buf_putc(name, letters[(x >> 33) % (sizeof letters - 1)]);
        }
        if (name->failed) {
            errno = ENOMEM;
            return -1;
        }
        int fd = open(name->data, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            flock(fd, LOCK_EX | LOCK_NB);
            return fd;
        }
        if (errno != EEXIST)
            return -1;
    }
    return -1;
}

static void sync_directory(const char *path)
{
    char *dir = qg_path_dirname(path);
    int fd = dir ? open(dir, O_RDONLY | O_CLOEXEC) : -1;
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

/* The temporary file written, checked and renamed over the target; it is
 * removed on every way out but the rename. */
static qg_status replace(const target *t, const qg_output *how, qg_output_fill fill,
                         void *user, qg_diags *diags)
{
    remove_stale_temps(t->path);
    qg_buf name;
    qg_buf_init(&name);
    int fd = create_temp(t->path, &name);
    if (fd < 0) {
        qg_status st = io_error(diags, t->path, "cannot create a temporary file");
        qg_buf_free(&name);
        return st;
    }
    qg_status st = QG_OK;
    if (!fill(fd, user) || fsync(fd) != 0 || (t->keep_mode && fchmod(fd, t->mode) != 0))
        st = io_error(diags, t->path, "cannot write");
    if (st == QG_OK && how->check)
        st = how->check(name.data, how->check_user, diags);
    if (st == QG_OK && how->cancel && *how->cancel) {
        qg_diags_add(diags, QG_ERROR, t->path, 0, 0, NULL, 0, "interrupted; nothing written");
        st = QG_ERR_IO;
    }
    if (st == QG_OK && rename(name.data, t->path) != 0)
        st = io_error(diags, t->path, "cannot rename");
    if (st != QG_OK)
        unlink(name.data);
    close(fd);
    if (st == QG_OK)
        sync_directory(t->path);
    qg_buf_free(&name);
    return st;
}

qg_status qg_output_write(const char *path, const qg_output *how, qg_output_fill fill,
                          void *user, qg_diags *diags)
{
    static const qg_output defaults = {0, 0, NULL, NULL, NULL};
    if (!how)
        how = &defaults;
    target t;
    qg_status st = find_target(path, how, &t, diags);
    if (st == QG_ERR_NOMEM)
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "out of memory");
    if (st != QG_OK)
        return st;
    st = t.through ? write_through(t.path, fill, user, diags)
                   : replace(&t, how, fill, user, diags);
    free(t.path);
    return st;
}

typedef struct bytes {
    const void *data;
    size_t len;
} bytes;

static int fill_bytes(int fd, void *user)
{
    const bytes *b = user;
    return qg_write_all(fd, b->data, b->len);
}

qg_status qg_output_write_bytes(const char *path, const qg_output *how, const void *data,
                                size_t len, qg_diags *diags)
{
    bytes b = {data, len};
    return qg_output_write(path, how, fill_bytes, &b, diags);
}

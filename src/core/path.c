/* Canonical and lexical path forms, and the component-wise prefix test
 * that confines the files a data file may name. */
#define _GNU_SOURCE
#include "core/path.h"
#include "core/buf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Applies one component to buf, a path in normal form (absolute: starts
 * with '/'; relative: may begin with ".." components). */
static void apply_component(qg_buf *buf, const char *name, size_t len)
{
    if (len == 0 || (len == 1 && name[0] == '.'))
        return;
    int absolute = buf->len && buf->data[0] == '/';
    if (len == 2 && name[0] == '.' && name[1] == '.' && buf->len) {
        char *slash = memrchr(buf->data, '/', buf->len);
        const char *last = slash ? slash + 1 : buf->data;
        int parent = strcmp(last, "..") == 0;
        if (absolute) {
            /* "/.." is "/" */
            buf->len = slash != buf->data ? (size_t)(slash - buf->data) : 1;
            buf->data[buf->len] = '\0';
            return;
        }
        if (!parent) {
            buf->len = slash ? (size_t)(slash - buf->data) : 0;
            buf->data[buf->len] = '\0';
            return;
        }
    }
    if (buf->len && buf->data[buf->len - 1] != '/')
        qg_buf_putc(buf, '/');
    qg_buf_append(buf, name, len);
}

/* Applies every component of rest to buf. */
static void apply_path(qg_buf *buf, const char *rest)
{
    while (*rest) {
        size_t len = strcspn(rest, "/");
        apply_component(buf, rest, len);
        rest += len;
        rest += *rest == '/';
    }
}

char *qg_path_lexical(const char *path)
{
    qg_buf buf;
    qg_buf_init(&buf);
    if (path[0] == '/')
        qg_buf_putc(&buf, '/');
    apply_path(&buf, path);
    if (!buf.failed && buf.len == 0)
        qg_buf_putc(&buf, '.');
    return qg_buf_take(&buf);
}

char *qg_path_canonical(const char *path)
{
    char *real = realpath(path, NULL);
    if (real || errno == ENOMEM)
        return real;
    /* Walk down from the start, following links while the components
     * exist; from the first missing one on the text alone decides. */
    qg_buf buf;
    qg_buf_init(&buf);
    if (path[0] == '/') {
        qg_buf_putc(&buf, '/');
    } else {
        char *cwd = realpath(".", NULL);
        if (!cwd)
            return NULL;
        qg_buf_puts(&buf, cwd);
        free(cwd);
    }
    int existing = 1;
    for (const char *rest = path; *rest && !buf.failed;) {
        size_t len = strcspn(rest, "/");
        apply_component(&buf, rest, len);
        rest += len;
        rest += *rest == '/';
        if (!existing || len == 0 || buf.failed)
            continue;
        char *step = realpath(buf.data, NULL);
        if (step) {
            qg_buf_reset(&buf);
            qg_buf_puts(&buf, step);
            free(step);
        } else if (errno == ENOMEM) {
            buf.failed = 1;
        } else {
            existing = 0;
        }
    }
    return qg_buf_take(&buf);
}

int qg_path_within(const char *root, const char *path)
{
    if (strcmp(root, ".") == 0)
        return path[0] != '/' && strcmp(path, "..") != 0 && strncmp(path, "../", 3) != 0;
    size_t len = strlen(root);
    while (len && root[len - 1] == '/')
        len--;
    return strncmp(root, path, len) == 0 && (path[len] == '\0' || path[len] == '/');
}

/* Where %: includes may come from: below the edit directory or the top
 * file's own directory, compared after every symbolic link is followed,
 * so that a data file cannot make a load read (and echo) a file outside
 * the data it belongs to. */
#define _DEFAULT_SOURCE
#include "fd/fd_internal.h"
#include "core/buf.h"
#include "core/file.h"
#include "core/path.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *normal_form(const fd_roots *roots, const char *path)
{
    return roots->lexical ? qg_path_lexical(path) : qg_path_canonical(path);
}

int fd_roots_init(fd_roots *roots, const qg_fd_options *opt, const char *top)
{
    memset(roots, 0, sizeof *roots);
    roots->open = opt->allow_include_outside || opt->no_includes;
    roots->lexical = opt->source != NULL;
    if (roots->open)
        return 1;
    if (opt->edit_dir && opt->edit_dir[0] && !(roots->given[roots->count++] = qg_strdup(opt->edit_dir)))
        return 0;
    return (roots->given[roots->count++] = qg_path_dirname(top)) != NULL;
}

void fd_roots_free(fd_roots *roots)
{
    for (size_t i = 0; i < roots->count; i++) {
        free(roots->given[i]);
        free(roots->dir[i]);
    }
    roots->count = 0;
}

/* The roots' own normal forms, worked out the first time a path is not
 * plainly below one; 0 when memory ran out. */
static int normal_roots(fd_roots *roots)
{
    for (size_t i = 0; i < roots->count; i++)
        if (!roots->dir[i] && !(roots->dir[i] = normal_form(roots, roots->given[i])))
            return 0;
    return 1;
}

/* Whether path is the root as given, then names that are neither "." nor
 * "..", none of them a symbolic link: then it lies below the root without
 * resolving either (the common case, a file beside or under the including
 * one). */
static int plainly_below(const char *root, const char *path, int lexical)
{
    size_t len = strlen(root);
    if (strncmp(path, root, len) != 0 || (len && root[len - 1] != '/' && path[len] != '/'))
        return 0;
    const char *rest = path + len;
    char *probe = lexical ? NULL : qg_strdup(path);
    if (!lexical && !probe)
        return 0;
    int plain = 1;
    while (plain && *rest) {
        rest += *rest == '/';
        size_t n = strcspn(rest, "/");
        plain = n && !(n == 1 && rest[0] == '.') && !(n == 2 && rest[0] == '.' && rest[1] == '.');
        rest += n;
        if (plain && probe) {
            struct stat st;
            char *end = probe + (rest - path);
            char kept = *end;
            *end = '\0';
            if (lstat(probe, &st) != 0) {
                /* what does not exist cannot lead anywhere; the rest must
                 * still be plain names */
                free(probe);
                probe = NULL;
                continue;
            }
            plain = !S_ISLNK(st.st_mode);
            *end = kept;
        }
    }
    free(probe);
    return plain;
}

int fd_roots_admit(fd_roots *roots, const char *path, char **where)
{
    *where = NULL;
    if (roots->open)
        return 1;
    for (size_t i = 0; i < roots->count; i++)
        if (plainly_below(roots->given[i], path, roots->lexical))
            return 1;
    char *normal = normal_roots(roots) ? normal_form(roots, path) : NULL;
    if (!normal)
        return -1;
    for (size_t i = 0; i < roots->count; i++)
        if (qg_path_within(roots->dir[i], normal)) {
            free(normal);
            return 1;
        }
    *where = normal;
    return 0;
}

char *fd_roots_refusal(const fd_roots *roots, const char *name, const char *where)
{
    qg_buf why;
    qg_buf_init(&why);
    qg_buf_printf(&why, "include '%s' is outside the data root: it names %s, which is not below ",
                  name, where);
    size_t shown = 0;
    for (size_t i = 0; i < roots->count; i++) {
        int again = 0;
        for (size_t k = 0; k < i; k++)
            again |= strcmp(roots->dir[k], roots->dir[i]) == 0;
        if (!again)
            qg_buf_printf(&why, "%s%s", shown++ ? " or " : "", roots->dir[i]);
    }
    qg_buf_puts(&why, " (--allow-include-outside reads it)");
    return qg_buf_take(&why);
}

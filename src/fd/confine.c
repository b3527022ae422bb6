/* Where %: includes may come from: below the edit directory or the top
 * file's own directory, compared after every symbolic link is followed,
 * so that a data file cannot make a load read (and echo) a file outside
 * the data it belongs to. */
#include "fd/fd_internal.h"
#include "core/buf.h"
#include "core/file.h"
#include "core/path.h"

#include <stdlib.h>
#include <string.h>

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
    if (opt->edit_dir && opt->edit_dir[0]) {
        roots->dir[roots->count] = normal_form(roots, opt->edit_dir);
        if (!roots->dir[roots->count++])
            return 0;
    }
    char *own = qg_path_dirname(top);
    char *dir = own ? normal_form(roots, own) : NULL;
    free(own);
    if (!dir)
        return 0;
    if (roots->count && qg_path_within(roots->dir[0], dir))
        free(dir);
    else
        roots->dir[roots->count++] = dir;
    return 1;
}

void fd_roots_free(fd_roots *roots)
{
    for (size_t i = 0; i < roots->count; i++)
        free(roots->dir[i]);
    roots->count = 0;
}

int fd_roots_admit(const fd_roots *roots, const char *path, char **where)
{
    *where = NULL;
    if (roots->open)
        return 1;
    char *normal = normal_form(roots, path);
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
    for (size_t i = 0; i < roots->count; i++)
        qg_buf_printf(&why, "%s%s", i ? " or " : "", roots->dir[i]);
    qg_buf_puts(&why, " (--allow-include-outside reads it)");
    return qg_buf_take(&why);
}

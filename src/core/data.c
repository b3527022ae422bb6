/* Where questgrid's own data (lib/edit, lib/des and what other modules add
 * under them) is found: one search, used by everything that needs a data
 * file, so an uninstalled build, an installed one and a moved one all find
 * theirs, and a miss names every place that was tried. */
#define _XOPEN_SOURCE 700
#include "questgrid/core.h"
#include "core/buf.h"
#include "core/file.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Written by the build (src/core/local.mk): the build tree, the data in
 * the source tree, and the installation directories a relocated install
 * mirrors. */
#include "core/installdirs.h"

#define MAX_PLACES 16

typedef struct places {
    char *dir[MAX_PLACES];
    const char *origin[MAX_PLACES];
    size_t count;
} places;

static void add_place(places *p, const char *origin, char *dir)
{
    if (!dir)
        return;
    for (size_t i = 0; i < p->count; i++)
        if (strcmp(p->dir[i], dir) == 0) {
            free(dir);
            return;
        }
    if (p->count == MAX_PLACES) {
        free(dir);
        return;
    }
    p->origin[p->count] = origin;
    p->dir[p->count++] = dir;
}

static void free_places(places *p)
{
    for (size_t i = 0; i < p->count; i++)
        free(p->dir[i]);
    p->count = 0;
}

/* The running program's directory, ".libs" (libtool's uninstalled
 * programs) left out; NULL when the system does not say. */
static char *program_dir(void)
{
    char *exe = realpath("/proc/self/exe", NULL);
    if (!exe)
        return NULL;
    char *dir = qg_path_dirname(exe);
    free(exe);
    size_t len = dir ? strlen(dir) : 0;
    if (len > 6 && strcmp(dir + len - 6, "/.libs") == 0)
        dir[len - 6] = '\0';
    return dir;
}

/* Whether dir is root or below it. */
static int within(const char *dir, const char *root)
{
    size_t n = strlen(root);
    return n && strncmp(dir, root, n) == 0 && (dir[n] == '\0' || dir[n] == '/');
}

/* "bin" for QG_BINDIR below QG_PREFIX, NULL otherwise. */
static const char *below_prefix(const char *path)
{
    size_t n = strlen(QG_PREFIX);
    if (strncmp(path, QG_PREFIX, n) != 0 || path[n] != '/')
        return NULL;
    return path + n + 1;
}

/* A relocated install: the program sits in PREFIX'/bin of a prefix moved
 * as a whole, so its data sits in PREFIX'/share/questgrid. */
static char *relocated(const char *exe_dir)
{
    const char *bin = below_prefix(QG_BINDIR);
    const char *data = below_prefix(QG_PKGDATADIR);
    size_t exe_len = strlen(exe_dir), bin_len = bin ? strlen(bin) : 0;
    if (!bin || !data || exe_len <= bin_len ||
        strcmp(exe_dir + exe_len - bin_len, bin) != 0 || exe_dir[exe_len - bin_len - 1] != '/')
        return NULL;
    qg_buf b;
    qg_buf_init(&b);
    qg_buf_printf(&b, "%.*s%s", (int)(exe_len - bin_len), exe_dir, data);
    return qg_buf_take(&b);
}

static void env_places(places *p)
{
    const char *env = getenv("QUESTGRID_DATA");
    for (const char *s = env; s && *s;) {
        size_t n = strcspn(s, ":");
        if (n)
            add_place(p, "QUESTGRID_DATA", qg_strndup(s, n));
        s += n + (s[n] == ':');
    }
}

static void find_places(places *p)
{
    p->count = 0;
    env_places(p);
    char *exe_dir = program_dir();
    if (exe_dir) {
        char *build = realpath(QG_BUILD_DIR, NULL);
        if (build && within(exe_dir, build))
            add_place(p, "build tree", qg_strdup(QG_SOURCE_DATA_DIR));
        free(build);
        add_place(p, "relocated install", relocated(exe_dir));
        free(exe_dir);
    }
    add_place(p, "installed prefix", qg_strdup(QG_PKGDATADIR));
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

qg_status qg_data_find(const char *name, char **path, qg_diags *diags)
{
    *path = NULL;
    places p;
    find_places(&p);
    for (size_t i = 0; i < p.count && !*path; i++) {
        char *candidate = qg_path_join(p.dir[i], name);
        if (candidate && exists(candidate))
            *path = candidate;
        else
            free(candidate);
    }
    if (*path) {
        free_places(&p);
        return QG_OK;
    }
    qg_buf looked;
    qg_buf_init(&looked);
    if (!getenv("QUESTGRID_DATA"))
        qg_buf_puts(&looked, "\n  (QUESTGRID_DATA is not set)");
    for (size_t i = 0; i < p.count; i++)
        qg_buf_printf(&looked, "\n  %s/%s (%s)", p.dir[i], name, p.origin[i]);
    qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0,
                 "questgrid's data file '%s' was not found; looked in:%s", name,
                 looked.data ? looked.data : "");
    qg_buf_free(&looked);
    free_places(&p);
    return QG_ERR_NOTFOUND;
}

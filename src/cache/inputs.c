/* Finding the files to compile and reading them. Directory entries are
 * sorted so that the same tree always compiles to the same cache. */
#define _POSIX_C_SOURCE 200809L
#include "cache/compile.h"
#include "cache/format.h"
#include "core/buf.h"
#include "core/file.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { MAX_DIR_DEPTH = 32 };

static qg_status add_input(qgc_inputs *in, const char *path, const char *io_path,
                           qg_format format)
{
    qgc_input *item = QG_PUSH(in->items, in->count, in->cap);
    if (!item)
        return QG_ERR_NOMEM;
    memset(item, 0, sizeof *item);
    item->path = qg_strdup(path);
    item->io_path = qg_strdup(io_path);
    item->format = format;
    return item->path && item->io_path ? QG_OK : QG_ERR_NOMEM;
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* In a directory, an F:/D: file is compiled when it holds map rows: the
 * *_info.txt vocabularies (whose D: lines are descriptions), letter files
 * and hubs that only include others are not maps of their own. */
static int is_fd_map_file(const char *path)
{
    size_t len = strlen(path);
    if (len >= 9 && strcmp(path + len - 9, "_info.txt") == 0)
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char line[4096];
    int rows = 0;
    while (!rows && fgets(line, sizeof line, f))
        rows = line[0] == 'D' && line[1] == ':';
    fclose(f);
    return rows;
}

typedef struct place {
    const char *path;     /* as recorded */
    const char *io_path;  /* as opened */
} place;

static qg_status walk(place dir, int depth, qgc_inputs *in, qg_diags *diags);

static qg_status visit(place at, int depth, qgc_inputs *in, qg_diags *diags)
{
    struct stat st;
    if (stat(at.io_path, &st) != 0)
        return QG_OK;   /* vanished or a dangling link: nothing to compile */
    if (S_ISDIR(st.st_mode))
        return walk(at, depth + 1, in, diags);
    if (!S_ISREG(st.st_mode))
        return QG_OK;
    qg_format format = qg_format_from_path(at.path);
    if (format == QG_FORMAT_DES || (format == QG_FORMAT_FD && is_fd_map_file(at.io_path)))
        return add_input(in, at.path, at.io_path, format);
    return QG_OK;
}

static qg_status walk(place dir, int depth, qgc_inputs *in, qg_diags *diags)
{
    if (depth > MAX_DIR_DEPTH) {
        qg_diags_add(diags, QG_ERROR, dir.io_path, 0, 0, NULL, 0,
                     "directories nested deeper than %d levels", MAX_DIR_DEPTH);
        return QG_ERR_LIMIT;
    }
    DIR *d = opendir(dir.io_path);
    if (!d) {
        qg_diags_add(diags, QG_ERROR, dir.io_path, 0, 0, NULL, 0,
                     "cannot read directory: %s", strerror(errno));
        return QG_ERR_IO;
    }
    char **names = NULL;
    size_t count = 0, cap = 0;
    qg_status st = QG_OK;
    struct dirent *e;
    while (st == QG_OK && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char **slot = QG_PUSH(names, count, cap);
        if (!slot || !(*slot = qg_strdup(e->d_name)))
            st = QG_ERR_NOMEM;
    }
    closedir(d);
    if (st == QG_OK)
        qsort(names, count, sizeof *names, by_string);
    for (size_t i = 0; i < count; i++) {
        char *path = st == QG_OK ? qg_path_join(dir.path, names[i]) : NULL;
        char *io_path = st == QG_OK ? qg_path_join(dir.io_path, names[i]) : NULL;
        if (st == QG_OK && (!path || !io_path))
            st = QG_ERR_NOMEM;
        if (st == QG_OK)
            st = visit((place){path, io_path}, depth, in, diags);
        free(path);
        free(io_path);
        free(names[i]);
    }
    free(names);
    return st;
}

qg_status qgc_collect_inputs(const char *base_dir, const char *const *paths,
                             size_t count, qgc_inputs *out, qg_diags *diags)
{
    qg_status st = QG_OK;
    for (size_t i = 0; i < count && st == QG_OK; i++) {
        char *io_path = qg_path_join(base_dir, paths[i]);
        struct stat sb;
        if (!io_path) {
            st = QG_ERR_NOMEM;
        } else if (stat(io_path, &sb) != 0) {
            qg_diags_add(diags, QG_ERROR, io_path, 0, 0, NULL, 0, "cannot open: %s",
                         strerror(errno));
            st = errno == ENOENT ? QG_ERR_NOTFOUND : QG_ERR_IO;
        } else if (S_ISDIR(sb.st_mode)) {
            st = walk((place){paths[i], io_path}, 0, out, diags);
        } else {
            st = add_input(out, paths[i], io_path, qg_format_from_path(paths[i]));
        }
        free(io_path);
    }
    if (st == QG_ERR_NOMEM)
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0, "out of memory");
    return st;
}

qg_status qgc_read_input(qgc_input *item, qg_diags *diags)
{
    struct stat sb;
    if (stat(item->io_path, &sb) == 0) {
        item->mtime_sec = (int64_t)sb.st_mtim.tv_sec;
        item->mtime_nsec = (long)sb.st_mtim.tv_nsec;
    }
    return qg_read_file(item->io_path, QG_MAX_TEXT_FILE, &item->data, &item->len, diags);
}

void qgc_input_drop(qgc_input *item)
{
    free(item->data);
    item->data = NULL;
}

void qgc_file_done(qgc_run *run)
{
    run->files_done++;
    if (run->opt->progress)
        run->opt->progress(run->opt->user, run->files_done, run->file_count);
}

void qgc_inputs_free(qgc_inputs *in)
{
    for (size_t i = 0; i < in->count; i++) {
        free(in->items[i].path);
        free(in->items[i].io_path);
        free(in->items[i].data);
    }
    free(in->items);
    in->items = NULL;
    in->count = in->cap = 0;
}

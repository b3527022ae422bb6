/* The public .des API: files of maps, their chunks and global prelude. */
#include "des/map.h"
#include "des/parse.h"
#include "des/scan.h"
#include "core/file.h"

#include <stdlib.h>
#include <string.h>

static qg_des_file *file_new(const char *path)
{
    qg_des_file *file = calloc(1, sizeof *file);
    if (!file)
        return NULL;
    file->path = qg_strdup(path ? path : "");
    if (!file->path) {
        free(file);
        return NULL;
    }
    des_chunk_init(&file->prelude);
    return file;
}

void qg_des_file_free(qg_des_file *file)
{
    if (!file)
        return;
    for (size_t i = 0; i < file->map_count; i++)
        qg_mapdef_free(file->maps[i]);
    free(file->maps);
    des_chunk_free(&file->prelude);
    free(file->default_depth);
    free(file->path);
    free(file);
}

static qg_status parse(const char *path, const char *data, size_t len,
                       const qg_des_options *options, int skim, qg_des_names *names,
                       qg_des_each_map each, void *user, qg_des_file **out, qg_diags *diags)
{
    *out = NULL;
    qg_des_file *file = file_new(path);
    if (!file) {
        qg_diags_add(diags, QG_ERROR, path ? path : "", 0, 0, NULL, 0, "out of memory");
        return QG_ERR_NOMEM;
    }
    file->each = each;
    file->each_user = user;
    qg_status st = des_parse_into(file, data ? data : "", data ? len : 0,
                                  options && options->legacy, skim, names, diags);
    if (st != QG_ERR_NOMEM && (file->prelude.code.failed ||
                               !qg_buf_reserve(&file->prelude.code, 1)))
        st = QG_ERR_NOMEM;
    file->prelude_view.code = file->prelude.code.data;
    file->prelude_view.len = file->prelude.code.len;
    file->prelude_view.first_line = file->prelude.first;
    file->prelude_view.file = file->path;
    *out = file;
    return st;
}

qg_status qg_des_parse(const char *path, const char *data, size_t len,
                       const qg_des_options *options, qg_des_names *names,
                       qg_des_file **out, qg_diags *diags)
{
    return parse(path, data, len, options, 0, names, NULL, NULL, out, diags);
}

qg_status des_skim(const char *path, const char *data, size_t len, qg_des_names *names,
                   qg_des_file **out)
{
    qg_diags *ignored = qg_diags_new();
    if (!ignored)
        return QG_ERR_NOMEM;
    qg_status st = parse(path, data, len, NULL, 1, names, NULL, NULL, out, ignored);
    qg_diags_free(ignored);
    return st;
}

qg_status qg_des_parse_each(const char *path, const char *data, size_t len,
                            const qg_des_options *options, qg_des_names *names,
                            qg_des_each_map each, void *user, qg_des_file **out,
                            qg_diags *diags)
{
    return parse(path, data, len, options, 0, names, each, user, out, diags);
}

static qg_status load(const char *path, const qg_des_options *options, qg_des_names *names,
                      qg_des_each_map each, void *user, qg_des_file **out, qg_diags *diags)
{
    char *data;
    size_t len;
    *out = NULL;
    qg_status st = qg_read_file(path, QG_MAX_TEXT_FILE, &data, &len, diags);
    if (st != QG_OK)
        return st;
    st = parse(path, data, len, options, 0, names, each, user, out, diags);
    free(data);
    return st;
}

qg_status qg_des_load(const char *path, const qg_des_options *options,
                      qg_des_names *names, qg_des_file **out, qg_diags *diags)
{
    return load(path, options, names, NULL, NULL, out, diags);
}

qg_status qg_des_load_each(const char *path, const qg_des_options *options,
                           qg_des_names *names, qg_des_each_map each, void *user,
                           qg_des_file **out, qg_diags *diags)
{
    return load(path, options, names, each, user, out, diags);
}

const char *qg_des_file_path(const qg_des_file *file) { return file->path; }
size_t qg_des_map_count(const qg_des_file *file) { return file->map_count; }

qg_mapdef *qg_des_map(const qg_des_file *file, size_t index)
{
    return index < file->map_count ? file->maps[index] : NULL;
}

qg_mapdef *qg_des_take_map(qg_des_file *file, size_t index)
{
    if (index >= file->map_count)
        return NULL;
    qg_mapdef *def = file->maps[index];
    memmove(file->maps + index, file->maps + index + 1,
            (file->map_count - index - 1) * sizeof *file->maps);
    file->map_count--;
    return def;
}

const qg_des_chunk *qg_des_global_prelude(const qg_des_file *file)
{
    return file->prelude_view.len ? &file->prelude_view : NULL;
}

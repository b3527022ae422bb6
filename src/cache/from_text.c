/* A map of a cache read from its source text with its front end, for a
 * cache whose sources changed since it was written (QG_STALE_READ_TEXT). */
#include "cache/reader.h"
#include "questgrid/des.h"
#include "questgrid/fd.h"
#include "core/file.h"

#include <stdlib.h>
#include <string.h>

static qg_mapdef *take_des_map(const char *path, const char *name, qg_diags *diags)
{
    qg_des_file *file = NULL;
    qg_des_load(path, NULL, NULL, &file, diags);
    qg_mapdef *def = NULL;
    for (size_t i = 0; file && !def && i < qg_des_map_count(file); i++)
        if (strcmp(qg_mapdef_name(qg_des_map(file, i)), name) == 0)
            def = qg_des_take_map(file, i);
    qg_des_file_free(file);
    return def;
}

static qg_mapdef *read_fd_map(const char *path, const char *name, qg_diags *diags)
{
    qg_fd_options options;
    qg_fd_options_init(&options);
    qg_mapdef *def = NULL;
    qg_fd_read(path, &options, &def, diags);
    if (def && strcmp(qg_mapdef_name(def), name) != 0) {
        qg_mapdef_free(def);
        def = NULL;
    }
    return def;
}

qg_status qgc_load_from_text(const qg_cache *c, const qg_cache_entry *e,
                             qg_mapdef **out, qg_diags *diags)
{
    *out = NULL;
    const qg_cache_file *f = &c->files[e->file];
    char *path = qg_path_join(c->source_dir, f->path);
    if (!path) {
        qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "out of memory");
        return QG_ERR_NOMEM;
    }
    qg_mapdef *def = f->format == QG_FORMAT_DES ? take_des_map(path, e->name, diags)
                                                : read_fd_map(path, e->name, diags);
    if (!def)
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0,
                     "map '%s' is no longer in this file", e->name);
    free(path);
    *out = def;
    return def ? QG_OK : QG_ERR_NOTFOUND;
}

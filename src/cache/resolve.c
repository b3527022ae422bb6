/* Levels from cached maps: the map's file text (context plus the map) goes
 * back through its front end, so a level resolved from the cache is the one
 * the source would give. */
#include "cache/reader.h"
#include "core/file.h"

#include <stdlib.h>
#include <string.h>

static qg_status resolve_des(const qg_cache_entry *e, const char *path, const char *text,
                             size_t len, const qg_cache_resolve_options *opt,
                             qg_level **out, qg_diags *diags)
{
    qg_des_file *file = NULL;
    qg_status st = qg_des_parse(path, text, len, NULL, NULL, &file, diags);
    qg_runtime *rt = st == QG_OK ? qg_runtime_new(opt->runtime, diags) : NULL;
    if (st == QG_OK && !rt)
        st = QG_ERR_NOMEM;
    if (st == QG_OK) {
        st = qg_runtime_add_file(rt, file, diags);
        file = NULL;
    }
    qg_mapdef *def = st == QG_OK ? qg_runtime_find_map(rt, e->name) : NULL;
    if (st == QG_OK && !def) {
        qg_diags_add(diags, QG_ERROR, path, e->line, 0, NULL, 0,
                     "map '%s' is not in its cached text", e->name);
        st = QG_ERR_CORRUPT;
    }
    if (st == QG_OK)
        st = qg_runtime_resolve(rt, def, opt->seed, opt->context, out, diags);
    qg_runtime_free(rt);
    qg_des_file_free(file);
    return st;
}

static qg_status resolve_fd(const char *path, const char *text, size_t len,
                            const qg_cache_resolve_options *opt, qg_level **out,
                            qg_diags *diags)
{
    qg_fd_options defaults;
    qg_fd_options_init(&defaults);
    const qg_fd_options *fo = opt->fd ? opt->fd : &defaults;
    qg_mapdef *def = NULL;
    qg_status st = qg_fd_parse(path, text, len, fo, &def, diags);
    if (st == QG_OK)
        st = qg_fd_resolve(def, fo, opt->vars, out, diags);
    qg_mapdef_free(def);
    return st;
}

qg_status qg_cache_resolve(const qg_cache *c, size_t index,
                           const qg_cache_resolve_options *options, qg_level **out,
                           qg_diags *diags)
{
    *out = NULL;
    qg_cache_resolve_options none;
    memset(&none, 0, sizeof none);
    const qg_cache_resolve_options *opt = options ? options : &none;
    char *text;
    size_t len;
    qg_status st = qg_cache_map_file_text(c, index, &text, &len, diags);
    if (st != QG_OK)
        return st;
    const qg_cache_entry *e = &c->maps[index];
    char *path = qg_path_join(c->source_dir, c->files[e->file].path);
    if (!path)
        st = QG_ERR_NOMEM;
    else if (e->format == QG_FORMAT_DES)
        st = resolve_des(e, path, text, len, opt, out, diags);
    else if (e->format == QG_FORMAT_FD)
        st = resolve_fd(path, text, len, opt, out, diags);
    else
        st = QG_ERR_INVALID;
    if (st == QG_ERR_NOMEM)
        qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "out of memory");
    free(path);
    free(text);
    return st;
}

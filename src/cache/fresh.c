/* qg_cache_open: the cache opened as written (open.c), then what its
 * stale policy does about sources changed since it was written: nothing,
 * read their maps from the text (from_text.c), or compile them again
 * (compile.c). A recompile that cannot happen (a source is gone) or that
 * fails falls back to reading the text, so the caller always gets current
 * maps. */
#include "cache/reader.h"
#include "core/file.h"

#include <stdlib.h>
#include <string.h>

static qg_status recompile(qg_cache **cache, const char *path,
                           const qg_cache_open_options *opt, qg_diags *diags)
{
    qg_cache *c = *cache;
    size_t n = c->header.file_count;
    const char **paths = calloc(n + 1, sizeof *paths);
    if (!paths)
        return QG_ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        paths[i] = c->files[i].path;
    qg_compile_options co;
    memset(&co, 0, sizeof co);
    if (opt->compile)
        co = *opt->compile;
    co.base_dir = opt->source_dir;
    qg_status st = qg_cache_compile(paths, n, path, &co, NULL, diags);
    free(paths);
    qg_cache *fresh = NULL;
    if (st == QG_OK)
        st = qgc_open_file(path, opt, &fresh, diags);
    if (st != QG_OK) {
        qg_diags_add(diags, QG_WARNING, path, 0, 0, NULL, 0,
                     "could not recompile the cache; reading changed maps from their text");
        c->stale = QG_STALE_READ_TEXT;
        return QG_OK;
    }
    qg_cache_close(c);
    *cache = fresh;
    return QG_OK;
}

/* May replace *cache with a recompiled one. */
static qg_status apply_stale_policy(qg_cache **cache, const char *path,
                                    const qg_cache_open_options *opt, qg_diags *diags)
{
    qg_cache *c = *cache;
    if (!opt || opt->stale == QG_STALE_IGNORE)
        return QG_OK;
    c->stale = opt->stale;
    c->states = calloc(c->header.file_count + 1, sizeof *c->states);
    c->source_dir = opt->source_dir ? qg_strdup(opt->source_dir) : NULL;
    if (!c->states || (opt->source_dir && !c->source_dir))
        return QG_ERR_NOMEM;
    size_t changed = 0, missing = 0;
    qg_status st = qg_cache_check_sources(c, opt->source_dir, opt->check_flags, c->states,
                                          &changed, diags);
    if (st != QG_OK || changed == 0 || opt->stale != QG_STALE_RECOMPILE)
        return st;
    for (size_t i = 0; i < c->header.file_count; i++)
        missing += c->states[i] == QG_SOURCE_MISSING;
    if (missing) {
        qg_diags_add(diags, QG_WARNING, path, 0, 0, NULL, 0,
                     "%zu source files are missing, so the cache is not recompiled; "
                     "reading changed maps from their text", missing);
        c->stale = QG_STALE_READ_TEXT;
        return QG_OK;
    }
    return recompile(cache, path, opt, diags);
}

qg_status qg_cache_open(const char *path, const qg_cache_open_options *options,
                        qg_cache **out, qg_diags *diags)
{
    *out = NULL;
    qg_cache *c = NULL;
    qg_status st = qgc_open_file(path, options, &c, diags);
    if (st != QG_OK)
        return st;
    st = apply_stale_policy(&c, path, options, diags);
    if (st != QG_OK) {
        if (st == QG_ERR_NOMEM)
            qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "out of memory");
        qg_cache_close(c);
        return st;
    }
    *out = c;
    return QG_OK;
}

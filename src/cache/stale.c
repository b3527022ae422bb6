/* Has a source changed since the cache was written? Size and mtime equal
 * to what was recorded answer "no" without reading the file; otherwise the
 * content hash decides, so a touched but unchanged file stays fresh and a
 * changed file with a restored mtime is still caught under
 * QG_CACHE_CHECK_HASH. */
#define _POSIX_C_SOURCE 200809L
#include "cache/reader.h"
#include "core/file.h"

#include <stdlib.h>
#include <sys/stat.h>

static int same_stat(const qg_cache_file *f, const struct stat *st)
{
    return f->mtime_sec != 0 && (uint64_t)st->st_size == f->size &&
           (int64_t)st->st_mtim.tv_sec == f->mtime_sec &&
           (long)st->st_mtim.tv_nsec == f->mtime_nsec;
}

static qg_source_state check_one(const qg_cache_file *f, const char *path,
                                 unsigned flags)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return QG_SOURCE_MISSING;
    if (!(flags & QG_CACHE_CHECK_HASH) && same_stat(f, &st))
        return QG_SOURCE_FRESH;
    if ((uint64_t)st.st_size != f->size)
        return QG_SOURCE_CHANGED;
    char *data;
    size_t len;
    if (qg_read_file(path, QG_MAX_TEXT_FILE, &data, &len, NULL) != QG_OK)
        return QG_SOURCE_MISSING;
    qg_source_state state = qg_cache_hash(data, len) == f->hash && len == f->size
                                ? QG_SOURCE_FRESH : QG_SOURCE_CHANGED;
    free(data);
    return state;
}

qg_status qg_cache_check_sources(const qg_cache *c, const char *base_dir,
                                 unsigned flags, qg_source_state *states,
                                 size_t *changed, qg_diags *diags)
{
    size_t n = 0;
    for (size_t i = 0; i < c->header.file_count; i++) {
        const qg_cache_file *f = &c->files[i];
        char *path = qg_path_join(base_dir, f->path);
        if (!path) {
            qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "out of memory");
            return QG_ERR_NOMEM;
        }
        states[i] = check_one(f, path, flags);
        if (states[i] == QG_SOURCE_CHANGED) {
            qg_diags_add(diags, QG_NOTE, path, 0, 0, NULL, 0,
                         "changed since the cache %s was written", c->path);
            n++;
        }
        free(path);
    }
    if (changed)
        *changed = n;
    return QG_OK;
}

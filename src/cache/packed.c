/* A source file packed apart from any writer: the part of adding a file
 * that depends on that file only, so that it can run on any thread. */
#include "cache/pack.h"
#include "cache/reader.h"

#include <stdlib.h>
#include <string.h>

qg_status qgc_pack_source(const qg_cache_source *src, const qg_mapdef *const *defs,
                          size_t count, qgc_packed *out)
{
    memset(out, 0, sizeof *out);
    qgc_file_rec *file = &out->file;
    file->meta = (qgc_file_meta){qg_strdup(src->path), src->format, src->len, src->mtime_sec,
                                 src->mtime_nsec, qg_cache_hash(src->data, src->len), count,
                                 {0, 0, 0, 0}};
    file->text = qg_strndup(src->data, src->len);
    file->len = src->len;
    out->maps = calloc(count + 1, sizeof *out->maps);
    out->count = count;
    qg_status st = file->meta.path && file->text && out->maps ? QG_OK : QG_ERR_NOMEM;
    if (st == QG_OK)
        st = qgc_pack_file(file, 0, defs, out->maps, count);
    free(file->text);   /* its slices and context are in the blobs now */
    file->text = NULL;
    if (st != QG_OK)
        qgc_packed_free(out);
    return st;
}

void qgc_packed_free(qgc_packed *p)
{
    for (size_t i = 0; p->maps && i < p->count; i++)
        qgc_map_rec_free(&p->maps[i]);
    free(p->maps);
    qgc_file_rec_free(&p->file);
    memset(p, 0, sizeof *p);
}

/* F:/D: files need no Lua: reading one gives its definition, whose quest
 * number, name and size are the index fields. Includes are read from the
 * including file's own directory, as the games do. */
#include "cache/compile.h"
#include "questgrid/fd.h"

#include <stdlib.h>

qg_status qgc_compile_fd(qgc_inputs *in, qg_cache_writer *w,
                         qg_compile_stats *stats, qg_diags *diags)
{
    qg_fd_options options;
    qg_fd_options_init(&options);
    qg_status worst = QG_OK;
    for (size_t f = 0; f < in->count; f++) {
        qgc_input *item = &in->items[f];
        if (item->format != QG_FORMAT_FD)
            continue;
        qg_mapdef *def = NULL;
        qg_status st = qg_fd_parse(item->io_path, item->data, item->len, &options, &def, diags);
        if (st != QG_OK) {
            stats->failed += def != NULL;
            worst = st == QG_ERR_NOMEM || worst == QG_OK ? st : worst;
            qg_mapdef_free(def);
            continue;
        }
        qg_cache_source src = {item->path, QG_FORMAT_FD, item->data, item->len,
                               item->mtime_sec, item->mtime_nsec};
        const qg_mapdef *defs[1] = {def};
        st = qg_cache_writer_add_file(w, &src, defs, 1, diags);
        stats->files++;
        stats->source_bytes += item->len;
        free(item->data);
        item->data = NULL;
        qg_mapdef_free(def);
        if (st != QG_OK)
            return st;
    }
    return worst;
}

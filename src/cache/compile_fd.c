/* F:/D: files need no Lua: reading one gives its definition, whose quest
 * number, name and size are the index fields. Includes are read from the
 * including file's own directory, as the games do. */
#include "cache/compile.h"
#include "core/diag.h"
#include "questgrid/fd.h"

#include <stdlib.h>

static qg_status compile_one(qgc_input *item, const qg_fd_options *options, qgc_run *run)
{
    qg_mapdef *def = NULL;
    qg_diags *read = qg_diags_new();
    qg_status st = read ? qg_fd_parse(item->io_path, item->data, item->len, options, &def, read)
                        : QG_ERR_NOMEM;
    qg_diags_take(run->diags, read);
    qg_status failed = st;
    if (st != QG_OK && def && run->opt->keep_going)
        st = qgc_mark_skipped(def, read);
    qg_diags_free(read);
    if (st != QG_OK) {
        run->stats->failed += def != NULL;
        qg_mapdef_free(def);
        return st;
    }
    run->stats->failed += failed != QG_OK;
    qg_cache_source src = {item->path, QG_FORMAT_FD, item->data, item->len,
                           item->mtime_sec, item->mtime_nsec};
    const qg_mapdef *defs[1] = {def};
    st = qg_cache_writer_add_file(run->w, &src, defs, 1, run->diags);
    run->stats->files++;
    run->stats->source_bytes += item->len;
    qg_mapdef_free(def);
    return st == QG_OK ? failed : st;
}

/* A file with errors is left out and the others compiled; a file that
 * cannot be read, or a failure to add one, stops the compile (*fatal). */
qg_status qgc_compile_fd(qgc_inputs *in, qgc_run *run, int *fatal)
{
    *fatal = 0;
    qg_fd_options options;
    qg_fd_options_init(&options);
    qg_status worst = QG_OK;
    for (size_t f = 0; f < in->count; f++) {
        qgc_input *item = &in->items[f];
        if (item->format != QG_FORMAT_FD)
            continue;
        if (run->opt->cancel && *run->opt->cancel) {
            *fatal = 1;
            return QG_ERR_IO;
        }
        qg_status st = qgc_read_input(item, run->diags);
        int added = st == QG_OK;
        if (added)
            st = compile_one(item, &options, run);
        qgc_input_drop(item);
        qgc_file_done(run);
        if (!added || st == QG_ERR_NOMEM || st == QG_ERR_IO) {
            *fatal = 1;
            return st;
        }
        if (st != QG_OK && worst == QG_OK)
            worst = st;
    }
    return worst;
}

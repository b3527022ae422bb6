/* The F:/D: payload of a map definition: the files of a load, their
 * records in reading order, and the parsed F: and Q: lines. */
#include "fd/fd_internal.h"

#include <stdlib.h>

void fd_payload_free(void *payload)
{
    fd_payload *pl = payload;
    if (!pl)
        return;
    for (size_t i = 0; i < pl->file_count; i++) {
        free(pl->files[i].path);
        free(pl->files[i].data);
        free(pl->files[i].outline);
    }
    free(pl->files);
    free(pl->records);
    qg_arena_free(&pl->store);
    free(pl);
}

const fd_payload *fd_payload_of(const qg_mapdef *def)
{
    if (!def || def->format != QG_FORMAT_FD || def->payload_free != fd_payload_free)
        return NULL;
    return def->payload;
}

const char *fd_keep(fd_reader *r, const char *p, size_t len)
{
    const char *copy = qg_arena_strndup(&r->pl->store, p, len);
    if (!copy)
        r->failed = 1;
    return copy;
}

qg_fd_dialect qg_fd_mapdef_dialect(const qg_mapdef *def)
{
    const fd_payload *pl = fd_payload_of(def);
    return pl ? pl->dialect : QG_FD_AUTO;
}

size_t qg_fd_file_count(const qg_mapdef *def)
{
    const fd_payload *pl = fd_payload_of(def);
    return pl ? pl->file_count : 0;
}

const char *qg_fd_file_path(const qg_mapdef *def, size_t index)
{
    const fd_payload *pl = fd_payload_of(def);
    return pl && index < pl->file_count ? pl->files[index].path : NULL;
}

size_t qg_fd_record_count(const qg_mapdef *def)
{
    const fd_payload *pl = fd_payload_of(def);
    return pl ? pl->record_count : 0;
}

const qg_fd_record *qg_fd_record_at(const qg_mapdef *def, size_t index)
{
    const fd_payload *pl = fd_payload_of(def);
    return pl && index < pl->record_count ? pl->records[index] : NULL;
}

void qg_fd_options_init(qg_fd_options *options)
{
    options->dialect = QG_FD_AUTO;
    options->edit_dir = NULL;
    options->vocab = NULL;
    options->japanese = 0;
    options->max_include_depth = QG_FD_INCLUDE_DEPTH;
    options->no_includes = 0;
    options->check_vocab = 0;
    options->kind = QG_KIND_UNKNOWN;
    options->source = NULL;
    options->source_user = NULL;
    options->allow_include_outside = 0;
    options->seeded = 0;
    options->seed = 0;
}

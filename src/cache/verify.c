/* The full check behind `questgrid cache verify` and the writer's
 * re-verification: every blob's bounds, CRC, inflation and structure (that
 * the blobs tile the blob area exactly was checked at open). */
#include "cache/reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t check_map(const qg_cache *c, size_t i, const unsigned char *const *contexts,
                        qg_diags *diags)
{
    const qg_cache_entry *e = &c->maps[i];
    char what[300];
    snprintf(what, sizeof what, "map '%s'", e->name);
    qgc_blob_ref ref = {e->blob_offset, e->blob_size, e->raw_size, e->crc32};
    unsigned char *raw;
    if (qgc_read_blob(c, &ref, what, &raw, diags) != QG_OK)
        return 1;
    qgc_map_blob blob;
    size_t errors = 0, pos, blank;
    const unsigned char *ctx = contexts[e->file];
    if (!qgc_decode_map_head(c->meta[i].data, c->meta[i].len, raw, e->raw_size, e->line,
                             &blob) ||
        qgc_decode_map_body(e, &blob, NULL) != QG_OK) {
        qgc_corrupt(diags, c, "%s: malformed blob", what);
        errors++;
    } else if (ctx && !qgc_splice_point(ctx, c->file_blobs[e->file].raw_size, &blob, &pos,
                                        &blank)) {
        qgc_corrupt(diags, c, "%s: its text does not fit its file", what);
        errors++;
    }
    free(raw);
    return errors;
}

qg_status qg_cache_verify(const qg_cache *c, qg_diags *diags)
{
    size_t errors = 0, n = c->header.file_count;
    unsigned char **contexts = calloc(n + 1, sizeof *contexts);
    if (!contexts) {
        qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "out of memory");
        return QG_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        char what[300];
        snprintf(what, sizeof what, "context of %s", c->files[i].path);
        if (qgc_read_blob(c, &c->file_blobs[i], what, &contexts[i], diags) != QG_OK)
            errors++;
    }
    for (size_t i = 0; i < c->header.map_count; i++)
        errors += check_map(c, i, (const unsigned char *const *)contexts, diags);
    for (size_t i = 0; i < n; i++)
        free(contexts[i]);
    free(contexts);
    return errors ? QG_ERR_CORRUPT : QG_OK;
}

/* The full check behind `questgrid cache verify` and the writer's
 * re-verification: every blob's bounds, CRC, inflation and structure, and
 * that the blobs tile the blob area exactly. */
#include "cache/reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct span {
    uint64_t offset;
    uint64_t size;
} span;

static int by_offset(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static size_t check_tiling(const qg_cache *c, qg_diags *diags)
{
    size_t n = c->header.file_count + (size_t)c->header.map_count;
    span *spans = malloc((n + 1) * sizeof *spans);
    if (!spans)
        return 1;
    for (size_t i = 0; i < c->header.file_count; i++)
        spans[i] = (span){c->file_blobs[i].offset, c->file_blobs[i].size};
    for (size_t i = 0; i < c->header.map_count; i++)
        spans[c->header.file_count + i] = (span){c->maps[i].blob_offset, c->maps[i].blob_size};
    qsort(spans, n, sizeof *spans, by_offset);
    uint64_t at = 0;
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (spans[i].offset != at)
            bad++;
        at = spans[i].offset + spans[i].size;
    }
    free(spans);
    if (bad || at != c->header.file_size - c->header.blobs_offset) {
        qgc_corrupt(diags, c, "blobs overlap or leave gaps in the blob area");
        return 1;
    }
    return 0;
}

static size_t check_map(const qg_cache *c, size_t i, qg_diags *diags)
{
    const qg_cache_entry *e = &c->maps[i];
    char what[300];
    snprintf(what, sizeof what, "map '%s'", e->name);
    qgc_blob_ref ref = {e->blob_offset, e->blob_size, e->raw_size, e->crc32};
    unsigned char *raw;
    if (qgc_read_blob(c, &ref, what, &raw, diags) != QG_OK)
        return 1;
    qgc_map_blob blob;
    size_t errors = 0;
    const qgc_blob_ref *ctx = &c->file_blobs[e->file];
    if (!qgc_decode_map_head(raw, e->raw_size, &blob) ||
        qgc_decode_map_body(e, &blob, NULL) != QG_OK) {
        qgc_corrupt(diags, c, "%s: malformed blob", what);
        errors++;
    } else if (blob.ctx_pos > ctx->raw_size || blob.ctx_blank > ctx->raw_size - blob.ctx_pos) {
        qgc_corrupt(diags, c, "%s: splice point outside its file", what);
        errors++;
    }
    free(raw);
    return errors;
}

qg_status qg_cache_verify(const qg_cache *c, qg_diags *diags)
{
    size_t errors = check_tiling(c, diags);
    for (size_t i = 0; i < c->header.file_count; i++) {
        char what[300];
        snprintf(what, sizeof what, "context of %s", c->files[i].path);
        unsigned char *raw;
        if (qgc_read_blob(c, &c->file_blobs[i], what, &raw, diags) != QG_OK)
            errors++;
        free(raw);
    }
    for (size_t i = 0; i < c->header.map_count; i++)
        errors += check_map(c, i, diags);
    return errors ? QG_ERR_CORRUPT : QG_OK;
}

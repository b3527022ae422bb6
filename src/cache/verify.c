/* The full check behind `questgrid cache verify`: every blob's bounds, CRC,
 * inflation and structure (that the blobs tile the blob area exactly was
 * checked at open); and the CRC check alone, the writer's re-verification. */
#define _DEFAULT_SOURCE
#include "cache/reader.h"
#include "cache/zblob.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A file's context and where each of its lines starts: each map's text is
 * checked against its line without walking the context from the top. */
typedef struct context {
    unsigned char *text;
    size_t *line_start;  /* line_start[k]: offset of line k + 1 */
    size_t lines;
} context;

static int index_context(context *ctx, size_t len)
{
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += ctx->text[i] == '\n';
    ctx->line_start = malloc(n * sizeof *ctx->line_start);
    if (!ctx->line_start)
        return 0;
    ctx->line_start[0] = 0;
    ctx->lines = 1;
    for (size_t i = 0; i < len; i++)
        if (ctx->text[i] == '\n')
            ctx->line_start[ctx->lines++] = i + 1;
    return 1;
}

static int fits_context(const qg_cache *c, const qg_cache_entry *e, const context *ctx,
                        const qgc_map_blob *blob)
{
    size_t len = c->file_blobs[e->file].raw_size, pos, blank;
    if (blob->first_line > ctx->lines)
        return 0;
    size_t at = blob->first_line ? ctx->line_start[blob->first_line - 1] : 0;
    return qgc_splice_at(ctx->text, len, at, blob, &pos, &blank);
}

static size_t check_map(const qg_cache *c, size_t i, const context *contexts,
                        qgc_inflater *inf, qg_diags *diags)
{
    const qg_cache_entry *e = &c->maps[i];
    unsigned char *raw;
    qgc_map_blob blob;
    if (qgc_read_map(c, i, inf, &raw, &blob, diags) != QG_OK)
        return 1;
    size_t errors = 0;
    const context *ctx = &contexts[e->file];
    if (qgc_decode_map_body(e, &blob, NULL) != QG_OK) {
        qgc_corrupt(diags, c, "map '%s': malformed blob", e->name);
        errors++;
    } else if (ctx->text && !fits_context(c, e, ctx, &blob)) {
        qgc_corrupt(diags, c, "map '%s': its text does not fit its file", e->name);
        errors++;
    }
    free(raw);
    return errors;
}

/* Reads and indexes a file's context; 1 for a problem (reported), -1
 * when out of memory. */
static int read_context(const qg_cache *c, size_t i, context *ctx, qgc_inflater *inf,
                        qg_diags *diags)
{
    char what[300];
    snprintf(what, sizeof what, "context of %s", c->files[i].path);
    qg_status read = qgc_read_blob(c, &c->file_blobs[i], inf, what, &ctx->text, diags);
    if (read == QG_OK && !index_context(ctx, c->file_blobs[i].raw_size)) {
        qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "out of memory");
        read = QG_ERR_NOMEM;
    }
    return read == QG_ERR_NOMEM ? -1 : read != QG_OK;
}

/* The contexts of every file, then every map against its file's. */
static qg_status check_all(const qg_cache *c, context *contexts, qg_diags *diags)
{
    qgc_inflater inf;
    qgc_inflater_init(&inf);
    size_t errors = 0;
    int nomem = 0;
    for (size_t i = 0; i < c->header.file_count && !nomem; i++) {
        int bad = read_context(c, i, &contexts[i], &inf, diags);
        nomem = bad < 0;
        errors += bad != 0;
    }
    for (size_t i = 0; i < c->header.map_count && !nomem; i++)
        errors += check_map(c, i, contexts, &inf, diags);
    qgc_inflater_end(&inf);
    if (nomem)
        return QG_ERR_NOMEM;
    return errors ? QG_ERR_CORRUPT : QG_OK;
}

qg_status qg_cache_verify(const qg_cache *c, qg_diags *diags)
{
    size_t n = c->header.file_count;
    context *contexts = calloc(n + 1, sizeof *contexts);
    if (!contexts) {
        qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "out of memory");
        return QG_ERR_NOMEM;
    }
    qg_status st = check_all(c, contexts, diags);
    for (size_t i = 0; i < n; i++) {
        free(contexts[i].text);
        free(contexts[i].line_start);
    }
    free(contexts);
    return st;
}

/* The blobs are checked in file order. A mapped file's pages are given
 * back as the check passes them: the writer checks each cache it writes,
 * and would otherwise hold the whole file in memory at the end. */
typedef struct crc_pass {
    const qg_cache *c;
    size_t released;
} crc_pass;

static int crc_matches(crc_pass *pass, uint64_t offset, uint32_t size, uint32_t crc)
{
    const qg_cache *c = pass->c;
    uint64_t at = c->header.blobs_offset + offset;
    int ok = qgc_crc32(c->data + at, size) == crc;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), done = (size_t)(at + size) / page * page;
    if (c->mapped && done >= pass->released + (1u << 20)) {
        madvise((void *)(uintptr_t)(c->data + pass->released), done - pass->released,
                MADV_DONTNEED);
        pass->released = done;
    }
    return ok;
}

qg_status qgc_verify_crcs(const qg_cache *c, qg_diags *diags)
{
    size_t errors = 0;
    crc_pass pass = {c, 0};
    for (size_t i = 0; i < c->header.file_count; i++) {
        const qgc_blob_ref *ref = &c->file_blobs[i];
        if (!crc_matches(&pass, ref->offset, ref->size, ref->crc)) {
            qgc_corrupt(diags, c, "context of %s: blob CRC mismatch", c->files[i].path);
            errors++;
        }
    }
    for (size_t i = 0; i < c->header.map_count; i++) {
        const qg_cache_entry *e = &c->maps[i];
        if (!crc_matches(&pass, e->blob_offset, e->blob_size, e->crc32)) {
            qgc_corrupt(diags, c, "map '%s': blob CRC mismatch", e->name);
            errors++;
        }
    }
    return errors ? QG_ERR_CORRUPT : QG_OK;
}

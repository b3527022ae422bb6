/* The full check behind `questgrid cache verify` and the writer's
 * re-verification: every blob's bounds, CRC, inflation and structure (that
 * the blobs tile the blob area exactly was checked at open). The writer
 * checks on several threads: the files' contexts, then the maps, are split
 * into runs, each reported into diagnostics of its own that are joined in
 * order, so the report is the same for any thread count. */
#include "cache/reader.h"
#include "cache/zblob.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_VERIFY_JOBS = 64 };

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
    char what[300];
    snprintf(what, sizeof what, "map '%s'", e->name);
    qgc_blob_ref ref = {e->blob_offset, e->blob_size, e->raw_size, e->crc32};
    unsigned char *raw;
    if (qgc_read_blob(c, &ref, inf, what, &raw, diags) != QG_OK)
        return 1;
    qgc_map_blob blob;
    size_t errors = 0;
    const context *ctx = &contexts[e->file];
    if (!qgc_decode_map_head(c->meta[i].data, c->meta[i].len, raw, e->raw_size, e->line,
                             &blob) ||
        qgc_decode_map_body(e, &blob, NULL) != QG_OK) {
        qgc_corrupt(diags, c, "%s: malformed blob", what);
        errors++;
    } else if (ctx->text && !fits_context(c, e, ctx, &blob)) {
        qgc_corrupt(diags, c, "%s: its text does not fit its file", what);
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

/* One thread's share of a pass: the contexts of files [from, to), or the
 * maps [from, to) once every context is read. */
typedef struct run {
    const qg_cache *c;
    context *contexts;
    int maps;
    size_t from, to;
    qg_diags *diags;
    size_t errors;
    int nomem;
} run;

static void *check_run(void *p)
{
    run *r = p;
    qgc_inflater inf;
    qgc_inflater_init(&inf);
    for (size_t i = r->from; i < r->to && !r->nomem; i++) {
        if (r->maps) {
            r->errors += check_map(r->c, i, r->contexts, &inf, r->diags);
        } else {
            int bad = read_context(r->c, i, &r->contexts[i], &inf, r->diags);
            r->nomem = bad < 0;
            r->errors += bad != 0;
        }
    }
    qgc_inflater_end(&inf);
    return NULL;
}

/* Runs a pass over count items on jobs threads (this one included); a run
 * whose thread cannot start is checked here. Reports come in item order.
 * Returns the problems found; *nomem is set when memory ran out. */
static size_t check_pass(const qg_cache *c, context *contexts, int maps, size_t count,
                         int jobs, int *nomem, qg_diags *diags)
{
    size_t errors = 0;
    run runs[MAX_VERIFY_JOBS];
    pthread_t threads[MAX_VERIFY_JOBS];
    int started[MAX_VERIFY_JOBS] = {0};
    jobs = jobs < 1 ? 1 : jobs > MAX_VERIFY_JOBS ? MAX_VERIFY_JOBS : jobs;
    runs[0].diags = diags;
    for (int k = 1; k < jobs; k++)
        if (!(runs[k].diags = qg_diags_new()))
            jobs = k;
    for (int k = 0; k < jobs; k++) {
        runs[k].c = c;
        runs[k].contexts = contexts;
        runs[k].maps = maps;
        runs[k].from = count * (size_t)k / (size_t)jobs;
        runs[k].to = count * (size_t)(k + 1) / (size_t)jobs;
        runs[k].errors = 0;
        runs[k].nomem = 0;
    }
    for (int k = 1; k < jobs; k++)
        started[k] = pthread_create(&threads[k], NULL, check_run, &runs[k]) == 0;
    check_run(&runs[0]);
    for (int k = 1; k < jobs; k++) {
        if (started[k])
            pthread_join(threads[k], NULL);
        else
            check_run(&runs[k]);
    }
    for (int k = 0; k < jobs; k++) {
        errors += runs[k].errors;
        *nomem |= runs[k].nomem;
        if (k) {
            qgc_diags_merge(diags, runs[k].diags);
            qg_diags_free(runs[k].diags);
        }
    }
    return errors;
}

qg_status qgc_verify(const qg_cache *c, int jobs, qg_diags *diags)
{
    size_t n = c->header.file_count;
    context *contexts = calloc(n + 1, sizeof *contexts);
    if (!contexts) {
        qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "out of memory");
        return QG_ERR_NOMEM;
    }
    int nomem = 0;
    size_t errors = check_pass(c, contexts, 0, n, jobs, &nomem, diags);
    if (!nomem)
        errors += check_pass(c, contexts, 1, c->header.map_count, jobs, &nomem, diags);
    for (size_t i = 0; i < n; i++) {
        free(contexts[i].text);
        free(contexts[i].line_start);
    }
    free(contexts);
    if (nomem)
        return QG_ERR_NOMEM;
    return errors ? QG_ERR_CORRUPT : QG_OK;
}

qg_status qg_cache_verify(const qg_cache *c, qg_diags *diags)
{
    return qgc_verify(c, 1, diags);
}

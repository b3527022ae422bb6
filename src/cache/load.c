/* Loading one map: its definition, its own source text, or its source file
 * as a front end must re-read it (context with this map spliced back). */
#include "cache/reader.h"
#include "core/buf.h"
#include "core/mapdef.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static qg_status read_map_blob(const qg_cache *c, size_t index, unsigned char **raw,
                               qgc_map_blob *blob, qg_diags *diags)
{
    const qg_cache_entry *e = qg_cache_entry_at(c, index);
    if (!e) {
        qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "no map %zu in the cache", index);
        return QG_ERR_NOTFOUND;
    }
    return qgc_read_map(c, index, NULL, raw, blob, diags);
}

qg_source_state qg_cache_source_state(const qg_cache *c, size_t file)
{
    return c->states && file < c->header.file_count ? c->states[file] : QG_SOURCE_FRESH;
}

qg_status qg_cache_load_map(const qg_cache *c, size_t index, qg_mapdef **out,
                            qg_diags *diags)
{
    *out = NULL;
    const qg_cache_entry *entry = qg_cache_entry_at(c, index);
    if (entry && c->stale == QG_STALE_READ_TEXT &&
        qg_cache_source_state(c, entry->file) == QG_SOURCE_CHANGED)
        return qgc_load_from_text(c, entry, out, diags);
    unsigned char *raw;
    qgc_map_blob blob;
    qg_status st = read_map_blob(c, index, &raw, &blob, diags);
    if (st != QG_OK)
        return st;
    const qg_cache_entry *e = &c->maps[index];
    qg_mapdef *def = qg_mapdef_new(e->format, e->name);
    if (!def)
        st = QG_ERR_NOMEM;
    if (st == QG_OK) {
        qg_mapdef_set_kind(def, e->kind);
        st = qg_mapdef_set_file(def, c->files[e->file].path, e->line);
    }
    if (st == QG_OK)
        st = qgc_decode_map_body(e, &blob, def);
    free(raw);
    if (st == QG_ERR_CORRUPT)
        qgc_corrupt(diags, c, "map '%s': malformed rows or properties", e->name);
    else if (st == QG_ERR_NOMEM)
        qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "out of memory");
    if (st != QG_OK) {
        qg_mapdef_free(def);
        return st;
    }
    *out = def;
    return QG_OK;
}

qg_status qg_cache_map_source(const qg_cache *c, size_t index, char **text,
                              size_t *len, int *first_line, qg_diags *diags)
{
    *text = NULL;
    *len = 0;
    unsigned char *raw;
    qgc_map_blob blob;
    qg_status st = read_map_blob(c, index, &raw, &blob, diags);
    if (st != QG_OK)
        return st;
    /* The slice sits inside raw: move it to the front and hand raw over. */
    memmove(raw, blob.text, blob.text_len);
    raw[blob.text_len] = '\0';
    *text = (char *)raw;
    *len = blob.text_len;
    if (first_line)
        *first_line = (int)blob.first_line;
    return QG_OK;
}

int qgc_splice_point(const unsigned char *ctx, size_t ctx_len, const qgc_map_blob *b,
                     size_t *pos, size_t *blank)
{
    size_t at = 0;
    for (size_t line = 1; line < b->first_line; line++) {
        const unsigned char *nl = memchr(ctx + at, '\n', ctx_len - at);
        if (!nl)
            return 0;
        at = (size_t)(nl - ctx) + 1;
    }
    return qgc_splice_at(ctx, ctx_len, at, b, pos, blank);
}

int qgc_splice_at(const unsigned char *ctx, size_t ctx_len, size_t at,
                  const qgc_map_blob *b, size_t *pos, size_t *blank)
{
    *pos = *blank = 0;
    if (!b->first_line)
        return b->text_len == 0;
    size_t n = 0;
    for (size_t i = 0; i < b->text_len; i++)
        n += b->text[i] == '\n';
    if (n > ctx_len - at)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (ctx[at + i] != '\n')
            return 0;
    *pos = at;
    *blank = n;
    return 1;
}

qg_status qg_cache_map_file_text(const qg_cache *c, size_t index, char **text,
                                 size_t *len, qg_diags *diags)
{
    *text = NULL;
    *len = 0;
    unsigned char *raw, *ctx;
    qgc_map_blob blob;
    qg_status st = read_map_blob(c, index, &raw, &blob, diags);
    if (st != QG_OK)
        return st;
    const qg_cache_entry *e = &c->maps[index];
    char what[300];
    snprintf(what, sizeof what, "context of %s", c->files[e->file].path);
    st = qgc_read_blob(c, &c->file_blobs[e->file], NULL, what, &ctx, diags);
    size_t ctx_len = c->file_blobs[e->file].raw_size, pos, blank;
    if (st == QG_OK && !qgc_splice_point(ctx, ctx_len, &blob, &pos, &blank))
        st = qgc_corrupt(diags, c, "map '%s': its text does not fit its file", e->name);
    char *out = NULL;
    if (st == QG_OK) {
        size_t n = ctx_len - blank + blob.text_len;
        out = malloc(n + 1);
        if (out) {
            memcpy(out, ctx, pos);
            memcpy(out + pos, blob.text, blob.text_len);
            memcpy(out + pos + blob.text_len, ctx + pos + blank, ctx_len - pos - blank);
            out[n] = '\0';
            *text = out;
            *len = n;
        } else {
            qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "out of memory");
            st = QG_ERR_NOMEM;
        }
    }
    free(raw);
    free(ctx);
    return st;
}

/* A map of a file, where its slice goes back into the file's context. */
typedef struct slice_at {
    size_t index, pos, blank;
} slice_at;

static int by_pos(const void *a, const void *b)
{
    const slice_at *x = a, *y = b;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The maps of file and where each goes back, in the order of the text. */
static qg_status slices_of(const qg_cache *c, size_t file, const unsigned char *ctx,
                           size_t ctx_len, slice_at **out, size_t *count, qg_diags *diags)
{
    *count = 0;
    *out = malloc((c->files[file].map_count + 1) * sizeof **out);
    if (!*out)
        return QG_ERR_NOMEM;
    qg_status st = QG_OK;
    for (size_t i = 0; st == QG_OK && i < c->header.map_count; i++) {
        if (c->maps[i].file != file)
            continue;
        unsigned char *raw;
        qgc_map_blob blob;
        if ((st = read_map_blob(c, i, &raw, &blob, diags)) != QG_OK)
            break;
        slice_at *s = &(*out)[*count];
        if (*count >= c->files[file].map_count ||
            !qgc_splice_point(ctx, ctx_len, &blob, &s->pos, &s->blank))
            st = qgc_corrupt(diags, c, "map '%s': its text does not fit its file",
                             c->maps[i].name);
        s->index = i;
        ++*count;
        free(raw);
    }
    qsort(*out, *count, sizeof **out, by_pos);
    return st;
}

qg_status qg_cache_file_text(const qg_cache *c, size_t file, char **text, size_t *len,
                             qg_diags *diags)
{
    *text = NULL;
    *len = 0;
    if (file >= c->header.file_count) {
        qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "no file %zu in the cache", file);
        return QG_ERR_NOTFOUND;
    }
    unsigned char *ctx;
    char what[300];
    snprintf(what, sizeof what, "context of %s", c->files[file].path);
    qg_status st = qgc_read_blob(c, &c->file_blobs[file], NULL, what, &ctx, diags);
    if (st != QG_OK)
        return st;
    size_t ctx_len = c->file_blobs[file].raw_size, count = 0;
    slice_at *slices = NULL;
    st = slices_of(c, file, ctx, ctx_len, &slices, &count, diags);
    qg_buf out;
    qg_buf_init(&out);
    size_t at = 0;
    for (size_t i = 0; st == QG_OK && i < count; i++) {
        unsigned char *raw;
        qgc_map_blob blob;
        if ((st = read_map_blob(c, slices[i].index, &raw, &blob, diags)) != QG_OK)
            break;
        qg_buf_append(&out, ctx + at, slices[i].pos - at);
        qg_buf_append(&out, blob.text, blob.text_len);
        at = slices[i].pos + slices[i].blank;
        free(raw);
    }
    if (st == QG_OK)
        qg_buf_append(&out, ctx + at, ctx_len - at);
    free(slices);
    free(ctx);
    if (st == QG_OK && out.failed)
        st = QG_ERR_NOMEM;
    if (st == QG_ERR_NOMEM)
        qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "out of memory");
    if (st != QG_OK) {
        qg_buf_free(&out);
        return st;
    }
    *len = out.len;
    *text = qg_buf_take(&out);
    return *text ? QG_OK : QG_ERR_NOMEM;
}

/* The cache a compile writes over, when it is one this questgrid made
 * with the same Lua library: the entries of a file whose text and key
 * (what its compile depended on besides its text) are unchanged are taken
 * from it as they are, its blob texts cut out of its source again (else
 * inflated) for the writer, which then makes the cache a compile of
 * every file would. */
#include "cache/previous.h"
#include "cache/zblob.h"
#include "core/buf.h"
#include "core/file.h"

#include <stdlib.h>
#include <string.h>

typedef struct named {
    const char *path;
    size_t file;
} named;

typedef struct placed {
    size_t file;
    int line;
    size_t map;
} placed;

static int by_path(const void *a, const void *b)
{
    return strcmp(((const named *)a)->path, ((const named *)b)->path);
}

static int by_file_then_line(const void *a, const void *b)
{
    const placed *x = a, *y = b;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return (x->map > y->map) - (x->map < y->map);
}

/* The files by path and each file's maps in the order of their lines
 * (the order the compile read them in). */
static qg_status arrange(qgc_previous *p)
{
    const qg_cache *c = p->cache;
    size_t files = c->header.file_count, maps = c->header.map_count;
    named *by_name = malloc((files + 1) * sizeof *by_name);
    placed *order = malloc((maps + 1) * sizeof *order);
    p->paths = malloc((files + 1) * sizeof *p->paths);
    p->maps = malloc((maps + 1) * sizeof *p->maps);
    p->first = calloc(files + 2, sizeof *p->first);
    p->sources = calloc(files + 1, sizeof *p->sources);
    qg_status st = by_name && order && p->paths && p->maps && p->first && p->sources
                       ? QG_OK : QG_ERR_NOMEM;
    for (size_t f = 0; st == QG_OK && f < files; f++)
        by_name[f] = (named){c->files[f].path, f};
    for (size_t m = 0; st == QG_OK && m < maps; m++) {
        order[m] = (placed){c->maps[m].file, c->maps[m].line, m};
        p->first[c->maps[m].file + 1]++;
    }
    if (st == QG_OK) {
        qsort(by_name, files, sizeof *by_name, by_path);
        qsort(order, maps, sizeof *order, by_file_then_line);
        for (size_t f = 0; f < files; f++) {
            p->paths[f] = by_name[f].file;
            p->first[f + 1] += p->first[f];
        }
        for (size_t m = 0; m < maps; m++)
            p->maps[m] = order[m].map;
    }
    free(by_name);
    free(order);
    return st;
}

/* Why the cache at path gives nothing to reuse, or NULL when it does. */
static const char *unusable(const qg_cache *c, uint64_t environment)
{
    if (c->header.format_version < 3)
        return "its format (2) records nothing to reuse files by";
    if (c->environment != environment)
        return "it was compiled by another questgrid or with another Lua library";
    return NULL;
}

qg_status qgc_previous_open(qgc_previous *p, const char *path, uint64_t environment,
                            qg_diags *diags)
{
    memset(p, 0, sizeof *p);
    qg_diags *why = qg_diags_new();
    if (!why)
        return QG_ERR_NOMEM;
    qg_cache_open_options plain = {0};
    qg_status st = qgc_open_file(path, &plain, &p->cache, why);
    const char *reason = st == QG_OK ? unusable(p->cache, environment) : NULL;
    if (st == QG_OK && !reason)
        st = arrange(p);
    else if (st != QG_ERR_NOTFOUND && st != QG_ERR_NOMEM)
        qg_diags_add(diags, QG_NOTE, path, 0, 0, NULL, 0,
                     "every file is compiled: %s", reason ? reason
                     : qg_diags_count(why) ? qg_diags_get(why, 0)->message
                                           : "it is not a cache this questgrid reads");
    qg_diags_free(why);
    if (st == QG_OK && !reason)
        return QG_OK;
    qgc_previous_close(p);
    return st == QG_ERR_NOMEM ? st : QG_OK;
}

void qgc_previous_close(qgc_previous *p)
{
    qg_cache_close(p->cache);
    free(p->paths);
    free(p->maps);
    free(p->first);
    free(p->sources);
    memset(p, 0, sizeof *p);
}

void qgc_previous_lend(const qgc_previous *p, qg_cache_writer *w)
{
    const qg_cache *c = p->cache;
    if (!c)
        return;
    qgc_writer_prior prior = {c->data + c->header.blobs_offset,
                              c->header.file_size - c->header.blobs_offset, c->dict, c->dict_len,
                              c->index, c->header.index_raw_size,
                              c->data + QGC_HEADER_SIZE, c->header.index_size};
    qgc_writer_set_prior(w, &prior);
}

void qgc_previous_set_source(qgc_previous *p, size_t f, const char *io_path)
{
    if (p->cache && f < p->cache->header.file_count)
        p->sources[f] = io_path;
}

size_t qgc_previous_find(const qgc_previous *p, const char *path)
{
    if (!p || !p->cache)
        return QG_CACHE_NONE;
    size_t lo = 0, hi = p->cache->header.file_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(p->cache->files[p->paths[mid]].path, path);
        if (c == 0)
            return p->paths[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return QG_CACHE_NONE;
}

/* ---- a file's entries, unpacked ------------------------------------------ */

/* The bytes of the map's blob the dictionary counts lines in: the slice,
 * its name left out (doc/qgc-format.md, "Map metadata"). */
static int slice_bytes(const qg_cache_entry *e, const qgc_bytes *meta, size_t *counted)
{
    qgc_cursor cur;
    qgc_cursor_init(&cur, meta->data, meta->len);
    qgc_get_svarint(&cur);
    uint64_t name_place = qgc_get_varint(&cur);
    *counted = e->raw_size;
    if (qgc_get_varint(&cur) != QGC_ROWS_LISTED)
        return !cur.bad;
    /* the slice with its name put back, the listed rows after it */
    size_t slice = (size_t)qgc_get_varint(&cur), name = name_place ? strlen(e->name) : 0;
    if (cur.bad || slice < name || slice - name > e->raw_size)
        return 0;
    *counted = slice - name;
    return 1;
}

static qg_status unpack_map(const qgc_previous *p, size_t m, qgc_map_rec *out,
                            qg_diags *diags)
{
    const qg_cache *c = p->cache;
    const qg_cache_entry *e = &c->maps[m];
    const char *fields[7] = {e->tags, e->depth, e->place, e->orient, e->chance, e->weight,
                             e->desc};
    out->name = qg_strdup(e->name);
    out->quest = e->quest;
    out->kind = e->kind;
    out->format = e->format;
    out->line = e->line;
    int ok = out->name != NULL;
    for (int f = 0; f < 7; f++)
        ok = (out->fields[f] = qg_strdup(fields[f])) && ok;
    qg_buf_append(&out->meta, c->meta[m].data, c->meta[m].len);
    if (!ok || out->meta.failed)
        return QG_ERR_NOMEM;
    if (!slice_bytes(e, &c->meta[m], &out->slice_len))
        return qgc_corrupt(diags, c, "map '%s': malformed metadata", e->name);
    out->blob.prior = (qgc_prior){e->blob_offset + 1, e->blob_size, e->crc32};
    return QG_OK;
}

static qg_status inflate_map(const qg_cache *c, size_t m, qgc_inflater *inf, qg_buf *raw,
                             qg_diags *diags)
{
    const qg_cache_entry *e = &c->maps[m];
    qgc_blob_ref ref = {e->blob_offset, e->blob_size, e->raw_size, e->crc32};
    return qgc_read_blob_into(c, &ref, inf, e->name, raw, diags);
}

/* The blob texts cut out of file f's source where it has one that is
 * still the text compiled (rebuilt[k]: map k's was); -1 on no memory. */
static int texts_from_source(const qgc_previous *p, size_t f, qgc_packed *out, int *rebuilt)
{
    char *text;
    size_t len;
    if (!p->sources[f] || qg_read_file(p->sources[f], QG_MAX_TEXT_FILE, &text, &len, NULL) !=
                              QG_OK)
        return 0;
    int made = qgc_previous_from_source(p, f, text, len, out, rebuilt);
    free(text);
    return made;
}

/* File f's blob texts: cut out of its source, the rest inflated. */
static qg_status fill_blobs(const qgc_previous *p, size_t f, qgc_packed *out,
                            qg_diags *diags)
{
    const qg_cache *c = p->cache;
    int *rebuilt = calloc(out->count + 1, sizeof *rebuilt);
    if (!rebuilt)
        return QG_ERR_NOMEM;
    int made = texts_from_source(p, f, out, rebuilt);
    qg_status st = made < 0 ? QG_ERR_NOMEM : QG_OK;
    qgc_inflater inf;
    qgc_inflater_init(&inf);
    if (st == QG_OK && !made)
        st = qgc_read_blob_into(c, &c->file_blobs[f], &inf, out->file.meta.path,
                                &out->file.blob.raw, diags);
    for (size_t k = 0; k < out->count && st == QG_OK; k++)
        if (!rebuilt[k])
            st = inflate_map(c, p->maps[p->first[f] + k], &inf, &out->maps[k].blob.raw,
                             diags);
    qgc_inflater_end(&inf);
    free(rebuilt);
    return st;
}

qg_status qgc_previous_unpack(const qgc_previous *p, size_t f, const qg_cache_file *now,
                              qgc_packed *out, qg_diags *diags)
{
    const qg_cache *c = p->cache;
    memset(out, 0, sizeof *out);
    size_t count = p->first[f + 1] - p->first[f];
    qgc_file_rec *file = &out->file;
    const qg_cache_file *was = &c->files[f];
    file->meta = (qgc_file_meta){qg_strdup(now->path), was->format, was->size, now->mtime_sec,
                                 now->mtime_nsec, was->hash, count, c->reuse[f]};
    out->maps = calloc(count + 1, sizeof *out->maps);
    out->count = count;
    qg_status st = file->meta.path && out->maps ? QG_OK : QG_ERR_NOMEM;
    const qgc_blob_ref *ctx = &c->file_blobs[f];
    file->blob.prior = (qgc_prior){ctx->offset + 1, ctx->size, ctx->crc};
    for (size_t k = 0; k < count && st == QG_OK; k++)
        st = unpack_map(p, p->maps[p->first[f] + k], &out->maps[k], diags);
    if (st == QG_OK)
        st = fill_blobs(p, f, out, diags);
    if (st == QG_ERR_NOMEM)
        qg_diags_add(diags, QG_ERROR, now->path, 0, 0, NULL, 0, "out of memory");
    if (st != QG_OK)
        qgc_packed_free(out);
    return st;
}

qg_status qgc_previous_names(const qgc_previous *p, size_t f, char ***names, int **lines,
                             size_t *count)
{
    size_t n = p->first[f + 1] - p->first[f];
    *count = 0;
    *names = calloc(n + 1, sizeof **names);
    *lines = calloc(n + 1, sizeof **lines);
    if (!*names || !*lines)
        return QG_ERR_NOMEM;
    for (size_t k = 0; k < n; k++) {
        const qg_cache_entry *e = &p->cache->maps[p->maps[p->first[f] + k]];
        if (!((*names)[k] = qg_strdup(e->name)))
            return QG_ERR_NOMEM;
        (*lines)[k] = e->line;
        (*count)++;
    }
    return QG_OK;
}

qg_status qgc_previous_context(const qgc_previous *p, size_t f, unsigned char **text,
                               size_t *len, qg_diags *diags)
{
    *len = p->cache->file_blobs[f].raw_size;
    return qgc_read_blob(p->cache, &p->cache->file_blobs[f], NULL, p->cache->files[f].path,
                         text, diags);
}

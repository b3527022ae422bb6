/* A reused file's blob texts made again from its source rather than
 * inflated from the cache written over: the file is read and its lines
 * hashed for the dictionary anyway, and cutting it where the index
 * records its slices costs a fraction of inflating it. A map blob is its
 * slice with its name left out; the context is the file with the slices'
 * lines blank (pack.c). What this cannot make (rows stored after a
 * slice), or a text whose length is not the recorded one, is left to the
 * caller to inflate. */
#include "cache/previous.h"
#include "core/file.h"

#include <string.h>

/* The source, walked forward line by line to each slice in turn. */
typedef struct walk {
    const char *text;
    size_t len;
    size_t at;      /* where line `line` starts */
    size_t line;
    size_t context_from;  /* the first byte not yet in the context */
} walk;

/* Moves to the start of line `line`; 0 when it lies behind or past the
 * end. */
static int walk_to(walk *w, size_t line)
{
    while (w->line < line) {
        const char *nl = memchr(w->text + w->at, '\n', w->len - w->at);
        if (!nl)
            return 0;
        w->at = (size_t)(nl - w->text) + 1;
        w->line++;
    }
    return w->line == line;
}

static size_t newlines(const char *text, size_t len)
{
    size_t n = 0;
    for (const char *p = text, *end = text + len; (p = memchr(p, '\n', (size_t)(end - p)));
         p++)
        n++;
    return n;
}

/* Where map e's slice is (with its name, which starts at *name_at; len
 * when it has none) and whether its blob is the slice alone: from its
 * metadata (doc/qgc-format.md, "Map metadata"). */
static int slice_of(const qg_cache_entry *e, const qgc_bytes *meta, size_t *first_line,
                    size_t *name_at, size_t *len, int *plain)
{
    qgc_cursor cur;
    qgc_cursor_init(&cur, meta->data, meta->len);
    int64_t first = (int64_t)e->line + qgc_get_svarint(&cur);
    uint64_t name_place = qgc_get_varint(&cur);
    *plain = qgc_get_varint(&cur) != QGC_ROWS_LISTED;
    size_t name = name_place ? strlen(e->name) : 0;
    *len = *plain ? (size_t)e->raw_size + name : (size_t)qgc_get_varint(&cur);
    *name_at = name_place ? (size_t)(name_place - 1) : *len;
    if (cur.bad || first < 0 || (name_place && (*name_at >= *len || name > *len - *name_at)))
        return 0;
    *first_line = (size_t)first;
    return first > 0 || *len == 0;
}

/* Map e's slice cut out of the source: its blob text when plain, and
 * the slice's lines blank in the context. */
static int cut_slice(walk *w, const qg_cache_entry *e, const qgc_bytes *meta, qg_buf *raw,
                     qg_buf *context, int *plain)
{
    size_t first_line, name_at, len;
    if (!slice_of(e, meta, &first_line, &name_at, &len, plain))
        return 0;
    if (!len)
        return 1;
    if (!walk_to(w, first_line) || len > w->len - w->at ||
        (w->at + len < w->len && w->text[w->at + len - 1] != '\n'))
        return 0;
    const char *slice = w->text + w->at;
    size_t name = strlen(e->name);
    if (name_at < len && memcmp(slice + name_at, e->name, name) != 0)
        return 0;
    if (*plain) {
        size_t head = name_at < len ? name_at : len;
        qg_buf_append(raw, slice, head);
        if (head < len)
            qg_buf_append(raw, slice + head + name, len - head - name);
    }
    qg_buf_append(context, w->text + w->context_from, w->at - w->context_from);
    size_t blank = newlines(slice, len);
    for (size_t i = 0; i < blank; i++)
        qg_buf_putc(context, '\n');
    w->at += len;
    w->line += blank;
    w->context_from = w->at;
    return 1;
}

int qgc_previous_from_source(const qgc_previous *p, size_t f, const char *text, size_t len,
                             qgc_packed *out, int *rebuilt)
{
    const qg_cache *c = p->cache;
    walk w = {text, len, 0, 1, 0};
    qg_buf *context = &out->file.blob.raw;
    int ok = len == c->files[f].size && qg_buf_reserve(context, c->file_blobs[f].raw_size);
    for (size_t k = 0; ok && k < out->count; k++) {
        size_t m = p->maps[p->first[f] + k];
        qg_buf *raw = &out->maps[k].blob.raw;
        ok = cut_slice(&w, &c->maps[m], &c->meta[m], raw, context, &rebuilt[k]) &&
             (!rebuilt[k] || raw->len == c->maps[m].raw_size);
    }
    if (ok)
        qg_buf_append(context, text + w.context_from, len - w.context_from);
    ok = ok && context->len == c->file_blobs[f].raw_size;
    int failed = context->failed;
    for (size_t k = 0; k < out->count; k++)
        failed |= out->maps[k].blob.raw.failed;
    if (!ok || failed) {
        qg_buf_reset(context);
        for (size_t k = 0; k < out->count; k++) {
            qg_buf_reset(&out->maps[k].blob.raw);
            rebuilt[k] = 0;
        }
    }
    return failed ? -1 : ok;
}

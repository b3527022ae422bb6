/* Collects packed files and maps, then lays the cache out: header, the
 * compressed index (files, maps sorted by name, dictionary), the blobs.
 *
 * What a file adds goes to scratch files at once (blob texts to one, each
 * map's name and index record to another): in memory the writer keeps
 * three sizes per map, so a corpus of any size compiles in about the same
 * memory. Writing reads the scratch files back: the records whole, the
 * texts once from start to end for the dictionary, then blob by blob,
 * compressed in index order into a third scratch file (one per thread),
 * which follows the index into the cache. */
#define _POSIX_C_SOURCE 200809L
#include "cache/pack.h"
#include "cache/write.h"
#include "cache/zblob.h"
#include "core/file.h"

#include <errno.h>
#include <lua.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct wfile {
    char *path;
    qg_format format;
    uint64_t size;
    int64_t mtime_sec;
    long mtime_nsec;
    uint64_t hash;
    size_t map_count;
    qgc_spilled blob;  /* the context */
} wfile;

/* What the writer holds of a map until it writes: where its pieces are
 * follows from the sizes, the files being written one after another
 * (each file's context, then its maps). */
typedef struct wmap {
    uint32_t record_len;
    uint32_t len;      /* its blob text */
    uint32_t counted;  /* the slice, whose lines the dictionary counts */
} wmap;

struct qg_cache_writer {
    int spilling;          /* 1 once the scratch files are open, -1 if they failed */
    qgc_spill texts;       /* blob texts, in the order added */
    qgc_spill records;     /* per map: name, file, line, then its index columns */
    wfile *files;
    size_t file_count, file_cap;
    wmap *maps;
    size_t map_count, map_cap;
};

qg_cache_writer *qg_cache_writer_new(void)
{
    qg_cache_writer *w = calloc(1, sizeof(qg_cache_writer));
    if (w)
        w->texts.fd = w->records.fd = -1;
    return w;
}

void qg_cache_writer_free(qg_cache_writer *w)
{
    if (!w)
        return;
    qgc_spill_close(&w->texts);
    qgc_spill_close(&w->records);
    for (size_t i = 0; i < w->file_count; i++)
        free(w->files[i].path);
    free(w->files);
    free(w->maps);
    free(w);
}

size_t qg_cache_writer_map_count(const qg_cache_writer *w)
{
    return w->map_count;
}

static qg_status no_memory(qg_diags *diags, const char *path)
{
    qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "out of memory");
    return QG_ERR_NOMEM;
}

static qg_status spill_failed(qg_cache_writer *w, const char *path, qg_diags *diags)
{
    qgc_spill_report(w->texts.err ? &w->texts : &w->records, path, diags);
    return QG_ERR_IO;
}

static int start_spilling(qg_cache_writer *w)
{
    if (!w->spilling)
        w->spilling = qgc_spill_open(&w->texts) && qgc_spill_open(&w->records) ? 1 : -1;
    return w->spilling == 1;
}

static void spill_text(qg_cache_writer *w, const qg_buf *raw)
{
    qgc_spill_append(&w->texts, raw->data ? raw->data : "", raw->len);
}

/* A map's record: its name (NUL-terminated), file and line, then every
 * column the index stores for it but the name and the file, in column
 * order. */
static void put_record(qg_buf *b, const qgc_map_rec *m, size_t file)
{
    qgc_put_cstr(b, m->name);
    qgc_put_varint(b, file);
    qgc_put_svarint(b, m->line);
    qgc_put_svarint(b, m->quest);
    qgc_put_varint(b, (uint64_t)m->kind);
    qgc_put_varint(b, (uint64_t)m->format);
    qgc_put_varint(b, (uint64_t)(m->line < 0 ? 0 : m->line));
    for (int f = 0; f < 7; f++)
        qgc_put_str(b, m->fields[f]);
    qgc_put_bytes(b, m->meta.data ? m->meta.data : "", m->meta.len);
}

static qg_status add_map(qg_cache_writer *w, const qgc_map_rec *m, qg_buf *record)
{
    qg_buf_reset(record);
    put_record(record, m, w->file_count - 1);
    wmap *map = m->blob.raw.len <= UINT32_MAX && record->len <= UINT32_MAX
        ? QG_PUSH(w->maps, w->map_count, w->map_cap) : NULL;
    if (!map || record->failed)
        return QG_ERR_NOMEM;
    *map = (wmap){(uint32_t)record->len, (uint32_t)m->blob.raw.len, (uint32_t)m->slice_len};
    qgc_spill_append(&w->records, record->data, record->len);
    spill_text(w, &m->blob.raw);
    return QG_OK;
}

qg_status qgc_writer_add_packed(qg_cache_writer *w, qgc_packed *p, qg_diags *diags)
{
    if (!start_spilling(w)) {
        qg_status st = spill_failed(w, p->file.path, diags);
        qgc_packed_free(p);
        return st;
    }
    qg_status st = QG_ERR_NOMEM;
    wfile *file = p->file.blob.raw.len <= UINT32_MAX
        ? QG_PUSH(w->files, w->file_count, w->file_cap) : NULL;
    if (file) {
        const qgc_file_rec *f = &p->file;
        uint32_t len = (uint32_t)f->blob.raw.len;
        *file = (wfile){f->path, f->format, f->size, f->mtime_sec, f->mtime_nsec, f->hash,
                        p->count, {0, len, len, 0, 0}};
        p->file.path = NULL;
        spill_text(w, &f->blob.raw);
        qg_buf record;
        qg_buf_init(&record);
        st = QG_OK;
        for (size_t i = 0; i < p->count && st == QG_OK; i++)
            st = add_map(w, &p->maps[i], &record);
        qg_buf_free(&record);
    }
    const char *path = file && file->path ? file->path : p->file.path ? p->file.path : "";
    if (st == QG_OK && (w->texts.err || w->records.err))
        st = spill_failed(w, path, diags);
    else if (st != QG_OK)
        no_memory(diags, path);
    qgc_packed_free(p);
    return st;
}

qg_status qg_cache_writer_add_file(qg_cache_writer *w, const qg_cache_source *src,
                                   const qg_mapdef *const *defs, size_t count,
                                   qg_diags *diags)
{
    qgc_packed p;
    if (qgc_pack_source(src, defs, count, &p) != QG_OK)
        return no_memory(diags, src->path);
    return qgc_writer_add_packed(w, &p, diags);
}

/* ---- the maps at write time ---- */

/* A map as the records read back give it. */
typedef struct wview {
    const char *name;
    size_t file;
    int line;
    const unsigned char *columns;  /* its index columns, in order */
    size_t columns_len;
    qgc_spilled blob;
} wview;

typedef struct named {
    const char *name;
    size_t map;
} named;

/* Everything writing needs, read back from the scratch files. */
typedef struct layout {
    unsigned char *records;
    wview *maps;
    named *order;          /* the maps in index order */
} layout;

static void layout_free(layout *l)
{
    free(l->records);
    free(l->maps);
    free(l->order);
    memset(l, 0, sizeof *l);
}

/* Decodes the records and works out where each blob's text is. */
static qg_status read_back(qg_cache_writer *w, layout *l)
{
    size_t n = w->map_count;
    l->records = malloc(w->records.size + 1);
    l->maps = malloc((n + 1) * sizeof *l->maps);
    l->order = malloc((n + 1) * sizeof *l->order);
    if (!l->records || !l->maps || !l->order)
        return QG_ERR_NOMEM;
    if (!qgc_spill_read(&w->records, 0, l->records, w->records.size))
        return QG_ERR_IO;
    uint64_t record = 0, text = 0;
    size_t m = 0;
    for (size_t f = 0; f < w->file_count; f++) {
        wfile *file = &w->files[f];
        file->blob.at = text;
        text += file->blob.len;
        for (size_t k = 0; k < file->map_count; k++, m++) {
            const wmap *map = &w->maps[m];
            qgc_cursor c;
            qgc_cursor_init(&c, l->records + record, map->record_len);
            size_t name_len;
            wview *v = &l->maps[m];
            v->name = qgc_get_str(&c, &name_len);
            qgc_get_bytes(&c, 1);
            v->file = (size_t)qgc_get_varint(&c);
            v->line = (int)qgc_get_svarint(&c);
            v->columns = c.p;
            v->columns_len = (size_t)(c.end - c.p);
            v->blob = (qgc_spilled){text, map->len, map->counted, 0, 0};
            text += map->len;
            record += map->record_len;
            l->order[m] = (named){v->name, m};
        }
    }
    return QG_OK;
}

static int by_name(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    return (x->map > y->map) - (x->map < y->map);
}

/* A name given twice is reported at the later map. */
static size_t report_bad_names(const qg_cache_writer *w, const layout *l, qg_diags *diags)
{
    size_t bad = 0;
    for (size_t i = 0; i < w->map_count; i++) {
        const wview *m = &l->maps[l->order[i].map];
        if (strlen(m->name) > QGC_MAX_NAME || !m->name[0]) {
            qg_diags_add(diags, QG_ERROR, w->files[m->file].path, m->line, 0, NULL, 0,
                         "a map name must have 1 to %u bytes", QGC_MAX_NAME);
            bad++;
        }
    }
    for (size_t i = 1; i < w->map_count; i++) {
        const wview *a = &l->maps[l->order[i - 1].map], *b = &l->maps[l->order[i].map];
        if (strcmp(a->name, b->name) != 0)
            continue;
        qg_diags_add(diags, QG_ERROR, w->files[b->file].path, b->line, 0, NULL, 0,
                     "map '%s' is already defined at %s:%d", b->name,
                     w->files[a->file].path, a->line);
        bad++;
    }
    return bad;
}

/* ---- compression, shared out over threads ---- */

/* Every blob in index order: the files' contexts, then the maps'. */
static qgc_spilled *blob_at(qg_cache_writer *w, layout *l, size_t i)
{
    return i < w->file_count ? &w->files[i].blob : &l->maps[l->order[i - w->file_count].map].blob;
}

typedef struct deflate_part {
    qg_cache_writer *w;
    layout *l;
    const qg_buf *dict;
    volatile sig_atomic_t *cancel;
    size_t first, end;     /* the blobs it compresses */
    qgc_spill out;         /* their compressed bytes, one after another */
    qg_status status;
    int err;               /* errno of a scratch file failure */
} deflate_part;

static qg_status deflate_blob(deflate_part *part, qgc_deflater *d, qg_buf *raw, qg_buf *z,
                              qgc_spilled *b)
{
    qg_buf_reset(raw);
    qg_buf_reset(z);
    if (!qg_buf_reserve(raw, b->len))
        return QG_ERR_NOMEM;
    if (!qgc_spill_read(&part->w->texts, b->at, raw->data, b->len)) {
        part->err = errno;
        return QG_ERR_IO;
    }
    qg_status st = qgc_deflater_run(d, raw->data ? raw->data : "", b->len,
                                    part->dict->data, part->dict->len, z);
    if (st != QG_OK)
        return st;
    if (z->len > UINT32_MAX)
        return QG_ERR_LIMIT;
    b->z_len = (uint32_t)z->len;
    b->crc = qgc_crc32(z->data, z->len);
    qgc_spill_append(&part->out, z->data, z->len);
    if (part->out.err) {
        part->err = part->out.err;
        return QG_ERR_IO;
    }
    return QG_OK;
}

static void *deflate_worker(void *arg)
{
    deflate_part *part = arg;
    qgc_deflater d;
    qgc_deflater_init(&d);
    qg_buf raw, z;
    qg_buf_init(&raw);
    qg_buf_init(&z);
    part->status = qgc_spill_open(&part->out) ? QG_OK : QG_ERR_IO;
    if (part->status != QG_OK)
        part->err = part->out.err;
    for (size_t i = part->first; i < part->end && part->status == QG_OK; i++) {
        if (part->cancel && *part->cancel)
            part->status = QG_ERR_IO;
        else
            part->status = deflate_blob(part, &d, &raw, &z, blob_at(part->w, part->l, i));
    }
    if (part->status == QG_OK && !qgc_spill_flush(&part->out)) {
        part->err = part->out.err;
        part->status = QG_ERR_IO;
    }
    qg_buf_free(&raw);
    qg_buf_free(&z);
    qgc_deflater_end(&d);
    return NULL;
}

enum { MAX_DEFLATE_JOBS = 64 };

/* The blobs cut into one run a thread, each compressed into a scratch
 * file of its own; parts[0..*count) hold them in index order. */
static qg_status compress_all(qg_cache_writer *w, layout *l, const qg_buf *dict,
                              const qg_cache_write_options *opt, deflate_part *parts,
                              int *count)
{
    size_t total = w->file_count + w->map_count;
    int jobs = opt->jobs > 1 ? opt->jobs : 1;
    if (jobs > MAX_DEFLATE_JOBS)
        jobs = MAX_DEFLATE_JOBS;
    if ((size_t)jobs > total)
        jobs = total ? (int)total : 1;
    pthread_t threads[MAX_DEFLATE_JOBS];
    int started[MAX_DEFLATE_JOBS] = {0};
    for (int k = 0; k < jobs; k++) {
        parts[k] = (deflate_part){w, l, dict, opt->cancel, total * (size_t)k / (size_t)jobs,
                                  total * (size_t)(k + 1) / (size_t)jobs, {0}, QG_OK, 0};
        parts[k].out.fd = -1;
    }
    for (int k = 1; k < jobs; k++)
        started[k] = pthread_create(&threads[k], NULL, deflate_worker, &parts[k]) == 0;
    deflate_worker(&parts[0]);
    for (int k = 1; k < jobs; k++) {
        if (started[k])
            pthread_join(threads[k], NULL);
        else
            deflate_worker(&parts[k]);
    }
    *count = jobs;
    qg_status st = QG_OK;
    for (int k = 0; k < jobs; k++)
        if (parts[k].status != QG_OK && (st == QG_OK || st == QG_ERR_IO))
            st = parts[k].status;
    if (opt->cancel && *opt->cancel)
        return QG_ERR_IO;
    return st;
}

/* ---- the index ---- */

static void put_blob_ref(qg_buf *b, const qgc_spilled *blob)
{
    qgc_put_varint(b, blob->z_len);
    qgc_put_varint(b, blob->len);
    qgc_put_u32(b, blob->crc);
}

/* The index goes to its compressor as it is made, a few pages at a time:
 * built whole, it took memory in proportion to the corpus. */
static void flow(qg_buf *idx, qgc_piece_stream *z)
{
    if (idx->len >= 64 * 1024)
        qgc_piece_stream_take(z, idx);
}

/* Sorted names share prefixes: each is stored as the length it shares
 * with the previous one and the rest. */
static void put_names(qg_buf *idx, const qg_cache_writer *w, const layout *l,
                      qgc_piece_stream *z)
{
    const char *prev = "";
    for (size_t i = 0; i < w->map_count; i++) {
        const char *name = l->order[i].name;
        size_t shared = 0;
        while (prev[shared] && prev[shared] == name[shared])
            shared++;
        qgc_put_varint(idx, shared);
        qgc_put_str(idx, name + shared);
        prev = name;
        flow(idx, z);
    }
}

/* Copies column `column` of a map's columns (put_record's order: quest,
 * kind, format, line, the seven fields, the metadata) to the index. */
static void put_column(qg_buf *idx, const unsigned char *record, size_t len, int column)
{
    qgc_cursor c;
    qgc_cursor_init(&c, record, len);
    if (column == 0) {
        qgc_put_svarint(idx, qgc_get_svarint(&c));
        return;
    }
    qgc_get_svarint(&c);
    for (int k = 1; k < 4; k++) {
        uint64_t v = qgc_get_varint(&c);
        if (k == column) {
            qgc_put_varint(idx, v);
            return;
        }
    }
    for (int k = 4; k < 12; k++) {
        size_t n;
        const char *s = qgc_get_str(&c, &n);
        if (k == column) {
            qgc_put_bytes(idx, s, n);
            if (k < 11)
                qg_buf_putc(idx, '\0');
            return;
        }
    }
}

/* The maps are stored column by column: like values sit together, which
 * is what deflate compresses best. */
static void build_index(const qg_cache_writer *w, const layout *l, const qg_buf *dict,
                        qg_buf *idx, qgc_piece_stream *z)
{
    qgc_put_varint(idx, w->file_count);
    for (size_t i = 0; i < w->file_count; i++) {
        const wfile *f = &w->files[i];
        qgc_put_cstr(idx, f->path);
        qgc_put_varint(idx, (uint64_t)f->format);
        qgc_put_varint(idx, f->size);
        qgc_put_svarint(idx, f->mtime_sec);
        qgc_put_varint(idx, (uint64_t)f->mtime_nsec);
        qgc_put_u64(idx, f->hash);
        qgc_put_varint(idx, f->map_count);
        put_blob_ref(idx, &f->blob);
        flow(idx, z);
    }
    qgc_put_varint(idx, w->map_count);
    put_names(idx, w, l, z);
    for (int column = 0; column < 12; column++) {
        if (column == 3)
            for (size_t i = 0; i < w->map_count; i++) {
                qgc_put_varint(idx, l->maps[l->order[i].map].file);
                flow(idx, z);
            }
        for (size_t i = 0; i < w->map_count; i++) {
            const wview *m = &l->maps[l->order[i].map];
            put_column(idx, m->columns, m->columns_len, column);
            flow(idx, z);
        }
    }
    for (size_t i = 0; i < w->map_count; i++) {
        put_blob_ref(idx, &l->maps[l->order[i].map].blob);
        flow(idx, z);
    }
    qgc_put_bytes(idx, dict->data ? dict->data : "", dict->len);
    qgc_piece_stream_take(z, idx);
}

/* ---- the file ---- */

typedef struct image {
    unsigned char head[QGC_HEADER_SIZE];
    qg_buf zindex;
    const deflate_part *parts;
    int part_count;
} image;

static int fill_image(int fd, void *user)
{
    const image *im = user;
    if (!qg_write_all(fd, im->head, sizeof im->head) ||
        !qg_write_all(fd, im->zindex.data, im->zindex.len))
        return 0;
    for (int k = 0; k < im->part_count; k++)
        if (!qgc_spill_copy(&im->parts[k].out, 0, im->parts[k].out.size, fd))
            return 0;
    return 1;
}

static qg_status assemble(qg_cache_writer *w, const layout *l, const qg_buf *dict,
                          const deflate_part *parts, int part_count, image *im)
{
    qg_buf idx;
    qg_buf_init(&idx);
    qgc_piece_stream z;
    qgc_piece_stream_init(&z, &im->zindex);
    build_index(w, l, dict, &idx, &z);
    uint64_t raw_size = z.total;
    qg_status st = qgc_piece_stream_finish(&z);
    if (st == QG_OK && (raw_size > QGC_MAX_INDEX_RAW || w->map_count > UINT32_MAX))
        st = QG_ERR_LIMIT;
    if (st == QG_OK) {
        uint64_t blob_bytes = 0;
        for (int k = 0; k < part_count; k++)
            blob_bytes += parts[k].out.size;
        qgc_header h = {
            .format_version = QG_CACHE_FORMAT_VERSION,
            .questgrid_version = QG_VERSION_NUMBER,
            .lua_version = LUA_VERSION_NUM,
            .header_size = QGC_HEADER_SIZE,
            .file_count = (uint32_t)w->file_count,
            .map_count = (uint32_t)w->map_count,
            .blobs_offset = QGC_HEADER_SIZE + im->zindex.len,
            .index_size = (uint32_t)im->zindex.len,
            .index_raw_size = (uint32_t)raw_size,
            .index_crc = qgc_crc32(im->zindex.data, im->zindex.len),
        };
        h.file_size = h.blobs_offset + blob_bytes;
        qgc_header_encode(&h, im->head);
    }
    qg_buf_free(&idx);
    return st;
}

/* The blob texts in the order they were written: each file's context,
 * then its maps. */
static const qgc_spilled **texts_in_order(qg_cache_writer *w, const layout *l)
{
    const qgc_spilled **blobs = malloc((w->file_count + w->map_count + 1) * sizeof *blobs);
    size_t n = 0, m = 0;
    for (size_t f = 0; blobs && f < w->file_count; f++) {
        blobs[n++] = &w->files[f].blob;
        for (size_t k = 0; k < w->files[f].map_count; k++)
            blobs[n++] = &l->maps[m++].blob;
    }
    return blobs;
}

static qg_status make_dictionary(qg_cache_writer *w, const layout *l, qg_buf *dict)
{
    const qgc_spilled **blobs = texts_in_order(w, l);
    qg_status st = blobs ? qgc_build_dictionary(&w->texts, blobs, w->file_count + w->map_count,
                                                dict)
                         : QG_ERR_NOMEM;
    free(blobs);
    return st;
}

static void report(qg_status st, const char *path, volatile sig_atomic_t *cancel,
                   const qg_cache_writer *w, const deflate_part *parts, int part_count,
                   qg_diags *diags)
{
    int err = 0;
    for (int k = 0; k < part_count && !err; k++)
        err = parts[k].err;
    if (cancel && *cancel)
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "interrupted; nothing written");
    else if (st == QG_ERR_LIMIT)
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "the cache index is too large");
    else if (st == QG_ERR_IO)
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "cannot use a scratch file: %s",
                     strerror(err ? err : w->texts.err ? w->texts.err : EIO));
    else
        no_memory(diags, path);
}

qg_status qg_cache_writer_write(qg_cache_writer *w, const char *path,
                                const qg_cache_write_options *options,
                                qg_diags *diags)
{
    qg_cache_write_options none = {0, NULL};
    const qg_cache_write_options *opt = options ? options : &none;
    if (!start_spilling(w) || !qgc_spill_flush(&w->texts) || !qgc_spill_flush(&w->records))
        return spill_failed(w, path, diags);
    layout l;
    memset(&l, 0, sizeof l);
    qg_status st = read_back(w, &l);
    if (st != QG_OK) {
        layout_free(&l);
        return st == QG_ERR_IO ? spill_failed(w, path, diags) : no_memory(diags, path);
    }
    qsort(l.order, w->map_count, sizeof *l.order, by_name);
    if (report_bad_names(w, &l, diags)) {
        layout_free(&l);
        return QG_ERR_INVALID;
    }
    qg_buf dict;
    qg_buf_init(&dict);
    image im;
    memset(&im, 0, sizeof im);
    qg_buf_init(&im.zindex);
    deflate_part parts[MAX_DEFLATE_JOBS];
    int part_count = 0;
    st = make_dictionary(w, &l, &dict);
    if (st == QG_OK)
        st = compress_all(w, &l, &dict, opt, parts, &part_count);
    if (st == QG_OK)
        st = assemble(w, &l, &dict, parts, part_count, &im);
    layout_free(&l);
    qg_buf_free(&dict);
    if (st == QG_OK) {
        im.parts = parts;
        im.part_count = part_count;
        st = qgc_write_verified(path, fill_image, &im, opt->cancel, diags);
    } else {
        report(st, path, opt->cancel, w, parts, part_count, diags);
    }
    for (int k = 0; k < part_count; k++)
        qgc_spill_close(&parts[k].out);
    qg_buf_free(&im.zindex);
    return st;
}

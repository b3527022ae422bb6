/* Collects packed files and maps, then lays the cache out: header, the
 * compressed index (files, maps sorted by name, dictionary), the blobs.
 *
 * What a file adds goes to scratch files at once: blob texts to one, each
 * map's index record to runs sorted by name (cache/records.h). In memory
 * the writer keeps the files and a run, so a corpus of any size compiles
 * in about the same memory. Writing merges the runs into one sorted
 * scratch file and reads it front to back once, into the index's columns
 * (cache/columns.h); the
 * texts are read once from start to end for the dictionary, then blob by
 * blob, compressed in index order into a scratch file a thread, which
 * follows the index into the cache. */
#define _POSIX_C_SOURCE 200809L
#include "cache/columns.h"
#include "cache/pack.h"
#include "cache/records.h"
#include "cache/write.h"
#include "cache/zblob.h"
#include "core/file.h"

#include <errno.h>
#include <pthread.h>
#include <zlib.h>
#include <stdlib.h>
#include <string.h>

typedef struct wfile {
    qgc_file_meta meta; /* its path NULL while its place is reserved, not filled */
    qgc_spilled blob;  /* the context */
    qgc_prior prior;
    qgc_span texts;    /* its blobs' heads and texts, one after another */
} wfile;

struct qg_cache_writer {
    int spilling;          /* 1 once the scratch files are open, -1 if they failed */
    qgc_spill texts;       /* every blob's text after its head (QGC_TEXT_HEAD) */
    qgc_records records;   /* per map: name, place, file, line, blob, index columns */
    wfile *files;
    size_t file_count, file_cap;
    size_t map_count;
    uint64_t environment;
    qgc_writer_prior prior;  /* the cache written over (all 0: none) */
};

qg_cache_writer *qg_cache_writer_new(void)
{
    qg_cache_writer *w = calloc(1, sizeof(qg_cache_writer));
    if (w)
        w->texts.fd = w->records.runs_file.fd = -1;
    return w;
}

void qg_cache_writer_free(qg_cache_writer *w)
{
    if (!w)
        return;
    qgc_spill_close(&w->texts);
    qgc_records_close(&w->records);
    for (size_t i = 0; i < w->file_count; i++)
        free((char *)w->files[i].meta.path);
    free(w->files);
    free(w);
}

size_t qgc_writer_file_count(const qg_cache_writer *w)
{
    return w->file_count;
}

void qgc_writer_set_environment(qg_cache_writer *w, uint64_t environment)
{
    w->environment = environment;
}

void qgc_writer_set_prior(qg_cache_writer *w, const qgc_writer_prior *prior)
{
    w->prior = *prior;
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

/* A scratch file's failure; one that was a buffer's allocation is told
 * as no memory. */
static qg_status spill_failed(qg_cache_writer *w, const char *path, qg_diags *diags)
{
    const qgc_spill *failed = w->texts.err ? &w->texts : &w->records.runs_file;
    if (failed->err == ENOMEM)
        return no_memory(diags, path);
    qgc_spill_report(failed, path, diags);
    return QG_ERR_IO;
}

static int start_spilling(qg_cache_writer *w)
{
    if (!w->spilling)
        w->spilling = qgc_spill_open(&w->texts) && qgc_records_open(&w->records) ? 1 : -1;
    return w->spilling == 1;
}

/* Appends a blob's head and text; where the text starts. */
static uint64_t spill_text(qg_cache_writer *w, const qg_buf *raw, size_t counted)
{
    unsigned char head[QGC_TEXT_HEAD];
    qgc_store_u32(head, (uint32_t)raw->len);
    qgc_store_u32(head + 4, (uint32_t)counted);
    qgc_spill_append(&w->texts, head, sizeof head);
    return qgc_spill_append(&w->texts, raw->data ? raw->data : "", raw->len);
}

/* A map's record: its name (NUL-terminated), its place among the maps
 * (its file's place, then its own in the file: the order the compile
 * read them in, whatever order the files were added in), file and line,
 * where its blob's text is and its prior, then every column the index
 * stores for it but the name and the file, in column order. */
static void put_record(qg_buf *b, const qgc_map_rec *m, size_t file, uint64_t place,
                       uint64_t text_at)
{
    qgc_put_cstr(b, m->name);
    qgc_put_varint(b, place);
    qgc_put_varint(b, file);
    qgc_put_svarint(b, m->line);
    qgc_put_varint(b, text_at);
    qgc_put_varint(b, m->blob.raw.len);
    qgc_put_varint(b, m->blob.prior.at);
    qgc_put_varint(b, m->blob.prior.z_len);
    qgc_put_u32(b, m->blob.prior.crc);
    qgc_put_svarint(b, m->quest);
    qgc_put_varint(b, (uint64_t)m->kind);
    qgc_put_varint(b, (uint64_t)m->format);
    qgc_put_varint(b, (uint64_t)(m->line < 0 ? 0 : m->line));
    for (int f = 0; f < 7; f++)
        qgc_put_str(b, m->fields[f]);
    qgc_put_bytes(b, m->meta.data ? m->meta.data : "", m->meta.len);
}

static qg_status add_map(qg_cache_writer *w, const qgc_map_rec *m, size_t file, size_t i,
                         qg_buf *record)
{
    if (m->blob.raw.len > UINT32_MAX)
        return QG_ERR_NOMEM;
    uint64_t text_at = spill_text(w, &m->blob.raw, m->slice_len);
    qg_buf_reset(record);
    put_record(record, m, file, ((uint64_t)file << 32) | i, text_at);
    if (record->failed)
        return QG_ERR_NOMEM;
    if (!qgc_records_add(&w->records, record))
        return w->records.runs_file.err && w->records.runs_file.err != ENOMEM ? QG_ERR_IO
                                                                              : QG_ERR_NOMEM;
    w->map_count++;
    return QG_OK;
}

qg_status qgc_writer_reserve(qg_cache_writer *w, size_t count)
{
    if (count > SIZE_MAX / sizeof *w->files - w->file_count)
        return QG_ERR_NOMEM;
    size_t want = w->file_count + count;
    if (want > w->file_cap) {
        wfile *files = realloc(w->files, (want ? want : 1) * sizeof *files);
        if (!files)
            return QG_ERR_NOMEM;
        w->files = files;
        w->file_cap = want;
    }
    memset(w->files + w->file_count, 0, count * sizeof *w->files);
    w->file_count = want;
    return QG_OK;
}

/* Spills the file's texts and records; at is its place, reserved. */
static qg_status add_at(qg_cache_writer *w, qgc_packed *p, size_t at)
{
    const qgc_file_rec *f = &p->file;
    if (f->blob.raw.len > UINT32_MAX)
        return QG_ERR_NOMEM;
    uint32_t len = (uint32_t)f->blob.raw.len;
    wfile *file = &w->files[at];
    *file = (wfile){f->meta, {0, len, 0, 0}, f->blob.prior, {0, 0}};
    p->file.meta.path = NULL;
    file->texts.at = w->texts.size;
    file->blob.at = spill_text(w, &f->blob.raw, len);
    qg_buf record;
    qg_buf_init(&record);
    qg_status st = QG_OK;
    for (size_t i = 0; i < p->count && st == QG_OK; i++)
        st = add_map(w, &p->maps[i], at, i, &record);
    qg_buf_free(&record);
    file->texts.len = w->texts.size - file->texts.at;
    return st;
}

qg_status qgc_writer_add_packed_at(qg_cache_writer *w, qgc_packed *p, size_t at,
                                   qg_diags *diags)
{
    if (!start_spilling(w)) {
        qg_status st = spill_failed(w, p->file.meta.path, diags);
        qgc_packed_free(p);
        return st;
    }
    qg_status st = at < w->file_count && !w->files[at].meta.path ? add_at(w, p, at)
                                                                  : QG_ERR_INVALID;
    const char *path = at < w->file_count && w->files[at].meta.path ? w->files[at].meta.path
                       : p->file.meta.path ? p->file.meta.path : "";
    if ((st == QG_OK || st == QG_ERR_IO) && (w->texts.err || w->records.runs_file.err))
        st = spill_failed(w, path, diags);
    else if (st == QG_ERR_INVALID)
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "a file added twice to the cache");
    else if (st != QG_OK)
        no_memory(diags, path);
    qgc_packed_free(p);
    return st;
}

qg_status qgc_writer_add_packed(qg_cache_writer *w, qgc_packed *p, qg_diags *diags)
{
    if (qgc_writer_reserve(w, 1) != QG_OK) {
        qgc_packed_free(p);
        return no_memory(diags, "");
    }
    return qgc_writer_add_packed_at(w, p, w->file_count - 1, diags);
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

/* A map as its record gives it. */
typedef struct wview {
    const char *name;
    size_t file;
    int line;
    qgc_spilled blob;
    qgc_prior prior;
    const unsigned char *columns;  /* its index columns, in order */
    size_t columns_len;
} wview;

static int view_record(const unsigned char *record, size_t len, wview *v)
{
    qgc_cursor c;
    qgc_cursor_init(&c, record, len);
    size_t name_len;
    v->name = qgc_get_str(&c, &name_len);
    qgc_get_bytes(&c, 1);
    qgc_get_varint(&c);
    v->file = (size_t)qgc_get_varint(&c);
    v->line = (int)qgc_get_svarint(&c);
    v->blob = (qgc_spilled){0};
    v->blob.at = qgc_get_varint(&c);
    v->blob.len = (uint32_t)qgc_get_varint(&c);
    v->prior.at = qgc_get_varint(&c);
    v->prior.z_len = (uint32_t)qgc_get_varint(&c);
    v->prior.crc = qgc_get_u32(&c);
    v->columns = c.p;
    v->columns_len = (size_t)(c.end - c.p);
    return !c.bad;
}

/* The maps in index order, one after another. */
typedef struct map_pass {
    qgc_record_reader rd;
    wview map;
} map_pass;

static void pass_start(map_pass *p, const qgc_spill *sorted)
{
    qgc_record_reader_init(&p->rd, sorted, 0, sorted->size);
}

/* 1 with the next map in p->map; 0 at the end or on a failure. */
static int pass_next(map_pass *p)
{
    const unsigned char *record;
    size_t len;
    if (!qgc_record_next(&p->rd, &record, &len))
        return 0;
    if (!view_record(record, len, &p->map)) {
        p->rd.failed = EINVAL;
        return 0;
    }
    return 1;
}

/* The failure that ended a pass (an errno value), or 0. */
static int pass_end(map_pass *p)
{
    int failed = p->rd.failed;
    qgc_record_reader_free(&p->rd);
    return failed;
}

/* Checks the names as the merge hands the maps over in index order: a
 * name given twice is reported at the later map. */
typedef struct name_check {
    const qg_cache_writer *w;
    qg_diags *diags;
    qg_buf prev;           /* the previous map's name, NUL-terminated */
    size_t prev_file;
    int prev_line;
    size_t bad;
    int broken;            /* a record that does not decode */
} name_check;

static void check_name(void *user, const unsigned char *record, size_t len)
{
    name_check *nc = user;
    wview m;
    if (!view_record(record, len, &m)) {
        nc->broken = 1;
        return;
    }
    const char *path = nc->w->files[m.file].meta.path;
    size_t name_len = strlen(m.name);
    if (name_len > QGC_MAX_NAME || !name_len) {
        qg_diags_add(nc->diags, QG_ERROR, path, m.line, 0, NULL, 0,
                     "a map name must have 1 to %u bytes", QGC_MAX_NAME);
        nc->bad++;
    }
    if (nc->prev.len && strcmp(nc->prev.data, m.name) == 0) {
        qg_diags_add(nc->diags, QG_ERROR, path, m.line, 0, NULL, 0,
                     "map '%s' is already defined at %s:%d", m.name,
                     nc->w->files[nc->prev_file].meta.path, nc->prev_line);
        nc->bad++;
    }
    qg_buf_reset(&nc->prev);
    qg_buf_append(&nc->prev, m.name, name_len + 1);
    nc->prev_file = m.file;
    nc->prev_line = m.line;
}

/* Merges the runs into sorted, reporting bad names. */
static qg_status sort_maps(qg_cache_writer *w, qgc_spill *sorted, qg_diags *diags, int *err)
{
    name_check nc = {w, diags, {0}, 0, 0, 0, 0};
    qg_buf_init(&nc.prev);
    int merged = qgc_records_merge(&w->records, sorted, check_name, &nc);
    *err = merged ? 0 : errno;
    int no_memory = nc.prev.failed || *err == ENOMEM;
    qg_buf_free(&nc.prev);
    if (no_memory)
        return QG_ERR_NOMEM;
    if (!merged || nc.broken) {
        *err = *err ? *err : EIO;
        return QG_ERR_IO;
    }
    return nc.bad ? QG_ERR_INVALID : QG_OK;
}

/* ---- compression, shared out over threads ---- */

typedef struct deflate_part {
    qg_cache_writer *w;
    const qgc_spill *sorted;
    const qg_buf *dict;
    int same_dict;         /* the dictionary is the prior's: its blobs are copied */
    volatile sig_atomic_t *cancel;
    size_t first, end;     /* the blobs it compresses: the files', then the maps' */
    qgc_spill out;         /* their compressed bytes, one after another */
    qgc_spill refs;        /* each map's blob reference, as the index stores it */
    qg_status status;
    int err;               /* errno of a scratch file failure */
} deflate_part;

static void put_blob_ref(qg_buf *b, const qgc_spilled *blob)
{
    qgc_put_varint(b, blob->z_len);
    qgc_put_varint(b, blob->len);
    qgc_put_u32(b, blob->crc);
}

/* The prior's compressed bytes, when the dictionary is the one they were
 * made with (and they lie in the prior area); NULL otherwise. */
static const unsigned char *prior_bytes(const deflate_part *part, const qgc_prior *prior)
{
    const qg_cache_writer *w = part->w;
    if (!part->same_dict || !prior->at || prior->at - 1 > w->prior.area_len ||
        prior->z_len > w->prior.area_len - (prior->at - 1))
        return NULL;
    return w->prior.area + (prior->at - 1);
}

static qg_status deflate_blob(deflate_part *part, qgc_deflater *d, qg_buf *raw, qg_buf *z,
                              qgc_spilled *b, const qgc_prior *prior)
{
    const unsigned char *same = prior_bytes(part, prior);
    if (same) {
        b->z_len = prior->z_len;
        b->crc = prior->crc;
        qgc_spill_append(&part->out, same, prior->z_len);
        part->err = part->out.err;
        return part->err ? QG_ERR_IO : QG_OK;
    }
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

/* The map blob's reference, framed for a record reader. */
static qg_status keep_ref(deflate_part *part, const qgc_spilled *b, qg_buf *ref)
{
    qg_buf_reset(ref);
    put_blob_ref(ref, b);
    if (ref->failed)
        return QG_ERR_NOMEM;
    qgc_record_append(&part->refs, ref->data, ref->len);
    part->err = part->refs.err;
    return part->err ? QG_ERR_IO : QG_OK;
}

/* The part's map blobs, read from the sorted records. */
static qg_status deflate_maps(deflate_part *part, qgc_deflater *d, qg_buf *raw, qg_buf *z)
{
    size_t files = part->w->file_count;
    size_t first = part->first > files ? part->first - files : 0;
    size_t end = part->end > files ? part->end - files : 0;
    map_pass pass;
    pass_start(&pass, part->sorted);
    qg_buf ref;
    qg_buf_init(&ref);
    qg_status st = QG_OK;
    for (size_t i = 0; i < end && st == QG_OK; i++) {
        if (!pass_next(&pass))
            st = QG_ERR_IO;
        else if (part->cancel && *part->cancel)
            st = QG_ERR_IO;
        else if (i >= first)
            st = deflate_blob(part, d, raw, z, &pass.map.blob, &pass.map.prior);
        if (st == QG_OK && i >= first)
            st = keep_ref(part, &pass.map.blob, &ref);
    }
    int failed = pass_end(&pass);
    if (st == QG_ERR_IO && !part->err)
        part->err = failed ? failed : EIO;
    qg_buf_free(&ref);
    return st;
}

static void *deflate_worker(void *arg)
{
    deflate_part *part = arg;
    qgc_deflater d;
    qgc_deflater_init(&d);
    qg_buf raw, z;
    qg_buf_init(&raw);
    qg_buf_init(&z);
    part->status = qgc_spill_open(&part->out) && qgc_spill_open(&part->refs) ? QG_OK
                                                                            : QG_ERR_IO;
    if (part->status != QG_OK)
        part->err = part->out.err ? part->out.err : part->refs.err;
    for (size_t i = part->first; i < part->end && i < part->w->file_count &&
                                 part->status == QG_OK; i++) {
        if (part->cancel && *part->cancel)
            part->status = QG_ERR_IO;
        else
            part->status = deflate_blob(part, &d, &raw, &z, &part->w->files[i].blob,
                                        &part->w->files[i].prior);
    }
    if (part->status == QG_OK)
        part->status = deflate_maps(part, &d, &raw, &z);
    if (part->status == QG_OK && !(qgc_spill_flush(&part->out) && qgc_spill_flush(&part->refs))) {
        part->err = part->out.err ? part->out.err : part->refs.err;
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
static qg_status compress_all(qg_cache_writer *w, const qgc_spill *sorted, const qg_buf *dict,
                              const qg_cache_write_options *opt, deflate_part *parts,
                              int *count)
{
    int same_dict = w->prior.dict && dict->len == w->prior.dict_len &&
                    (!dict->len || memcmp(dict->data, w->prior.dict, dict->len) == 0);
    size_t total = w->file_count + w->map_count;
    int jobs = opt->jobs > 1 ? opt->jobs : 1;
    if (jobs > MAX_DEFLATE_JOBS)
        jobs = MAX_DEFLATE_JOBS;
    if ((size_t)jobs > total)
        jobs = total ? (int)total : 1;
    pthread_t threads[MAX_DEFLATE_JOBS];
    int started[MAX_DEFLATE_JOBS] = {0};
    for (int k = 0; k < jobs; k++) {
        parts[k] = (deflate_part){w, sorted, dict, same_dict, opt->cancel,
                                  total * (size_t)k / (size_t)jobs,
                                  total * (size_t)(k + 1) / (size_t)jobs, {0}, {0}, QG_OK, 0};
        parts[k].out.fd = parts[k].refs.fd = -1;
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

/* The index goes to its compressor as it is made, a few pages at a time,
 * and what comes out to a scratch file: held whole, either took memory in
 * proportion to the corpus. */
typedef struct index_sink {
    qg_buf raw;              /* made, not yet compressed */
    qgc_piece_stream z;
    qg_buf z_bytes;          /* compressed, not yet in the scratch file */
    qgc_spill file;
    uint32_t crc;            /* of the compressed bytes so far */
} index_sink;

enum { INDEX_STEP = 64 * 1024 };

static void drain(index_sink *s)
{
    /* crc32() of no buffer (NULL) is its start value, not the crc so far */
    if (!s->z_bytes.len)
        return;
    s->crc = (uint32_t)crc32(s->crc, (const Bytef *)s->z_bytes.data, (uInt)s->z_bytes.len);
    qgc_spill_append(&s->file, s->z_bytes.data, s->z_bytes.len);
    qg_buf_reset(&s->z_bytes);
}

static void flow(index_sink *s)
{
    if (s->raw.len >= INDEX_STEP)
        qgc_piece_stream_take(&s->z, &s->raw);
    if (s->z_bytes.len >= INDEX_STEP)
        drain(s);
}

/* What building the index reads, besides the writer. */
typedef struct index_input {
    const qg_cache_writer *w;
    const qgc_spill *sorted;
    const deflate_part *parts;
    int part_count;
    const qg_buf *dict;
} index_input;

/* The index's map columns, in its order: the names, then put_record's
 * columns 0 to 2 (quest, kind, format), each map's file, then its
 * columns 3 to 11 (line, the seven fields, the metadata). The maps are
 * stored column by column: like values sit together, which is what
 * deflate compresses best. */
enum { NAMES = 0, FILE_COLUMN = 4, INDEX_COLUMNS = 14 };

static qg_buf *record_column(qgc_columns *cols, int column)
{
    return qgc_column_buf(cols, (size_t)(column < 3 ? 1 + column : 2 + column));
}

/* Sorted names share prefixes: each is stored as the length it shares
 * with the previous one (prev, NUL-terminated) and the rest. */
static void put_name(qg_buf *names, const char *name, qg_buf *prev)
{
    size_t shared = 0;
    while (prev->data[shared] && prev->data[shared] == name[shared])
        shared++;
    qgc_put_varint(names, shared);
    qgc_put_str(names, name + shared);
    qg_buf_reset(prev);
    qg_buf_append(prev, name, strlen(name) + 1);
}

/* The map's record columns, each to its index column. */
static void put_record_columns(qgc_columns *cols, const wview *m)
{
    qgc_cursor c;
    qgc_cursor_init(&c, m->columns, m->columns_len);
    qgc_put_svarint(record_column(cols, 0), qgc_get_svarint(&c));
    for (int k = 1; k < 4; k++)
        qgc_put_varint(record_column(cols, k), qgc_get_varint(&c));
    for (int k = 4; k < 12; k++) {
        size_t n;
        const char *text = qgc_get_str(&c, &n);
        qg_buf *col = record_column(cols, k);
        qgc_put_bytes(col, text, n);
        if (k < 11)
            qg_buf_putc(col, '\0');
    }
}

/* Every map's columns, in one pass over the maps in index order: 0, or
 * the errno of what failed. */
static int split_maps(const index_input *in, qgc_columns *cols)
{
    qg_buf prev;
    qg_buf_init(&prev);
    qg_buf_putc(&prev, '\0');
    map_pass pass;
    pass_start(&pass, in->sorted);
    int settled = 1;
    while (settled && pass_next(&pass) && !prev.failed) {
        put_name(qgc_column_buf(cols, NAMES), pass.map.name, &prev);
        qgc_put_varint(qgc_column_buf(cols, FILE_COLUMN), pass.map.file);
        put_record_columns(cols, &pass.map);
        for (size_t k = 0; k < INDEX_COLUMNS && settled; k++)
            settled = qgc_columns_settle(cols, k);
    }
    int failed = pass_end(&pass);
    if (!failed)
        failed = prev.failed ? ENOMEM : settled ? 0 : cols->err;
    qg_buf_free(&prev);
    return failed;
}

static void sink_bytes(void *user, const void *data, size_t len)
{
    index_sink *s = user;
    qg_buf_append(&s->raw, data, len);
    flow(s);
}

/* 0, or the errno of what failed. */
static int put_maps(index_sink *s, const index_input *in)
{
    qgc_columns cols;
    if (!qgc_columns_init(&cols, INDEX_COLUMNS))
        return ENOMEM;
    int failed = split_maps(in, &cols);
    if (!failed && !qgc_columns_read(&cols, sink_bytes, s))
        failed = errno ? errno : EIO;
    qgc_columns_free(&cols);
    return failed;
}

/* The maps' blob references, as the threads kept them: 0, or the errno
 * of what failed. */
static int put_map_refs(index_sink *s, const index_input *in)
{
    int failed = 0;
    for (int k = 0; k < in->part_count && !failed; k++) {
        const qgc_spill *refs = &in->parts[k].refs;
        qgc_record_reader rd;
        qgc_record_reader_init(&rd, refs, 0, refs->size);
        const unsigned char *ref;
        size_t len;
        while (qgc_record_next(&rd, &ref, &len)) {
            qg_buf_append(&s->raw, ref, len);
            flow(s);
        }
        failed = rd.failed;
        qgc_record_reader_free(&rd);
    }
    return failed;
}

static void put_files(index_sink *s, const qg_cache_writer *w)
{
    qg_buf *idx = &s->raw;
    qgc_put_u64(idx, w->environment);
    qgc_put_varint(idx, w->file_count);
    for (size_t i = 0; i < w->file_count; i++) {
        const wfile *f = &w->files[i];
        qgc_put_file_record(idx, &f->meta, f->blob.z_len, f->blob.len, f->blob.crc);
        flow(s);
    }
}

/* 0, or the errno of the scratch file or the allocation that failed
 * (memory for the index itself shows in its piece stream). */
static int build_index(const index_input *in, index_sink *s)
{
    put_files(s, in->w);
    qgc_put_varint(&s->raw, in->w->map_count);
    int failed = put_maps(s, in);
    if (!failed)
        failed = put_map_refs(s, in);
    qgc_put_bytes(&s->raw, in->dict->data ? in->dict->data : "", in->dict->len);
    qgc_piece_stream_take(&s->z, &s->raw);
    return failed;
}

/* ---- the file ---- */

typedef struct image {
    unsigned char head[QGC_HEADER_SIZE];
    qgc_spill zindex;
    const deflate_part *parts;
    int part_count;
} image;

static int fill_image(int fd, void *user)
{
    const image *im = user;
    if (!qg_write_all(fd, im->head, sizeof im->head) ||
        !qgc_spill_copy(&im->zindex, 0, im->zindex.size, fd))
        return 0;
    for (int k = 0; k < im->part_count; k++)
        if (!qgc_spill_copy(&im->parts[k].out, 0, im->parts[k].out.size, fd))
            return 0;
    return 1;
}

static void put_header(const index_input *in, const index_sink *s, uint64_t raw_size,
                       image *im)
{
    uint64_t blob_bytes = 0;
    for (int k = 0; k < in->part_count; k++)
        blob_bytes += in->parts[k].out.size;
    qgc_header h;
    qgc_header_make(&h, in->w->file_count, in->w->map_count, s->file.size, raw_size, s->crc,
                    blob_bytes);
    qgc_header_encode(&h, im->head);
}

/* The index into im->zindex (a scratch file, open on success) and the
 * header. */
static qg_status assemble(const index_input *in, image *im, int *err)
{
    index_sink s = {.crc = (uint32_t)crc32(0, Z_NULL, 0)};
    qg_buf_init(&s.raw);
    qg_buf_init(&s.z_bytes);
    if (!qgc_spill_open(&s.file)) {
        *err = s.file.err;
        return QG_ERR_IO;
    }
    qgc_piece_stream_init(&s.z, &s.z_bytes);
    const qgc_writer_prior *was = &in->w->prior;
    qgc_piece_prior prior;
    if (was->index_raw && qgc_piece_prior_init(&prior, was->index_raw, was->index_raw_len,
                                                was->index_z, was->index_z_len))
        qgc_piece_stream_use_prior(&s.z, &prior);
    int failed = build_index(in, &s);
    uint64_t raw_size = s.z.total;
    qg_status st = qgc_piece_stream_finish(&s.z);
    if (s.z.prior)
        qgc_piece_prior_free(&prior);
    drain(&s);
    if (st == QG_OK && (failed || !qgc_spill_flush(&s.file))) {
        *err = failed ? failed : s.file.err;
        st = QG_ERR_IO;
    }
    if (st == QG_OK && (raw_size > QGC_MAX_INDEX_RAW || s.file.size > UINT32_MAX ||
                        in->w->map_count > UINT32_MAX))
        st = QG_ERR_LIMIT;
    if (st == QG_OK)
        put_header(in, &s, raw_size, im);
    qg_buf_free(&s.raw);
    qg_buf_free(&s.z_bytes);
    if (st == QG_OK)
        im->zindex = s.file;
    else
        qgc_spill_close(&s.file);
    return st;
}

/* Reports the write's failure; a scratch file's that was an allocation
 * is told, and returned, as no memory. */
static qg_status report(qg_status st, const char *path, volatile sig_atomic_t *cancel,
                        int err, const deflate_part *parts, int part_count, qg_diags *diags)
{
    for (int k = 0; k < part_count && !err; k++)
        err = parts[k].err;
    if (st == QG_ERR_IO && err == ENOMEM)
        st = QG_ERR_NOMEM;
    if (cancel && *cancel)
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "interrupted; nothing written");
    else if (st == QG_ERR_LIMIT)
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "the cache index is too large");
    else if (st == QG_ERR_IO)
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "cannot use a scratch file: %s",
                     strerror(err ? err : EIO));
    else if (st != QG_ERR_INVALID)
        no_memory(diags, path);
    return st;
}

/* The dictionary from the files' texts in file order. */
static qg_status build_dictionary(const qg_cache_writer *w, qg_buf *dict)
{
    qgc_span *spans = malloc((w->file_count + 1) * sizeof *spans);
    if (!spans)
        return QG_ERR_NOMEM;
    for (size_t i = 0; i < w->file_count; i++)
        spans[i] = w->files[i].texts;
    qg_status st = qgc_build_dictionary(&w->texts, spans, w->file_count, dict);
    free(spans);
    return st;
}

/* Everything after the merge: dictionary, blobs, index, the file. */
static qg_status write_sorted(qg_cache_writer *w, const qgc_spill *sorted, const char *path,
                              const qg_cache_write_options *opt, qg_diags *diags)
{
    qg_buf dict;
    qg_buf_init(&dict);
    image im;
    memset(&im, 0, sizeof im);
    im.zindex.fd = -1;
    deflate_part parts[MAX_DEFLATE_JOBS];
    int part_count = 0;
    qg_status st = build_dictionary(w, &dict);
    int err = st == QG_ERR_IO ? errno : 0;
    if (st == QG_OK)
        st = compress_all(w, sorted, &dict, opt, parts, &part_count);
    index_input in = {w, sorted, parts, part_count, &dict};
    if (st == QG_OK)
        st = assemble(&in, &im, &err);
    qg_buf_free(&dict);
    if (st == QG_OK) {
        im.parts = parts;
        im.part_count = part_count;
        qgc_write_how how = {opt->follow_symlinks, opt->cancel};
        st = qgc_write_verified(path, fill_image, &im, &how, diags);
    } else {
        st = report(st, path, opt->cancel, err, parts, part_count, diags);
    }
    for (int k = 0; k < part_count; k++) {
        qgc_spill_close(&parts[k].out);
        qgc_spill_close(&parts[k].refs);
    }
    qgc_spill_close(&im.zindex);
    return st;
}

qg_status qg_cache_writer_write(qg_cache_writer *w, const char *path,
                                const qg_cache_write_options *options,
                                qg_diags *diags)
{
    qg_cache_write_options none = {0, NULL, 0};
    const qg_cache_write_options *opt = options ? options : &none;
    for (size_t i = 0; i < w->file_count; i++)
        if (!w->files[i].meta.path) {
            qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0,
                         "file %zu of the cache was never added", i + 1);
            return QG_ERR_INVALID;
        }
    if (!start_spilling(w) || !qgc_spill_flush(&w->texts))
        return spill_failed(w, path, diags);
    qgc_spill sorted;
    qg_status st = qgc_spill_open(&sorted) ? QG_OK : QG_ERR_IO;
    int err = sorted.err;
    if (st == QG_OK)
        st = sort_maps(w, &sorted, diags, &err);
    if (st == QG_OK)
        st = write_sorted(w, &sorted, path, opt, diags);
    else
        st = report(st, path, opt->cancel, err, NULL, 0, diags);
    qgc_spill_close(&sorted);
    return st;
}

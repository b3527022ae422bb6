/* Collects packed files and maps, then lays the cache out: header, the
 * compressed index (files, maps sorted by name, dictionary), the blobs. */
#define _POSIX_C_SOURCE 200809L
#include "cache/pack.h"
#include "cache/write.h"
#include "cache/zblob.h"

#include <lua.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct qg_cache_writer {
    qgc_file_rec *files;
    size_t file_count, file_cap;
    qgc_map_rec *maps;
    size_t map_count, map_cap;
};

qg_cache_writer *qg_cache_writer_new(void)
{
    return calloc(1, sizeof(qg_cache_writer));
}

void qg_cache_writer_free(qg_cache_writer *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->file_count; i++)
        qgc_file_rec_free(&w->files[i]);
    for (size_t i = 0; i < w->map_count; i++)
        qgc_map_rec_free(&w->maps[i]);
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

qg_status qgc_writer_add_packed(qg_cache_writer *w, qgc_packed *p, qg_diags *diags)
{
    qgc_file_rec *file = NULL;
    if (!qg_grow((void **)&w->maps, &w->map_cap, w->map_count + p->count, sizeof *w->maps) ||
        !(file = QG_PUSH(w->files, w->file_count, w->file_cap))) {
        qg_status st = no_memory(diags, p->file.path);
        qgc_packed_free(p);
        return st;
    }
    *file = p->file;
    for (size_t i = 0; i < p->count; i++) {
        p->maps[i].file = w->file_count - 1;
        w->maps[w->map_count++] = p->maps[i];
    }
    free(p->maps);
    memset(p, 0, sizeof *p);
    return QG_OK;
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

/* ---- compression, shared out over threads ---- */

typedef struct deflate_job {
    qg_cache_writer *w;
    const qg_buf *dict;
    volatile sig_atomic_t *cancel;
    pthread_mutex_t lock;
    size_t next;
    int failed;
} deflate_job;

static qgc_blob *job_blob(qg_cache_writer *w, size_t i)
{
    return i < w->file_count ? &w->files[i].blob : &w->maps[i - w->file_count].blob;
}

static void *deflate_worker(void *arg)
{
    deflate_job *job = arg;
    size_t total = job->w->file_count + job->w->map_count;
    qgc_deflater d;
    qgc_deflater_init(&d);
    for (;;) {
        pthread_mutex_lock(&job->lock);
        size_t i = job->next++;
        int stop = job->failed || (job->cancel && *job->cancel);
        pthread_mutex_unlock(&job->lock);
        if (stop || i >= total)
            break;
        qgc_blob *b = job_blob(job->w, i);
        qg_buf_reset(&b->z);
        if (qgc_deflater_run(&d, b->raw.data ? b->raw.data : "", b->raw.len,
                             job->dict->data, job->dict->len, &b->z) != QG_OK) {
            pthread_mutex_lock(&job->lock);
            job->failed = 1;
            pthread_mutex_unlock(&job->lock);
            break;
        }
        qgc_buf_shrink(&b->z);
        b->crc = qgc_crc32(b->z.data ? b->z.data : "", b->z.len);
    }
    qgc_deflater_end(&d);
    return NULL;
}

static qg_status compress_all(qg_cache_writer *w, const qg_buf *dict,
                              const qg_cache_write_options *opt)
{
    deflate_job job = {w, dict, opt->cancel, PTHREAD_MUTEX_INITIALIZER, 0, 0};
    int jobs = opt->jobs > 1 ? opt->jobs : 1;
    pthread_t threads[256];
    int started = 0;
    for (int i = 1; i < jobs && i < 256; i++)
        if (pthread_create(&threads[started], NULL, deflate_worker, &job) == 0)
            started++;
    deflate_worker(&job);
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    pthread_mutex_destroy(&job.lock);
    if (opt->cancel && *opt->cancel)
        return QG_ERR_IO;
    return job.failed ? QG_ERR_NOMEM : QG_OK;
}

/* ---- layout ---- */

static int by_name(const void *a, const void *b)
{
    return strcmp(((const qgc_map_rec *)a)->name, ((const qgc_map_rec *)b)->name);
}

static size_t report_bad_names(const qg_cache_writer *w, qg_diags *diags)
{
    size_t dups = 0;
    for (size_t i = 0; i < w->map_count; i++) {
        const qgc_map_rec *m = &w->maps[i];
        if (strlen(m->name) > QGC_MAX_NAME || !m->name[0]) {
            qg_diags_add(diags, QG_ERROR, w->files[m->file].path, m->line, 0, NULL, 0,
                         "a map name must have 1 to %u bytes", QGC_MAX_NAME);
            dups++;
        }
    }
    for (size_t i = 1; i < w->map_count; i++) {
        const qgc_map_rec *a = &w->maps[i - 1], *b = &w->maps[i];
        if (strcmp(a->name, b->name) != 0)
            continue;
        qg_diags_add(diags, QG_ERROR, w->files[b->file].path, b->line, 0, NULL, 0,
                     "map '%s' is already defined at %s:%d", b->name,
                     w->files[a->file].path, a->line);
        dups++;
    }
    return dups;
}

static void put_blob_ref(qg_buf *b, const qgc_blob *blob)
{
    qgc_put_varint(b, blob->z.len);
    qgc_put_varint(b, blob->raw.len);
    qgc_put_u32(b, blob->crc);
}

/* Sorted names share prefixes: each is stored as the length it shares
 * with the previous one and the rest. */
static void put_names(qg_buf *idx, const qg_cache_writer *w)
{
    const char *prev = "";
    for (size_t i = 0; i < w->map_count; i++) {
        const char *name = w->maps[i].name;
        size_t shared = 0;
        while (prev[shared] && prev[shared] == name[shared])
            shared++;
        qgc_put_varint(idx, shared);
        qgc_put_str(idx, name + shared);
        prev = name;
    }
}

/* The maps are stored column by column: like values sit together, which
 * is what deflate compresses best. */
static void build_index(const qg_cache_writer *w, const qg_buf *dict, qg_buf *idx)
{
    qgc_put_varint(idx, w->file_count);
    for (size_t i = 0; i < w->file_count; i++) {
        const qgc_file_rec *f = &w->files[i];
        qgc_put_cstr(idx, f->path);
        qgc_put_varint(idx, (uint64_t)f->format);
        qgc_put_varint(idx, f->size);
        qgc_put_svarint(idx, f->mtime_sec);
        qgc_put_varint(idx, (uint64_t)f->mtime_nsec);
        qgc_put_u64(idx, f->hash);
        qgc_put_varint(idx, f->map_count);
        put_blob_ref(idx, &f->blob);
    }
    qgc_put_varint(idx, w->map_count);
    put_names(idx, w);
    for (size_t i = 0; i < w->map_count; i++)
        qgc_put_svarint(idx, w->maps[i].quest);
    for (size_t i = 0; i < w->map_count; i++)
        qgc_put_varint(idx, (uint64_t)w->maps[i].kind);
    for (size_t i = 0; i < w->map_count; i++)
        qgc_put_varint(idx, (uint64_t)w->maps[i].format);
    for (size_t i = 0; i < w->map_count; i++)
        qgc_put_varint(idx, w->maps[i].file);
    for (size_t i = 0; i < w->map_count; i++)
        qgc_put_varint(idx, (uint64_t)(w->maps[i].line < 0 ? 0 : w->maps[i].line));
    for (int f = 0; f < 7; f++)
        for (size_t i = 0; i < w->map_count; i++)
            qgc_put_cstr(idx, w->maps[i].fields[f]);
    for (size_t i = 0; i < w->map_count; i++)
        qgc_put_bytes(idx, w->maps[i].meta.data ? w->maps[i].meta.data : "",
                      w->maps[i].meta.len);
    for (size_t i = 0; i < w->map_count; i++)
        put_blob_ref(idx, &w->maps[i].blob);
    qgc_put_bytes(idx, dict->data ? dict->data : "", dict->len);
}

static uint64_t blob_total(qg_cache_writer *w)
{
    uint64_t total = 0;
    for (size_t i = 0; i < w->file_count + w->map_count; i++)
        total += job_blob(w, i)->z.len;
    return total;
}

static qg_status assemble(qg_cache_writer *w, const qg_buf *dict, int jobs, qg_buf *out)
{
    qg_buf idx, zidx;
    qg_buf_init(&idx);
    qg_buf_init(&zidx);
    uint64_t blob_bytes = blob_total(w);
    build_index(w, dict, &idx);
    qg_status st = idx.failed ? QG_ERR_NOMEM : QG_OK;
    if (st == QG_OK && (idx.len > QGC_MAX_INDEX_RAW || w->map_count > UINT32_MAX))
        st = QG_ERR_LIMIT;
    if (st == QG_OK)
        st = qgc_deflate_pieces(idx.data, idx.len, jobs, &zidx);
    if (st == QG_OK) {
        qgc_header h = {
            .format_version = QG_CACHE_FORMAT_VERSION,
            .questgrid_version = QG_VERSION_NUMBER,
            .lua_version = LUA_VERSION_NUM,
            .header_size = QGC_HEADER_SIZE,
            .file_count = (uint32_t)w->file_count,
            .map_count = (uint32_t)w->map_count,
            .blobs_offset = QGC_HEADER_SIZE + zidx.len,
            .index_size = (uint32_t)zidx.len,
            .index_raw_size = (uint32_t)idx.len,
            .index_crc = qgc_crc32(zidx.data, zidx.len),
        };
        h.file_size = h.blobs_offset + blob_bytes;
        unsigned char head[QGC_HEADER_SIZE];
        qgc_header_encode(&h, head);
        if (qg_buf_reserve(out, h.file_size)) {
            qg_buf_append(out, head, sizeof head);
            qg_buf_append(out, zidx.data, zidx.len);
            for (size_t i = 0; i < w->file_count + w->map_count; i++) {
                const qgc_blob *b = job_blob(w, i);
                qg_buf_append(out, b->z.data, b->z.len);
            }
        }
        st = out->failed ? QG_ERR_NOMEM : QG_OK;
    }
    qg_buf_free(&idx);
    qg_buf_free(&zidx);
    return st;
}

qg_status qg_cache_writer_write(qg_cache_writer *w, const char *path,
                                const qg_cache_write_options *options,
                                qg_diags *diags)
{
    qg_cache_write_options none = {0, NULL};
    const qg_cache_write_options *opt = options ? options : &none;
    qsort(w->maps, w->map_count, sizeof *w->maps, by_name);
    if (report_bad_names(w, diags))
        return QG_ERR_INVALID;
    qg_buf dict, image;
    qg_buf_init(&dict);
    qg_buf_init(&image);
    qg_status st = qgc_build_dictionary(w->files, w->file_count, w->maps, w->map_count,
                                        opt->jobs, &dict);
    if (st == QG_OK)
        st = compress_all(w, &dict, opt);
    if (st == QG_OK)
        st = assemble(w, &dict, opt->jobs, &image);
    if (st == QG_OK)
        st = qgc_write_verified(path, image.data, image.len, opt->cancel, diags);
    else if (opt->cancel && *opt->cancel)
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "interrupted; nothing written");
    else if (st == QG_ERR_LIMIT)
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "the cache index is too large");
    else
        no_memory(diags, path);
    qg_buf_free(&dict);
    qg_buf_free(&image);
    return st;
}

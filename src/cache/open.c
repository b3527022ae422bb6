/* Opening a cache: map (or read) the file, check the header, inflate the
 * index and decode it, checking every offset against the blob area. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "cache/reader.h"
#include "cache/zblob.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define INDEX_FROM_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define INDEX_FROM_MALLOC 1
#endif
#endif

/* The inflated index is written once, from end to end, at open. Where the
 * system can, it is mapped with its pages made at once (MAP_POPULATE):
 * faulting them in one by one was a sixth of a warm open of Crawl's cache.
 * (Under AddressSanitizer it comes from malloc, whose bounds it checks.) */
static void *index_alloc(size_t size)
{
#if defined(MAP_POPULATE) && !defined(INDEX_FROM_MALLOC)
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
#else
    return malloc(size);
#endif
}

static void index_free(void *p, size_t size)
{
    if (!p)
        return;
#if defined(MAP_POPULATE) && !defined(INDEX_FROM_MALLOC)
    munmap(p, size);
#else
    (void)size;
    free(p);
#endif
}

static qg_status load_bytes(qg_cache *c, const qg_cache_open_options *opt, qg_diags *diags)
{
    int fd = open(c->path, O_RDONLY);
    struct stat st;
    int saved = 0;
    if (fd < 0 || fstat(fd, &st) != 0)
        saved = errno;
    else if (!S_ISREG(st.st_mode))
        saved = EINVAL;
    if (saved) {
        if (fd >= 0)
            close(fd);
        qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "cannot open: %s",
                     saved == EINVAL ? "not a regular file" : strerror(saved));
        return saved == ENOENT ? QG_ERR_NOTFOUND : QG_ERR_IO;
    }
    c->size = (size_t)st.st_size;
    if (c->size >= QGC_HEADER_SIZE && !(opt && opt->no_mmap)) {
        void *p = mmap(NULL, c->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            c->data = p;
            c->mapped = 1;
            close(fd);
            return QG_OK;
        }
    }
    unsigned char *buf = malloc(c->size ? c->size : 1);
    size_t got = 0;
    while (buf && got < c->size) {
        ssize_t n = read(fd, buf + got, c->size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (!buf || got != c->size) {
        free(buf);
        qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "cannot read");
        return buf ? QG_ERR_IO : QG_ERR_NOMEM;
    }
    c->data = buf;
    return QG_OK;
}

/* A NUL-terminated string in the index: length, bytes, a zero byte (and
 * none before it). */
static const char *get_cstr(qgc_cursor *cur)
{
    size_t len;
    const char *s = qgc_get_str(cur, &len);
    const unsigned char *nul = qgc_get_bytes(cur, 1);
    if (!nul || *nul || strlen(s) != len) {
        cur->bad = 1;
        return "";
    }
    return s;
}

/* Blobs are stored back to back in index order (files, then maps), so
 * each offset is the running total of the sizes before it. */
static int get_blob_ref(qgc_cursor *cur, const qg_cache *c, uint64_t *running,
                        qgc_blob_ref *ref)
{
    uint64_t area = c->header.file_size - c->header.blobs_offset;
    ref->offset = *running;
    ref->size = (uint32_t)qgc_get_varint_max(cur, UINT32_MAX);
    ref->raw_size = (uint32_t)qgc_get_varint_max(cur, QGC_MAX_BLOB_RAW);
    ref->crc = qgc_get_u32(cur);
    if (cur->bad || ref->size > area - ref->offset ||
        ref->raw_size > (uint64_t)ref->size * QGC_MAX_RATIO + 64)
        return 0;
    *running += ref->size;
    return 1;
}

static qg_status decode_files(qg_cache *c, qgc_cursor *cur, uint64_t *running,
                              qg_diags *diags)
{
    int v3 = c->header.format_version >= 3;
    if (v3)
        c->environment = qgc_get_u64(cur);
    size_t n = (size_t)qgc_get_varint_max(cur, c->header.file_count);
    if (cur->bad || n != c->header.file_count)
        return qgc_corrupt(diags, c, "file count differs from the header");
    c->files = calloc(n + 1, sizeof *c->files);
    c->file_blobs = calloc(n + 1, sizeof *c->file_blobs);
    c->reuse = calloc(n + 1, sizeof *c->reuse);
    if (!c->files || !c->file_blobs || !c->reuse)
        return QG_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        qg_cache_file *f = &c->files[i];
        f->path = get_cstr(cur);
        f->format = (qg_format)qgc_get_varint_max(cur, QG_FORMAT_XP);
        f->size = qgc_get_varint(cur);
        f->mtime_sec = qgc_get_svarint(cur);
        f->mtime_nsec = (long)qgc_get_varint_max(cur, 999999999);
        f->hash = qgc_get_u64(cur);
        f->map_count = (size_t)qgc_get_varint_max(cur, c->header.map_count);
        if (!get_blob_ref(cur, c, running, &c->file_blobs[i]))
            return qgc_corrupt(diags, c, "source file %zu: bad record or blob bounds", i);
        if (v3) {
            c->reuse[i].key = qgc_get_u64(cur);
            c->reuse[i].prelude = qgc_get_u64(cur);
            c->reuse[i].start_state = (int)qgc_get_varint_max(cur, 255);
            c->reuse[i].end_state = (int)qgc_get_varint_max(cur, 255);
        }
        if (cur->bad)
            return qgc_corrupt(diags, c, "source file %zu: bad record", i);
        c->blob_raw_total += c->file_blobs[i].raw_size;
    }
    return QG_OK;
}

/* Front-coded names into one arena; entries point into it afterwards. */
static int get_names(qgc_cursor *cur, qg_cache *c, size_t n)
{
    qg_buf arena;
    qg_buf_init(&arena);
    size_t *starts = malloc((n + 1) * sizeof *starts);
    size_t prev = 0, prev_len = 0;
    for (size_t i = 0; starts && i < n && !cur->bad; i++) {
        size_t shared = (size_t)qgc_get_varint_max(cur, prev_len), len;
        const char *rest = qgc_get_str(cur, &len);
        if (cur->bad || shared + len > QGC_MAX_NAME || memchr(rest, 0, len)) {
            cur->bad = 1;
            break;
        }
        if (!qg_buf_reserve(&arena, shared + len + 1))
            break;
        char *name = arena.data + arena.len;
        starts[i] = arena.len;
        memcpy(name, arena.data + prev, shared);
        memcpy(name + shared, rest, len);
        name[shared + len] = '\0';
        arena.len += shared + len + 1;
        prev = starts[i];
        prev_len = shared + len;
    }
    int ok = starts && !cur->bad && !arena.failed;
    if (ok) {
        c->names = qg_buf_take(&arena);
        for (size_t i = 0; i < n; i++)
            c->maps[i].name = c->names + starts[i];
    }
    qg_buf_free(&arena);
    free(starts);
    return ok;
}

static qg_status check_maps(qg_cache *c, size_t n, qg_diags *diags)
{
    size_t *per_file = calloc(c->header.file_count + 1, sizeof *per_file);
    if (!per_file)
        return QG_ERR_NOMEM;
    qg_status st = QG_OK;
    for (size_t i = 0; st == QG_OK && i < n; i++) {
        if (i > 0 && strcmp(c->maps[i - 1].name, c->maps[i].name) >= 0)
            st = qgc_corrupt(diags, c, "map %zu ('%s'): index not sorted by name", i,
                             c->maps[i].name);
        else
            per_file[c->maps[i].file]++;
    }
    for (size_t f = 0; st == QG_OK && f < c->header.file_count; f++)
        if (per_file[f] != c->files[f].map_count)
            st = qgc_corrupt(diags, c, "map count of source file %zu differs", f);
    free(per_file);
    return st;
}

static qg_status decode_maps(qg_cache *c, qgc_cursor *cur, uint64_t *running,
                             qg_diags *diags)
{
    size_t n = (size_t)qgc_get_varint_max(cur, c->header.map_count);
    if (cur->bad || n != c->header.map_count)
        return qgc_corrupt(diags, c, "map count differs from the header");
    if (n && !c->header.file_count)
        return qgc_corrupt(diags, c, "maps without source files");
    c->maps = calloc(n + 1, sizeof *c->maps);
    if (!c->maps)
        return QG_ERR_NOMEM;
    if (!get_names(cur, c, n))
        return cur->bad ? qgc_corrupt(diags, c, "malformed map names") : QG_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        int64_t quest = qgc_get_svarint(cur);
        c->maps[i].quest = quest < -1 || quest > 100000000 ? (cur->bad = 1, -1) : (int)quest;
    }
    for (size_t i = 0; i < n; i++)
        c->maps[i].kind = (qg_map_kind)qgc_get_varint_max(cur, QG_KIND_SKIPPED);
    for (size_t i = 0; i < n; i++)
        c->maps[i].format = (qg_format)qgc_get_varint_max(cur, QG_FORMAT_XP);
    for (size_t i = 0; i < n; i++)
        c->maps[i].file = (size_t)qgc_get_varint_max(cur, c->header.file_count - 1);
    for (size_t i = 0; i < n; i++)
        c->maps[i].line = (int)qgc_get_varint_max(cur, 0x7fffffff);
    for (int f = 0; f < 7; f++)
        for (size_t i = 0; i < n; i++) {
            qg_cache_entry *e = &c->maps[i];
            const char **fields[7] = {&e->tags, &e->depth, &e->place, &e->orient,
                                      &e->chance, &e->weight, &e->desc};
            *fields[f] = get_cstr(cur);
        }
    c->meta = calloc(n + 1, sizeof *c->meta);
    if (!c->meta)
        return QG_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        c->meta[i].len = (size_t)qgc_get_varint_max(cur, QGC_MAX_BLOB_RAW);
        c->meta[i].data = qgc_get_bytes(cur, c->meta[i].len);
    }
    for (size_t i = 0; i < n && !cur->bad; i++) {
        qg_cache_entry *e = &c->maps[i];
        qgc_blob_ref ref;
        if (!get_blob_ref(cur, c, running, &ref))
            return qgc_corrupt(diags, c, "map %zu: bad blob bounds", i);
        e->blob_offset = ref.offset;
        e->blob_size = ref.size;
        e->raw_size = ref.raw_size;
        e->crc32 = ref.crc;
        c->blob_raw_total += e->raw_size;
    }
    if (cur->bad)
        return qgc_corrupt(diags, c, "malformed map records");
    return check_maps(c, n, diags);
}

static qg_status decode_index(qg_cache *c, qg_diags *diags)
{
    const qgc_header *h = &c->header;
    const unsigned char *z = c->data + QGC_HEADER_SIZE;
    if (qgc_crc32(z, h->index_size) != h->index_crc)
        return qgc_corrupt(diags, c, "index CRC mismatch");
    c->index = index_alloc(h->index_raw_size + 1u);
    if (!c->index)
        return QG_ERR_NOMEM;
    if (!qgc_inflate(z, h->index_size, NULL, 0, c->index, h->index_raw_size))
        return qgc_corrupt(diags, c, "index does not inflate to its recorded size");
    qgc_cursor cur;
    qgc_cursor_init(&cur, c->index, h->index_raw_size);
    uint64_t running = 0;
    qg_status st = decode_files(c, &cur, &running, diags);
    c->maps_at = (size_t)(cur.p - c->index);
    if (st == QG_OK)
        st = decode_maps(c, &cur, &running, diags);
    if (st != QG_OK)
        return st;
    if (running != c->header.file_size - c->header.blobs_offset)
        return qgc_corrupt(diags, c, "blobs do not fill the blob area");
    size_t dict_len = (size_t)qgc_get_varint_max(&cur, QGC_MAX_DICTIONARY);
    c->dict = qgc_get_bytes(&cur, dict_len);
    c->dict_len = dict_len;
    if (cur.bad || cur.p != cur.end)
        return qgc_corrupt(diags, c, "index dictionary is malformed");
    return QG_OK;
}

static qg_status finish_open(qg_cache *c, const char *path, qg_diags *diags)
{
    const char *why = NULL;
    qg_status st = QG_OK;
    if (!qgc_header_decode(c->data, c->size, &c->header, &why))
        st = qgc_corrupt(diags, c, "%s", why);
    if (st == QG_OK)
        st = decode_index(c, diags);
    if (st == QG_ERR_NOMEM)
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "out of memory");
    return st;
}

static qg_cache *cache_new(const char *path, qg_diags *diags)
{
    qg_cache *c = calloc(1, sizeof *c);
    if (!c || !(c->path = qg_strdup(path))) {
        free(c);
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "out of memory");
        return NULL;
    }
    return c;
}

qg_status qgc_open_file(const char *path, const qg_cache_open_options *options,
                        qg_cache **out, qg_diags *diags)
{
    *out = NULL;
    qg_cache *c = cache_new(path, diags);
    if (!c)
        return QG_ERR_NOMEM;
    qg_status st = load_bytes(c, options, diags);
    if (st == QG_OK)
        st = finish_open(c, path, diags);
    if (st != QG_OK) {
        qg_cache_close(c);
        return st;
    }
    *out = c;
    return QG_OK;
}

qg_status qg_cache_open_memory(const void *data, size_t len, const char *name,
                               qg_cache **out, qg_diags *diags)
{
    *out = NULL;
    qg_cache *c = cache_new(name ? name : "", diags);
    if (!c)
        return QG_ERR_NOMEM;
    unsigned char *copy = malloc(len ? len : 1);
    qg_status st = copy ? QG_OK : QG_ERR_NOMEM;
    if (copy) {
        memcpy(copy, data, len);
        c->data = copy;
        c->size = len;
        st = finish_open(c, name ? name : "", diags);
    } else {
        qg_diags_add(diags, QG_ERROR, c->path, 0, 0, NULL, 0, "out of memory");
    }
    if (st != QG_OK) {
        qg_cache_close(c);
        return st;
    }
    *out = c;
    return QG_OK;
}

void qg_cache_close(qg_cache *c)
{
    if (!c)
        return;
    if (c->mapped)
        munmap((void *)(uintptr_t)c->data, c->size);
    else
        free((void *)(uintptr_t)c->data);
    index_free(c->index, c->header.index_raw_size + 1u);
    free(c->files);
    free(c->file_blobs);
    free(c->reuse);
    free(c->maps);
    free(c->names);
    free(c->meta);
    free(c->states);
    free(c->source_dir);
    free(c->path);
    free(c);
}

void qg_cache_get_info(const qg_cache *c, qg_cache_info *out)
{
    out->format_version = c->header.format_version;
    out->questgrid_version = c->header.questgrid_version;
    out->lua_version = c->header.lua_version;
    out->map_count = c->header.map_count;
    out->file_count = c->header.file_count;
    out->file_size = c->header.file_size;
    out->index_size = c->header.index_size;
    out->index_raw_size = c->header.index_raw_size;
    out->blob_size = c->header.file_size - c->header.blobs_offset;
    out->blob_raw_size = c->blob_raw_total;
    out->dictionary_size = c->dict_len;
    out->mapped = c->mapped;
}

const char *qg_cache_path(const qg_cache *c) { return c->path; }
size_t qg_cache_map_count(const qg_cache *c) { return c->header.map_count; }
size_t qg_cache_file_count(const qg_cache *c) { return c->header.file_count; }

const qg_cache_entry *qg_cache_entry_at(const qg_cache *c, size_t index)
{
    return index < c->header.map_count ? &c->maps[index] : NULL;
}

const qg_cache_file *qg_cache_file_at(const qg_cache *c, size_t index)
{
    return index < c->header.file_count ? &c->files[index] : NULL;
}

/* libFuzzer harness: the .qgc cache loader on arbitrary bytes.
 *
 * The first byte picks a mode:
 *   even: the rest is a cache file as is (read() or mmap by bit 1), which
 *         mostly exercises the header and CRC checks;
 *   odd:  the rest is a 64-byte header, a 4-byte little-endian length L,
 *         L bytes of an *inflated* index and the blob area. The harness
 *         deflates the index and fixes sizes, offsets and both CRCs, so the
 *         fuzzer reaches the index parser and the blob checks behind them.
 * Whatever opens is then used as a host would: info, every entry, finds,
 * queries, map loads, source texts and a full verify. */
#include "questgrid.h"
#include "questgrid/cache.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static unsigned char *deflate_raw(const unsigned char *in, size_t len, size_t *out_len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    size_t cap = deflateBound(&z, (uLong)len);
    unsigned char *out = malloc(cap);
    z.next_in = (unsigned char *)in;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    int done = out && deflate(&z, Z_FINISH) == Z_STREAM_END;
    *out_len = z.total_out;
    deflateEnd(&z);
    if (!done) {
        free(out);
        return NULL;
    }
    return out;
}

/* Builds a consistent file from header, inflated index and blob area. */
static unsigned char *assemble(const unsigned char *data, size_t size, size_t *file_len)
{
    if (size < 68)
        return NULL;
    uint32_t index_len = (uint32_t)data[64] | (uint32_t)data[65] << 8 |
                         (uint32_t)data[66] << 16 | (uint32_t)data[67] << 24;
    if (index_len > size - 68)
        return NULL;
    const unsigned char *index = data + 68;
    const unsigned char *blobs = index + index_len;
    size_t blobs_len = size - 68 - index_len;
    size_t packed_len;
    unsigned char *packed = deflate_raw(index, index_len, &packed_len);
    if (!packed)
        return NULL;
    *file_len = 64 + packed_len + blobs_len;
    unsigned char *file = malloc(*file_len);
    if (file) {
        memcpy(file, data, 64);
        memcpy(file + 64, packed, packed_len);
        memcpy(file + 64 + packed_len, blobs, blobs_len);
        put64(file + 32, *file_len);
        put64(file + 40, 64 + packed_len);
        put32(file + 48, (uint32_t)packed_len);
        put32(file + 52, index_len);
        put32(file + 56, (uint32_t)crc32(0, packed, (uInt)packed_len));
        put32(file + 60, (uint32_t)crc32(0, file, 60));
    }
    free(packed);
    return file;
}

static void use(const qg_cache *cache, qg_diags *diags)
{
    qg_cache_info info;
    qg_cache_get_info(cache, &info);
    size_t maps = qg_cache_map_count(cache);
    for (size_t i = 0; i < qg_cache_file_count(cache); i++)
        qg_cache_file_at(cache, i);
    for (size_t i = 0; i < maps && i < 64; i++) {
        const qg_cache_entry *e = qg_cache_entry_at(cache, i);
        if (e && e->name)
            qg_cache_find(cache, e->name);
        if (e)
            qg_cache_find_quest(cache, e->quest);
        qg_mapdef *def = NULL;
        qg_cache_load_map(cache, i, &def, diags);
        qg_mapdef_free(def);
        char *text = NULL;
        size_t len;
        int line;
        qg_cache_map_source(cache, i, &text, &len, &line, diags);
        free(text);
        text = NULL;
        qg_cache_map_file_text(cache, i, &text, &len, diags);
        free(text);
    }
    qg_cache_query q = {"vault", "D:5", NULL, QG_KIND_UNKNOWN};
    size_t steps = 0;
    for (size_t i = qg_cache_next(cache, &q, 0); i != QG_CACHE_NONE && steps < 64;
         i = qg_cache_next(cache, &q, i + 1), steps++)
        ;
    qg_cache_find(cache, "");
    qg_cache_verify(cache, diags);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/fuzz_qgc.%ld.qgc", (long)getpid());
    if (size < 1)
        return 0;
    unsigned mode = data[0];
    size_t len = size - 1;
    unsigned char *built = NULL;
    const unsigned char *bytes = data + 1;
    if (mode & 1) {
        built = assemble(data + 1, size - 1, &len);
        if (!built)
            return 0;
        bytes = built;
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        free(built);
        return 0;
    }
    fwrite(bytes, 1, len, f);
    fclose(f);
    free(built);

    qg_diags *diags = qg_diags_new();
    qg_cache_open_options opt = {.no_mmap = (mode >> 1) & 1};
    qg_cache *cache = NULL;
    if (qg_cache_open(path, &opt, &cache, diags) == QG_OK && cache)
        use(cache, diags);
    qg_cache_close(cache);
    qg_diags_free(diags);
    return 0;
}

/* libFuzzer harness: the .qgc reader (open, full verification, every load
 * and lookup) over arbitrary bytes. Half the inputs get their header and
 * index CRCs recomputed first, so that mutations reach the index decoder
 * and the map metadata instead of stopping at the checksums. */
#include "questgrid.h"
#include "cache/format.h"

#include <stdlib.h>
#include <string.h>

static void fix_checksums(unsigned char *data, size_t size)
{
    if (size < QGC_HEADER_SIZE)
        return;
    uint32_t index_size = qgc_load_u32(data + 48);
    if (index_size <= size - QGC_HEADER_SIZE)
        qgc_store_u32(data + 56, qgc_crc32(data + QGC_HEADER_SIZE, index_size));
    qgc_store_u32(data + 60, qgc_crc32(data, 60));
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    unsigned char *bytes = malloc(size ? size : 1);
    if (!bytes)
        return 0;
    memcpy(bytes, data, size);
    if (size && (data[size - 1] & 1))
        fix_checksums(bytes, size);
    qg_diags *diags = qg_diags_new();
    qg_cache *cache = NULL;
    if (qg_cache_open_memory(bytes, size, "fuzz.qgc", &cache, diags) == QG_OK) {
        qg_cache_verify(cache, diags);
        for (size_t i = 0; i < qg_cache_map_count(cache); i++) {
            const qg_cache_entry *e = qg_cache_entry_at(cache, i);
            qg_cache_find(cache, e->name);
            qg_mapdef *def = NULL;
            if (qg_cache_load_map(cache, i, &def, diags) == QG_OK)
                qg_mapdef_free(def);
            char *text = NULL;
            size_t len;
            if (qg_cache_map_source(cache, i, &text, &len, NULL, diags) == QG_OK)
                free(text);
            if (qg_cache_map_file_text(cache, i, &text, &len, diags) == QG_OK)
                free(text);
        }
        qg_cache_query query = {"questgrid", "D:5", NULL, QG_KIND_UNKNOWN};
        for (size_t i = qg_cache_next(cache, &query, 0); i != QG_CACHE_NONE;
             i = qg_cache_next(cache, &query, i + 1))
            ;
        qg_cache_find_quest(cache, 1);
        qg_cache_close(cache);
    }
    qg_diags_free(diags);
    free(bytes);
    return 0;
}

/* The fixed 64-byte header: the only part of a cache read before its CRC
 * is known to be good, so every field is checked here. */
#include "cache/format.h"

#include <lua.h>
#include <string.h>

void qgc_header_encode(const qgc_header *h, unsigned char out[QGC_HEADER_SIZE])
{
    memcpy(out, QGC_MAGIC, QGC_MAGIC_LEN);
    qgc_store_u32(out + 8, h->format_version);
    qgc_store_u32(out + 12, h->questgrid_version);
    qgc_store_u32(out + 16, h->lua_version);
    qgc_store_u32(out + 20, h->header_size);
    qgc_store_u32(out + 24, h->file_count);
    qgc_store_u32(out + 28, h->map_count);
    qgc_store_u64(out + 32, h->file_size);
    qgc_store_u64(out + 40, h->blobs_offset);
    qgc_store_u32(out + 48, h->index_size);
    qgc_store_u32(out + 52, h->index_raw_size);
    qgc_store_u32(out + 56, h->index_crc);
    qgc_store_u32(out + 60, qgc_crc32(out, 60));
}

void qgc_header_make(qgc_header *h, size_t files, size_t maps, uint64_t index_size,
                     uint64_t index_raw_size, uint32_t index_crc, uint64_t blob_bytes)
{
    *h = (qgc_header){
        .format_version = QG_CACHE_FORMAT_VERSION,
        .questgrid_version = QG_VERSION_NUMBER,
        .lua_version = LUA_VERSION_NUM,
        .header_size = QGC_HEADER_SIZE,
        .file_count = (uint32_t)files,
        .map_count = (uint32_t)maps,
        .blobs_offset = QGC_HEADER_SIZE + index_size,
        .index_size = (uint32_t)index_size,
        .index_raw_size = (uint32_t)index_raw_size,
        .index_crc = index_crc,
    };
    h->file_size = h->blobs_offset + blob_bytes;
}

int qgc_header_decode(const unsigned char *data, size_t len, qgc_header *h,
                      const char **why)
{
    if (len < QGC_HEADER_SIZE) {
        *why = "file is shorter than a cache header";
        return 0;
    }
    if (memcmp(data, QGC_MAGIC, QGC_MAGIC_LEN) != 0) {
        *why = "not a questgrid cache (bad magic)";
        return 0;
    }
    h->format_version = qgc_load_u32(data + 8);
    h->questgrid_version = qgc_load_u32(data + 12);
    h->lua_version = qgc_load_u32(data + 16);
    h->header_size = qgc_load_u32(data + 20);
    h->file_count = qgc_load_u32(data + 24);
    h->map_count = qgc_load_u32(data + 28);
    h->file_size = qgc_load_u64(data + 32);
    h->blobs_offset = qgc_load_u64(data + 40);
    h->index_size = qgc_load_u32(data + 48);
    h->index_raw_size = qgc_load_u32(data + 52);
    h->index_crc = qgc_load_u32(data + 56);
    h->header_crc = qgc_load_u32(data + 60);
    if (h->header_crc != qgc_crc32(data, 60))
        *why = "header CRC mismatch";
    else if (h->format_version < QGC_OLDEST_VERSION ||
             h->format_version > QG_CACHE_FORMAT_VERSION)
        *why = "unsupported cache format version (this questgrid reads versions 2 and 3; "
               "compile the cache again)";
    else if (h->header_size != QGC_HEADER_SIZE)
        *why = "bad header size";
    else if (h->file_size != len)
        *why = "file size differs from the size recorded (truncated or extended)";
    else if (h->blobs_offset != (uint64_t)QGC_HEADER_SIZE + h->index_size ||
             h->blobs_offset > h->file_size)
        *why = "index extends past the end of the file";
    else if (h->index_raw_size > QGC_MAX_INDEX_RAW ||
             h->index_raw_size > (uint64_t)h->index_size * QGC_MAX_RATIO + 64)
        *why = "absurd index size";
    else
        return 1;
    return 0;
}

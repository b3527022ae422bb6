#include "des/map.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* A block holds up to 4 KiB of records, which a 4 KiB window deflates as
 * well as it would the whole file, where zlib's default stream would take
 * 256 KiB for each block. Deflating a block costs some 100 instructions a
 * byte, most of it its own Huffman tables: the first MiB of closed blocks
 * (a game's whole corpus: Crawl's 5,283 names take 140 KiB) is kept as it
 * is, and only a larger corpus is packed, to bound its memory. */
enum { BLOCK_BYTES = 4096, PACK_WINDOW_BITS = 12, PACK_MEM_LEVEL = 5,
       STORED_BYTES = 1024 * 1024 };

qg_des_names *qg_des_names_new(void)
{
    qg_des_names *names = calloc(1, sizeof(qg_des_names));
    if (names)
        qg_buf_init(&names->open);
    return names;
}

void qg_des_names_free(qg_des_names *names)
{
    if (!names)
        return;
    for (size_t i = 0; i < names->path_count; i++)
        free(names->paths[i]);
    for (size_t i = 0; i < names->block_count; i++)
        free(names->blocks[i].packed);
    free(names->paths);
    free(names->blocks);
    free(names->slots);
    qg_buf_free(&names->open);
    free(names);
}

int des_names_state(const qg_des_names *names)
{
    return (int)names->carry_state;
}

void des_names_set_state(qg_des_names *names, int state)
{
    names->carry_state = (des_state)state;
}

/* FNV-1a in 64 bits, its halves folded together: a slot is taken from the
 * low bits, and FNV's low bits depend only on the low bits of the bytes. */
uint32_t des_name_hash(const char *name)
{
    uint64_t h = 14695981039346656037ull;
    for (; *name; name++)
        h = (h ^ (unsigned char)*name) * 1099511628211ull;
    return (uint32_t)(h ^ (h >> 32));
}

/* The line at which records define name, or 0. */
static int records_line(const char *records, size_t len, const char *name)
{
    const char *p = records, *end = records + len;
    while (p < end) {
        int line;
        memcpy(&line, p, sizeof line);
        const char *text = p + sizeof line;
        if (strcmp(text, name) == 0)
            return line;
        p = text + strlen(text) + 1;
    }
    return 0;
}

static int unpack(const des_name_block *b, char *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, -PACK_WINDOW_BITS) != Z_OK)
        return 0;
    z.next_in = b->packed;
    z.avail_in = (uInt)b->packed_len;
    z.next_out = (Bytef *)out;
    z.avail_out = (uInt)b->len;
    int ok = inflate(&z, Z_FINISH) == Z_STREAM_END && z.total_out == b->len;
    inflateEnd(&z);
    return ok;
}

/* The line at which the slot's block defines name, or 0; -1 when there
 * was no memory to unpack the block. */
static int slot_line(const qg_des_names *names, const des_name_slot *slot, const char *name)
{
    const des_name_block *b = &names->blocks[slot->block - 1];
    if (!b->packed)
        return records_line(names->open.data, names->open.len, name);
    if (b->stored)
        return records_line((const char *)b->packed, b->len, name);
    char *records = malloc(b->len);
    int line = records && unpack(b, records) ? records_line(records, b->len, name) : -1;
    free(records);
    return line;
}

int des_names_find(const qg_des_names *names, const char *name, const char **file,
                   int *line)
{
    if (!names || !names->slot_count)
        return 0;
    uint32_t hash = des_name_hash(name);
    size_t mask = names->slot_count - 1;
    for (size_t i = hash & mask; names->slots[i].block; i = (i + 1) & mask) {
        const des_name_slot *slot = &names->slots[i];
        int at = slot->hash == hash ? slot_line(names, slot, name) : 0;
        if (at < 0)
            return -1;
        if (at > 0) {
            *file = names->paths[names->blocks[slot->block - 1].file];
            *line = at;
            return 1;
        }
    }
    return 0;
}

static des_name_slot *empty_slot(des_name_slot *slots, size_t count, uint32_t hash)
{
    size_t i = hash & (count - 1);
    while (slots[i].block)
        i = (i + 1) & (count - 1);
    return &slots[i];
}

/* Filled up to three quarters: a probe compares hashes, not names. */
static int grow(qg_des_names *names)
{
    size_t count = names->slot_count ? names->slot_count * 2 : 256;
    des_name_slot *slots = calloc(count, sizeof *slots);
    if (!slots)
        return 0;
    for (size_t i = 0; i < names->slot_count; i++)
        if (names->slots[i].block)
            *empty_slot(slots, count, names->slots[i].hash) = names->slots[i];
    free(names->slots);
    names->slots = slots;
    names->slot_count = count;
    return 1;
}

/* Keeps the last block's records as they are, while the blocks so kept
 * stay under their bound; 0 when they would not, or on no memory. */
static int store_open(qg_des_names *names)
{
    size_t len = names->open.len;
    if (len > STORED_BYTES - names->stored_bytes)
        return 0;
    unsigned char *copy = malloc(len ? len : 1);
    if (!copy)
        return 0;
    if (len)
        memcpy(copy, names->open.data, len);
    des_name_block *b = &names->blocks[names->block_count - 1];
    *b = (des_name_block){b->file, copy, len, len, 1};
    names->stored_bytes += len;
    qg_buf_reset(&names->open);
    return 1;
}

/* Closes the last block's records, which another block follows: kept as
 * they are, else deflated. */
static int pack_open(qg_des_names *names)
{
    if (store_open(names))
        return 1;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -PACK_WINDOW_BITS, PACK_MEM_LEVEL,
                     Z_DEFAULT_STRATEGY) != Z_OK)
        return 0;
    uLong bound = deflateBound(&z, (uLong)names->open.len);
    unsigned char *packed = malloc(bound);
    z.next_in = (Bytef *)names->open.data;
    z.avail_in = (uInt)names->open.len;
    z.next_out = packed;
    z.avail_out = (uInt)bound;
    int ok = packed && deflate(&z, Z_FINISH) == Z_STREAM_END;
    deflateEnd(&z);
    if (!ok) {
        free(packed);
        return 0;
    }
    unsigned char *fitted = realloc(packed, z.total_out);
    des_name_block *b = &names->blocks[names->block_count - 1];
    b->packed = fitted ? fitted : packed;
    b->packed_len = z.total_out;
    b->len = names->open.len;
    qg_buf_reset(&names->open);
    return 1;
}

static int add_path(qg_des_names *names, const char *path)
{
    char *copy = qg_strdup(path);
    if (!copy || !qg_grow((void **)&names->paths, &names->path_cap, names->path_count + 1,
                          sizeof *names->paths)) {
        free(copy);
        return 0;
    }
    names->paths[names->path_count++] = copy;
    return 1;
}

static int begin_block(qg_des_names *names)
{
    if (names->block_count >= UINT32_MAX ||
        !qg_grow((void **)&names->blocks, &names->block_cap, names->block_count + 1,
                 sizeof *names->blocks) ||
        (names->block_count && !pack_open(names)))
        return 0;
    names->blocks[names->block_count++] = (des_name_block){names->path_count - 1, NULL, 0, 0, 0};
    return 1;
}

/* A new file's names, or a record that would take the open block past its
 * size, begin a block. */
static int open_block_for(qg_des_names *names, const char *file, size_t record_len)
{
    int same_file = names->path_count && strcmp(names->paths[names->path_count - 1], file) == 0;
    if (!same_file) {
        if (!add_path(names, file))
            return 0;
        if (begin_block(names))
            return 1;
        free(names->paths[--names->path_count]);
        return 0;
    }
    if (names->open.len && names->open.len + record_len > BLOCK_BYTES)
        return begin_block(names);
    return 1;
}

/* A block's records are deflated in one call, whose sizes are uInt. */
static int add_record(qg_buf *open, const char *name, int line)
{
    size_t len = strlen(name) + 1;
    if (open->len + sizeof line + len > UINT_MAX || !qg_buf_reserve(open, sizeof line + len))
        return 0;
    qg_buf_append(open, &line, sizeof line);
    qg_buf_append(open, name, len);
    return 1;
}

int des_names_add(qg_des_names *names, const char *name, const char *file, int line)
{
    if ((names->used + 1) * 4 > names->slot_count * 3 && !grow(names))
        return 0;
    if (!open_block_for(names, file, sizeof line + strlen(name) + 1) ||
        !add_record(&names->open, name, line))
        return 0;
    uint32_t hash = des_name_hash(name);
    *empty_slot(names->slots, names->slot_count, hash) =
        (des_name_slot){hash, (uint32_t)names->block_count};
    names->used++;
    return 1;
}

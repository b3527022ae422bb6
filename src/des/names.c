#include "des/map.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* A file's names come to a few kilobytes: a 4 KiB window finds their
 * repeats, where zlib's default stream would take 256 KiB for each file. */
enum { PACK_WINDOW_BITS = 12, PACK_MEM_LEVEL = 5 };

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
    for (size_t i = 0; i < names->file_count; i++) {
        free(names->files[i].path);
        free(names->files[i].packed);
    }
    free(names->files);
    free(names->slots);
    qg_buf_free(&names->open);
    free(names);
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

static int records_hold(const char *records, size_t len, const char *name, int line)
{
    const char *p = records, *end = records + len;
    while (p < end) {
        int at;
        memcpy(&at, p, sizeof at);
        const char *text = p + sizeof at;
        if (at == line && strcmp(text, name) == 0)
            return 1;
        p = text + strlen(text) + 1;
    }
    return 0;
}

static int unpack(const des_name_file *f, char *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, -PACK_WINDOW_BITS) != Z_OK)
        return 0;
    z.next_in = f->packed;
    z.avail_in = (uInt)f->packed_len;
    z.next_out = (Bytef *)out;
    z.avail_out = (uInt)f->len;
    int ok = inflate(&z, Z_FINISH) == Z_STREAM_END && z.total_out == f->len;
    inflateEnd(&z);
    return ok;
}

/* Whether the slot's file defined name at the slot's line; -1 when there
 * was no memory to unpack the file's names. */
static int slot_holds(const qg_des_names *names, const des_name_slot *slot, const char *name)
{
    const des_name_file *f = &names->files[slot->file - 1];
    if (!f->packed)
        return records_hold(names->open.data, names->open.len, name, slot->line);
    char *records = malloc(f->len);
    int held = records && unpack(f, records) ? records_hold(records, f->len, name, slot->line)
                                             : -1;
    free(records);
    return held;
}

int des_names_find(const qg_des_names *names, const char *name, const char **file,
                   int *line)
{
    if (!names || !names->slot_count)
        return 0;
    uint32_t hash = des_name_hash(name);
    size_t mask = names->slot_count - 1;
    for (size_t i = hash & mask; names->slots[i].file; i = (i + 1) & mask) {
        const des_name_slot *slot = &names->slots[i];
        int held = slot->hash == hash ? slot_holds(names, slot, name) : 0;
        if (held > 0) {
            *file = names->files[slot->file - 1].path;
            *line = slot->line;
        }
        if (held)
            return held;
    }
    return 0;
}

static des_name_slot *empty_slot(des_name_slot *slots, size_t count, uint32_t hash)
{
    size_t i = hash & (count - 1);
    while (slots[i].file)
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
        if (names->slots[i].file)
            *empty_slot(slots, count, names->slots[i].hash) = names->slots[i];
    free(names->slots);
    names->slots = slots;
    names->slot_count = count;
    return 1;
}

/* Deflates the last file's records, which another file's names follow. */
static int pack_open(qg_des_names *names)
{
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
    des_name_file *f = &names->files[names->file_count - 1];
    f->packed = fitted ? fitted : packed;
    f->packed_len = z.total_out;
    f->len = names->open.len;
    qg_buf_reset(&names->open);
    return 1;
}

static int begin_file(qg_des_names *names, const char *path)
{
    char *copy = qg_strdup(path);
    if (!copy || names->file_count >= UINT32_MAX ||
        !qg_grow((void **)&names->files, &names->file_cap, names->file_count + 1,
                 sizeof *names->files) ||
        (names->file_count && !pack_open(names))) {
        free(copy);
        return 0;
    }
    names->files[names->file_count++] = (des_name_file){copy, NULL, 0, 0};
    return 1;
}

/* A file's records are deflated in one call, whose sizes are uInt. */
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
    int same_file = names->file_count &&
                    strcmp(names->files[names->file_count - 1].path, file) == 0;
    if (!same_file && !begin_file(names, file))
        return 0;
    if (!add_record(&names->open, name, line))
        return 0;
    uint32_t hash = des_name_hash(name);
    *empty_slot(names->slots, names->slot_count, hash) =
        (des_name_slot){hash, (uint32_t)names->file_count, line};
    names->used++;
    return 1;
}

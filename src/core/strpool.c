#include "core/strpool.h"
#include "core/buf.h"

#include <stdlib.h>
#include <string.h>

void qg_strpool_init(qg_strpool *pool)
{
    memset(pool, 0, sizeof *pool);
    qg_arena_init(&pool->text);
}

void qg_strpool_free(qg_strpool *pool)
{
    free(pool->strings);
    free(pool->hashes);
    free(pool->slots);
    qg_arena_free(&pool->text);
    qg_strpool_init(pool);
}

static uint32_t hash_bytes(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static int rehash(qg_strpool *pool)
{
    size_t n = pool->slot_count ? pool->slot_count * 2 : 64;
    uint32_t *slots = calloc(n, sizeof *slots);
    if (!slots)
        return 0;
    for (size_t id = 1; id < pool->count; id++) {
        size_t at = pool->hashes[id] & (n - 1);
        while (slots[at])
            at = (at + 1) & (n - 1);
        slots[at] = (uint32_t)id;
    }
    free(pool->slots);
    pool->slots = slots;
    pool->slot_count = n;
    return 1;
}

/* Room for one more id in strings and hashes (id 0 made on first use). */
static int reserve_id(qg_strpool *pool)
{
    size_t want = pool->count ? pool->count + 1 : 2;
    if (want <= pool->cap)
        return 1;
    size_t cap = pool->cap ? pool->cap : 8;
    while (cap < want)
        cap *= 2;
    char **strings = realloc(pool->strings, cap * sizeof *strings);
    if (strings)
        pool->strings = strings;
    uint32_t *hashes = strings ? realloc(pool->hashes, cap * sizeof *hashes) : NULL;
    if (!hashes)
        return 0;
    pool->hashes = hashes;
    pool->cap = cap;
    if (pool->count == 0) {
        pool->strings[0] = NULL;
        pool->hashes[0] = 0;
        pool->count = 1;
    }
    return 1;
}

uint32_t qg_strpool_intern(qg_strpool *pool, const char *s, size_t len)
{
    if (!s)
        return 0;
    if (!reserve_id(pool) || pool->count >= QG_STRPOOL_FAIL)
        return QG_STRPOOL_FAIL;
    if ((pool->count + 1) * 2 > pool->slot_count && !rehash(pool))
        return QG_STRPOOL_FAIL;
    uint32_t hash = hash_bytes(s, len);
    size_t mask = pool->slot_count - 1;
    size_t at = hash & mask;
    while (pool->slots[at]) {
        uint32_t id = pool->slots[at];
        const char *have = pool->strings[id];
        if (pool->hashes[id] == hash && strlen(have) == len && memcmp(have, s, len) == 0)
            return id;
        at = (at + 1) & mask;
    }
    char *copy = qg_arena_strndup(&pool->text, s, len);
    if (!copy)
        return QG_STRPOOL_FAIL;
    uint32_t id = (uint32_t)pool->count++;
    pool->strings[id] = copy;
    pool->hashes[id] = hash;
    pool->slots[at] = id;
    return id;
}

const char *qg_strpool_get(const qg_strpool *pool, uint32_t id)
{
    return id && id < pool->count ? pool->strings[id] : NULL;
}

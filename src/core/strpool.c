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
    free(pool->entries);
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
        size_t at = pool->entries[id].hash & (n - 1);
        while (slots[at])
            at = (at + 1) & (n - 1);
        slots[at] = (uint32_t)id;
    }
    free(pool->slots);
    pool->slots = slots;
    pool->slot_count = n;
    return 1;
}

uint32_t qg_strpool_intern(qg_strpool *pool, const char *s, size_t len)
{
    if (!s)
        return 0;
    if (!pool->count) {
        qg_strpool_entry *none = QG_PUSH(pool->entries, pool->count, pool->cap);
        if (!none)
            return QG_STRPOOL_FAIL;
        *none = (qg_strpool_entry){NULL, 0};
    }
    if (pool->count >= QG_STRPOOL_FAIL ||
        ((pool->count + 1) * 2 > pool->slot_count && !rehash(pool)))
        return QG_STRPOOL_FAIL;
    uint32_t hash = hash_bytes(s, len);
    size_t mask = pool->slot_count - 1;
    size_t at = hash & mask;
    while (pool->slots[at]) {
        const qg_strpool_entry *have = &pool->entries[pool->slots[at]];
        if (have->hash == hash && strlen(have->text) == len && memcmp(have->text, s, len) == 0)
            return pool->slots[at];
        at = (at + 1) & mask;
    }
    char *copy = qg_arena_strndup(&pool->text, s, len);
    qg_strpool_entry *entry = copy ? QG_PUSH(pool->entries, pool->count, pool->cap) : NULL;
    if (!entry)
        return QG_STRPOOL_FAIL;
    entry->text = copy;
    entry->hash = hash;
    pool->slots[at] = (uint32_t)(pool->count - 1);
    return pool->slots[at];
}

const char *qg_strpool_get(const qg_strpool *pool, uint32_t id)
{
    return id && id < pool->count ? pool->entries[id].text : NULL;
}

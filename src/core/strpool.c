#include "core/strpool.h"
#include "core/buf.h"

#include <stdlib.h>
#include <string.h>

void qg_strpool_init(qg_strpool *pool)
{
    memset(pool, 0, sizeof *pool);
}

void qg_strpool_free(qg_strpool *pool)
{
    for (size_t i = 1; i < pool->count; i++)
        free(pool->strings[i]);
    free(pool->strings);
    free(pool->slots);
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
        const char *s = pool->strings[id];
        size_t at = hash_bytes(s, strlen(s)) & (n - 1);
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
    if (pool->count == 0) {
        char **first = QG_PUSH(pool->strings, pool->count, pool->cap);
        if (!first)
            return QG_STRPOOL_FAIL;
        *first = NULL;
    }
    if ((pool->count + 1) * 2 > pool->slot_count && !rehash(pool))
        return QG_STRPOOL_FAIL;
    size_t mask = pool->slot_count - 1;
    size_t at = hash_bytes(s, len) & mask;
    while (pool->slots[at]) {
        const char *have = pool->strings[pool->slots[at]];
        if (strlen(have) == len && memcmp(have, s, len) == 0)
            return pool->slots[at];
        at = (at + 1) & mask;
    }
    char *copy = qg_strndup(s, len);
    char **entry = copy ? QG_PUSH(pool->strings, pool->count, pool->cap) : NULL;
    if (!entry) {
        free(copy);
        return QG_STRPOOL_FAIL;
    }
    *entry = copy;
    pool->slots[at] = (uint32_t)(pool->count - 1);
    return pool->slots[at];
}

const char *qg_strpool_get(const qg_strpool *pool, uint32_t id)
{
    return id && id < pool->count ? pool->strings[id] : NULL;
}

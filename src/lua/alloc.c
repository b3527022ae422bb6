/* The Lua state's allocator: the memory cap, and a pool for the small
 * blocks that are nearly all of what Lua allocates (strings, tables,
 * closures, table parts). Lua gives the old size with every call, so a
 * block needs no header: blocks of up to LRT_POOL_MAX bytes come from free
 * lists of 16-byte size classes, carved from chunks the runtime keeps
 * until it is freed; larger ones from malloc. A compile-time run creates
 * and drops thousands of small objects per map: the pool takes them
 * without a call into malloc, and the state's churn never mixes with the
 * rest of the process's heap (which is what made a long compile's heap
 * grow). Under AddressSanitizer every block is malloc's, so that a stray
 * pointer into Lua's memory is still caught. */
#define _DEFAULT_SOURCE
#include "lua/rt.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#define LRT_POOL_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LRT_POOL_OFF 1
#endif
#endif

enum { POOL_CHUNK = 256 * 1024 };

static size_t size_class(size_t size)
{
    return (size + LRT_POOL_STEP - 1) / LRT_POOL_STEP;
}

static int pooled(size_t size)
{
#ifdef LRT_POOL_OFF
    (void)size;
    return 0;
#else
    return size > 0 && size <= LRT_POOL_MAX;
#endif
}

/* Chunks are mapped apart from malloc's heap: the state's churn would
 * otherwise leave holes between the process's other blocks. */
static char *map_chunk(void)
{
    void *p = mmap(NULL, POOL_CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* A new chunk, else (for a block that must be had) the reserve; the
 * reserve is made again before any other block is taken. */
static char *new_chunk(lrt_pool *pool, int must)
{
    if (!pool->reserve && !must && !(pool->reserve = map_chunk()))
        return NULL;
    char *chunk = map_chunk();
    if (!chunk && must) {
        chunk = pool->reserve;
        pool->reserve = NULL;
    }
    return chunk;
}

static void *pool_take(lrt_pool *pool, size_t size, int must)
{
    size_t c = size_class(size);
    void *block = pool->free[c];
    if (block) {
        memcpy(&pool->free[c], block, sizeof(void *));
        return block;
    }
    size_t bytes = c * LRT_POOL_STEP;
    if ((size_t)(pool->end - pool->next) < bytes) {
        char *chunk = new_chunk(pool, must);
        if (!chunk)
            return NULL;
        memcpy(chunk, &pool->chunks, sizeof(void *));  /* chunks are chained */
        pool->chunks = chunk;
        pool->next = chunk + LRT_POOL_STEP;
        pool->end = chunk + POOL_CHUNK;
    }
    block = pool->next;
    pool->next += bytes;
    return block;
}

static void pool_give(lrt_pool *pool, void *block, size_t size)
{
    size_t c = size_class(size);
    memcpy(block, &pool->free[c], sizeof(void *));
    pool->free[c] = block;
}

void lrt_pool_free(lrt_pool *pool)
{
    while (pool->chunks) {
        char *chunk = pool->chunks;
        memcpy(&pool->chunks, chunk, sizeof(void *));
        munmap(chunk, POOL_CHUNK);
    }
    if (pool->reserve)
        munmap(pool->reserve, POOL_CHUNK);
    memset(pool, 0, sizeof *pool);
}

/* Moves a block to its new size class, in the pool or in malloc. Lua
 * requires that a shrink never fails: a block shrinking into the pool may
 * take the reserve chunk, and only with malloc and the reserve both spent
 * does it stay where it is (a pooled block is then counted in its smaller
 * class; a malloc'd one is never given back). */
static void *resize(lrt_pool *pool, void *ptr, size_t old, size_t size)
{
    if (!ptr)
        return pooled(size) ? pool_take(pool, size, 0) : malloc(size);
    if (pooled(old) && pooled(size) && size_class(size) == size_class(old))
        return ptr;
    if (!pooled(old) && !pooled(size))
        return realloc(ptr, size);
    int shrink = size < old;
    void *block = pooled(size) ? pool_take(pool, size, shrink) : malloc(size);
    if (!block)
        return shrink ? ptr : NULL;
    memcpy(block, ptr, old < size ? old : size);
    if (pooled(old))
        pool_give(pool, ptr, old);
    else
        free(ptr);
    return block;
}

void *lrt_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    qg_runtime *rt = ud;
    size_t old = ptr ? osize : 0; /* with ptr NULL, osize is a type tag */
    if (nsize == 0) {
        if (ptr && pooled(old))
            pool_give(&rt->pool, ptr, old);
        else
            free(ptr);
        rt->mem_used -= old;
        return NULL;
    }
    if (nsize > old && rt->mem_used - old + nsize > rt->mem_limit)
        return NULL;
    void *p = resize(&rt->pool, ptr, old, nsize);
    if (!p)
        return NULL;
    rt->mem_used = rt->mem_used - old + nsize;
    return p;
}

/* The Lua state's allocator: the memory cap, and a pool for the small
 * blocks that are nearly all of what Lua allocates (strings, tables,
 * closures, table parts). Lua gives the old size with every call, so a
 * block needs no header: blocks of up to LRT_POOL_MAX bytes come from
 * slabs, each a 64 KiB run of one 16-byte size class, mapped apart from
 * malloc's heap; larger ones from malloc. A compile-time run creates and
 * drops thousands of small objects per map: the pool takes them without a
 * call into malloc, and a slab whose blocks are all free again goes back
 * to the system (a few are kept for the next run), so that the state's
 * footprint follows what it holds now, not the most it ever held: a long
 * compile or a game that builds level after level stays at the size of
 * its largest single run. Under AddressSanitizer every block is malloc's,
 * so that a stray pointer into Lua's memory is still caught. */
#define _DEFAULT_SOURCE
#include "lua/rt.h"

#include <stdint.h>
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

/* Slabs are aligned to their size, so that a block finds its slab by
 * masking its address. The slab's header takes its first blocks. */
enum { SLAB = 64 * 1024, SPARE_SLABS = 4 };

struct lrt_slab {
    lrt_slab *prev, *next;     /* the class's slabs with a free block */
    lrt_slab *older, *newer;   /* every slab of the pool */
    void *free;                /* freed blocks, each linking the next */
    char *next_block, *end;    /* never handed out yet */
    size_t live;
    size_t cls;                /* its blocks' size class */
    int listed;                /* on its class's list */
};

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

static lrt_slab *slab_of(void *block)
{
    return (lrt_slab *)((uintptr_t)block & ~(uintptr_t)(SLAB - 1));
}

/* Twice the size mapped, then what lies outside the aligned slab given
 * back. */
static lrt_slab *map_slab(lrt_pool *pool)
{
    char *p = mmap(NULL, 2 * SLAB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    char *slab = (char *)(((uintptr_t)p + SLAB - 1) & ~(uintptr_t)(SLAB - 1));
    if (slab > p)
        munmap(p, (size_t)(slab - p));
    if (slab + SLAB < p + 2 * SLAB)
        munmap(slab + SLAB, (size_t)(p + 2 * SLAB - (slab + SLAB)));
    pool->mapped += SLAB;
    return (lrt_slab *)slab;
}

static void list_add(lrt_pool *pool, size_t c, lrt_slab *s)
{
    s->prev = NULL;
    s->next = pool->partial[c];
    if (s->next)
        s->next->prev = s;
    pool->partial[c] = s;
    s->listed = 1;
}

static void list_remove(lrt_pool *pool, size_t c, lrt_slab *s)
{
    if (s->prev)
        s->prev->next = s->next;
    else
        pool->partial[c] = s->next;
    if (s->next)
        s->next->prev = s->prev;
    s->listed = 0;
}

static void all_add(lrt_pool *pool, lrt_slab *s)
{
    s->newer = NULL;
    s->older = pool->newest;
    if (s->older)
        s->older->newer = s;
    pool->newest = s;
}

static void all_remove(lrt_pool *pool, lrt_slab *s)
{
    if (s->newer)
        s->newer->older = s->older;
    else
        pool->newest = s->older;
    if (s->older)
        s->older->newer = s->newer;
}

/* A slab made ready for class c: a spare one, a new one, or (for a
 * block that must be had) the reserve, which is made again before any
 * other block is taken. */
static lrt_slab *new_slab(lrt_pool *pool, size_t c, int must)
{
    lrt_slab *s = NULL;
    if (pool->spare) {
        s = pool->spare;
        pool->spare = s->next;
        pool->spare_count--;
    } else {
        if (!pool->reserve && !must && !(pool->reserve = map_slab(pool)))
            return NULL;
        s = map_slab(pool);
        if (!s && must) {
            s = pool->reserve;
            pool->reserve = NULL;
        }
        if (!s)
            return NULL;
    }
    size_t header = (sizeof *s + LRT_POOL_STEP - 1) / LRT_POOL_STEP * LRT_POOL_STEP;
    size_t bytes = c * LRT_POOL_STEP;
    memset(s, 0, sizeof *s);
    s->cls = c;
    s->next_block = (char *)s + header;
    s->end = (char *)s + header + (SLAB - header) / bytes * bytes;
    all_add(pool, s);
    list_add(pool, c, s);
    return s;
}

static void unmap_slab(lrt_pool *pool, lrt_slab *s)
{
    munmap(s, SLAB);
    pool->mapped -= SLAB;
}

/* An empty slab is kept as a spare while there are few, else unmapped. */
static void drop_slab(lrt_pool *pool, lrt_slab *s)
{
    if (s->listed)
        list_remove(pool, s->cls, s);
    all_remove(pool, s);
    if (pool->spare_count < SPARE_SLABS) {
        s->next = pool->spare;
        pool->spare = s;
        pool->spare_count++;
    } else {
        unmap_slab(pool, s);
    }
}

static void *pool_take(lrt_pool *pool, size_t size, int must)
{
    size_t c = size_class(size);
    lrt_slab *s = pool->partial[c];
    if (!s && !(s = new_slab(pool, c, must)))
        return NULL;
    void *block = s->free;
    if (block) {
        memcpy(&s->free, block, sizeof(void *));
    } else {
        block = s->next_block;
        s->next_block += c * LRT_POOL_STEP;
    }
    s->live++;
    if (!s->free && s->next_block == s->end)
        list_remove(pool, c, s);
    return block;
}

/* A block goes back to its own slab, whose class may be larger than
 * size says (a shrink that kept its block). */
static void pool_give(lrt_pool *pool, void *block)
{
    lrt_slab *s = slab_of(block);
    memcpy(block, &s->free, sizeof(void *));
    s->free = block;
    if (--s->live == 0)
        drop_slab(pool, s);
    else if (!s->listed)
        list_add(pool, s->cls, s);
}

/* malloc's blocks that a failed shrink left at a size of the pool's (see
 * resize): rare, as it takes malloc and the reserve both spent. */
static int stranded_index(const lrt_pool *pool, const void *block)
{
    for (int i = 0; i < pool->stranded_count; i++)
        if (pool->stranded[i] == block)
            return i;
    return -1;
}

static int is_pool_block(const lrt_pool *pool, void *block, size_t size)
{
    return pooled(size) && (pool->stranded_count == 0 || stranded_index(pool, block) < 0);
}

static void unstrand(lrt_pool *pool, void *block)
{
    int i = stranded_index(pool, block);
    pool->stranded[i] = pool->stranded[--pool->stranded_count];
}

static void give_back(lrt_pool *pool, void *block, size_t size)
{
    if (is_pool_block(pool, block, size)) {
        pool_give(pool, block);
        return;
    }
    if (pooled(size))
        unstrand(pool, block);
    free(block);
}

void lrt_pool_free(lrt_pool *pool)
{
    while (pool->newest) {
        lrt_slab *s = pool->newest;
        pool->newest = s->older;
        unmap_slab(pool, s);
    }
    while (pool->spare) {
        lrt_slab *s = pool->spare;
        pool->spare = s->next;
        unmap_slab(pool, s);
    }
    if (pool->reserve)
        unmap_slab(pool, pool->reserve);
    memset(pool, 0, sizeof *pool);
}

/* Moves a block to its new size class, in the pool or in malloc. Lua
 * requires that a shrink never fails: a block shrinking into the pool may
 * take the reserve slab; with malloc and the reserve both spent, a pooled
 * block stays in its larger class, and a malloc'd one stays where it is,
 * noted as stranded (a few may be; past that the shrink fails, the one
 * case where it does). */
static void *resize(lrt_pool *pool, void *ptr, size_t old, size_t size)
{
    if (!ptr)
        return pooled(size) ? pool_take(pool, size, 0) : malloc(size);
    int from_pool = is_pool_block(pool, ptr, old);
    if (from_pool && pooled(size) && size_class(size) == size_class(old))
        return ptr;
    if (!from_pool && !pooled(size)) {
        void *moved = realloc(ptr, size);
        if (!moved)
            return size < old ? ptr : NULL;
        if (pooled(old))
            unstrand(pool, ptr);
        return moved;
    }
    int shrink = size < old;
    void *block = pooled(size) ? pool_take(pool, size, shrink) : malloc(size);
    if (!block && shrink && !from_pool && !pooled(old)) {
        if (pool->stranded_count == LRT_POOL_STRANDED)
            return NULL;
        pool->stranded[pool->stranded_count++] = ptr;
        return ptr;
    }
    if (!block)
        return shrink ? ptr : NULL;
    memcpy(block, ptr, old < size ? old : size);
    give_back(pool, ptr, old);
    return block;
}

/* Growth is charged to the budget (budget.h): the bytes are written once
 * and swept once, and the collector's pace follows them. A refusal is
 * charged as the full collection Lua runs before giving up. */
void *lrt_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    qg_runtime *rt = ud;
    size_t old = ptr ? osize : 0; /* with ptr NULL, osize is a type tag */
    if (nsize == 0) {
        if (ptr)
            give_back(&rt->pool, ptr, old);
        rt->mem_used -= old;
        return NULL;
    }
    if (nsize > old) {
        if (rt->mem_used - old + nsize > rt->mem_limit) {
            lrt_spend(rt, rt->mem_used / LRT_COLLECT_BYTES);
            rt->mem_capped = 1;
            return NULL;
        }
        lrt_spend(rt, LRT_ALLOC_UNITS + nsize / LRT_ALLOC_BYTES +
                           (!ptr && osize == LUA_TSTRING ? LRT_STRING_UNITS : 0));
    }
    void *p = resize(&rt->pool, ptr, old, nsize);
    if (!p)
        return NULL;
    rt->mem_used = rt->mem_used - old + nsize;
    return p;
}

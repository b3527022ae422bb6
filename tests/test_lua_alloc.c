/* The Lua state's allocator (src/lua/alloc.c): blocks keep their bytes
 * through every move, slabs go back to the system once their blocks are
 * free, and a shrink never fails, even with malloc and mmap both failing.
 * malloc, realloc and mmap are wrapped at link time to make them fail. */
#define _GNU_SOURCE
#include "testutil.h"
#include "lua/rt.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void *__real_malloc(size_t size);
void *__real_realloc(void *p, size_t size);
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_malloc(size_t size);
void *__wrap_realloc(void *p, size_t size);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);

static int out_of_memory;

void *__wrap_malloc(size_t size)
{
    return out_of_memory ? NULL : __real_malloc(size);
}

void *__wrap_realloc(void *p, size_t size)
{
    return out_of_memory ? NULL : __real_realloc(p, size);
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    return out_of_memory ? MAP_FAILED : __real_mmap(addr, len, prot, flags, fd, off);
}

/* The allocator needs only the runtime's pool and counters. */
static qg_runtime *runtime(void)
{
    qg_runtime *rt = calloc(1, sizeof *rt);
    assert_non_null(rt);
    rt->mem_limit = SIZE_MAX;
    return rt;
}

static void runtime_free(qg_runtime *rt)
{
    lrt_pool_free(&rt->pool);
    free(rt);
}

static void *take(qg_runtime *rt, size_t size)
{
    void *p = lrt_alloc(rt, NULL, 0, size);
    assert_non_null(p);
    memset(p, (int)(size & 0xff), size);
    return p;
}

static void assert_filled(const unsigned char *p, size_t len, int byte)
{
    for (size_t i = 0; i < len; i++)
        assert_int_equal(p[i], byte);
}

/* Whether small blocks come from slabs: not under AddressSanitizer,
 * where every block is malloc's. */
static int pool_in_use(void)
{
    qg_runtime *rt = runtime();
    lrt_alloc(rt, take(rt, 16), 16, 0);
    int pooled = rt->pool.mapped > 0;
    runtime_free(rt);
    return pooled;
}

/* Every size from 1 byte to past the pool's largest class, grown and
 * shrunk across classes and into malloc and back: the bytes stay. */
static void test_blocks_keep_their_bytes_through_moves(void **state)
{
    (void)state;
    qg_runtime *rt = runtime();
    for (size_t size = 1; size <= LRT_POOL_MAX + 64; size += 7) {
        unsigned char *p = take(rt, size);
        size_t bigger = size * 3 + 600;
        p = lrt_alloc(rt, p, size, bigger);
        assert_non_null(p);
        assert_filled(p, size, (int)(size & 0xff));
        memset(p, 0x5a, bigger);
        size_t smaller = size / 2 + 1;
        p = lrt_alloc(rt, p, bigger, smaller);
        assert_non_null(p);
        assert_filled(p, smaller, 0x5a);
        assert_null(lrt_alloc(rt, p, smaller, 0));
    }
    assert_int_equal(rt->mem_used, 0);
    runtime_free(rt);
}

/* A run that held 5 MiB in small blocks and let them all go leaves no
 * more than the few slabs kept for the next run: a long compile does not
 * keep its largest run's memory to the end. */
static void test_slabs_go_back_once_their_blocks_are_free(void **state)
{
    (void)state;
    if (!pool_in_use())
        test_skip("under AddressSanitizer every block is malloc's: there are no slabs");
    enum { COUNT = 100000, SIZE = 48 };
    qg_runtime *rt = runtime();
    void **blocks = calloc(COUNT, sizeof *blocks);
    assert_non_null(blocks);
    for (size_t i = 0; i < COUNT; i++)
        blocks[i] = take(rt, SIZE + (i % 4) * 16);
    size_t peak = rt->pool.mapped;
    assert_true(peak >= (size_t)COUNT * SIZE);
    for (size_t i = 0; i < COUNT; i += 2)
        lrt_alloc(rt, blocks[i], SIZE + (i % 4) * 16, 0);
    for (size_t i = 1; i < COUNT; i += 2)
        lrt_alloc(rt, blocks[i], SIZE + (i % 4) * 16, 0);
    assert_int_equal(rt->mem_used, 0);
    assert_true(rt->pool.mapped <= 6u * 64u * 1024u);
    for (size_t i = 0; i < COUNT; i++)
        blocks[i] = take(rt, SIZE);
    assert_true(rt->pool.mapped <= peak);
    for (size_t i = 0; i < COUNT; i++)
        lrt_alloc(rt, blocks[i], SIZE, 0);
    free(blocks);
    runtime_free(rt);
}

/* Lua may shrink any block with nothing left to allocate from: one takes
 * the reserve slab, a pooled block with no room in a smaller class stays
 * in its own, a malloc'd one stays where it is; each is then freed to
 * where it came from, and grown again once memory is back. */
static void test_a_shrink_never_fails(void **state)
{
    (void)state;
    int pooled = pool_in_use();
    qg_runtime *rt = runtime();
    unsigned char *first = take(rt, 400);
    unsigned char *anchor = take(rt, 400); /* keeps first's slab in use */
    unsigned char *second = take(rt, 300);
    unsigned char *large[3];
    for (int i = 0; i < 3; i++)
        large[i] = take(rt, 4000 + (size_t)i);
    out_of_memory = 1;
    first = lrt_alloc(rt, first, 400, 24);
    assert_non_null(first);
    assert_filled(first, 24, 400 & 0xff);
    unsigned char *kept = lrt_alloc(rt, second, 300, 100);
    assert_non_null(kept);
    assert_filled(kept, 100, 300 & 0xff);
    size_t sizes[3] = {40, 200, 330};
    for (int i = 0; i < 3; i++) {
        unsigned char *q = lrt_alloc(rt, large[i], 4000 + (size_t)i, sizes[i]);
        assert_non_null(q);
        assert_filled(q, sizes[i], (int)((4000 + i) & 0xff));
        large[i] = q;
    }
    if (pooled) {
        assert_ptr_equal(kept, second);
        assert_int_equal(rt->pool.stranded_count, 3);
    }
    assert_null(lrt_alloc(rt, NULL, 0, 16));
    out_of_memory = 0;
    large[0] = lrt_alloc(rt, large[0], sizes[0], 9000);
    assert_non_null(large[0]);
    assert_filled(large[0], sizes[0], 4000 & 0xff);
    lrt_alloc(rt, large[0], 9000, 0);
    for (int i = 1; i < 3; i++)
        lrt_alloc(rt, large[i], sizes[i], 0);
    lrt_alloc(rt, first, 24, 0);
    lrt_alloc(rt, anchor, 400, 0);
    lrt_alloc(rt, kept, 100, 0);
    assert_int_equal(rt->mem_used, 0);
    assert_int_equal(rt->pool.stranded_count, 0);
    runtime_free(rt);
}

/* The cap counts what Lua holds, whichever way a block is stored. */
static void test_the_cap_is_kept(void **state)
{
    (void)state;
    qg_runtime *rt = runtime();
    rt->mem_limit = 1000;
    void *a = take(rt, 600);
    assert_null(lrt_alloc(rt, NULL, 0, 500));
    void *b = take(rt, 400);
    assert_null(lrt_alloc(rt, b, 400, 401));
    lrt_alloc(rt, a, 600, 0);
    lrt_alloc(rt, b, 400, 0);
    assert_int_equal(rt->mem_used, 0);
    runtime_free(rt);
}

static int memory_back(void **state)
{
    (void)state;
    out_of_memory = 0;
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_blocks_keep_their_bytes_through_moves, memory_back),
        cmocka_unit_test_setup(test_slabs_go_back_once_their_blocks_are_free, memory_back),
        cmocka_unit_test_setup(test_a_shrink_never_fails, memory_back),
        cmocka_unit_test_setup(test_the_cap_is_kept, memory_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

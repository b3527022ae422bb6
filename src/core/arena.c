#include "core/arena.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Blocks start small (most owners hold a few hundred bytes) and double up
 * to BLOCK_MAX. */
#define BLOCK_MIN 64u
#define BLOCK_MAX 16384u
#define ALIGN alignof(max_align_t)

struct qg_arena_block {
    qg_arena_block *next;
    size_t used, cap;
    alignas(max_align_t) unsigned char data[];
};

void qg_arena_init(qg_arena *arena)
{
    arena->head = NULL;
}

void qg_arena_free(qg_arena *arena)
{
    qg_arena_block *b = arena->head;
    while (b) {
        qg_arena_block *next = b->next;
        free(b);
        b = next;
    }
    arena->head = NULL;
}

/* size bytes at a multiple of align (a power of two up to ALIGN), not
 * cleared */
static void *bump(qg_arena *arena, size_t size, size_t align)
{
    if (size > SIZE_MAX - ALIGN)
        return NULL;
    if (size == 0)
        size = 1;
    qg_arena_block *b = arena->head;
    size_t pad = b ? (align - (b->used & (align - 1))) & (align - 1) : 0;
    if (!b || b->cap - b->used < size + pad) {
        size_t cap = b ? (b->cap < BLOCK_MAX ? b->cap * 2 : BLOCK_MAX) : BLOCK_MIN;
        if (size > cap)
            cap = size;
        if (cap > SIZE_MAX - sizeof *b)
            return NULL;
        qg_arena_block *fresh = malloc(sizeof *fresh + cap);
        if (!fresh)
            return NULL;
        fresh->used = 0;
        fresh->cap = cap;
        /* A large request gets a block of its own behind the current one,
         * so the current block's free space stays usable. */
        if (b && size > BLOCK_MAX) {
            fresh->next = b->next;
            b->next = fresh;
        } else {
            fresh->next = b;
            arena->head = fresh;
        }
        b = fresh;
        pad = 0;
    }
    void *p = b->data + b->used + pad;
    b->used += pad + size;
    return p;
}

void *qg_arena_alloc(qg_arena *arena, size_t size)
{
    void *p = bump(arena, size, ALIGN);
    if (p)
        memset(p, 0, size);
    return p;
}

void *qg_arena_array(qg_arena *arena, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    return qg_arena_alloc(arena, count * size);
}

void *qg_arena_array_uncleared(qg_arena *arena, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    return bump(arena, count * size, ALIGN);
}

char *qg_arena_strndup(qg_arena *arena, const char *s, size_t len)
{
    if (len == SIZE_MAX)
        return NULL;
    char *copy = bump(arena, len + 1, 1);
    if (copy) {
        memcpy(copy, s, len);
        copy[len] = '\0';
    }
    return copy;
}

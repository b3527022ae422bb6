#include "des/arena.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Blocks start small (most maps hold a few hundred bytes of directives)
 * and double up to BLOCK_MAX. The first, with its header, stays within
 * 1 KiB, the sizes malloc serves from its per-thread cache: the Lua
 * runtime makes and frees an arena for each SUBST, KFEAT, COLOUR... */
#define BLOCK_MIN 992u
#define BLOCK_MAX 16384u
#define ALIGN alignof(max_align_t)

struct des_arena_block {
    des_arena_block *next;
    size_t used, cap;
    alignas(max_align_t) unsigned char data[];
};

void des_arena_init(des_arena *arena)
{
    arena->head = NULL;
}

void des_arena_free(des_arena *arena)
{
    des_arena_block *b = arena->head;
    while (b) {
        des_arena_block *next = b->next;
        free(b);
        b = next;
    }
    arena->head = NULL;
}

/* size bytes, not cleared */
static void *bump(des_arena *arena, size_t size)
{
    if (size > SIZE_MAX - ALIGN)
        return NULL;
    size = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (size == 0)
        size = ALIGN;
    des_arena_block *b = arena->head;
    if (!b || b->cap - b->used < size) {
        size_t cap = b ? (b->cap < BLOCK_MAX ? b->cap * 2 : BLOCK_MAX) : BLOCK_MIN;
        if (size > cap)
            cap = size;
        if (cap > SIZE_MAX - sizeof *b)
            return NULL;
        des_arena_block *fresh = malloc(sizeof *fresh + cap);
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
    }
    void *p = b->data + b->used;
    b->used += size;
    return p;
}

void *des_arena_alloc(des_arena *arena, size_t size)
{
    void *p = bump(arena, size);
    if (p)
        memset(p, 0, size);
    return p;
}

void *des_arena_array(des_arena *arena, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    return des_arena_alloc(arena, count * size);
}

char *des_arena_strndup(des_arena *arena, const char *s, size_t len)
{
    if (len == SIZE_MAX)
        return NULL;
    char *copy = bump(arena, len + 1);
    if (copy) {
        memcpy(copy, s, len);
        copy[len] = '\0';
    }
    return copy;
}

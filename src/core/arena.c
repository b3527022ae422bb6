#include "core/arena.h"

#include <stdlib.h>
#include <string.h>

struct qg_arena_chunk {
    qg_arena_chunk *next;
    size_t used, cap;
    char bytes[];
};

enum { FIRST_CHUNK = 256, LARGEST_CHUNK = 64 * 1024 };

void qg_arena_init(qg_arena *arena)
{
    arena->head = NULL;
}

void qg_arena_free(qg_arena *arena)
{
    while (arena->head) {
        qg_arena_chunk *next = arena->head->next;
        free(arena->head);
        arena->head = next;
    }
}

/* Chunks double up to a limit; a string larger than that gets a chunk of
 * its own, kept behind the head so the head's free room is not lost. */
static char *room(qg_arena *arena, size_t need)
{
    qg_arena_chunk *head = arena->head;
    if (head && head->cap - head->used >= need) {
        char *at = head->bytes + head->used;
        head->used += need;
        return at;
    }
    size_t normal = !head ? FIRST_CHUNK
                  : head->cap >= LARGEST_CHUNK / 2 ? LARGEST_CHUNK : head->cap * 2;
    size_t cap = need > normal ? need : normal;
    if (cap > (size_t)-1 - sizeof(qg_arena_chunk))
        return NULL;
    qg_arena_chunk *chunk = malloc(sizeof *chunk + cap);
    if (!chunk)
        return NULL;
    chunk->cap = cap;
    chunk->used = need;
    if (head && need > normal) {
        chunk->next = head->next;
        head->next = chunk;
    } else {
        chunk->next = head;
        arena->head = chunk;
    }
    return chunk->bytes;
}

char *qg_arena_strndup(qg_arena *arena, const char *s, size_t len)
{
    if (len == (size_t)-1)
        return NULL;
    char *copy = room(arena, len + 1);
    if (!copy)
        return NULL;
    if (len)
        memcpy(copy, s, len);
    copy[len] = '\0';
    return copy;
}

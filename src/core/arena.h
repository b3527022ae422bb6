/* Strings that live as long as their owner: copied into chunks that never
 * move and are freed together, so many small strings cost few allocations. */
#ifndef QG_CORE_ARENA_H
#define QG_CORE_ARENA_H

#include <stddef.h>

typedef struct qg_arena_chunk qg_arena_chunk;

typedef struct qg_arena {
    qg_arena_chunk *head;  /* the chunk being filled; older ones follow */
} qg_arena;

void qg_arena_init(qg_arena *arena);
void qg_arena_free(qg_arena *arena);
/* A NUL-terminated copy of len bytes of s; NULL when memory runs out. */
char *qg_arena_strndup(qg_arena *arena, const char *s, size_t len);

#endif

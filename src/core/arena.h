/* A bump allocator: what lives exactly as long as its owner (a map's
 * directives, a pool's strings, a definition's rows) is carved from blocks
 * that never move and are freed at once. */
#ifndef QG_CORE_ARENA_H
#define QG_CORE_ARENA_H

#include <stddef.h>

typedef struct qg_arena_block qg_arena_block;

typedef struct qg_arena {
    qg_arena_block *head;
} qg_arena;

void qg_arena_init(qg_arena *arena);
void qg_arena_free(qg_arena *arena);
/* size bytes aligned for any object, zeroed; NULL when out of memory. */
void *qg_arena_alloc(qg_arena *arena, size_t size);
/* count objects of size bytes each (overflow-checked), zeroed. */
void *qg_arena_array(qg_arena *arena, size_t count, size_t size);
/* Room for count objects of size bytes each (overflow-checked), not
 * cleared: for arrays the caller fills whole. */
void *qg_arena_array_uncleared(qg_arena *arena, size_t count, size_t size);
/* A NUL-terminated copy of len bytes. */
char *qg_arena_strndup(qg_arena *arena, const char *s, size_t len);

#endif

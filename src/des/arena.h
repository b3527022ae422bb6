/* A bump allocator: everything a map's directives hold (argument texts and
 * their parsed structure) lives in one arena and is freed at once. */
#ifndef QG_DES_ARENA_H
#define QG_DES_ARENA_H

#include <stddef.h>

typedef struct des_arena_block des_arena_block;

typedef struct des_arena {
    des_arena_block *head;
} des_arena;

void des_arena_init(des_arena *arena);
void des_arena_free(des_arena *arena);
/* size bytes aligned for any object, zeroed; NULL when out of memory. */
void *des_arena_alloc(des_arena *arena, size_t size);
/* count objects of size bytes each (overflow-checked), zeroed. */
void *des_arena_array(des_arena *arena, size_t count, size_t size);
/* A NUL-terminated copy of len bytes. */
char *des_arena_strndup(des_arena *arena, const char *s, size_t len);

#endif

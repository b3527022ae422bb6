/* Interned strings: each distinct string is stored once and lives as long
 * as the pool. Used for feature names and thing names on levels. */
#ifndef QG_CORE_STRPOOL_H
#define QG_CORE_STRPOOL_H

#include "core/arena.h"

#include <stddef.h>
#include <stdint.h>

typedef struct qg_strpool_entry {
    char *text;
    uint32_t hash;
} qg_strpool_entry;

typedef struct qg_strpool {
    qg_strpool_entry *entries; /* by id; id 0 is reserved for "no string" */
    size_t count;
    size_t cap;
    uint32_t *slots;  /* open-addressing hash of ids */
    size_t slot_count;
    qg_arena text;
} qg_strpool;

void qg_strpool_init(qg_strpool *pool);
void qg_strpool_free(qg_strpool *pool);
/* The id of s (len bytes), adding it when new; 0 when s is NULL; -1 (as
 * UINT32_MAX) on allocation failure. */
uint32_t qg_strpool_intern(qg_strpool *pool, const char *s, size_t len);
const char *qg_strpool_get(const qg_strpool *pool, uint32_t id);

#define QG_STRPOOL_FAIL UINT32_MAX

#endif

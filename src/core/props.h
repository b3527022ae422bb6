/* An ordered list of key/value strings (keys may repeat), shared by levels
 * and map definitions for their metadata. */
#ifndef QG_CORE_PROPS_H
#define QG_CORE_PROPS_H

#include "questgrid/core.h"
#include "core/arena.h"

typedef struct qg_prop {
    char *key;
    char *value;
} qg_prop;

typedef struct qg_props {
    qg_prop *items;
    size_t count;
    size_t cap;
    qg_arena text;  /* the keys and values */
} qg_props;

void qg_props_free(qg_props *props);
qg_status qg_props_add(qg_props *props, const char *key, const char *value);
/* Replaces the value of the first key of that name, or adds the pair. */
qg_status qg_props_set(qg_props *props, const char *key, const char *value);
const char *qg_props_get(const qg_props *props, const char *key);
const char *qg_props_at(const qg_props *props, size_t index, const char **value);

#endif

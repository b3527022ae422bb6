/* The map definition's layout, shared by the front ends that build one and
 * the writers, caches and resolvers that read one. Format-specific content
 * (F:/D: records, .des directives and chunks) hangs off payload, owned by
 * the front end that set it. */
#ifndef QG_CORE_MAPDEF_H
#define QG_CORE_MAPDEF_H

#include "questgrid/core.h"
#include "core/arena.h"
#include "core/props.h"

typedef struct qg_row {
    char *text;   /* bytes, NUL-terminated for convenience */
    size_t len;
    int line;
} qg_row;

struct qg_mapdef {
    qg_format format;
    qg_map_kind kind;
    char *name;
    char *file;
    int line;
    qg_row *rows;
    size_t row_count, row_cap;
    qg_arena row_text;
    qg_props props;
    void *payload;
    void (*payload_free)(void *payload);
};

qg_status qg_mapdef_set_file(qg_mapdef *def, const char *file, int line);
void qg_mapdef_set_kind(qg_mapdef *def, qg_map_kind kind);
qg_status qg_mapdef_add_row(qg_mapdef *def, const char *text, size_t len, int line);
qg_status qg_mapdef_add_property(qg_mapdef *def, const char *key, const char *value);
void qg_mapdef_set_payload(qg_mapdef *def, void *payload, void (*payload_free)(void *));

#endif

/* Equal texts counted together: what a listing of many cells prints once
 * per kind (markers: "lua" on 41 cells) instead of once per cell. */
#ifndef QG_CORE_GROUPS_H
#define QG_CORE_GROUPS_H

#include "questgrid/core.h"

typedef struct qg_text_group {
    size_t first;   /* the index of the text's first occurrence */
    size_t count;   /* how many of the texts equal it */
} qg_text_group;

/* Groups texts[0..n) by equal content, the groups in the order of their
 * first occurrence. *groups is NULL when n is 0; free it with free(). */
qg_status qg_text_groups(const char *const *texts, size_t n, qg_text_group **groups,
                         size_t *count);

#endif

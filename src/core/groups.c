/* Equal texts counted together: sorting their indices by text (then by
 * index, so the order is total) puts each text's occurrences side by
 * side, its first occurrence first. */
#include "core/groups.h"
#include "core/heap.h"

#include <stdlib.h>
#include <string.h>

typedef struct entry {
    const char *text;
    size_t index;
} entry;

static int by_text(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    int c = strcmp(x->text, y->text);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static int by_first(const void *a, const void *b)
{
    const qg_text_group *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

qg_status qg_text_groups(const char *const *texts, size_t n, qg_text_group **groups,
                         size_t *count)
{
    *groups = NULL;
    *count = 0;
    if (!n)
        return QG_OK;
    entry *e = malloc(n * sizeof *e);
    qg_text_group *g = malloc(n * sizeof *g);
    if (!e || !g) {
        free(e);
        free(g);
        return QG_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++)
        e[i] = (entry){texts[i] ? texts[i] : "", i};
    qg_sort_in_place(e, sizeof *e, n, by_text);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && strcmp(e[i].text, e[i - 1].text) == 0) {
            g[k - 1].count++;
            continue;
        }
        g[k++] = (qg_text_group){e[i].index, 1};
    }
    free(e);
    qg_sort_in_place(g, sizeof *g, k, by_first);
    *groups = g;
    *count = k;
    return QG_OK;
}

/* Finding maps in the index: by name (binary search over the sorted
 * index), by quest number, and by tags, depth, place and kind. */
#include "cache/reader.h"
#include "cache/depth.h"

#include <string.h>

size_t qg_cache_find(const qg_cache *c, const char *name)
{
    size_t lo = 0, hi = c->header.map_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int cmp = strcmp(c->maps[mid].name, name);
        if (cmp == 0)
            return mid;
        if (cmp < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return QG_CACHE_NONE;
}

size_t qg_cache_find_quest(const qg_cache *c, int quest)
{
    for (size_t i = 0; i < c->header.map_count; i++)
        if (c->maps[i].quest == quest && quest >= 0)
            return i;
    return QG_CACHE_NONE;
}

/* The next space-separated word at *p (length in *len, 0 at the end);
 * *p moves past it. */
static const char *next_word(const char **p, size_t *len)
{
    while (**p == ' ')
        (*p)++;
    const char *word = *p;
    while (**p && **p != ' ')
        (*p)++;
    *len = (size_t)(*p - word);
    return word;
}

static int has_word(const char *words, const char *word, size_t len)
{
    size_t n;
    for (const char *p = words, *w; (w = next_word(&p, &n)), n;)
        if (n == len && memcmp(w, word, len) == 0)
            return 1;
    return 0;
}

static int has_all_tags(const char *tags, const char *wanted)
{
    size_t n;
    for (const char *p = wanted, *w; (w = next_word(&p, &n)), n;)
        if (!has_word(tags, w, n))
            return 0;
    return 1;
}

static int matches(const qg_cache_entry *e, const qg_cache_query *q)
{
    return (!q->tags || has_all_tags(e->tags, q->tags)) &&
           (!q->depth || qgc_depth_matches(e->depth, q->depth)) &&
           (!q->place || strcmp(e->place, q->place) == 0) &&
           (q->kind == QG_KIND_UNKNOWN ? e->kind != QG_KIND_SKIPPED : e->kind == q->kind);
}

size_t qg_cache_next(const qg_cache *c, const qg_cache_query *q, size_t start)
{
    for (size_t i = start; i < c->header.map_count; i++)
        if (matches(&c->maps[i], q))
            return i;
    return QG_CACHE_NONE;
}

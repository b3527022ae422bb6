/* Vault exits and the corridors joining them to the level: a flood fill to
 * the nearest floor outside vaults (_connect_vault_exit), then a greedy
 * best-first orthogonal path that avoids vault cells (join_the_dots). */
#include "place/internal.h"

#include <stdlib.h>

enum { FLOAT_EXITS_ALL_BELOW = 6, FLOAT_EXITS_MAX = 10 };

static const int dx4[4] = {0, 1, 0, -1}, dy4[4] = {-1, 0, 1, 0};

static int add_unique_exit(qg_placement *out, int x, int y)
{
    for (size_t i = 0; i < out->exit_count; i++)
        if (out->exits[i].x == x && out->exits[i].y == y)
            return 1;
    return placement_add_exit(out, x, y);
}

static int pickable(const qg_cave *cave, int hx, int hy)
{
    uint32_t cls = cave_class(cave, hy * cave->width + hx);
    return !(cls & QG_FEAT_SOLID) || (cls & QG_FEAT_DOOR);
}

static qg_status pick_float_exits(const vault_job *job, int px, int py, qg_placement *out)
{
    const vmap *m = job->map;
    int *cand = malloc((m->count ? m->count : 1) * sizeof *cand);
    size_t n = 0;
    if (!cand)
        return QG_ERR_NOMEM;
    for (size_t i = 0; i < m->count; i++) {
        int x = m->cells[i] % m->w, y = m->cells[i] / m->w;
        if (vmap_on_edge(m, x, y) && pickable(job->cave, px + x, py + y))
            cand[n++] = m->cells[i];
    }
    size_t want = n < FLOAT_EXITS_ALL_BELOW ? n : n / 8 + 1;
    if (want > FLOAT_EXITS_MAX)
        want = FLOAT_EXITS_MAX;
    int ok = 1;
    for (size_t i = 0; i < want && ok; i++) {
        int at = n < FLOAT_EXITS_ALL_BELOW ? cand[i]
                                           : cand[qg_rng_below(job->rng, (int32_t)n)];
        ok = add_unique_exit(out, px + at % m->w, py + at / m->w);
    }
    free(cand);
    return ok ? QG_OK : QG_ERR_NOMEM;
}

qg_status exits_find(const vault_job *job, int px, int py, qg_placement *out)
{
    const vmap *m = job->map;
    for (size_t i = 0; i < m->count; i++) {
        int x = m->cells[i] % m->w, y = m->cells[i] / m->w;
        unsigned char g = vmap_glyph(m, x, y);
        if (g == '@' || ((g == '=' || g == '+') && vmap_on_edge(m, x, y)))
            if (!add_unique_exit(out, px + x, py + y))
                return QG_ERR_NOMEM;
    }
    if (out->exit_count)
        return QG_OK;
    return pick_float_exits(job, px, py, out);
}

/* ---- corridors ---------------------------------------------------------- */

int path_scratch_init(path_scratch *s, const qg_cave *cave)
{
    size_t n = (size_t)cave->width * (size_t)cave->height;
    s->parent = malloc(n * sizeof *s->parent);
    s->stamp = calloc(n, sizeof *s->stamp);
    s->queue = malloc(n * sizeof *s->queue);
    s->heap = malloc(n * sizeof *s->heap);
    s->heap_count = 0;
    s->current = 0;
    if (!s->parent || !s->stamp || !s->queue || !s->heap) {
        path_scratch_free(s);
        return 0;
    }
    return 1;
}

void path_scratch_free(path_scratch *s)
{
    free(s->parent);
    free(s->stamp);
    free(s->queue);
    free(s->heap);
    s->parent = NULL;
    s->stamp = NULL;
    s->queue = NULL;
    s->heap = NULL;
}

/* Corridors go through anything that is not a vault, not permanent, and
 * either walkable or carvable (wall, floor, liquid). */
static int corridor_passable(const qg_cave *cave, int at)
{
    if (cave_mask(cave, at) & QG_MASK_VAULT)
        return 0;
    uint32_t cls = cave_class(cave, at);
    if (cls & (QG_FEAT_PERMANENT | QG_FEAT_PROTECTED))
        return 0;
    return !(cls & QG_FEAT_SOLID) || (cls & QG_FEAT_WALL);
}

static int carvable(uint32_t cls)
{
    return (cls & (QG_FEAT_WALL | QG_FEAT_FLOOR | QG_FEAT_SHALLOW |
                   QG_FEAT_DEEP_WATER | QG_FEAT_LAVA)) != 0;
}

static int nearest_floor(const qg_cave *cave, path_scratch *s, int start)
{
    size_t head = 0, tail = 0;
    uint32_t st = ++s->current;
    s->stamp[start] = st;
    s->queue[tail++] = start;
    while (head < tail) {
        int at = s->queue[head++];
        int x = at % cave->width, y = at / cave->width;
        for (int k = 0; k < 4; k++) {
            int nx = x + dx4[k], ny = y + dy4[k];
            if (nx < 0 || ny < 0 || nx >= cave->width || ny >= cave->height)
                continue;
            int n = ny * cave->width + nx;
            if (s->stamp[n] == st || !corridor_passable(cave, n))
                continue;
            if (cave_class(cave, n) & QG_FEAT_FLOOR)
                return n;
            s->stamp[n] = st;
            s->queue[tail++] = n;
        }
    }
    return -1;
}

static void heap_push(path_scratch *s, uint64_t item)
{
    size_t i = s->heap_count++;
    while (i > 0 && s->heap[(i - 1) / 2] > item) {
        s->heap[i] = s->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->heap[i] = item;
}

static uint64_t heap_pop(path_scratch *s)
{
    uint64_t top = s->heap[0], last = s->heap[--s->heap_count];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= s->heap_count)
            break;
        if (c + 1 < s->heap_count && s->heap[c + 1] < s->heap[c])
            c++;
        if (s->heap[c] >= last)
            break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    s->heap[i] = last;
    return top;
}

/* Greedy best-first: always extends the open cell closest (Manhattan) to
 * the target; ties go to the earliest opened. */
static int best_first(const qg_cave *cave, path_scratch *s, int from, int to)
{
    int W = cave->width, tx = to % W, ty = to / W;
    uint32_t st = ++s->current, seq = 0;
    s->heap_count = 0;
    s->stamp[from] = st;
    s->parent[from] = -1;
    heap_push(s, (uint64_t)from);
    while (s->heap_count) {
        int at = (int)(heap_pop(s) & 0xffffffu);
        if (at == to)
            return 1;
        int x = at % W, y = at / W;
        for (int k = 0; k < 4; k++) {
            int nx = x + dx4[k], ny = y + dy4[k];
            if (nx < 0 || ny < 0 || nx >= W || ny >= cave->height)
                continue;
            int n = ny * W + nx;
            if (s->stamp[n] == st || (n != to && !corridor_passable(cave, n)))
                continue;
            s->stamp[n] = st;
            s->parent[n] = at;
            uint64_t dist = (uint64_t)(abs(nx - tx) + abs(ny - ty));
            heap_push(s, (dist << 48) | ((uint64_t)++seq << 24) | (uint64_t)n);
        }
    }
    return 0;
}

int exit_connect(qg_cave *cave, path_scratch *s, int x, int y)
{
    int from = y * cave->width + x;
    int to = nearest_floor(cave, s, from);
    if (to < 0 || !best_first(cave, s, from, to))
        return 0;
    for (int at = s->parent[to]; at >= 0 && at != from; at = s->parent[at])
        if (!(cave_mask(cave, at) & QG_MASK_VAULT) && carvable(cave_class(cave, at)))
            cave_set_feature(cave, at, cave->floor_feature);
    return 1;
}

/* SUBVAULT cycles among a runtime's maps, found before any is resolved:
 * a map that a SUBVAULT of its own can reach again (through the tags its
 * SUBVAULT lines pick and the maps that have them) would be placed
 * inside itself without end, as Crawl's apply_subvault has no bound. The
 * maps and the tags are the nodes of one graph (a map points at each tag
 * its SUBVAULT lines pick, a tag at each map that has it), whose strongly
 * connected components Tarjan's algorithm finds in one pass: time and
 * memory linear in the maps, their tags and their SUBVAULT lines. */
#include "lua/rt.h"
#include "core/buf.h"
#include "des/map.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The tags SUBVAULT lines pick, each once, in an open-addressed table. */
typedef struct tag_table {
    const char **names;   /* the maps' own texts of the SUBVAULT lines */
    size_t *lens;
    size_t *slots;        /* 1 + the tag's id, 0: empty */
    size_t count, slot_count;
} tag_table;

static uint32_t hash_of(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* The id of s[0..n), added when add is set; SIZE_MAX when absent (or no
 * memory to add it). */
static size_t tag_id(tag_table *t, const char *s, size_t n, int add)
{
    if (!t->slot_count)
        return SIZE_MAX;
    size_t at = hash_of(s, n) & (t->slot_count - 1);
    while (t->slots[at]) {
        size_t id = t->slots[at] - 1;
        if (t->lens[id] == n && memcmp(t->names[id], s, n) == 0)
            return id;
        at = (at + 1) & (t->slot_count - 1);
    }
    if (!add)
        return SIZE_MAX;
    t->names[t->count] = s;
    t->lens[t->count] = n;
    t->slots[at] = ++t->count;
    return t->count - 1;
}

/* The SUBVAULT lines of a map, parsed by the front end. */
static const des_map *subvault_lines(const qg_mapdef *def, size_t *count)
{
    const des_map *m = des_map_of(def);
    *count = m ? m->dir_count : 0;
    return m;
}

static int is_subvault(const des_directive *d)
{
    return d->dir == DES_DIR_SUBVAULT && d->spec.kind == DES_SPEC_KEYED &&
           d->spec.u.keyed.slot_count > 0;
}

/* The graph in compressed rows: node v's edges are to[from[v]..from[v+1]). */
typedef struct graph {
    size_t nodes, maps;
    size_t *from, *to;
    size_t edges;
} graph;

typedef struct finder finder;
/* An edge of the graph, from node from to node to. */
typedef void (*edge_fn)(finder *f, size_t from, size_t to);

struct finder {
    qg_runtime *rt;
    size_t picks;        /* the SUBVAULT lines' alternatives */
    edge_fn on_edge;     /* what each_edge calls */
    tag_table tags;
    graph g;
    size_t *index, *low, *comp, *stack, *call, *next;
    unsigned char *on_stack;
};

static void finder_free(finder *f)
{
    free(f->tags.names);
    free(f->tags.lens);
    free(f->tags.slots);
    free(f->g.from);
    free(f->g.to);
    free(f->index);
    free(f->low);
    free(f->comp);
    free(f->stack);
    free(f->call);
    free(f->next);
    free(f->on_stack);
}

/* Calls fn with every tag a SUBVAULT line of each map picks. */
typedef void (*pick_fn)(finder *f, size_t map, const char *tag);

static void each_pick(finder *f, pick_fn fn)
{
    for (size_t i = 0; i < f->rt->map_count; i++) {
        size_t n;
        const des_map *m = subvault_lines(f->rt->maps[i], &n);
        for (size_t d = 0; d < n; d++) {
            if (!is_subvault(&m->dirs[d]))
                continue;
            const des_slot *s = &m->dirs[d].spec.u.keyed.slots[0];
            for (size_t a = 0; a < s->count; a++)
                fn(f, i, s->alts[a].text);
        }
    }
}

static void count_pick(finder *f, size_t map, const char *tag)
{
    (void)map;
    (void)tag;
    f->picks++;
}

static void intern_pick(finder *f, size_t map, const char *tag)
{
    (void)map;
    tag_id(&f->tags, tag, strlen(tag), 1);
}

/* Every tag a SUBVAULT line picks, interned. */
static int intern_picked(finder *f)
{
    each_pick(f, count_pick);
    size_t slots = 16;
    while (slots < 2 * f->picks + 2)
        slots *= 2;
    f->tags.names = calloc(f->picks + 1, sizeof *f->tags.names);
    f->tags.lens = calloc(f->picks + 1, sizeof *f->tags.lens);
    f->tags.slots = calloc(slots, sizeof *f->tags.slots);
    f->tags.slot_count = slots;
    if (!f->tags.names || !f->tags.lens || !f->tags.slots)
        return 0;
    each_pick(f, intern_pick);
    return 1;
}

/* A map's edge to each tag it picks, given to the edge function. */
static void pick_edge(finder *f, size_t map, const char *tag)
{
    f->on_edge(f, map, f->rt->map_count + tag_id(&f->tags, tag, strlen(tag), 0));
}

/* Calls fn for every edge, in node order (fill), or counts them. */
static void each_edge(finder *f, edge_fn fn)
{
    size_t maps = f->rt->map_count;
    f->on_edge = fn;
    each_pick(f, pick_edge);
    for (size_t i = 0; i < maps; i++) {
        const char *tags = qg_mapdef_get_property(f->rt->maps[i], "tags");
        while (tags && *tags) {
            size_t len = strcspn(tags, " ");
            size_t id = len ? tag_id(&f->tags, tags, len, 0) : SIZE_MAX;
            if (id != SIZE_MAX)
                fn(f, maps + id, i);
            tags += len + (tags[len] == ' ');
        }
    }
}

static void count_edge(finder *f, size_t from, size_t to)
{
    (void)to;
    f->g.from[from + 1]++;
    f->g.edges++;
}

static void put_edge(finder *f, size_t from, size_t to)
{
    f->g.to[f->next[from]++] = to;
}

static int build(finder *f)
{
    graph *g = &f->g;
    g->maps = f->rt->map_count;
    g->nodes = g->maps + f->tags.count;
    g->from = calloc(g->nodes + 2, sizeof *g->from);
    f->next = calloc(g->nodes + 1, sizeof *f->next);
    if (!g->from || !f->next)
        return 0;
    each_edge(f, count_edge);
    for (size_t v = 0; v < g->nodes; v++)
        g->from[v + 1] += g->from[v];
    g->to = malloc((g->edges + 1) * sizeof *g->to);
    if (!g->to)
        return 0;
    memcpy(f->next, g->from, g->nodes * sizeof *f->next);
    each_edge(f, put_edge);
    return 1;
}

/* Tarjan's algorithm without recursion: comp[v] is v's component, the
 * index of its root. */
static int components(finder *f)
{
    size_t n = f->g.nodes, counter = 0, top = 0, depth = 0;
    f->index = malloc((n + 1) * sizeof *f->index);
    f->low = malloc((n + 1) * sizeof *f->low);
    f->comp = malloc((n + 1) * sizeof *f->comp);
    f->stack = malloc((n + 1) * sizeof *f->stack);
    f->call = malloc((n + 1) * sizeof *f->call);
    f->on_stack = calloc(n + 1, 1);
    if (!f->index || !f->low || !f->comp || !f->stack || !f->call || !f->on_stack)
        return 0;
    for (size_t v = 0; v < n; v++)
        f->index[v] = SIZE_MAX;
    for (size_t root = 0; root < n; root++) {
        if (f->index[root] != SIZE_MAX)
            continue;
        f->call[depth++] = root;
        f->index[root] = f->low[root] = counter++;
        f->next[root] = f->g.from[root];
        f->stack[top++] = root;
        f->on_stack[root] = 1;
        while (depth) {
            size_t v = f->call[depth - 1];
            if (f->next[v] < f->g.from[v + 1]) {
                size_t w = f->g.to[f->next[v]++];
                if (f->index[w] == SIZE_MAX) {
                    f->index[w] = f->low[w] = counter++;
                    f->next[w] = f->g.from[w];
                    f->stack[top++] = w;
                    f->on_stack[w] = 1;
                    f->call[depth++] = w;
                } else if (f->on_stack[w] && f->index[w] < f->low[v]) {
                    f->low[v] = f->index[w];
                }
                continue;
            }
            depth--;
            if (depth && f->low[v] < f->low[f->call[depth - 1]])
                f->low[f->call[depth - 1]] = f->low[v];
            if (f->low[v] != f->index[v])
                continue;
            size_t w;
            do {
                w = f->stack[--top];
                f->on_stack[w] = 0;
                f->comp[w] = v;
            } while (w != v);
        }
    }
    return 1;
}

/* Maps named on the way round a cycle. */
#define CHAIN_MAPS 8

/* The way from map round its component, as a walk taking the first edge
 * that stays in it meets the maps: "a -> b -> a". */
static void describe(const finder *f, size_t map, qg_buf *out)
{
    size_t at = map;
    qg_buf_puts(out, qg_mapdef_name(f->rt->maps[map]));
    for (int named = 0; named < CHAIN_MAPS;) {
        size_t next = SIZE_MAX;
        for (size_t e = f->g.from[at]; e < f->g.from[at + 1] && next == SIZE_MAX; e++)
            if (f->comp[f->g.to[e]] == f->comp[map])
                next = f->g.to[e];
        if (next == SIZE_MAX)
            return;
        at = next;
        if (at >= f->g.maps)
            continue;
        qg_buf_printf(out, " -> %s", qg_mapdef_name(f->rt->maps[at]));
        if (at == map)
            return;
        named++;
    }
    qg_buf_puts(out, " -> ...");
}

/* An error at each SUBVAULT line whose tag lies on a cycle through its
 * own map. */
static size_t report(finder *f, qg_diags *diags)
{
    size_t reported = 0;
    for (size_t i = 0; i < f->g.maps; i++) {
        size_t n;
        const qg_mapdef *def = f->rt->maps[i];
        const des_map *m = subvault_lines(def, &n);
        for (size_t d = 0; d < n; d++) {
            const des_directive *dir = &m->dirs[d];
            if (!is_subvault(dir))
                continue;
            const des_slot *s = &dir->spec.u.keyed.slots[0];
            int looped = 0;
            for (size_t a = 0; a < s->count && !looped; a++) {
                size_t id = tag_id(&f->tags, s->alts[a].text, strlen(s->alts[a].text), 0);
                looped = id != SIZE_MAX && f->comp[f->g.maps + id] == f->comp[i];
            }
            if (!looped)
                continue;
            qg_buf chain;
            qg_buf_init(&chain);
            describe(f, i, &chain);
            qg_diags_add(diags, QG_ERROR, qg_mapdef_file(def), dir->line, dir->col, NULL, 0,
                         "SUBVAULT %s: a cycle of subvaults (%s): the map would be placed "
                         "inside itself without end", dir->arg, chain.data ? chain.data : "");
            qg_buf_free(&chain);
            reported++;
        }
    }
    return reported;
}

size_t qg_runtime_check_cycles(qg_runtime *rt, qg_diags *diags)
{
    finder f;
    memset(&f, 0, sizeof f);
    f.rt = rt;
    size_t reported = 0;
    if (!intern_picked(&f) || (f.tags.count && (!build(&f) || !components(&f)))) {
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0, "out of memory");
        finder_free(&f);
        return 1;
    }
    if (f.tags.count)
        reported = report(&f, diags);
    finder_free(&f);
    return reported;
}

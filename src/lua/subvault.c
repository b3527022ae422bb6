/* SUBVAULT "K : tag / tag:20" at resolution, as Crawl's apply_subvault and
 * merge_subvault do: the key glyphs' bounding box and mask, up to 100
 * tries of a map with the tag that may be used here (weighted by WEIGHT),
 * resolved with its own Lua and subvaults, and merged at a random offset
 * when it fits (turned when it must be or, half the time, when it may be,
 * then mirrored at random, as its tags allow); mask cells it does not
 * cover become outside (' '). Merged cells keep the subvault's glyphs and
 * use its keyed specs and slots. */
#include "lua/run.h"
#include "des/directives.h"
#include "core/buf.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SUBVAULT_TRIES 100
/* Crawl bounds nesting by nothing but its Lua throttle (apply_subvault in
 * mapdef.cc, resolve_subvault in maps.cc: no depth is counted), so this
 * is questgrid's budget, not the game's rule: no shipped map nests near
 * it, and a map run costs at most this many maps below it. */
#define SUBVAULT_NESTING 8
#define SUBVAULT_MAX 255

static int range_matches(const qg_runtime *rt, const des_range *r, const char *branch,
                         int depth, int absdepth)
{
    int d = r->absolute ? absdepth : depth;
    if (!r->any_branch && !r->absolute && (!r->branch || strcasecmp(r->branch, branch) != 0))
        return 0;
    int last = r->absolute || r->any_branch ? 1000 : lrt_branch_depth(rt, branch);
    int lo = r->lo < 0 ? last : r->lo, hi = r->hi < 0 ? last : r->hi;
    return d >= lo && d <= hi;
}

/* DEPTH of a candidate against the place: no DEPTH means anywhere. */
static int usable_here(qg_runtime *rt, const qg_mapdef *def)
{
    const char *depth = qg_mapdef_get_property(def, "depth");
    if (!depth || !*depth)
        return 1;
    char buf[32];
    const char *branch = lrt_branch(rt, buf, sizeof buf);
    qg_arena arena;
    qg_arena_init(&arena);
    des_ranges ranges;
    des_spec_error err;
    int ok = 0;
    if (des_parse_ranges(&arena, depth, strlen(depth), &ranges, &err) == DES_PARSE_OK) {
        for (size_t i = 0; i < ranges.count; i++) {
            if (!range_matches(rt, &ranges.items[i], branch, lrt_depth(rt), lrt_absdepth(rt)))
                continue;
            if (ranges.items[i].deny) {
                ok = 0;
                break;
            }
            ok = 1;
        }
    }
    qg_arena_free(&arena);
    return ok;
}

/* The default WEIGHT (the last entry of the index field). */
static int weight_of(const qg_mapdef *def)
{
    const char *w = qg_mapdef_get_property(def, "weight");
    if (!w || !*w)
        return 10;
    const char *last = strrchr(w, ',');
    return atoi(last ? last + 1 : w);
}

const qg_mapdef *lrt_pick_map(qg_runtime *rt, const char *tag)
{
    if (rt->forced && lrt_has_tag(qg_mapdef_get_property(rt->forced, "tags"), tag))
        return rt->forced;
    const qg_mapdef *pick = NULL;
    int total = 0;
    for (size_t i = 0; i < rt->map_count; i++) {
        const qg_mapdef *def = rt->maps[i];
        const char *tags = qg_mapdef_get_property(def, "tags");
        if (!tags || !lrt_has_tag(tags, tag) || !usable_here(rt, def))
            continue;
        int w = weight_of(def);
        if (w <= 0)
            continue;
        total += w;
        if (qg_rng_x_chance_in_y(&rt->rng, w, total))
            pick = def;
    }
    return pick;
}

typedef struct region {
    int x1, y1, x2, y2;
    const char *keys;
} region;

/* Whether the cell is one of the SUBVAULT's keys: a glyph a subvault
 * merged before brought is not (Crawl's merge_subvault writes
 * SUBVAULT_GLYPH there, which no key matches, so that a later SUBVAULT
 * never takes an earlier one's cells). */
static int is_key(const lrt_map *map, int x, int y, const char *keys)
{
    size_t at = (size_t)y * map->width + x;
    char c = map->grid[at];
    return c && strchr(keys, c) && !(map->cell_sub && map->cell_sub[at]);
}

/* The region's shape, given to the subvault (is_subvault, subvault_size,
 * subvault_cell_valid, default_subvault_glyphs). */
static int give_mask(const lrt_map *map, const region *r, lrt_map *sub)
{
    sub->sv_width = r->x2 - r->x1 + 1;
    sub->sv_height = r->y2 - r->y1 + 1;
    sub->sv_mask = malloc((size_t)sub->sv_width * sub->sv_height);
    if (!sub->sv_mask)
        return 0;
    for (int y = 0; y < sub->sv_height; y++)
        for (int x = 0; x < sub->sv_width; x++)
            sub->sv_mask[(size_t)y * sub->sv_width + x] =
                is_key(map, r->x1 + x, r->y1 + y, r->keys);
    return 1;
}

typedef struct sub_run {
    qg_runtime *rt;
    lrt_map *sub;
    const lrt_chunks *chunks;
    int valid;
    qg_diags *diags;
    qg_status st;
} sub_run;

/* The subvault's run, protected: the parent's environment set aside, the
 * subvault's chunks (its own subvaults merged as they come) and its
 * validate chunk, the parent's environment back. */
static int run_sub(lua_State *L)
{
    sub_run *s = lua_touserdata(L, 1);
    lua_settop(L, 0);
    qg_runtime *rt = s->rt;
    lrt_map *parent = rt->map;
    lrt_env_saved saved;
    lrt_env_save(L, &saved);
    s->st = lrt_run_map(rt, s->sub, s->chunks, s->diags);
    if (!s->st && s->chunks->chunk[QG_CHUNK_VALIDATE] &&
        s->chunks->chunk[QG_CHUNK_VALIDATE]->len)
        s->st = lrt_run_chunk(rt, s->sub, s->chunks->chunk[QG_CHUNK_VALIDATE],
                              QG_CHUNK_VALIDATE, &s->valid, s->diags);
    lrt_drop_env(L);
    lrt_env_restore(L, &saved);
    rt->map = parent;
    return 0;
}

/* Runs a map inside another's run; 0 when it failed or did not
 * validate, and *fatal set when it failed by an error of its Lua (a
 * SUBVAULT of its own that failed, its budget). */
static int run_nested(qg_runtime *rt, const qg_mapdef *def, lrt_map *sub, int *fatal,
                      qg_diags *diags)
{
    lrt_chunks chunks;
    lrt_chunks_of(def, &chunks);
    lrt_map *parent = rt->map;
    sub_run s = {rt, sub, &chunks, 1, diags, QG_OK};
    int pushed = rt->resolving_count < LRT_RESOLVING_MAX;
    if (pushed)
        rt->resolving[rt->resolving_count++] = def;
    int status = lrt_protect(rt->L, run_sub, &s);
    rt->resolving_count -= pushed;
    if (status != LUA_OK) {
        s.st = lrt_report_lua_error(rt, sub, "running the subvault", status, diags);
        lrt_forget_env(rt);
        rt->map = parent;
    }
    *fatal = s.st != QG_OK;
    return !s.st && s.valid && sub->width > 0 && sub->height > 0;
}

/* Runs a subvault. NULL when it failed (*fatal: by an error of its Lua)
 * or did not validate. */
static lrt_map *resolve_sub(qg_runtime *rt, const qg_mapdef *def, const lrt_map *parent_map,
                            const region *r, int *fatal, qg_diags *diags)
{
    lrt_map *sub = lrt_map_new(qg_mapdef_name(def), qg_mapdef_file(def), qg_mapdef_line(def));
    if (!sub)
        return NULL;
    lrt_map_from_def(sub, def);
    sub->nesting = parent_map->nesting + 1;
    *fatal = 0;
    if (!give_mask(parent_map, r, sub) || !run_nested(rt, def, sub, fatal, diags)) {
        lrt_map_free(sub);
        return NULL;
    }
    return sub;
}

lrt_map *lrt_resolve_nested(qg_runtime *rt, const qg_mapdef *def, const lrt_map *parent,
                            const lrt_strs *tags, qg_diags *diags)
{
    for (int t = 0; t < LRT_RESOLVE_TRIES && !rt->budget_exhausted; t++) {
        lrt_map *map = lrt_map_new(qg_mapdef_name(def), qg_mapdef_file(def),
                                   qg_mapdef_line(def));
        if (!map)
            return NULL;
        lrt_map_from_def(map, def);
        map->nesting = parent ? parent->nesting + 1 : 1;
        int ok = map->nesting <= SUBVAULT_NESTING;
        if (!ok)
            qg_diags_add(diags, QG_ERROR, map->file ? map->file : "", map->line, 0, NULL, 0,
                         "maps resolved inside maps nested deeper than %d (map %s)",
                         SUBVAULT_NESTING, map->name);
        for (size_t i = 0; ok && tags && i < tags->count; i++)
            ok = lrt_strs_add(&map->tags, tags->items[i], strlen(tags->items[i]));
        int fatal;
        if (ok && run_nested(rt, def, map, &fatal, diags))
            return map;
        lrt_map_free(map);
        if (!ok)
            return NULL;
    }
    return NULL;
}

static int find_region(const lrt_map *map, const char *keys, region *r)
{
    r->x1 = r->y1 = 1 << 30;
    r->x2 = r->y2 = -1;
    r->keys = keys;
    for (int y = 0; y < map->height; y++)
        for (int x = 0; x < map->width; x++) {
            if (!is_key(map, x, y, keys))
                continue;
            r->x1 = x < r->x1 ? x : r->x1;
            r->y1 = y < r->y1 ? y : r->y1;
            r->x2 = x > r->x2 ? x : r->x2;
            r->y2 = y > r->y2 ? y : r->y2;
        }
    return r->x2 >= 0;
}

/* Takes sub (and the subvaults merged into it) over as map's subvaults and
 * writes it into the region at a random offset. */
static qg_status merge(qg_runtime *rt, lrt_map *map, const region *r, lrt_map *sub)
{
    size_t cells = (size_t)map->width * map->height;
    if (map->sub_count + 1 + sub->sub_count > SUBVAULT_MAX)
        return QG_ERR_LIMIT;
    if (!map->cell_sub && !(map->cell_sub = calloc(cells, 1)))
        return QG_ERR_NOMEM;
    if (!qg_grow((void **)&map->subs, &map->sub_cap, map->sub_count + 1 + sub->sub_count,
                 sizeof *map->subs))
        return QG_ERR_NOMEM;
    size_t base = map->sub_count;
    map->subs[map->sub_count++] = sub;
    for (size_t i = 0; i < sub->sub_count; i++)
        map->subs[map->sub_count++] = sub->subs[i];
    sub->sub_count = 0;
    int ox = r->x1 + qg_rng_below(&rt->rng, (r->x2 - r->x1 + 1) - sub->width + 1);
    int oy = r->y1 + qg_rng_below(&rt->rng, (r->y2 - r->y1 + 1) - sub->height + 1);
    for (int y = r->y1; y <= r->y2; y++)
        for (int x = r->x1; x <= r->x2; x++) {
            size_t at = (size_t)y * map->width + x;
            if (!is_key(map, x, y, r->keys))
                continue;
            /* as Crawl's merge_subvault: where the subvault does not reach
             * or is blank (' ', CLEAR), the parent's glyph stays */
            char g = lrt_cell(sub, x - ox, y - oy);
            if (!g || g == ' ')
                continue;
            map->grid[at] = g;
            size_t inner = sub->cell_sub
                               ? sub->cell_sub[(size_t)(y - oy) * sub->width + (x - ox)] : 0;
            map->cell_sub[at] = (unsigned char)(base + 1 + inner);
        }
    for (size_t i = 0; i < sub->mark_count; i++) {
        const lrt_mark *m = &sub->marks[i];
        if (!lrt_map_add_mark(map, m->x + ox, m->y + oy, m->spec))
            return QG_ERR_NOMEM;
    }
    return QG_OK;
}

static int tagged(const lrt_map *map, const char *tag)
{
    for (size_t i = 0; i < map->tags.count; i++)
        if (strcmp(map->tags.items[i], tag) == 0)
            return 1;
    return 0;
}

/* Cells where the subvault's shape and the mask disagree, with the
 * subvault mirrored as asked. */
static int mismatches(const lrt_map *sub, int hmirror, int vmirror)
{
    int n = 0;
    for (int y = 0; y < sub->height; y++)
        for (int x = 0; x < sub->width; x++) {
            int sx = hmirror ? sub->width - 1 - x : x, sy = vmirror ? sub->height - 1 - y : y;
            int inside = lrt_cell(sub, sx, sy) != ' ';
            n += inside != (sub->sv_mask[(size_t)y * sub->sv_width + x] != 0);
        }
    return n;
}

/* Turns and mirrors sub to fit its mask as Crawl's resolve_subvault does:
 * turned when it must be, or half the time when it may be; an inexact fit
 * mirrored at random, an exact one mirrored to match the mask best. 0 when
 * it cannot fit. */
static int orient_to_fit(qg_runtime *rt, lrt_map *sub)
{
    int w = sub->sv_width, h = sub->sv_height;
    int can_h = !tagged(sub, "no_hmirror"), can_v = !tagged(sub, "no_vmirror");
    int can_rot = sub->height <= w && sub->width <= h && !tagged(sub, "no_rotate");
    int must_rot = sub->width > w || sub->height > h;
    if (must_rot && !can_rot)
        return 0;
    if ((must_rot || (can_rot && qg_rng_coinflip(&rt->rng))) &&
        !lrt_map_rotate(sub, qg_rng_coinflip(&rt->rng)))
        return 0;
    if (sub->width != w || sub->height != h) {
        if (can_h && qg_rng_coinflip(&rt->rng) && !lrt_map_mirror(sub, 1))
            return 0;
        if (can_v && qg_rng_coinflip(&rt->rng) && !lrt_map_mirror(sub, 0))
            return 0;
        return sub->width <= w && sub->height <= h;
    }
    int best = -1, best_score = 0;
    for (int i = 0; i < 4; i++) {
        if (((i & 1) && !can_h) || ((i & 2) && !can_v))
            continue;
        int score = mismatches(sub, i & 1, i & 2);
        if (best < 0 || score < best_score ||
            (score == best_score && qg_rng_coinflip(&rt->rng))) {
            best = i;
            best_score = score;
        }
    }
    return (!(best & 1) || lrt_map_mirror(sub, 1)) && (!(best & 2) || lrt_map_mirror(sub, 0));
}

/* A SUBVAULT that picked a map being resolved around it: the map would
 * be placed inside itself, again and again. Said with the maps between. */
static int placed_inside_itself(qg_runtime *rt, const lrt_map *map, const char *spec,
                                const qg_mapdef *pick, qg_diags *diags)
{
    int from = rt->resolving_count;
    while (from > 0 && rt->resolving[from - 1] != pick)
        from--;
    if (!from)
        return 0;
    qg_buf chain;
    qg_buf_init(&chain);
    for (int i = from - 1; i < rt->resolving_count; i++)
        qg_buf_printf(&chain, "%s -> ", qg_mapdef_name(rt->resolving[i]));
    qg_buf_puts(&chain, qg_mapdef_name(pick));
    qg_diags_add(diags, QG_ERROR, map->file ? map->file : "", map->line, 0, NULL, 0,
                 "SUBVAULT %s: a cycle of subvaults (%s): the map would be placed inside "
                 "itself without end", spec, chain.data ? chain.data : qg_mapdef_name(pick));
    qg_buf_free(&chain);
    return 1;
}

static qg_status apply_one(qg_runtime *rt, lrt_map *map, const char *spec, qg_diags *diags)
{
    qg_arena arena;
    qg_arena_init(&arena);
    des_keyed k;
    des_spec_error err;
    qg_status st = QG_OK;
    region r;
    if (des_parse_keyed(&arena, DES_DIR_SUBVAULT, spec, strlen(spec), &k, &err) != DES_PARSE_OK ||
        !k.slot_count || !find_region(map, k.keys, &r)) {
        qg_arena_free(&arena);
        return QG_OK;
    }
    qg_diags *quiet = qg_diags_new();
    int placed = 0;
    for (int t = 0; t < SUBVAULT_TRIES && !placed && !st && quiet; t++) {
        /* a try's C work (the search, a nested map) is paid for as well */
        if (!lrt_spend(rt, 1000 + rt->map_count)) {
            st = QG_ERR_LIMIT;
            break;
        }
        const des_slot *tags = &k.slots[0];
        int pick = lrt_pick_weighted(&rt->rng, &tags->alts[0].weight, sizeof *tags->alts,
                                     tags->count);
        const qg_mapdef *def = pick >= 0 ? lrt_pick_map(rt, tags->alts[pick].text) : NULL;
        if (!def)
            break;
        if (placed_inside_itself(rt, map, spec, def, diags)) {
            st = QG_ERR_LUA;
            break;
        }
        int fatal;
        lrt_map *sub = resolve_sub(rt, def, map, &r, &fatal, quiet);
        if (!sub && rt->budget_exhausted) {
            st = QG_ERR_LIMIT;
            break;
        }
        if (!sub && fatal) {
            /* as Crawl's apply_subvault (mapdef.cc), which tries again
             * only a pick that was vetoed, did not validate or did not
             * fit: an error of the pick's Lua (a cycle below, a SUBVAULT
             * of its own that failed) ends the tries, said once, at once.
             * Tried again, a failure n maps deep would cost 100^n runs. */
            st = QG_ERR_LUA;
            size_t n = qg_diags_count(quiet);
            qg_diags_add(diags, QG_ERROR, map->file ? map->file : "", map->line, 0, NULL, 0,
                         "SUBVAULT %s: %s", spec,
                         n ? qg_diags_get(quiet, n - 1)->message : "a cycle of subvaults");
            break;
        }
        if (!sub)
            continue;
        if (!orient_to_fit(rt, sub)) {
            lrt_map_free(sub);
            continue;
        }
        st = merge(rt, map, &r, sub);
        if (st && sub->sub_count)
            lrt_map_free(sub);
        placed = !st;
    }
    if (st == QG_ERR_LIMIT)
        qg_diags_add(diags, QG_ERROR, map->file ? map->file : "", map->line, 0, NULL, 0,
                     "SUBVAULT %s: instruction budget exceeded (map %s)", spec, map->name);
    if (!placed && !st)
        qg_diags_add(diags, QG_ERROR, map->file ? map->file : "", map->line, 0, NULL, 0,
                     "SUBVAULT %s: no map could be placed (map %s)%s%s", spec, map->name,
                     quiet && qg_diags_count(quiet) ? ": " : "",
                     quiet && qg_diags_count(quiet) ? qg_diags_get(quiet, 0)->message : "");
    qg_diags_free(quiet);
    qg_arena_free(&arena);
    return st ? st : placed ? QG_OK : QG_ERR_LUA;
}

void lrt_apply_subvault(lua_State *L, lrt_map *map, const char *spec)
{
    qg_runtime *rt = lrt_runtime(L);
    if (map->nesting >= SUBVAULT_NESTING)
        luaL_error(L, "subvaults nested deeper than %d (map %s)", SUBVAULT_NESTING, map->name);
    qg_diags *diags = qg_diags_new();
    if (!diags)
        luaL_error(L, "not enough memory");
    qg_status st = apply_one(rt, map, spec, diags);
    if (!st) {
        qg_diags_free(diags);
        return;
    }
    const char *why = qg_diags_count(diags) ? qg_diags_get(diags, 0)->message : "";
    lua_pushstring(L, *why ? why : qg_status_string(st));
    qg_diags_free(diags);
    lua_error(L);
}

/* The grid and its transforms: map(), SUBST, NSUBST, SHUFFLE, CLEAR, with
 * the semantics of Crawl's map_lines (mapdef.cc). Each rewrites the grid at
 * once, drawing from the runtime's generator. */
#include "lua/rt.h"
#include "des/directives.h"

#include <stdlib.h>
#include <string.h>

/* A glyph choice; with fixed (':') the first pick is reused. */
typedef struct glyph_pick {
    const des_glyph_choice *choices;
    size_t count;
    int fixed, frozen;
} glyph_pick;

static int pick_glyph(qg_runtime *rt, glyph_pick *p)
{
    if (p->frozen)
        return p->frozen;
    if (!p->count)
        return ' ';
    int i = lrt_pick_weighted(&rt->rng, &p->choices[0].weight, sizeof *p->choices, p->count);
    int g = i < 0 ? ' ' : p->choices[i].glyph;
    if (p->fixed)
        p->frozen = g;
    return g;
}

/* The glyphs of keys as a table (never the NUL that ends them): a
 * transform tests every cell of the grid. */
typedef struct key_set {
    unsigned char has[256];
} key_set;

static void key_set_of(key_set *set, const char *keys)
{
    memset(set->has, 0, sizeof set->has);
    for (const unsigned char *k = (const unsigned char *)keys; *k; k++)
        set->has[*k] = 1;
}

static int in_keys(const key_set *set, char c)
{
    return set->has[(unsigned char)c];
}

int lrt_map_fn(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    int top = lua_gettop(L);
    if (top == 1) {
        lrt_charge(L, (size_t)map->width * map->height);
        lua_createtable(L, map->height, 0);
        for (int y = 0; y < map->height; y++) {
            lua_pushlstring(L, map->grid + (size_t)y * map->width, (size_t)map->width);
            lua_rawseti(L, -2, y + 1);
        }
        return 1;
    }
    if (lua_isnil(L, 2)) {
        lrt_map_resize(map, 0, 0, ' ');
        return 0;
    }
    if (top == 3 && lua_isnumber(L, 2) && lua_isnumber(L, 3)) {
        char c = lrt_cell(map, (int)lua_tointeger(L, 2), (int)lua_tointeger(L, 3));
        lua_pushlstring(L, &c, c ? 1 : 0);
        return 1;
    }
    if (lua_type(L, 2) == LUA_TSTRING) {
        size_t len;
        const char *row = lua_tolstring(L, 2, &len);
        if (!lrt_map_add_row(map, row, len))
            return lrt_map_error(L, map, "map is larger than %dx%d", LRT_MAX_WIDTH,
                                 LRT_MAX_HEIGHT);
        return 0;
    }
    return lrt_map_error(L, map, "map: unsupported arguments");
}

static int l_mapsize(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    lua_pushinteger(L, map->width);
    lua_pushinteger(L, map->height);
    return 2;
}

static int l_width(lua_State *L)
{
    lua_pushinteger(L, lrt_check_map(L, 1)->width);
    return 1;
}

static int l_height(lua_State *L)
{
    lua_pushinteger(L, lrt_check_map(L, 1)->height);
    return 1;
}

static int l_normalise(lua_State *L)
{
    lrt_check_map(L, 1);
    return 0;
}

static void subst_one(lua_State *L, qg_runtime *rt, lrt_map *map, const char *s)
{
    qg_arena arena;
    qg_arena_init(&arena);
    des_subst sp;
    des_spec_error err;
    int r = des_parse_subst(&arena, s, strlen(s), &sp, &err);
    if (r == DES_PARSE_OK) {
        glyph_pick p = {sp.choices, sp.count, sp.fixed, 0};
        key_set keys;
        key_set_of(&keys, sp.keys);
        size_t cells = (size_t)map->width * map->height;
        for (size_t i = 0; i < cells; i++)
            if (in_keys(&keys, map->grid[i]))
                map->grid[i] = (char)pick_glyph(rt, &p);
    }
    qg_arena_free(&arena);
    if (r != DES_PARSE_OK)
        lrt_parse_error(L, map, "SUBST", r, &err);
}

static void shuffle_cells(qg_rng *rng, size_t *items, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)qg_rng_below(rng, (int32_t)i);
        size_t t = items[i - 1];
        items[i - 1] = items[j];
        items[j] = t;
    }
}

/* NSUBST: the key glyphs' positions, shuffled, handed out to the segments
 * in order ('*' takes the rest). */
static void nsubst_one(lua_State *L, qg_runtime *rt, lrt_map *map, const char *s)
{
    size_t total = (size_t)map->width * map->height, n = 0;
    /* a userdata, so that Lua frees it whatever happens */
    size_t *cells = lua_newuserdatauv(L, (total ? total : 1) * sizeof *cells, 0);
    qg_arena arena;
    qg_arena_init(&arena);
    des_nsubst sp;
    des_spec_error err;
    int r = des_parse_nsubst(&arena, s, strlen(s), &sp, &err);
    if (r == DES_PARSE_OK) {
        key_set keys;
        key_set_of(&keys, sp.keys);
        for (size_t i = 0; i < total; i++)
            if (in_keys(&keys, map->grid[i]))
                cells[n++] = i;
        shuffle_cells(&rt->rng, cells, n);
        size_t next = 0;
        for (size_t k = 0; k < sp.count && next < n; k++) {
            const des_nsubst_seg *seg = &sp.segs[k];
            glyph_pick p = {seg->choices, seg->choice_count, seg->fixed, 0};
            size_t end = seg->count < 0 ? n : next + (size_t)seg->count;
            for (; next < end && next < n; next++)
                map->grid[cells[next]] = (char)pick_glyph(rt, &p);
        }
    }
    qg_arena_free(&arena);
    lua_pop(L, 1);
    if (r != DES_PARSE_OK)
        lrt_parse_error(L, map, "NSUBST", r, &err);
}

/* SHUFFLE as Crawl's map_lines::shuffle: glyphs drawn one by one from the
 * rest (random2), or '/'-blocks permuted (shuffle_array); each glyph then
 * maps to the one at its first position in the permuted string. */
static void permute(qg_rng *rng, const des_shuffle *sh, char *to)
{
    size_t n = strlen(sh->glyphs);
    if (sh->block_len <= 1 && sh->block_count == n) {
        char pool[1024];
        memcpy(pool, sh->glyphs, n);
        size_t left = n;
        for (size_t i = 0; i < n; i++) {
            size_t c = (size_t)qg_rng_below(rng, (int32_t)left);
            to[i] = pool[c];
            memmove(pool + c, pool + c + 1, left - c - 1);
            left--;
        }
        return;
    }
    size_t order[1024];
    for (size_t b = 0; b < sh->block_count; b++)
        order[b] = b;
    shuffle_cells(rng, order, sh->block_count);
    for (size_t b = 0; b < sh->block_count; b++)
        memcpy(to + b * sh->block_len, sh->glyphs + order[b] * sh->block_len, sh->block_len);
}

static void shuffle_one(lua_State *L, qg_runtime *rt, lrt_map *map, const char *s)
{
    qg_arena arena;
    qg_arena_init(&arena);
    des_shuffle sh;
    des_spec_error err;
    size_t len = strlen(s);
    int r = len < 1024 ? des_parse_shuffle(&arena, s, len, &sh, &err) : DES_PARSE_BAD;
    if (len >= 1024)
        snprintf(err.message, sizeof err.message, "spec longer than 1023 bytes");
    size_t n = r == DES_PARSE_OK ? strlen(sh.glyphs) : 0;
    if (n) {
        char to[1024];
        permute(&rt->rng, &sh, to);
        size_t cells = (size_t)map->width * map->height;
        for (size_t i = 0; i < cells; i++) {
            const char *hit = map->grid[i] ? memchr(sh.glyphs, map->grid[i], n) : NULL;
            if (hit)
                map->grid[i] = to[hit - sh.glyphs];
        }
    }
    qg_arena_free(&arena);
    if (r != DES_PARSE_OK)
        lrt_parse_error(L, map, "SHUFFLE", r, &err);
}

static void clear_one(lua_State *L, qg_runtime *rt, lrt_map *map, const char *s)
{
    (void)L;
    (void)rt;
    key_set keys;
    key_set_of(&keys, s);
    size_t cells = (size_t)map->width * map->height;
    for (size_t i = 0; i < cells; i++)
        if (in_keys(&keys, map->grid[i]))
            map->grid[i] = ' ';
}

typedef void (*transform_fn)(lua_State *L, qg_runtime *rt, lrt_map *map,
                             const char *spec);

static int apply_transform(lua_State *L, transform_fn fn)
{
    lrt_map *map = lrt_check_map(L, 1);
    qg_runtime *rt = lrt_runtime(L);
    int top = lua_gettop(L);
    if (top == 1)
        return lrt_map_error(L, map, "Expected args, got none.");
    for (int i = 2; i <= top; i++) {
        if (lua_isnil(L, i))
            return lrt_map_error(L, map, "Unexpected nil.");
        lrt_charge(L, (size_t)map->width * map->height + LRT_SPEC_UNITS + lua_rawlen(L, i));
        fn(L, rt, map, luaL_checkstring(L, i));
    }
    return 0;
}

static int l_subst(lua_State *L)
{
    return apply_transform(L, subst_one);
}

static int l_nsubst(lua_State *L)
{
    return apply_transform(L, nsubst_one);
}

static int l_shuffle(lua_State *L)
{
    return apply_transform(L, shuffle_one);
}

static int l_clear(lua_State *L)
{
    return apply_transform(L, clear_one);
}

static int l_gly_point(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    lrt_charge(L, (size_t)map->width * map->height);
    char g = luaL_checkstring(L, 2)[0];
    for (int y = 0; y < map->height; y++)
        for (int x = 0; x < map->width; x++)
            if (map->grid[(size_t)y * map->width + x] == g) {
                lua_pushinteger(L, x);
                lua_pushinteger(L, y);
                return 2;
            }
    return 0;
}

static int l_gly_points(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    lrt_charge(L, (size_t)map->width * map->height);
    char g = luaL_checkstring(L, 2)[0];
    int n = 0;
    for (int y = 0; y < map->height; y++)
        for (int x = 0; x < map->width; x++)
            if (map->grid[(size_t)y * map->width + x] == g) {
                luaL_checkstack(L, 2, "too many points");
                lua_pushinteger(L, x);
                lua_pushinteger(L, y);
                n += 2;
            }
    return n;
}

/* ---- a subvault's shape ------------------------------------------------- */

static int mask_at(const lrt_map *map, lua_Integer x, lua_Integer y)
{
    return map->sv_mask && x >= 0 && y >= 0 && x < map->sv_width && y < map->sv_height &&
           map->sv_mask[(size_t)y * map->sv_width + (size_t)x];
}

/* The map asks for its subvault shape: noted when it has none, for the
 * diagnostic of a map that then draws no grid. */
static lrt_map *shaped_map(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    map->asked_mask |= map->sv_mask == NULL;
    return map;
}

static int l_is_subvault(lua_State *L)
{
    lua_pushboolean(L, shaped_map(L)->sv_mask != NULL);
    return 1;
}

static int l_subvault_size(lua_State *L)
{
    lrt_map *map = shaped_map(L);
    lua_pushinteger(L, map->sv_mask ? map->sv_width : 0);
    lua_pushinteger(L, map->sv_mask ? map->sv_height : 0);
    return 2;
}

static int l_subvault_cell_valid(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    lua_pushboolean(L, mask_at(map, lrt_checkint(L, 2), lrt_checkint(L, 3)));
    return 1;
}

/* The grid becomes the subvault's shape: floor inside, outside elsewhere. */
static int l_default_subvault_glyphs(lua_State *L)
{
    lrt_map *map = shaped_map(L);
    if (!map->sv_mask)
        return 0;
    if (!lrt_map_resize(map, 0, 0, ' ') ||
        !lrt_map_resize(map, map->sv_width, map->sv_height, ' '))
        return lrt_map_error(L, map, "out of memory");
    for (int y = 0; y < map->height; y++)
        for (int x = 0; x < map->width; x++)
            lrt_set_cell(map, x, y, mask_at(map, x, y) ? '.' : ' ');
    return 0;
}

void lrt_open_transforms(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"map", lrt_map_fn}, {"mapsize", l_mapsize}, {"width", l_width},
        {"height", l_height}, {"normalise", l_normalise}, {"subst", l_subst},
        {"nsubst", l_nsubst}, {"shuffle", l_shuffle}, {"clear", l_clear},
        {"gly_point", l_gly_point}, {"gly_points", l_gly_points},
        {"is_subvault", l_is_subvault}, {"subvault_size", l_subvault_size},
        {"subvault_cell_valid", l_subvault_cell_valid},
        {"default_subvault_glyphs", l_default_subvault_glyphs},
        {NULL, NULL}};
    lua_getglobal(L, "dgn");
    luaL_setfuncs(L, fns, 0);
    lua_pop(L, 1);
}

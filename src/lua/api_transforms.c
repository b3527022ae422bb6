/* The grid and its transforms: map(), SUBST, NSUBST, SHUFFLE, CLEAR, with
 * the semantics of Crawl's map_lines (mapdef.cc). Each rewrites the grid at
 * once, drawing from the runtime's generator. */
#include "lua/rt.h"
#include "des/dspec.h"

#include <stdlib.h>
#include <string.h>

static int rng_chance(void *rng, int x, int y)
{
    return qg_rng_x_chance_in_y(rng, x, y);
}

static int split_or_error(lua_State *L, lrt_map *map, const char *what,
                          const char *s, dspec_split *out)
{
    const char *err = dspec_split_key(s, strlen(s), out);
    if (err)
        return lrt_map_error(L, map, "%s: %s in '%s'", what, err, s);
    return 0;
}

static int in_key(const dspec_split *sp, char c)
{
    return memchr(sp->key, c, sp->key_len) != NULL;
}

/* A choice from glyphs; with fixed (':') the first pick is reused. */
typedef struct glyph_pick {
    dspec_choices choices;
    int fixed, frozen;
} glyph_pick;

static int pick_glyph(qg_runtime *rt, glyph_pick *p)
{
    if (p->frozen)
        return p->frozen;
    int i = dspec_pick(&p->choices, rng_chance, &rt->rng);
    int g = i < 0 ? ' ' : p->choices.items[i].glyph;
    if (p->fixed)
        p->frozen = g;
    return g;
}

static int l_map(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    int top = lua_gettop(L);
    if (top == 1) {
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
    dspec_split sp;
    split_or_error(L, map, "SUBST", s, &sp);
    glyph_pick p = {{0}, sp.sep == ':', 0};
    const char *err = dspec_weighted_glyphs(sp.arg, sp.arg_len, &p.choices);
    if (err || !p.choices.count) {
        dspec_choices_free(&p.choices);
        lrt_map_error(L, map, "SUBST: %s in '%s'", err ? err : "no glyphs", s);
    }
    size_t cells = (size_t)map->width * map->height;
    for (size_t i = 0; i < cells; i++)
        if (in_key(&sp, map->grid[i]))
            map->grid[i] = (char)pick_glyph(rt, &p);
    dspec_choices_free(&p.choices);
}

static void shuffle_ints(qg_rng *rng, size_t *items, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)qg_rng_below(rng, (int32_t)i);
        size_t t = items[i - 1];
        items[i - 1] = items[j];
        items[j] = t;
    }
}

/* One NSUBST segment "N=glyphs", "N:glyphs", "*=glyphs"; bare text is
 * "1=text", or "*=text" when last. */
static int nsubst_segment(lua_State *L, qg_runtime *rt, lrt_map *map,
                          const char *seg, size_t len, int last,
                          size_t *cells, size_t ncells, size_t *next)
{
    char buf[512];
    if (!memchr(seg, '=', len) && !memchr(seg, ':', len)) {
        int n = snprintf(buf, sizeof buf, "%s=%.*s", last ? "*" : "1", (int)len, seg);
        if (n < 0 || (size_t)n >= sizeof buf)
            return lrt_map_error(L, map, "NSUBST: segment too long");
        seg = buf;
        len = (size_t)n;
    }
    dspec_split sp;
    const char *err = dspec_split_key(seg, len, &sp);
    if (err)
        return lrt_map_error(L, map, "NSUBST: %s in '%.*s'", err, (int)len, seg);
    long count = 0;
    if (sp.key_len == 1 && sp.key[0] == '*') {
        count = -1;
    } else {
        char *end;
        count = strtol(sp.key, &end, 10);
        if (end != sp.key + sp.key_len || count <= 0)
            return lrt_map_error(L, map, "NSUBST: Illegal spec: %.*s", (int)len, seg);
    }
    glyph_pick p = {{0}, sp.sep == ':', 0};
    err = dspec_weighted_glyphs(sp.arg, sp.arg_len, &p.choices);
    if (err || !p.choices.count) {
        dspec_choices_free(&p.choices);
        return lrt_map_error(L, map, "NSUBST: %s in '%.*s'", err ? err : "no glyphs",
                             (int)len, seg);
    }
    size_t end = count < 0 ? ncells : *next + (size_t)count;
    if (end > ncells)
        end = ncells;
    for (; *next < end; (*next)++)
        map->grid[cells[*next]] = (char)pick_glyph(rt, &p);
    dspec_choices_free(&p.choices);
    return 0;
}

static void nsubst_one(lua_State *L, qg_runtime *rt, lrt_map *map, const char *s)
{
    dspec_split sp;
    split_or_error(L, map, "NSUBST", s, &sp);
    size_t total = (size_t)map->width * map->height, n = 0;
    /* a userdata, so that an error in a segment frees it too */
    size_t *cells = lua_newuserdatauv(L, (total ? total : 1) * sizeof *cells, 0);
    for (size_t i = 0; i < total; i++)
        if (in_key(&sp, map->grid[i]))
            cells[n++] = i;
    shuffle_ints(&rt->rng, cells, n);
    size_t next = 0;
    const char *seg = sp.arg, *end = sp.arg + sp.arg_len;
    while (seg < end && next < n) {
        const char *slash = memchr(seg, '/', (size_t)(end - seg));
        const char *stop = slash ? slash : end;
        const char *a = seg;
        while (a < stop && (*a == ' ' || *a == '\t'))
            a++;
        const char *b = stop;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        nsubst_segment(L, rt, map, a, (size_t)(b - a), !slash, cells, n, &next);
        seg = slash ? slash + 1 : end;
    }
    lua_pop(L, 1);
}

/* SHUFFLE: spaces dropped; "abc" permutes glyphs, "ab/cd" permutes blocks
 * of equal length ('/' maps to itself). */
static void shuffle_one(lua_State *L, qg_runtime *rt, lrt_map *map, const char *s)
{
    char from[1024], to[1024];
    size_t n = 0;
    for (const char *p = s; *p; p++) {
        if (*p == ',')
            lrt_map_error(L, map, "SHUFFLE: use / for block shuffle, not ',' in '%s'", s);
        if (*p != ' ' && *p != '\t') {
            if (n >= sizeof from)
                lrt_map_error(L, map, "SHUFFLE: spec too long");
            from[n++] = *p;
        }
    }
    if (!n)
        return;
    if (!memchr(from, '/', n)) {
        char pool[1024];
        memcpy(pool, from, n);
        size_t left = n;
        for (size_t i = 0; i < n; i++) {
            size_t c = (size_t)qg_rng_below(&rt->rng, (int32_t)left);
            to[i] = pool[c];
            memmove(pool + c, pool + c + 1, left - c - 1);
            left--;
        }
    } else {
        size_t seglen = strcspn(from, "/"), blocks = 0;
        size_t starts[512];
        for (size_t i = 0; i < n; i += seglen + 1) {
            size_t len = 0;
            while (i + len < n && from[i + len] != '/')
                len++;
            if (len != seglen || blocks >= 512)
                lrt_map_error(L, map, "SHUFFLE: block shuffle segments must be "
                                      "the same length in '%s'", s);
            starts[blocks++] = i;
        }
        shuffle_ints(&rt->rng, starts, blocks);
        size_t k = 0;
        for (size_t b = 0; b < blocks; b++) {
            if (b)
                to[k++] = '/';
            memcpy(to + k, from + starts[b], seglen);
            k += seglen;
        }
    }
    size_t cells = (size_t)map->width * map->height;
    for (size_t i = 0; i < cells; i++) {
        const char *hit = memchr(from, map->grid[i], n);
        if (hit)
            map->grid[i] = to[hit - from];
    }
}

static void clear_one(lua_State *L, qg_runtime *rt, lrt_map *map, const char *s)
{
    (void)L;
    (void)rt;
    size_t cells = (size_t)map->width * map->height;
    for (size_t i = 0; i < cells; i++)
        if (map->grid[i] && strchr(s, map->grid[i]))
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

void lrt_open_transforms(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"map", l_map}, {"mapsize", l_mapsize}, {"width", l_width},
        {"height", l_height}, {"normalise", l_normalise}, {"subst", l_subst},
        {"nsubst", l_nsubst}, {"shuffle", l_shuffle}, {"clear", l_clear},
        {"gly_point", l_gly_point}, {"gly_points", l_gly_points},
        {NULL, NULL}};
    lua_getglobal(L, "dgn");
    luaL_setfuncs(L, fns, 0);
    lua_pop(L, 1);
}

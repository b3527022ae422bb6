/* Keyed specs (KFEAT, KMONS, KITEM, KMASK), MONS and ITEM slots, markers
 * and the per-cell overlays (COLOUR, KPROP, FTILE, RTILE, TILE, FHEIGHT).
 * Keyed specs take effect when the level is built; markers and overlays
 * attach to the key glyph's positions at the time of the call. */
#include "lua/rt.h"
#include "des/dspec.h"

#include <stdlib.h>
#include <string.h>

static void split_checked(lua_State *L, lrt_map *map, const char *what,
                          const char *s, dspec_split *sp)
{
    const char *err = dspec_split_key(s, strlen(s), sp);
    if (err)
        lrt_map_error(L, map, "%s: %s in '%s'", what, err, s);
}

/* Checks that the alternatives parse (weights), as Crawl does on add. */
static void check_alternatives(lua_State *L, lrt_map *map, const char *what,
                               const char *s, size_t len)
{
    dspec_choices c = {0};
    const char *err = dspec_alternatives(s, len, 0, 0, &c);
    dspec_choices_free(&c);
    if (err)
        lrt_map_error(L, map, "%s: %s", what, err);
}

enum keyed_field { KEY_FEAT, KEY_MONS, KEY_ITEM };

static int add_keyed(lua_State *L, enum keyed_field field, const char *what)
{
    lrt_map *map = lrt_check_map(L, 1);
    const char *s = luaL_checkstring(L, 2);
    dspec_split sp;
    split_checked(L, map, what, s, &sp);
    check_alternatives(L, map, what, sp.arg, sp.arg_len);
    for (size_t i = 0; i < sp.key_len; i++) {
        lrt_keyed *k = lrt_map_keyed(map, (unsigned char)sp.key[i]);
        char *copy = k ? qg_strndup(sp.arg, sp.arg_len) : NULL;
        if (!copy)
            return lrt_map_error(L, map, "out of memory");
        char **slot = field == KEY_FEAT ? &k->feat : field == KEY_MONS ? &k->mons : &k->item;
        int *fixed = field == KEY_FEAT ? &k->feat_fixed
                     : field == KEY_MONS ? &k->mons_fixed : &k->item_fixed;
        free(*slot);
        *slot = copy;
        *fixed = sp.sep == ':';
    }
    return 0;
}

static int l_kfeat(lua_State *L)
{
    return add_keyed(L, KEY_FEAT, "KFEAT");
}

static int l_kmons(lua_State *L)
{
    return add_keyed(L, KEY_MONS, "KMONS");
}

static int l_kitem(lua_State *L)
{
    return add_keyed(L, KEY_ITEM, "KITEM");
}

static int l_kmask(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    const char *s = luaL_checkstring(L, 2);
    dspec_split sp;
    split_checked(L, map, "KMASK", s, &sp);
    uint32_t set = 0, clear = 0;
    const char *p = sp.arg, *end = sp.arg + sp.arg_len;
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '/'))
            p++;
        const char *w = p;
        while (p < end && *p != ' ' && *p != '/')
            p++;
        if (p == w)
            break;
        int neg = *w == '!';
        char name[64];
        size_t len = (size_t)(p - w) - (size_t)neg;
        if (len >= sizeof name)
            return lrt_map_error(L, map, "KMASK: unknown flag in '%s'", s);
        memcpy(name, w + neg, len);
        name[len] = '\0';
        uint32_t bit = qg_mask_from_name(name);
        if (!bit || bit > QG_MASK_NO_TRAP_GEN)
            return lrt_map_error(L, map, "KMASK: unknown flag '%s'", name);
        if (neg)
            clear |= bit;
        else
            set |= bit;
    }
    for (size_t i = 0; i < sp.key_len; i++) {
        lrt_keyed *k = lrt_map_keyed(map, (unsigned char)sp.key[i]);
        if (!k)
            return lrt_map_error(L, map, "out of memory");
        k->mask_set = set;
        k->mask_clear = clear;
    }
    return 0;
}

static int add_slot(lua_State *L, int items)
{
    lrt_map *map = lrt_check_map(L, 1);
    lrt_strs *slots = items ? &map->items : &map->mons;
    if (lua_gettop(L) == 1)
        return 0;
    if (lua_isnil(L, 2)) {
        lrt_strs_free(slots);
        return 0;
    }
    if (lua_type(L, 2) == LUA_TSTRING) {
        size_t len;
        const char *s = lua_tolstring(L, 2, &len);
        check_alternatives(L, map, items ? "ITEM" : "MONS", s, len);
        if (!lrt_strs_add(slots, s, len))
            return lrt_map_error(L, map, "out of memory");
        return 0;
    }
    lua_Integer index = luaL_checkinteger(L, 2);
    const char *s = luaL_checkstring(L, 3);
    if (index < 0 || index > 100)
        return lrt_map_error(L, map, "slot index %d out of range", (int)index);
    while (slots->count <= (size_t)index)
        if (!lrt_strs_add(slots, "", 0))
            return lrt_map_error(L, map, "out of memory");
    char *copy = qg_strdup(s);
    if (!copy)
        return lrt_map_error(L, map, "out of memory");
    free(slots->items[index]);
    slots->items[index] = copy;
    return 0;
}

static int l_mons(lua_State *L)
{
    return add_slot(L, 0);
}

static int l_item(lua_State *L)
{
    return add_slot(L, 1);
}

static void mark_glyph(lua_State *L, lrt_map *map, char glyph, const char *spec)
{
    for (int y = 0; y < map->height; y++)
        for (int x = 0; x < map->width; x++)
            if (map->grid[(size_t)y * map->width + x] == glyph &&
                !lrt_map_add_mark(map, x, y, spec))
                lrt_map_error(L, map, "out of memory");
}

static int l_marker(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    if (lua_gettop(L) == 1)
        return 0;
    if (lua_isnil(L, 2)) {
        for (size_t i = 0; i < map->mark_count; i++)
            free(map->marks[i].spec);
        map->mark_count = 0;
        return 0;
    }
    const char *s = luaL_checkstring(L, 2);
    dspec_split sp;
    split_checked(L, map, "MARKER", s, &sp);
    if (sp.key_len > 1)
        return lrt_map_error(L, map, "MARKER: selector '%.*s' must be <= 1 characters",
                             (int)sp.key_len, sp.key);
    lua_pushlstring(L, sp.arg, sp.arg_len);
    mark_glyph(L, map, sp.key[0], lua_tostring(L, -1));
    return 0;
}

static int l_lua_marker(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    if (lua_gettop(L) != 3 || lua_type(L, 2) != LUA_TSTRING ||
        (!lua_isfunction(L, 3) && !lua_istable(L, 3)))
        return lrt_map_error(L, map, "Expected marker key and marker function/table.");
    for (const char *key = lua_tostring(L, 2); *key; key++)
        mark_glyph(L, map, *key, "lua");
    return 0;
}

static int rng_chance(void *rng, int x, int y)
{
    return qg_rng_x_chance_in_y(rng, x, y);
}

/* COLOUR, KPROP, FTILE, RTILE, TILE, FHEIGHT: "keys = v / v:w", written on
 * the key glyphs' current positions as marks "kind:value". */
static void overlay_one(lua_State *L, lrt_map *map, const char *kind, const char *s)
{
    qg_runtime *rt = lrt_runtime(L);
    dspec_split sp;
    split_checked(L, map, kind, s, &sp);
    dspec_choices c = {0};
    const char *err = dspec_alternatives(sp.arg, sp.arg_len, 1, 1, &c);
    if (err || !c.count) {
        dspec_choices_free(&c);
        lrt_map_error(L, map, "%s: %s in '%s'", kind, err ? err : "no value", s);
    }
    int frozen = -1;
    luaL_Buffer b;
    for (int y = 0; y < map->height; y++) {
        for (int x = 0; x < map->width; x++) {
            if (!memchr(sp.key, map->grid[(size_t)y * map->width + x], sp.key_len))
                continue;
            int pick = frozen >= 0 ? frozen : dspec_pick(&c, rng_chance, &rt->rng);
            if (sp.sep == ':')
                frozen = pick;
            if (pick < 0)
                continue;
            luaL_buffinit(L, &b);
            luaL_addstring(&b, kind);
            luaL_addchar(&b, ':');
            luaL_addstring(&b, c.items[pick].text);
            luaL_pushresult(&b);
            int ok = lrt_map_add_mark(map, x, y, lua_tostring(L, -1));
            lua_pop(L, 1);
            if (!ok) {
                dspec_choices_free(&c);
                lrt_map_error(L, map, "out of memory");
            }
        }
    }
    dspec_choices_free(&c);
}

static int overlay(lua_State *L, const char *kind)
{
    lrt_map *map = lrt_check_map(L, 1);
    int top = lua_gettop(L);
    if (top == 1)
        return lrt_map_error(L, map, "Expected args, got none.");
    for (int i = 2; i <= top; i++) {
        if (lua_isnil(L, i))
            return lrt_map_error(L, map, "Unexpected nil.");
        overlay_one(L, map, kind, luaL_checkstring(L, i));
    }
    return 0;
}

static int l_colour(lua_State *L)
{
    return overlay(L, "colour");
}

static int l_kprop(lua_State *L)
{
    return overlay(L, "kprop");
}

static int l_ftile(lua_State *L)
{
    return overlay(L, "ftile");
}

static int l_rtile(lua_State *L)
{
    return overlay(L, "rtile");
}

static int l_tile(lua_State *L)
{
    return overlay(L, "tile");
}

static int l_fheight(lua_State *L)
{
    return overlay(L, "fheight");
}

static int l_subvault(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    int top = lua_gettop(L);
    if (top == 1)
        return lrt_map_error(L, map, "Expected args, got none.");
    for (int i = 2; i <= top; i++) {
        size_t len;
        const char *s = luaL_checklstring(L, i, &len);
        dspec_split sp;
        split_checked(L, map, "SUBVAULT", s, &sp);
        if (sp.sep != ':')
            return lrt_map_error(L, map, "SUBVAULT: only ':' may be used in '%s'", s);
        if (!lrt_strs_add(&map->subvaults, s, len))
            return lrt_map_error(L, map, "out of memory");
    }
    return 0;
}

void lrt_open_keyed(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"kfeat", l_kfeat}, {"kmons", l_kmons}, {"kitem", l_kitem},
        {"kmask", l_kmask}, {"mons", l_mons}, {"item", l_item},
        {"marker", l_marker}, {"lua_marker", l_lua_marker},
        {"colour", l_colour}, {"kprop", l_kprop}, {"ftile", l_ftile},
        {"rtile", l_rtile}, {"tile", l_tile}, {"fheight", l_fheight},
        {"subvault", l_subvault}, {NULL, NULL}};
    lua_getglobal(L, "dgn");
    luaL_setfuncs(L, fns, 0);
    lua_pop(L, 1);
}

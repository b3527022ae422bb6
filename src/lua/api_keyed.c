/* Keyed specs (KFEAT, KMONS, KITEM, KMASK), MONS and ITEM slots, markers
 * and the per-cell overlays (COLOUR, KPROP, FTILE, RTILE, TILE, FHEIGHT).
 * Keyed specs take effect when the level is built; markers and overlays
 * attach to the key glyph's positions at the time of the call. */
#include "lua/run.h"
#include "des/map.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Parses a keyed argument with the front end's parser; on success the
 * caller uses *out and frees the arena, on failure the error is raised
 * after the arena is freed. */
static void parse_keyed(lua_State *L, lrt_map *map, des_dir dir, const char *what,
                        const char *s, qg_arena *arena, des_keyed *out)
{
    des_spec_error err;
    qg_arena_init(arena);
    int r = des_parse_keyed(arena, dir, s, strlen(s), out, &err);
    if (r != DES_PARSE_OK) {
        qg_arena_free(arena);
        lrt_parse_error(L, map, what, r, &err);
    }
}

enum keyed_field { KEY_FEAT, KEY_MONS, KEY_ITEM };

static int add_keyed(lua_State *L, enum keyed_field field, des_dir dir, const char *what)
{
    lrt_map *map = lrt_check_map(L, 1);
    size_t len;
    const char *s = luaL_checklstring(L, 2, &len);
    lrt_charge(L, LRT_SPEC_UNITS + len);
    qg_arena arena;
    des_keyed k;
    parse_keyed(L, map, dir, what, s, &arena, &k);
    int ok = 1;
    for (const char *key = k.keys; ok && *key; key++) {
        lrt_keyed *slot = lrt_map_keyed(map, (unsigned char)*key);
        char *copy = slot ? qg_strdup(s) : NULL;
        ok = copy != NULL;
        if (!ok)
            break;
        char **text = field == KEY_FEAT ? &slot->feat : field == KEY_MONS ? &slot->mons
                                                                          : &slot->item;
        free(*text);
        *text = copy;
    }
    qg_arena_free(&arena);
    if (!ok)
        return lrt_map_error(L, map, "too many values, or out of memory");
    return 0;
}

static int l_kfeat(lua_State *L)
{
    return add_keyed(L, KEY_FEAT, DES_DIR_KFEAT, "KFEAT");
}

static int l_kmons(lua_State *L)
{
    return add_keyed(L, KEY_MONS, DES_DIR_KMONS, "KMONS");
}

static int l_kitem(lua_State *L)
{
    return add_keyed(L, KEY_ITEM, DES_DIR_KITEM, "KITEM");
}

static int l_kmask(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    qg_arena arena;
    des_keyed k;
    parse_keyed(L, map, DES_DIR_KMASK, "KMASK", luaL_checkstring(L, 2), &arena, &k);
    uint32_t set = 0, clear = 0;
    for (size_t i = 0; i < k.slot_count; i++)
        for (size_t a = 0; a < k.slots[i].count; a++) {
            const des_weighted *w = &k.slots[i].alts[a];
            if (w->negate)
                clear |= w->mask;
            else
                set |= w->mask;
        }
    int ok = 1;
    for (const char *key = k.keys; ok && *key; key++) {
        lrt_keyed *slot = lrt_map_keyed(map, (unsigned char)*key);
        ok = slot != NULL;
        if (ok) {
            slot->mask_set = set;
            slot->mask_clear = clear;
        }
    }
    qg_arena_free(&arena);
    if (!ok)
        return lrt_map_error(L, map, "too many values, or out of memory");
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
        qg_arena arena;
        qg_arena_init(&arena);
        des_slot slot;
        des_spec_error err;
        int r = des_parse_slot(&arena, s, len, &slot, &err);
        qg_arena_free(&arena);
        if (r != DES_PARSE_OK)
            return lrt_parse_error(L, map, items ? "ITEM" : "MONS", r, &err);
        if (!lrt_strs_add(slots, s, len))
            return lrt_map_error(L, map, "too many values, or out of memory");
        return 0;
    }
    lua_Integer index = lrt_checkint(L, 2);
    const char *s = luaL_checkstring(L, 3);
    if (index < 0 || index > 100)
        return lrt_map_error(L, map, "slot index %d out of range", (int)index);
    while (slots->count <= (size_t)index)
        if (!lrt_strs_add(slots, "", 0))
            return lrt_map_error(L, map, "too many values, or out of memory");
    char *copy = qg_strdup(s);
    if (!copy)
        return lrt_map_error(L, map, "too many values, or out of memory");
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
    lrt_charge(L, (size_t)map->width * map->height);
    for (int y = 0; y < map->height; y++)
        for (int x = 0; x < map->width; x++)
            if (map->grid[(size_t)y * map->width + x] == glyph &&
                !lrt_map_add_mark(map, x, y, spec))
                lrt_map_error(L, map, "too many values, or out of memory");
}

/* One marker of a MARKER argument into spec (room for len + 16 bytes);
 * returns where the next marker of a seed-era line starts, or 0. */
static size_t marker_spec(lua_State *L, lrt_map *map, const char *s, size_t len,
                          char *spec, char *key)
{
    qg_arena arena;
    qg_arena_init(&arena);
    des_marker m;
    des_spec_error err;
    int r = des_parse_marker(&arena, s, len, &m, &err);
    if (r == DES_PARSE_OK) {
        static const char *const prefixes[] = {"lua:", "lua_mapless:", "feat:", ""};
        snprintf(spec, len + 16, "%s%s", prefixes[m.kind], m.value);
        *key = (char)m.key;
    }
    qg_arena_free(&arena);
    if (r != DES_PARSE_OK)
        lrt_parse_error(L, map, "MARKER", r, &err);
    return m.next;
}

static int l_marker(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    if (lua_gettop(L) == 1)
        return 0;
    if (lua_isnil(L, 2)) {
        lrt_map_clear_marks(map);
        return 0;
    }
    size_t len;
    const char *s = luaL_checklstring(L, 2, &len);
    for (size_t at = 0;;) {
        /* the spec's room is taken from Lua before the arena exists */
        char *spec = lua_newuserdatauv(L, len - at + 16, 0);
        char key = 0;
        size_t next = marker_spec(L, map, s + at, len - at, spec, &key);
        mark_glyph(L, map, key, spec);
        if (!next)
            return 0;
        at += next;
    }
}

/* The text of the MARKER line a lua_marker call was lowered from: the
 * directive of the map with that key whose line the function was defined
 * on (Crawl keeps the function; questgrid's level keeps its text). NULL
 * for Lua markers made by a map's own Lua. */
static const char *lua_marker_text(lua_State *L, const lrt_map *map, unsigned char key)
{
    const des_map *des = des_map_of(map->def);
    const qg_des_chunk *main_chunk = map->def ? qg_des_map_chunk(map->def, QG_CHUNK_MAIN) : NULL;
    lua_Debug ar;
    if (!des || !main_chunk || !lua_isfunction(L, 3))
        return NULL;
    lua_pushvalue(L, 3);
    lua_getinfo(L, ">S", &ar);
    if (strcmp(ar.source, "=dlmain") != 0)
        return NULL;
    int line = main_chunk->first_line + ar.linedefined - 1;
    const char *text = NULL;
    for (size_t i = 0; i < des->dir_count; i++) {
        const des_directive *d = &des->dirs[i];
        if (d->line > line)
            break;
        if (d->dir == DES_DIR_MARKER && d->spec.kind == DES_SPEC_MARKER &&
            d->spec.u.marker.kind == DES_MARKER_LUA && d->spec.u.marker.key == key)
            text = d->spec.u.marker.value;
    }
    return text;
}

static int l_lua_marker(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    if (lua_gettop(L) != 3 || lua_type(L, 2) != LUA_TSTRING ||
        (!lua_isfunction(L, 3) && !lua_istable(L, 3)))
        return lrt_map_error(L, map, "Expected marker key and marker function/table.");
    for (const char *key = lua_tostring(L, 2); *key; key++) {
        const char *body = lua_marker_text(L, map, (unsigned char)*key);
        if (!body) {
            mark_glyph(L, map, *key, "lua");
            continue;
        }
        lua_pushfstring(L, "lua:%s", body);
        mark_glyph(L, map, *key, lua_tostring(L, -1));
    }
    return 0;
}

/* COLOUR, KPROP, FTILE, RTILE, TILE, FHEIGHT: "keys = v / v:w", written on
 * the key glyphs' current positions as marks "kind:value" (lowercased, as
 * Crawl lowercases the value list). */
static void overlay_one(lua_State *L, lrt_map *map, des_dir dir, const char *kind,
                        const char *s)
{
    qg_runtime *rt = lrt_runtime(L);
    qg_arena arena;
    des_keyed k;
    parse_keyed(L, map, dir, kind, s, &arena, &k);
    const des_slot *alts = &k.slots[0];
    int frozen = -1, ok = 1, written = -1;
    char spec[256];
    unsigned char is_key[256] = {0};
    for (const char *key = k.keys; *key; key++)
        is_key[(unsigned char)*key] = 1;
    for (int y = 0; ok && y < map->height; y++) {
        for (int x = 0; ok && x < map->width; x++) {
            unsigned char c = (unsigned char)map->grid[(size_t)y * map->width + x];
            if (!c || !is_key[c])
                continue;
            int pick = frozen >= 0 ? frozen
                                   : lrt_pick_weighted(&rt->rng, &alts->alts[0].weight,
                                                       sizeof *alts->alts, alts->count);
            if (k.fixed)
                frozen = pick;
            if (pick < 0)
                continue;
            /* most overlays write one value over many cells */
            if (pick != written) {
                snprintf(spec, sizeof spec, "%s:%s", kind, alts->alts[pick].text);
                for (char *p = spec; *p; p++)
                    *p = (char)tolower((unsigned char)*p);
                written = pick;
            }
            ok = lrt_map_add_mark(map, x, y, spec);
        }
    }
    qg_arena_free(&arena);
    if (!ok)
        lrt_map_error(L, map, "too many values, or out of memory");
}

static int overlay(lua_State *L, des_dir dir, const char *kind)
{
    lrt_map *map = lrt_check_map(L, 1);
    int top = lua_gettop(L);
    if (top == 1)
        return lrt_map_error(L, map, "Expected args, got none.");
    for (int i = 2; i <= top; i++) {
        if (lua_isnil(L, i))
            return lrt_map_error(L, map, "Unexpected nil.");
        lrt_charge(L, (size_t)map->width * map->height + LRT_SPEC_UNITS + lua_rawlen(L, i));
        overlay_one(L, map, dir, kind, luaL_checkstring(L, i));
    }
    return 0;
}

static int l_colour(lua_State *L)
{
    return overlay(L, DES_DIR_COLOUR, "colour");
}

static int l_kprop(lua_State *L)
{
    return overlay(L, DES_DIR_KPROP, "kprop");
}

static int l_ftile(lua_State *L)
{
    return overlay(L, DES_DIR_FTILE, "ftile");
}

static int l_rtile(lua_State *L)
{
    return overlay(L, DES_DIR_RTILE, "rtile");
}

static int l_tile(lua_State *L)
{
    return overlay(L, DES_DIR_TILE, "tile");
}

static int l_fheight(lua_State *L)
{
    return overlay(L, DES_DIR_FHEIGHT, "fheight");
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
        qg_arena arena;
        des_keyed k;
        parse_keyed(L, map, DES_DIR_SUBVAULT, "SUBVAULT", s, &arena, &k);
        qg_arena_free(&arena);
        if (!map->validating) {
            lrt_apply_subvault(L, map, s);
            continue;
        }
        if (!lrt_strs_add(&map->subvaults, s, len))
            return lrt_map_error(L, map, "too many values, or out of memory");
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

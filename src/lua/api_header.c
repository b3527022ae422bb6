/* Header directives as map-bound dgn functions: name, desc, depth, place,
 * orient, tags, chance, weight, order and the level colours and tiles. Each
 * writes into the map being built; with no argument each answers the
 * current value, as Crawl's l-dgn.cc does. */
#include "lua/rt.h"

#include <stdlib.h>
#include <string.h>

static const char *const orient_names[] = {
    "", "north", "south", "east", "west", "northwest", "northeast",
    "southwest", "southeast", "encompass", "float", "centre", NULL};

static int set_text(lua_State *L, lrt_map *map, char **field, int index)
{
    if (!lua_isnone(L, index)) {
        char *copy = lua_isnil(L, index) ? NULL : qg_strdup(luaL_checkstring(L, index));
        if (!lua_isnil(L, index) && !copy)
            return lrt_map_error(L, map, "too many values, or out of memory");
        free(*field);
        *field = copy;
    }
    lua_pushstring(L, *field ? *field : "");
    return 1;
}

static void push_joined(lua_State *L, const lrt_strs *strs, const char *sep)
{
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (size_t i = 0; i < strs->count; i++) {
        if (i)
            luaL_addstring(&b, sep);
        luaL_addstring(&b, strs->items[i]);
    }
    luaL_pushresult(&b);
}

static int l_name(lua_State *L)
{
    lua_pushstring(L, lrt_check_map(L, 1)->name);
    return 1;
}

static int l_desc(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    return set_text(L, map, &map->desc, 2);
}

/* Each argument is a comma-separated list of ranges; a call with arguments
 * replaces the list. */
static int set_ranges(lua_State *L, lrt_map *map, lrt_strs *ranges)
{
    if (lua_isnone(L, 2)) {
        push_joined(L, ranges, ", ");
        return 1;
    }
    lrt_strs_free(ranges);
    if (lua_isnil(L, 2))
        return 0;
    for (int i = 2; i <= lua_gettop(L); i++) {
        const char *s = luaL_checkstring(L, i);
        while (*s) {
            const char *comma = strchr(s, ',');
            size_t len = comma ? (size_t)(comma - s) : strlen(s);
            const char *p = s;
            size_t n = len;
            while (n && (*p == ' ' || *p == '\t')) {
                p++;
                n--;
            }
            while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
                n--;
            if (n && !lrt_strs_add(ranges, p, n))
                return lrt_map_error(L, map, "too many values, or out of memory");
            s += len + (comma != NULL);
        }
    }
    return 0;
}

static int l_depth(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    return set_ranges(L, map, &map->depths);
}

static int l_place(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    return set_ranges(L, map, &map->places);
}

static int l_orient(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    if (lua_gettop(L) > 1 && !lua_isnil(L, 2)) {
        const char *o = luaL_checkstring(L, 2);
        int found = 0;
        for (int i = 0; orient_names[i]; i++)
            found |= strcmp(o, orient_names[i]) == 0;
        if (!found)
            return lrt_map_error(L, map, "Bad orient: %s", o);
    }
    return set_text(L, map, &map->orient, 2);
}

static int has_tag(lua_State *L, const lrt_map *map, const char *tag, size_t len)
{
    lrt_charge(L, map->tags.count);
    for (size_t i = 0; i < map->tags.count; i++)
        if (strlen(map->tags.items[i]) == len && memcmp(map->tags.items[i], tag, len) == 0)
            return 1;
    return 0;
}

static int l_tags(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    if (lua_gettop(L) > 1 && lua_isnil(L, 2))
        lrt_strs_free(&map->tags);
    for (int i = 2; i <= lua_gettop(L); i++) {
        if (lua_isnil(L, i))
            continue;
        const char *s = luaL_checkstring(L, i);
        while (*s) {
            while (*s == ' ' || *s == '\t')
                s++;
            size_t len = strcspn(s, " \t");
            if (len && !has_tag(L, map, s, len) && !lrt_strs_add(&map->tags, s, len))
                return lrt_map_error(L, map, "too many values, or out of memory");
            s += len;
        }
    }
    push_joined(L, &map->tags, " ");
    return 1;
}

static int l_has_tag(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    const char *tag = luaL_checkstring(L, 2);
    lua_pushboolean(L, has_tag(L, map, tag, strlen(tag)));
    return 1;
}

static int l_tags_remove(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    for (int i = 2; i <= lua_gettop(L); i++) {
        const char *tag = luaL_checkstring(L, i);
        for (size_t k = 0; k < map->tags.count;) {
            if (strcmp(map->tags.items[k], tag) == 0) {
                free(map->tags.items[k]);
                memmove(map->tags.items + k, map->tags.items + k + 1,
                        (map->tags.count - k - 1) * sizeof *map->tags.items);
                map->tags.count--;
            } else {
                k++;
            }
        }
    }
    push_joined(L, &map->tags, " ");
    return 1;
}

static int add_ranged_value(lua_State *L, lrt_map *map, lrt_strs *ranges,
                            const char *range, lua_Integer value)
{
    lua_pushfstring(L, "%d (%s)", (int)value, range);
    if (!lrt_strs_add(ranges, lua_tostring(L, -1), lua_rawlen(L, -1)))
        return lrt_map_error(L, map, "too many values, or out of memory");
    return 0;
}

static int l_chance(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    if (!lua_isnumber(L, 2))
        return 0;
    lua_Integer c = lrt_checkint(L, lua_isnumber(L, 3) ? 3 : 2);
    if (c < 0 || c > 10000)
        return lrt_map_error(L, map, "Chance must be in the range [0,10000]");
    map->chance = (long)c;
    return 0;
}

static int l_depth_chance(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    const char *range = luaL_checkstring(L, 2);
    lua_Integer c = lrt_checkint(L, lua_gettop(L) == 4 ? 4 : 3);
    if (c < 0 || c > 10000)
        return lrt_map_error(L, map, "Chance must be in the range [0,10000]");
    return add_ranged_value(L, map, &map->chance_ranges, range, c);
}

static int l_weight(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    if (lua_isnoneornil(L, 2))
        return 0;
    lua_Integer w = lrt_checkint(L, 2);
    if (w < 0)
        return lrt_map_error(L, map, "Bad weight: %d (must be >= 0)", (int)w);
    map->weight = (long)w;
    return 0;
}

static int l_depth_weight(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    const char *range = luaL_checkstring(L, 2);
    lua_Integer w = lrt_checkint(L, 3);
    if (w < 0)
        return lrt_map_error(L, map, "Bad weight: %d (must be >= 0)", (int)w);
    return add_ranged_value(L, map, &map->weight_ranges, range, w);
}

static int l_order(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    map->order = (int)lrt_checkint(L, 2);
    map->has_order = 1;
    return 0;
}

static int l_is_validating(lua_State *L)
{
    qg_runtime *rt = lrt_runtime(L);
    lua_pushboolean(L, rt->map && rt->map->validating);
    return 1;
}

static int l_lfloorcol(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    return set_text(L, map, &map->lfloorcol, 2);
}

static int l_lrockcol(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    return set_text(L, map, &map->lrockcol, 2);
}

static int l_lfloortile(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    return set_text(L, map, &map->lfloortile, 2);
}

static int l_lrocktile(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    return set_text(L, map, &map->lrocktile, 2);
}

void lrt_open_header(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"name", l_name}, {"desc", l_desc}, {"depth", l_depth},
        {"place", l_place}, {"orient", l_orient}, {"tags", l_tags},
        {"has_tag", l_has_tag}, {"tags_remove", l_tags_remove},
        {"chance", l_chance}, {"depth_chance", l_depth_chance},
        {"weight", l_weight}, {"depth_weight", l_depth_weight},
        {"order", l_order}, {"is_validating", l_is_validating},
        {"lfloorcol", l_lfloorcol},
        {"lrockcol", l_lrockcol}, {"lfloortile", l_lfloortile},
        {"lrocktile", l_lrocktile}, {NULL, NULL}};
    lua_getglobal(L, "dgn");
    luaL_setfuncs(L, fns, 0);
    lua_pop(L, 1);
}

/* The named arguments of the layout builders, read as Crawl's _table_int,
 * _table_char, _table_str, _table_bool and _coords read them. */
#include "lua/builder.h"

#include <string.h>

lrt_map *lrt_builder_args(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    if (lua_isnoneornil(L, 2)) {
        lua_settop(L, 1);
        lua_newtable(L);
    }
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    lrt_charge(L, (size_t)map->width * (size_t)map->height);
    return map;
}

/* Pushes args[key]; 0 (nothing pushed) when it is nil. */
static int push_arg(lua_State *L, const char *key)
{
    if (lua_getfield(L, 2, key) != LUA_TNIL)
        return 1;
    lua_pop(L, 1);
    return 0;
}

int lrt_arg_int(lua_State *L, const char *key, int def)
{
    if (!push_arg(L, key))
        return def;
    if (!lua_isnumber(L, -1))
        luaL_error(L, "'%s' in table, but not an int.", key);
    int v = (int)lrt_checkint(L, -1);
    lua_pop(L, 1);
    return v;
}

char lrt_arg_char(lua_State *L, const char *key, char def)
{
    if (!push_arg(L, key))
        return def;
    if (!lua_isstring(L, -1))
        luaL_error(L, "'%s' in table, but not a string.", key);
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    if (len != 1)
        luaL_error(L, "'%s' has more than one character.", key);
    char v = s[0];
    lua_pop(L, 1);
    return v;
}

const char *lrt_arg_str(lua_State *L, const char *key, const char *def)
{
    if (!push_arg(L, key))
        return def;
    if (!lua_isstring(L, -1))
        luaL_error(L, "'%s' in table, but not a string.", key);
    /* left on the stack: an __index may have made it, or it may be a
     * number turned into text here, and nothing else would keep it */
    return lua_tostring(L, -1);
}

int lrt_arg_bool(lua_State *L, const char *key, int def)
{
    if (!push_arg(L, key))
        return def;
    if (!lua_isboolean(L, -1))
        luaL_error(L, "'%s' in table, but not a bool.", key);
    int v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

int lrt_arg_box(lua_State *L, const lrt_map *map, lrt_box *box, int border)
{
    box->x1 = lrt_arg_int(L, "x1", 0);
    box->y1 = lrt_arg_int(L, "y1", 0);
    box->x2 = lrt_arg_int(L, "x2", map->width - 1);
    box->y2 = lrt_arg_int(L, "y2", map->height - 1);
    if (box->x2 < box->x1) {
        int t = box->x1;
        box->x1 = box->x2;
        box->x2 = t;
    }
    if (box->y2 < box->y1) {
        int t = box->y1;
        box->y1 = box->y2;
        box->y2 = t;
    }
    return (long)box->x1 + border <= (long)box->x2 - border &&
           (long)box->y1 + border <= (long)box->y2 - border;
}

void lrt_box_inside_border(const lrt_map *map, lrt_box *box)
{
    if (box->x1 < 1)
        box->x1 = 1;
    if (box->x2 >= map->width - 1)
        box->x2 = map->width - 2;
    if (box->y1 < 1)
        box->y1 = 1;
    if (box->y2 >= map->height - 1)
        box->y2 = map->height - 2;
}

void lrt_check_coord(lua_State *L, const lrt_map *map, int x, int y)
{
    if (x < 0 || x >= map->width)
        luaL_error(L, "Invalid x coordinate: %d", x);
    if (y < 0 || y >= map->height)
        luaL_error(L, "Invalid y coordinate: %d", y);
}

int lrt_glyphs_of(lrt_glyphs *set, const char *chars)
{
    memset(set, 0, sizeof *set);
    for (const unsigned char *p = (const unsigned char *)chars; *p; p++)
        set->in[*p] = 1;
    return chars[0] != '\0';
}

int lrt_arg_glyphs(lua_State *L, const char *key, const char *def, lrt_glyphs *set)
{
    return lrt_glyphs_of(set, lrt_arg_str(L, key, def));
}

void *lrt_scratch(lua_State *L, size_t count, size_t size)
{
    if (size && count > ((size_t)-1 >> 2) / size)
        luaL_error(L, "not enough memory");
    size_t bytes = count * size;
    lrt_charge(L, bytes / 64);
    void *p = lua_newuserdatauv(L, bytes ? bytes : 1, 0);
    memset(p, 0, bytes ? bytes : 1);
    return p;
}

const int lrt_compass[8][2] = {
    {0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}};

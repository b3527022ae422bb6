/* The level around the map (level.h): glyphs and features, and the
 * dgn functions that read and write it as Crawl's do. */
#include "lua/level.h"
#include "des/glyphs.h"
#include "core/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Glyphs that stand for a plain feature, in the order a feature looks for
 * its glyph: '.' before '@' (an exit), no altar glyph (B and C pick a
 * god), no item or monster glyph. */
static const char feature_glyphs[] = ".xcvbmnoXt+=wWl}{)(][><AIGTUVY^";

/* Crawl's features numbered up to DNGN_FLOOR: the solid ones, liquids and
 * floor (not stairs, traps, shops, altars, fountains, open doors). */
static int before_floor(const char *name)
{
    static const char *const open[] = {"lava", "deep_water", "shallow_water", "toxic_bog",
                                       "floor", "unseen", "explore_horizon", NULL};
    for (int i = 0; open[i]; i++)
        if (strcmp(name, open[i]) == 0)
            return 1;
    return lrt_feature_is_solid(name) && !strstr(name, "stairs");
}

lrt_level *lrt_level_get(lua_State *L)
{
    qg_runtime *rt = lrt_runtime(L);
    if (rt->level)
        return rt->level;
    rt->level = calloc(1, sizeof *rt->level);
    if (!rt->level)
        luaL_error(L, "not enough memory for the level");
    memset(rt->level->grid, 'x', sizeof rt->level->grid);
    return rt->level;
}

void lrt_level_free(qg_runtime *rt)
{
    if (!rt->level)
        return;
    for (int g = 0; g < LRT_GLYPHS; g++)
        free(rt->level->names[g]);
    lrt_map_free(rt->level->marks);
    free(rt->level);
    rt->level = NULL;
}

void lrt_level_place(lua_State *L, lrt_level *level, lrt_map *map, int x0, int y0)
{
    size_t index = 0;
    while (index < level->placed_count && level->placed[index] != map)
        index++;
    if (index == level->placed_count) {
        if (index == LRT_LEVEL_MAPS)
            luaL_error(L, "more than %d maps placed on one level", LRT_LEVEL_MAPS);
        level->placed[level->placed_count++] = map;
    }
    if (!level->marks && !(level->marks = lrt_map_new("level marks", NULL, 0)))
        luaL_error(L, "not enough memory for the level");
    lrt_charge(L, (size_t)map->width * map->height);
    for (int y = 0; y < map->height; y++)
        for (int x = 0; x < map->width; x++) {
            int lx = x0 + x, ly = y0 + y;
            char g = lrt_cell(map, x, y);
            if (g == ' ' || !g || lx < 0 || ly < 0 || lx >= LRT_MAX_WIDTH || ly >= LRT_MAX_HEIGHT)
                continue;
            level->grid[ly][lx] = (unsigned char)g;
            level->owner[ly][lx] = (unsigned char)(index + 1);
            level->inner[ly][lx] = map->cell_sub ? map->cell_sub[(size_t)y * map->width + x] : 0;
        }
    for (size_t i = 0; i < map->mark_count; i++) {
        const lrt_mark *m = &map->marks[i];
        int lx = x0 + m->x, ly = y0 + m->y;
        if (lx >= 0 && ly >= 0 && lx < LRT_MAX_WIDTH && ly < LRT_MAX_HEIGHT &&
            !lrt_map_add_mark(level->marks, lx, ly, m->spec))
            luaL_error(L, "too many marks on the level, or out of memory");
    }
    level->built = 1;
}

const char *lrt_level_cell_feature(lrt_level *level, int x, int y)
{
    unsigned char g = level->grid[y][x], owner = level->owner[y][x];
    if (!owner)
        return lrt_level_feature(level, g);
    const lrt_map *map = level->placed[owner - 1];
    unsigned char inner = level->inner[y][x];
    if (inner && inner <= map->sub_count)
        map = map->subs[inner - 1];
    return lrt_glyph_feature(map, g, level->feature, sizeof level->feature);
}

const char *lrt_level_feature(const lrt_level *level, unsigned char glyph)
{
    if (level->names[glyph])
        return level->names[glyph];
    const char *feature = des_glyph_info(glyph)->feature;
    return feature ? feature : "floor";
}

unsigned char lrt_level_glyph(lua_State *L, lrt_level *level, const char *feature)
{
    for (const char *g = feature_glyphs; *g; g++)
        if (strcmp(des_glyph_info((unsigned char)*g)->feature, feature) == 0)
            return (unsigned char)*g;
    int free_glyph = 0;
    for (int g = '!'; g <= '~'; g++) {
        if (level->names[g] && strcmp(level->names[g], feature) == 0)
            return (unsigned char)g;
        if (!free_glyph && !level->names[g] && !des_glyph_is_builtin((unsigned char)g))
            free_glyph = g;
    }
    if (!free_glyph)
        luaL_error(L, "too many kinds of terrain on one level (at '%s')", feature);
    level->names[free_glyph] = qg_strdup(feature);
    if (!level->names[free_glyph])
        luaL_error(L, "not enough memory for the level");
    return (unsigned char)free_glyph;
}

void lrt_level_classes(const lrt_level *level, lrt_feature_class *cls)
{
    for (int g = 0; g < LRT_GLYPHS; g++) {
        const char *name = lrt_level_feature(level, (unsigned char)g);
        cls->wall[g] = (unsigned char)lrt_feature_is_wall(name);
        cls->solid[g] = (unsigned char)lrt_feature_is_solid(name);
        cls->to_floor[g] = (unsigned char)before_floor(name);
    }
}

/* A glyph of the map that shows the level glyph's feature: the same glyph
 * when the map gives it no other meaning, else a free glyph keyed to the
 * feature (KFEAT), so that the map's own glyph meanings and the level's
 * never mix. */
static unsigned char map_glyph(lrt_map *map, const lrt_level *level, unsigned char g,
                               unsigned char *taken)
{
    const char *feature = lrt_level_feature(level, g);
    const des_glyph *info = des_glyph_info_for(g, map->legacy);
    if (!level->names[g] && !map->keyed[g] && info->kind == DES_GLYPH_FEATURE &&
        strcmp(info->feature, feature) == 0)
        return g;
    for (int t = '!'; t <= '~'; t++) {
        if (taken[t] || map->keyed[t] || des_glyph_is_builtin((unsigned char)t))
            continue;
        lrt_keyed *k = lrt_map_keyed(map, (unsigned char)t);
        size_t size = strlen(feature) + 5;
        char *spec = k ? malloc(size) : NULL;
        if (!spec)
            return 0;
        snprintf(spec, size, "%c = %s", t, feature);
        k->feat = spec;
        taken[t] = 1;
        return (unsigned char)t;
    }
    return 0;
}

/* The placed maps become the map's subvaults (each followed by the
 * subvaults merged into it); base[i] is placed map i's index there. */
static int take_placed(qg_runtime *rt, lrt_level *level, lrt_map *map, size_t *base)
{
    size_t need = map->sub_count;
    for (size_t i = 0; i < level->placed_count; i++)
        need += 1 + level->placed[i]->sub_count;
    if (need > 255)
        return 0;
    if (level->placed_count &&
        !qg_grow((void **)&map->subs, &map->sub_cap, need, sizeof *map->subs))
        return 0;
    for (size_t i = 0; i < level->placed_count; i++) {
        lrt_map *p = level->placed[i];
        base[i] = map->sub_count;
        map->subs[map->sub_count++] = p;
        for (size_t k = 0; k < p->sub_count; k++)
            map->subs[map->sub_count++] = p->subs[k];
        p->sub_count = 0;
        lrt_run_maps_release(rt, p);
    }
    level->placed_count = 0;
    return 1;
}

int lrt_level_into_map(qg_runtime *rt, lrt_map *map)
{
    lrt_level *level = rt->level;
    if (!level || !level->built || (map->width > 0 && map->height > 0))
        return 1;
    unsigned char used[LRT_GLYPHS] = {0}, to[LRT_GLYPHS] = {0}, taken[LRT_GLYPHS] = {0};
    for (int y = 0; y < LRT_MAX_HEIGHT; y++)
        for (int x = 0; x < LRT_MAX_WIDTH; x++)
            if (!level->owner[y][x])
                used[level->grid[y][x]] = 1;
    for (int g = 0; g < LRT_GLYPHS; g++)
        if (used[g] && !(to[g] = map_glyph(map, level, (unsigned char)g, taken)))
            return 0;
    size_t base[LRT_LEVEL_MAPS];
    int placed = level->placed_count > 0;
    if (!lrt_map_resize(map, LRT_MAX_WIDTH, LRT_MAX_HEIGHT, 'x') ||
        (placed && !map->cell_sub &&
         !(map->cell_sub = calloc((size_t)LRT_MAX_WIDTH * LRT_MAX_HEIGHT, 1))) ||
        !take_placed(rt, level, map, base))
        return 0;
    for (int y = 0; y < LRT_MAX_HEIGHT; y++)
        for (int x = 0; x < LRT_MAX_WIDTH; x++) {
            unsigned char g = level->grid[y][x], owner = level->owner[y][x];
            lrt_set_cell(map, x, y, (char)(owner ? g : to[g]));
            if (placed)
                map->cell_sub[(size_t)y * LRT_MAX_WIDTH + x] =
                    owner ? (unsigned char)(base[owner - 1] + 1 + level->inner[y][x]) : 0;
        }
    for (size_t i = 0; level->marks && i < level->marks->mark_count; i++) {
        const lrt_mark *m = &level->marks->marks[i];
        if (!lrt_map_add_mark(map, m->x, m->y, m->spec))
            return 0;
    }
    return 1;
}

/* ---- dgn.grid and friends ------------------------------------------------ */

/* x, y at index i, i + 1, inside the level (Crawl's map_bounds). */
static void level_coords(lua_State *L, int i, int *x, int *y)
{
    *x = (int)lrt_checkint(L, i);
    *y = (int)lrt_checkint(L, i + 1);
    if (*x < 0 || *y < 0 || *x >= LRT_MAX_WIDTH || *y >= LRT_MAX_HEIGHT)
        luaL_error(L, "(%d, %d) is outside the level (%dx%d)", *x, *y, LRT_MAX_WIDTH,
                   LRT_MAX_HEIGHT);
}

const char *lrt_feature_arg(lua_State *L, int i)
{
    if (lua_type(L, i) == LUA_TNUMBER) {
        lua_getfield(L, LUA_REGISTRYINDEX, "questgrid.features");
        lua_rawgeti(L, -1, lrt_checkint(L, i));
        const char *name = lua_tostring(L, -1);
        lua_pop(L, 2);   /* the registry table keeps the name */
        if (!name)
            luaL_error(L, "unknown feature number %d", (int)lrt_checkint(L, i));
        return name;
    }
    return luaL_checkstring(L, i);
}

const char *lrt_feature_of_args(lua_State *L)
{
    if (lua_gettop(L) < 2)
        return lrt_feature_arg(L, 1);
    int x, y;
    level_coords(L, 1, &x, &y);
    return lrt_level_cell_feature(lrt_level_get(L), x, y);
}

int lrt_push_feature_number(lua_State *L, const char *name)
{
    lua_getglobal(L, "dgn");
    lua_getfield(L, -1, "feature_number");
    lua_pushstring(L, name);
    lua_call(L, 1, 1);
    return 1;
}

static void set_cell(lua_State *L, int x, int y, const char *feature)
{
    lrt_level *level = lrt_level_get(L);
    level->grid[y][x] = lrt_level_glyph(L, level, feature);
    level->owner[y][x] = 0;
    level->built = 1;
}

/* dgn.grid(x, y[, feature]): the feature number there, after setting it. */
static int l_grid(lua_State *L)
{
    int x, y;
    level_coords(L, 1, &x, &y);
    if (!lua_isnoneornil(L, 3))
        set_cell(L, x, y, lrt_feature_arg(L, 3));
    return lrt_push_feature_number(L, lrt_level_cell_feature(lrt_level_get(L), x, y));
}

/* dgn.terrain_changed(x, y, feature, …): while a level is built, a plain
 * change of the cell. */
static int l_terrain_changed(lua_State *L)
{
    int x, y;
    level_coords(L, 1, &x, &y);
    set_cell(L, x, y, lrt_feature_arg(L, 3));
    return 0;
}

static int l_is_passable(lua_State *L)
{
    int x, y;
    level_coords(L, 1, &x, &y);
    lua_pushboolean(L, !lrt_feature_is_solid(lrt_level_cell_feature(lrt_level_get(L), x, y)));
    return 1;
}

/* dgn.item_spec(spec): the spec itself, which dgn.create_item takes. */
static int l_item_spec(lua_State *L)
{
    luaL_checkstring(L, 1);
    lua_settop(L, 1);
    return 1;
}

/* A mark "kind:text" at a level cell: what a map's overlay (COLOUR) or
 * keyed item would give the cell, where the level's builder gives it. */
static void mark_cell(lua_State *L, const char *kind, int text_index)
{
    int x, y;
    level_coords(L, 1, &x, &y);
    const char *spec = lua_pushfstring(L, "%s:%s", kind, luaL_checkstring(L, text_index));
    lrt_level *level = lrt_level_get(L);
    lrt_charge(L, strlen(spec));
    if ((!level->marks && !(level->marks = lrt_map_new("level marks", NULL, 0))) ||
        !lrt_map_add_mark(level->marks, x, y, spec))
        luaL_error(L, "too many marks on the level, or out of memory");
}

/* dgn.create_item(x, y, spec): the item as a mark "item:SPEC" at its
 * cell (a level holds things only where a map's glyph gives them). */
static int l_create_item(lua_State *L)
{
    mark_cell(L, "item", 3);
    return 0;
}

/* dgn.colour_at(x, y, colour): the cell's colour as COLOUR gives it. */
static int l_colour_at(lua_State *L)
{
    mark_cell(L, "colour", 3);
    return 0;
}

void lrt_open_level(lua_State *L)
{
    static const luaL_Reg fns[] = {{"grid", l_grid}, {"terrain_changed", l_terrain_changed},
                                   {"is_passable", l_is_passable}, {"item_spec", l_item_spec},
                                   {"create_item", l_create_item}, {"colour_at", l_colour_at},
                                   {NULL, NULL}};
    lua_getglobal(L, "dgn");
    luaL_setfuncs(L, fns, 0);
    lua_pop(L, 1);
}

/* The rest of dgn.* that maps and the dlua library call: branch facts,
 * connectivity tests over the map grid, and the game-state functions that
 * a level tool answers as for a fresh game (no vault placed yet, nothing
 * decays) or records on the map. */
#include "lua/level.h"

#include <stdlib.h>
#include <string.h>

static int l_br_depth(lua_State *L)
{
    char buf[32];
    const char *branch = lua_isstring(L, 1) ? lua_tostring(L, 1)
                                            : lrt_branch(lrt_runtime(L), buf, sizeof buf);
    int levels = lrt_branch_depth(lrt_runtime(L), branch);
    if (levels < 0)
        return lrt_branch_error(L, 1, branch);
    lua_pushinteger(L, levels);
    return 1;
}

/* Where a branch is entered, as a level name; a fresh game has not placed
 * the entrances, so the branch's first level stands in. */
static int l_br_entrance(lua_State *L)
{
    lua_pushfstring(L, "%s:1", luaL_checkstring(L, 1));
    return 1;
}

/* The size of the level a layout is built for (GXM, GYM), which layout
 * maps read as `local gxm, gym = dgn.builder_bounds()`. */
static int l_builder_bounds(lua_State *L)
{
    lua_pushinteger(L, LRT_MAX_WIDTH);
    lua_pushinteger(L, LRT_MAX_HEIGHT);
    return 2;
}

static int l_false(lua_State *L)
{
    lua_pushboolean(L, 0);
    return 1;
}

static int l_nothing(lua_State *L)
{
    (void)L;
    return 0;
}

static int l_max_bounds(lua_State *L)
{
    lua_pushinteger(L, LRT_MAX_WIDTH);
    lua_pushinteger(L, LRT_MAX_HEIGHT);
    return 2;
}

static int l_max_monsters(lua_State *L)
{
    lua_pushinteger(L, 700);
    return 1;
}

static int l_level_name(lua_State *L)
{
    char buf[32];
    if (lua_isstring(L, 1)) {
        lua_settop(L, 1);
        return 1;
    }
    qg_runtime *rt = lrt_runtime(L);
    lua_pushfstring(L, "%s:%d", lrt_branch(rt, buf, sizeof buf), lrt_depth(rt));
    return 1;
}

static int l_in_bounds(lua_State *L)
{
    lua_Integer x = lrt_checkint(L, 1), y = lrt_checkint(L, 2);
    lua_pushboolean(L, x > 0 && y > 0 && x < LRT_MAX_WIDTH - 1 && y < LRT_MAX_HEIGHT - 1);
    return 1;
}

/* A map-bound call (map first) or a plain one: the index of the first
 * argument after the map. */
static int first_arg(lua_State *L)
{
    return lua_type(L, 1) == LUA_TUSERDATA ? 2 : 1;
}

/* Records a level property of the running map: the random monster list
 * (Shadow Creatures), the border fill, renamed features. */
static int level_property(lua_State *L, const char *key, const char *value)
{
    lrt_map *map = lrt_runtime(L)->map;
    if (!map)
        return 0;
    if (!lrt_strs_add(&map->level_keys, key, strlen(key)))
        return lrt_map_error(L, map, "too many values, or out of memory");
    if (!lrt_strs_add(&map->level_values, value, strlen(value))) {
        free(map->level_keys.items[--map->level_keys.count]);
        return lrt_map_error(L, map, "too many values, or out of memory");
    }
    return 0;
}

static int l_set_random_mon_list(lua_State *L)
{
    return level_property(L, "random_mon_list", luaL_checkstring(L, first_arg(L)));
}

static int l_set_border_fill_type(lua_State *L)
{
    return level_property(L, "border_fill", luaL_checkstring(L, first_arg(L)));
}

/* The legacy LFLAGS and BFLAGS directives (Crawl 0.4): level and branch
 * flags the host sets when it creates the level, carried as properties. */
static int l_lflags(lua_State *L)
{
    return level_property(L, "lflags", luaL_checkstring(L, first_arg(L)));
}

static int l_bflags(lua_State *L)
{
    return level_property(L, "bflags", luaL_checkstring(L, first_arg(L)));
}

static int l_set_feature_name(lua_State *L)
{
    int i = first_arg(L);
    lua_pushfstring(L, "%s=%s", luaL_checkstring(L, i), luaL_checkstring(L, i + 1));
    return level_property(L, "feature_name", lua_tostring(L, -1));
}

/* feature numbers: stable small integers per name within a state */
static int l_feature_number(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, "questgrid.features");
    if (lua_getfield(L, -1, name) == LUA_TNUMBER)
        return 1;
    lua_pop(L, 1);
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1) + 1;
    lua_pushstring(L, name);
    lua_rawseti(L, -2, n);
    lua_pushinteger(L, n);
    lua_setfield(L, -2, name);
    lua_pushinteger(L, n);
    return 1;
}

/* feat.*: feature classes, of a Crawl feature name (or number) or of the
 * level cell at x, y. */
static int feat_class(lua_State *L, const char *const *words, int negate)
{
    const char *name = lrt_feature_of_args(L);
    int hit = 0;
    for (int i = 0; words[i]; i++)
        hit |= strstr(name, words[i]) != NULL;
    lua_pushboolean(L, negate ? !hit : hit);
    return 1;
}

static int l_feat_is_wall(lua_State *L)
{
    lua_pushboolean(L, lrt_feature_is_wall(lrt_feature_of_args(L)));
    return 1;
}

static int l_feat_is_solid(lua_State *L)
{
    lua_pushboolean(L, lrt_feature_is_solid(lrt_feature_of_args(L)));
    return 1;
}

static int l_feat_has_solid_floor(lua_State *L)
{
    static const char *const w[] = {"water", "lava", "open_sea", "space", NULL};
    return feat_class(L, w, 1);
}

static int l_feat_is_door(lua_State *L)
{
    static const char *const w[] = {"door", NULL};
    return feat_class(L, w, 0);
}

static int l_feat_is_stair(lua_State *L)
{
    static const char *const w[] = {"stairs", "hatch", "enter_", "exit_", "return_", NULL};
    return feat_class(L, w, 0);
}

static int l_feat_is_stone_stair(lua_State *L)
{
    static const char *const w[] = {"stone_stairs", NULL};
    return feat_class(L, w, 0);
}

static int l_empty_table(lua_State *L)
{
    lua_newtable(L);
    return 1;
}

/* dgn.stash_items: the items seen on the floor and in shops so far (none
 * in a fresh game). */
static int l_stash_items(lua_State *L)
{
    lua_newtable(L);
    lua_newtable(L);
    return 2;
}

static int l_floor_colour(lua_State *L)
{
    lua_pushliteral(L, "lightgrey");
    return 1;
}

static int l_feature_name(lua_State *L)
{
    lua_Integer n = lrt_checkint(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, "questgrid.features");
    lua_rawgeti(L, -1, n);
    return 1;
}

/* ---- connectivity over the grid (validate helpers) --------------------- */

/* Floods from (x, y) over walkable cells; returns a userdata-backed
 * mask on the stack. */
static unsigned char *flood(lua_State *L, lrt_map *map, int x, int y)
{
    size_t cells = (size_t)map->width * map->height;
    lrt_charge(L, cells * 9);
    unsigned char *seen = lua_newuserdatauv(L, cells + 1, 0);
    memset(seen, 0, cells + 1);
    const unsigned char *walk = lrt_walkable_tables(L, map);
    int *stack = lua_newuserdatauv(L, (cells + 1) * 2 * sizeof *stack, 0);
    size_t top = 0;
    if (!lrt_walkable(map, walk, x, y)) {
        lua_pop(L, 2);
        return seen;
    }
    seen[(size_t)y * map->width + x] = 1;
    stack[top++] = x;
    stack[top++] = y;
    while (top) {
        int cy = stack[--top], cx = stack[--top];
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int nx = cx + dx, ny = cy + dy;
                if (!lrt_walkable(map, walk, nx, ny))
                    continue;
                size_t i = (size_t)ny * map->width + nx;
                if (seen[i])
                    continue;
                seen[i] = 1;
                stack[top++] = nx;
                stack[top++] = ny;
            }
    }
    lua_pop(L, 2);
    return seen;
}

static int reached(lrt_map *map, const unsigned char *seen, int x, int y)
{
    return x >= 0 && y >= 0 && x < map->width && y < map->height &&
           seen[(size_t)y * map->width + x];
}

static int connected(lua_State *L, int any)
{
    lrt_map *map = lrt_check_map(L, 1);
    int n = lua_gettop(L);
    if (n < 5)
        return lrt_map_error(L, map, "Not enough points to test connectedness");
    unsigned char *seen = flood(L, map, (int)lrt_checkint(L, 2),
                                (int)lrt_checkint(L, 3));
    int all = 1, some = 0;
    for (int i = 4; i + 1 <= n; i += 2) {
        int r = reached(map, seen, (int)lrt_checkint(L, i),
                        (int)lrt_checkint(L, i + 1));
        all &= r;
        some |= r;
    }
    lua_pushboolean(L, any ? some : all);
    return 1;
}

static int l_points_connected(lua_State *L)
{
    return connected(L, 0);
}

static int l_any_point_connected(lua_State *L)
{
    return connected(L, 1);
}

static int l_has_exit_from(lua_State *L)
{
    lrt_map *map = lrt_check_map(L, 1);
    unsigned char *seen = flood(L, map, (int)lrt_checkint(L, 2),
                                (int)lrt_checkint(L, 3));
    for (int y = 0; y < map->height; y++)
        for (int x = 0; x < map->width; x++) {
            if (!reached(map, seen, x, y))
                continue;
            int edge = x == 0 || y == 0 || x == map->width - 1 || y == map->height - 1 ||
                       lrt_cell(map, x - 1, y) == ' ' || lrt_cell(map, x + 1, y) == ' ' ||
                       lrt_cell(map, x, y - 1) == ' ' || lrt_cell(map, x, y + 1) == ' ';
            if (edge) {
                lua_pushboolean(L, 1);
                return 1;
            }
        }
    lua_pushboolean(L, 0);
    return 1;
}

/* Questions about the game so far (current Crawl's dgn.zot_orb_type,
 * dgn.uniq_tag_used, dgn.is_descent, items.pickable, dgn.br_exists, the
 * parameters a map was chosen with, the primary vault): the context's
 * variable "dgn.NAME" (or "items.NAME") when the caller gave one, else
 * the fresh game's answer kept as upvalue 1 (nil: none), which is noted
 * for the diagnostics of a map that then fails. */
static int l_game_question(lua_State *L)
{
    qg_runtime *rt = lrt_runtime(L);
    const char *name = lua_tostring(L, lua_upvalueindex(2));
    const char *v = rt->context && rt->context->vars ? qg_vars_get(rt->context->vars, name)
                                                     : NULL;
    int type = lua_type(L, lua_upvalueindex(1));
    if (!v) {
        lrt_note_asked(rt, name);
        if (type == LUA_TNIL)
            return 0;
        lua_pushvalue(L, lua_upvalueindex(1));
        return 1;
    }
    if (type == LUA_TBOOLEAN) {
        lua_pushboolean(L, strcmp(v, "0") != 0 && strcmp(v, "false") != 0);
    } else if (type == LUA_TNIL) {
        /* dgn.map_parameters: the tags the map was asked for by */
        lua_createtable(L, 1, 0);
        lua_pushstring(L, v);
        lua_rawseti(L, -2, 1);
    } else {
        lua_pushstring(L, v);
    }
    return 1;
}

static void add_question(lua_State *L, const char *table, const char *name, int answer_type,
                         const char *answer)
{
    if (answer_type == LUA_TBOOLEAN)
        lua_pushboolean(L, answer != NULL);
    else if (answer_type == LUA_TNIL)
        lua_pushnil(L);
    else
        lua_pushstring(L, answer);
    lua_pushfstring(L, "%s.%s", table, name);
    lua_pushcclosure(L, l_game_question, 2);
    lua_setfield(L, -2, name);
}

/* loadmaps.lua names the .des files to load; they are collected. */
static int l_load_des_file(lua_State *L)
{
    const char *file = luaL_checkstring(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, "questgrid.des_files");
    lua_pushstring(L, file);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    return 0;
}

static int l_zero(lua_State *L)
{
    lua_pushinteger(L, 0);
    return 1;
}

static int l_first_arg(lua_State *L)
{
    lua_settop(L, 1);
    return 1;
}

/* Game tables the library touches while loading: colour.add_colour
 * (named colour functions) and mons.behaviour (behaviour names). */
static void open_game_tables(lua_State *L)
{
    static const luaL_Reg colour[] = {{"add_colour", l_nothing}, {NULL, NULL}};
    static const luaL_Reg mons[] = {{"behaviour", l_first_arg}, {NULL, NULL}};
    static const luaL_Reg travel[] = {{"find_deepest_explored", l_zero}, {NULL, NULL}};
    static const luaL_Reg feat[] = {
        {"is_wall", l_feat_is_wall}, {"is_solid", l_feat_is_solid},
        {"has_solid_floor", l_feat_has_solid_floor}, {"is_door", l_feat_is_door},
        {"is_stair", l_feat_is_stair}, {"is_stone_stair", l_feat_is_stone_stair},
        {NULL, NULL}};
    luaL_newlib(L, travel);
    lua_setglobal(L, "travel");
    luaL_newlib(L, feat);
    lua_setglobal(L, "feat");
    luaL_newlib(L, colour);
    lua_setglobal(L, "colour");
    luaL_newlib(L, mons);
    lua_setglobal(L, "mons");
    /* every item can still be generated in a fresh game */
    lua_newtable(L);
    add_question(L, "items", "pickable", LUA_TBOOLEAN, "yes");
    lua_setglobal(L, "items");
}

/* The validation helpers of Crawl's design guide, over the C connectivity
 * tests above, so that `validate {{ return has_exit_from_glyph('{') }}`
 * works without the game's library (whose own definitions replace these
 * when it is loaded). */
static const char glyph_checks[] =
    "local function points(map, glyphs)\n"
    "  local list = {}\n"
    "  for _, glyph in ipairs(glyphs) do\n"
    "    local x, y = dgn.gly_point(map, glyph)\n"
    "    if not x then error(\"Can't find coords for '\" .. glyph .. \"'\", 3) end\n"
    "    list[#list + 1] = x\n"
    "    list[#list + 1] = y\n"
    "  end\n"
    "  return table.unpack(list)\n"
    "end\n"
    "function dgn.has_exit_from_glyph(map, glyph)\n"
    "  return dgn.has_exit_from(map, points(map, {glyph}))\n"
    "end\n"
    "function dgn.glyphs_connected(map, ...)\n"
    "  return dgn.points_connected(map, points(map, {...}))\n"
    "end\n";

void lrt_open_dgn(lua_State *L)
{
    open_game_tables(L);
    static const luaL_Reg fns[] = {
        {"br_depth", l_br_depth},
        {"max_bounds", l_max_bounds}, {"max_monsters", l_max_monsters},
        {"level_name", l_level_name}, {"in_bounds", l_in_bounds},
        {"set_random_mon_list", l_set_random_mon_list},
        {"feature_number", l_feature_number}, {"feature_name", l_feature_name},
        {"points_connected", l_points_connected},
        {"any_point_connected", l_any_point_connected},
        {"has_exit_from", l_has_exit_from},
        {"delayed_decay", l_nothing}, {"delayed_decay_extra", l_nothing},
        {"set_feature_name", l_set_feature_name},
        {"set_border_fill_type", l_set_border_fill_type},
        {"lflags", l_lflags}, {"bflags", l_bflags},
        {"map_register_flag", l_nothing}, {"load_des_file", l_load_des_file},
        {"in_vault", l_false},
        {"br_entrance", l_br_entrance}, {"builder_bounds", l_builder_bounds},
        {"dgn_event_type", l_first_arg},
        {"set_branch_epilogue", l_nothing}, {"change_floor_colour", l_nothing},
        {"change_rock_colour", l_nothing}, {"change_floor_tile", l_nothing},
        {"change_rock_tile", l_nothing}, {"monster_spec", l_first_arg},
        {"create_monster", l_nothing}, {"mons_at", l_nothing},
        {"get_floor_colour", l_floor_colour},
        {"get_rock_colour", l_floor_colour},
        {"stash_items", l_stash_items}, {"set_map_mask", l_nothing},
        {"unset_map_mask", l_nothing}, {"find_marker_positions_by_prop", l_empty_table},
        {NULL, NULL}};
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "questgrid.features");
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "questgrid.des_files");
    lua_newtable(L);
    luaL_setfuncs(L, fns, 0);
    /* no Zot orb chosen yet, no unique tag used, not a Descent game */
    add_question(L, "dgn", "zot_orb_type", LUA_TSTRING, "");
    add_question(L, "dgn", "uniq_tag_used", LUA_TBOOLEAN, NULL);
    add_question(L, "dgn", "is_descent", LUA_TBOOLEAN, NULL);
    /* every branch exists; no map was asked for with parameters; no
     * primary vault was placed (a map is resolved alone) */
    add_question(L, "dgn", "br_exists", LUA_TBOOLEAN, "yes");
    add_question(L, "dgn", "map_parameters", LUA_TNIL, NULL);
    add_question(L, "dgn", "primary_vault_dimensions", LUA_TNIL, NULL);
    lua_setglobal(L, "dgn");
    lrt_load_builtin(L, glyph_checks, sizeof glyph_checks - 1, "=glyph checks");
    lua_call(L, 0, 0);
}

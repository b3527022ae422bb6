/* Crawl's level-wide layouts (layout_basic, layout_bigger_room,
 * layout_chaotic_city, layout_shoals, layout_swamp) and the level around
 * a map that they build and dgn.grid reads and writes: each layout gives
 * the level its algorithm gives, the same one for the same seed. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"
#include "lua_harness.h"

#include <stdlib.h>
#include <string.h>

#define W 80
#define H 70

typedef test_runtime fixture;

/* The level a map with no grid resolves to when its main chunk is main. */
static qg_level *resolve(fixture *f, const char *main, const char *place,
                         unsigned long long seed)
{
    th_map *m = th_map_new("level", NULL, main);
    qg_level *level = NULL;
    qg_diags_clear(f->diags);
    qg_status st = th_resolve(f->rt, m, seed, place, &level, f->diags);
    if (st != QG_OK)
        qg_diags_print(f->diags, stderr);
    assert_int_equal(st, QG_OK);
    th_map_free(m);
    return level;
}

static const char *feature(const qg_level *level, int x, int y)
{
    qg_cell cell;
    assert_int_equal(qg_level_cell(level, x, y, &cell), QG_OK);
    return cell.feature_name ? cell.feature_name : "";
}

static int is(const qg_level *level, int x, int y, const char *name)
{
    return strcmp(feature(level, x, y), name) == 0;
}

static int count(const qg_level *level, const char *name)
{
    int n = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            n += is(level, x, y, name);
    return n;
}

static int same_level(const qg_level *a, const qg_level *b)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (strcmp(feature(a, x, y), feature(b, x, y)) != 0)
                return 0;
    return 1;
}

static int passable(const char *name)
{
    return strcmp(name, "floor") == 0 || strstr(name, "stairs") || strstr(name, "door") ||
           strcmp(name, "shallow_water") == 0 || strcmp(name, "shaft") == 0;
}

/* Cells reachable from (x, y) over passable ground, marked in seen. */
static void flood(const qg_level *level, int x, int y, unsigned char *seen)
{
    int *stack = malloc(sizeof *stack * W * H * 2), top = 0;
    seen[y * W + x] = 1;
    stack[top++] = x;
    stack[top++] = y;
    while (top) {
        int cy = stack[--top], cx = stack[--top];
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int nx = cx + dx, ny = cy + dy;
                if (nx < 0 || ny < 0 || nx >= W || ny >= H || seen[ny * W + nx] ||
                    !passable(feature(level, nx, ny)))
                    continue;
                seen[ny * W + nx] = 1;
                stack[top++] = nx;
                stack[top++] = ny;
            }
    }
    free(stack);
}

static int find(const qg_level *level, const char *name, int *x, int *y)
{
    for (*y = 0; *y < H; (*y)++)
        for (*x = 0; *x < W; (*x)++)
            if (is(level, *x, *y, name))
                return 1;
    return 0;
}

static const char *const stairs[6] = {"stone_stairs_down_i", "stone_stairs_down_ii",
                                      "stone_stairs_down_iii", "stone_stairs_up_i",
                                      "stone_stairs_up_ii", "stone_stairs_up_iii"};

/* Each stone stair at most once, and every one there connected to the
 * others. Returns how many there are. */
static int stairs_joined(const qg_level *level)
{
    unsigned char *seen = calloc(W * H, 1);
    int present = 0, first = 1;
    for (int i = 0; i < 6; i++) {
        int x, y;
        assert_true(count(level, stairs[i]) <= 1);
        if (!find(level, stairs[i], &x, &y))
            continue;
        present++;
        if (first)
            flood(level, x, y, seen);
        first = 0;
        assert_true(seen[y * W + x]);
    }
    free(seen);
    return present;
}

/* Every cell outside the box x1..x2, y1..y2 is one of the features named
 * (a space-separated list). */
static int outside_is(const qg_level *level, int x1, int y1, int x2, int y2,
                      const char *names)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            if (x >= x1 && x <= x2 && y >= y1 && y <= y2)
                continue;
            const char *name = feature(level, x, y);
            const char *hit = strstr(names, name);
            size_t len = strlen(name);
            if (!*name || !hit || (hit[len] != ' ' && hit[len] != '\0'))
                return 0;
        }
    return 1;
}

static int edge_is(const qg_level *level, const char *name, int depth)
{
    return outside_is(level, depth, depth, W - 1 - depth, H - 1 - depth, name);
}

/* ---- layout_basic ------------------------------------------------------------ */

static void basic_is_corridors_rooms_and_stairs(void **state)
{
    fixture *f = *state;
    int total_stairs = 0;
    for (unsigned long long seed = 1; seed <= 8; seed++) {
        qg_level *level = resolve(f, "layout_basic()", "D:6", seed);
        assert_int_equal(qg_level_width(level), W);
        assert_int_equal(qg_level_height(level), H);
        assert_true(edge_is(level, "rock_wall", 4));
        assert_true(count(level, "floor") > 300);
        total_stairs += stairs_joined(level);
        qg_level_free(level);
    }
    /* the trails give up now and then; most levels have all six */
    assert_true(total_stairs >= 6 * 8 - 8);
}

static void basic_follows_the_seed(void **state)
{
    fixture *f = *state;
    qg_level *a = resolve(f, "layout_basic()", "D:9", 42);
    qg_level *b = resolve(f, "layout_basic()", "D:9", 42);
    qg_level *c = resolve(f, "layout_basic()", "D:9", 43);
    assert_true(same_level(a, b));
    assert_false(same_level(a, c));
    qg_level_free(a);
    qg_level_free(b);
    qg_level_free(c);
}

/* Deeper down the basic layout floods: lava or deep water in some levels;
 * Gehenna always has lava, the Crypt never. */
static void basic_water_and_lava_by_place(void **state)
{
    fixture *f = *state;
    int lava_geh = 0, lava_crypt = 0, water_d = 0;
    for (unsigned long long seed = 1; seed <= 12; seed++) {
        qg_level *geh = resolve(f, "layout_basic()", "Geh:3", seed);
        qg_level *crypt = resolve(f, "layout_basic()", "Crypt:2", seed);
        qg_level *d = resolve(f, "layout_basic()", "D:14", seed);
        lava_geh += count(geh, "lava") > 0;
        lava_crypt += count(crypt, "lava");
        water_d += count(d, "deep_water") + count(d, "lava") + count(d, "shallow_water") > 0;
        qg_level_free(geh);
        qg_level_free(crypt);
        qg_level_free(d);
    }
    assert_int_equal(lava_geh, 12);
    assert_int_equal(lava_crypt, 0);
    assert_true(water_d >= 1);
}

/* ---- layout_bigger_room -------------------------------------------------------- */

static void bigger_room_is_one_hall(void **state)
{
    fixture *f = *state;
    for (unsigned long long seed = 1; seed <= 6; seed++) {
        qg_level *level = resolve(f, "layout_bigger_room()", "Lair:2", seed);
        /* a river or a lake may cross the rock around the hall */
        assert_true(outside_is(level, 10, 10, W - 11, H - 11,
                               "rock_wall deep_water shallow_water"));
        for (int y = 10; y < H - 10; y++)
            for (int x = 10; x < W - 10; x++)
                assert_false(is(level, x, y, "rock_wall"));
        assert_int_equal(stairs_joined(level), 6);
        int pools = count(level, "deep_water") + count(level, "tree");
        assert_true(pools > 20);
        qg_level_free(level);
    }
}

/* ---- layout_chaotic_city ------------------------------------------------------- */

/* Boxes of wall on an open floor that never touch: the frame just inside
 * the rock stays floor, and the boxes are many. */
static void chaotic_city_is_boxes_on_floor(void **state)
{
    fixture *f = *state;
    for (unsigned long long seed = 1; seed <= 4; seed++) {
        qg_level *level = resolve(f, "layout_chaotic_city()", "Crypt:1", seed);
        assert_true(outside_is(level, 10, 10, W - 10, H - 10, "rock_wall"));
        for (int x = 10; x <= 70; x++)
            assert_true(is(level, x, 10, "floor") && is(level, x, 60, "floor"));
        int walls = 0;
        for (int y = 11; y < 60; y++)
            for (int x = 11; x < 70; x++)
                walls += strstr(feature(level, x, y), "wall") != NULL;
        assert_true(walls > 300);
        qg_level_free(level);
    }
}

static void chaotic_city_takes_its_wall(void **state)
{
    fixture *f = *state;
    qg_level *level = resolve(f, "layout_chaotic_city('metal_wall')", "Dis:2", 5);
    int metal = 0;
    for (int y = 11; y < 60; y++)
        for (int x = 11; x < 70; x++) {
            const char *name = feature(level, x, y);
            assert_true(!strstr(name, "wall") || strcmp(name, "metal_wall") == 0);
            metal += strcmp(name, "metal_wall") == 0;
        }
    assert_true(metal > 300);
    qg_level_free(level);
}

/* ---- layout_shoals ------------------------------------------------------------- */

static int land(const qg_level *level)
{
    return count(level, "floor") + count(level, "rock_wall") + count(level, "stone_wall");
}

/* Islands in the sea: the rim is open sea, the water along it deep, and
 * deeper Shoals levels have fewer islands. */
static void shoals_are_islands_in_water(void **state)
{
    fixture *f = *state;
    int land_top = 0, land_bottom = 0;
    for (unsigned long long seed = 1; seed <= 6; seed++) {
        qg_level *top = resolve(f, "layout_shoals()", "Shoals:1", seed);
        qg_level *bottom = resolve(f, "layout_shoals()", "Shoals:4", seed);
        assert_true(edge_is(top, "open_sea", 1));
        for (int x = 1; x < W - 1; x++)
            assert_true(is(top, x, 1, "deep_water") || is(top, x, 1, "shallow_water"));
        assert_true(count(top, "deep_water") > 1000);
        assert_true(count(top, "shallow_water") > 200);
        for (int i = 0; i < 6; i++)
            assert_int_equal(count(top, stairs[i]), 1);
        land_top += land(top);
        land_bottom += land(bottom);
        qg_level_free(top);
        qg_level_free(bottom);
    }
    assert_true(land_top > land_bottom);
}

/* ---- layout_swamp -------------------------------------------------------------- */

/* A mangrove forest six cells thick around slushy patches of floor and
 * shallow water; deeper in the Swamp, more of the high ground is water. */
static void swamp_is_mangroves_and_water(void **state)
{
    fixture *f = *state;
    int water_top = 0, water_bottom = 0;
    for (unsigned long long seed = 1; seed <= 6; seed++) {
        qg_level *top = resolve(f, "dgn.layout_swamp()", "Swamp:1", seed);
        qg_level *bottom = resolve(f, "dgn.layout_swamp()", "Swamp:4", seed);
        assert_true(edge_is(top, "mangrove", 6));
        assert_true(count(top, "floor") > 100);
        assert_true(count(top, "shallow_water") > 100);
        assert_int_equal(count(top, "floor") + count(top, "shallow_water") +
                             count(top, "mangrove"), W * H);
        water_top += count(top, "shallow_water");
        water_bottom += count(bottom, "shallow_water");
        qg_level_free(top);
        qg_level_free(bottom);
    }
    assert_true(water_bottom > water_top);
}

/* ---- the level and dgn.grid ------------------------------------------------------ */

/* A map without a grid that writes the level resolves to the level; reads
 * give feature numbers, dgn.is_passable and feat.* look at the cell. */
static void dgn_grid_writes_the_level(void **state)
{
    fixture *f = *state;
    qg_level *level = resolve(f,
        "dgn.grid(3, 4, 'floor')\n"
        "dgn.grid(5, 6, dgn.feature_number('lava'))\n"
        "dgn.grid(7, 8, 'mangrove')\n"
        "assert(dgn.feature_name(dgn.grid(3, 4)) == 'floor')\n"
        "assert(dgn.feature_name(dgn.grid(0, 0)) == 'rock_wall')\n"
        "assert(dgn.is_passable(3, 4) and not dgn.is_passable(7, 8))\n"
        "assert(feat.is_wall(0, 0) and not feat.is_wall(3, 4))\n"
        "dgn.terrain_changed(9, 9, 'shallow_water', false)\n"
        "dgn.register_feature_marker(3, 4, 'stone_arch')\n"
        "dgn.register_lua_marker(5, 6, {})\n",
        "D:1", 1);
    assert_true(is(level, 3, 4, "floor"));
    assert_true(is(level, 5, 6, "lava"));
    assert_true(is(level, 7, 8, "mangrove"));
    assert_true(is(level, 9, 9, "shallow_water"));
    assert_int_equal(count(level, "rock_wall"), W * H - 4);
    assert_int_equal(qg_level_marker_count(level), 2);
    int x, y;
    assert_string_equal(qg_level_marker(level, 0, &x, &y), "feat:stone_arch");
    assert_true(x == 3 && y == 4);
    qg_level_free(level);
}

/* The map's own glyph meanings never reach the level: a KFEAT on 'x' or
 * '.' leaves the level's rock and floor as they are. */
static void map_glyphs_stay_the_maps(void **state)
{
    fixture *f = *state;
    qg_level *level = resolve(f, "kfeat('x = lava')\nkfeat('. = deep_water')\n"
                                 "dgn.grid(3, 4, 'floor')\n", "D:1", 1);
    assert_true(is(level, 0, 0, "rock_wall"));
    assert_true(is(level, 3, 4, "floor"));
    assert_int_equal(count(level, "lava") + count(level, "deep_water"), 0);
    qg_level_free(level);
}

/* A map with a grid of its own is that grid, whatever it wrote on the
 * level (in Crawl such writes are to the level under the map). */
static void a_grid_of_its_own_wins(void **state)
{
    fixture *f = *state;
    th_map *m = th_map_new("own", NULL, "map('x.x')\ndgn.grid(3, 4, 'lava')\n");
    qg_level *level = NULL;
    assert_int_equal(th_resolve(f->rt, m, 1, "D:1", &level, f->diags), QG_OK);
    assert_int_equal(qg_level_width(level), 3);
    assert_int_equal(qg_level_height(level), 1);
    qg_level_free(level);
    th_map_free(m);
}

/* Outside the level is an error naming the cell; the level is fresh for
 * every resolution. */
static void out_of_the_level_and_fresh_each_time(void **state)
{
    fixture *f = *state;
    th_map *m = th_map_new("out", NULL, "dgn.grid(80, 3, 'floor')");
    qg_level *level = NULL;
    qg_diags_clear(f->diags);
    assert_int_not_equal(th_resolve(f->rt, m, 1, "D:1", &level, f->diags), QG_OK);
    assert_true(test_diags_contain(f->diags, QG_ERROR, "(80, 3) is outside the level"));
    th_map_free(m);
    qg_level *a = resolve(f, "dgn.grid(1, 1, 'floor')", "D:1", 1);
    qg_level *b = resolve(f, "assert(dgn.feature_name(dgn.grid(1, 1)) == 'rock_wall')\n"
                             "dgn.grid(2, 2, 'floor')", "D:1", 1);
    assert_true(is(b, 1, 1, "rock_wall"));
    qg_level_free(a);
    qg_level_free(b);
}

/* At compile time (validating) the layouts are not called by Crawl's maps;
 * called anyway, they build a level that is dropped. */
static void layouts_at_compile_time(void **state)
{
    fixture *f = *state;
    th_map *m = th_map_new("compiled", NULL,
                           "layout_basic()\nlayout_shoals()\ndgn.layout_swamp()\n"
                           "layout_bigger_room()\nlayout_chaotic_city()\n");
    qg_diags_clear(f->diags);
    assert_int_equal(th_compile(f->rt, m, f->diags), QG_OK);
    th_map_free(m);
}

/* A map that builds the whole level (ORIENT: encompass, TAGS: layout)
 * has a level's budget, as Crawl's Lua level builders need; any other map
 * the chunk budget. */
static void level_builders_get_a_level_budget(void **state)
{
    (void)state;
    static const char text[] =
        "NAME: heavy_layout\n"
        "ORIENT: encompass\n"
        "TAGS: layout\n"
        "{{ if not is_validating() then\n"
        "     local n = 0 for i = 1, 8000000 do n = n + i end\n"
        "     dgn.grid(1, 1, 'floor')\n"
        "   end }}\n"
        "\n"
        "NAME: heavy_vault\n"
        "{{ if not is_validating() then\n"
        "     local n = 0 for i = 1, 8000000 do n = n + i end\n"
        "   end }}\n"
        "MAP\n"
        "x\n"
        "ENDMAP\n";
    qg_diags *d = qg_diags_new();
    qg_runtime *rt = qg_runtime_new(NULL, d);
    qg_des_file *file = NULL;
    qg_des_parse("heavy.des", text, sizeof text - 1, NULL, NULL, &file, d);
    assert_int_equal(qg_runtime_add_file(rt, file, d), QG_OK);
    for (size_t i = 0; i < 2; i++)
        assert_int_equal(qg_runtime_compile_map(rt, qg_runtime_map(rt, i), d), QG_OK);
    qg_level *level = NULL;
    if (qg_runtime_resolve(rt, qg_runtime_map(rt, 0), 1, NULL, &level, d) != QG_OK)
        qg_diags_print(d, stderr);
    assert_non_null(level);
    assert_int_equal(qg_level_width(level), W);
    qg_level_free(level);
    level = NULL;
    assert_int_equal(qg_runtime_resolve(rt, qg_runtime_map(rt, 1), 1, NULL, &level, d),
                     QG_ERR_LIMIT);
    assert_true(test_diags_contain(d, QG_ERROR, "instruction budget"));
    qg_runtime_free(rt);
    qg_diags_free(d);
}

/* ---- maps placed on the level ------------------------------------------------------ */

/* A runtime holding the .des text, every map compiled. */
static qg_runtime *corpus_of(const char *text, qg_diags *d)
{
    qg_runtime *rt = qg_runtime_new(NULL, d);
    qg_des_file *file = NULL;
    qg_des_parse("placed.des", text, strlen(text), NULL, NULL, &file, d);
    assert_int_equal(qg_runtime_add_file(rt, file, d), QG_OK);
    for (size_t i = 0; i < qg_runtime_map_count(rt); i++)
        assert_int_equal(qg_runtime_compile_map(rt, qg_runtime_map(rt, i), d), QG_OK);
    return rt;
}

/* A level builder finds a map by tag, resolves it, looks at it, draws it
 * turned and mirrored where it wants and again elsewhere; the level keeps
 * each placed cell's own KFEAT, KMONS and marks. */
static const char placed_text[] =
    "NAME: builder\n"
    "ORIENT: encompass\n"
    "TAGS: layout\n"
    "{{\n"
    "  if is_validating() then return end\n"
    "  dgn.fill_grd_area(1, 1, 78, 68, 'floor')\n"
    "  local def = dgn.map_by_tag('room_piece')\n"
    "  assert(def and dgn.name(def) == 'room_piece_map')\n"
    "  dgn.tags(def, 'no_rotate')\n"
    "  local map, vplace = dgn.resolve_map(def)\n"
    "  assert(dgn.has_tag(map, 'no_rotate'))\n"
    "  local w, h = dgn.mapsize(map)\n"
    "  assert(w == 3 and h == 2, w .. 'x' .. h)\n"
    "  local f, exit, space = dgn.inspect_map(vplace, 0, 0)\n"
    "  assert(dgn.feature_name(f) == 'lava' and not exit and not space)\n"
    "  f, exit, space = dgn.inspect_map(vplace, 2, 1)\n"
    "  assert(exit and not space)\n"
    "  dgn.reuse_map(vplace, 10, 10, false, false, 0)\n"
    "  dgn.reuse_map(vplace, 20, 20, true, false, 1)\n"
    "  assert(dgn.feature_name(dgn.grid(10, 10)) == 'lava')\n"
    "  assert(dgn.place_map(dgn.map_by_name('room_piece_map'), false, false, 40, 30))\n"
    "  assert(dgn.map_by_tag('no_such_tag') == nil)\n"
    "  assert(dgn.last_builder_error() == '')\n"
    "}}\n"
    "\n"
    "NAME: room_piece_map\n"
    "TAGS: room_piece\n"
    "KFEAT: L = lava\n"
    "KMONS: 1 = goblin\n"
    "MARKER: 1 = lua:fog_machine { cloud_type = 'flame' }\n"
    "MAP\n"
    "L1.\n"
    "..@\n"
    "ENDMAP\n";

static int has_thing(const qg_level *level, int x, int y, const char *name)
{
    qg_cell cell;
    qg_level_cell(level, x, y, &cell);
    return cell.things[QG_SLOT_MONSTER].name && strcmp(cell.things[QG_SLOT_MONSTER].name, name) == 0;
}

static void builders_place_maps_on_the_level(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_runtime *rt = corpus_of(placed_text, d);
    qg_level *level = NULL;
    if (qg_runtime_resolve(rt, qg_runtime_map(rt, 0), 3, NULL, &level, d) != QG_OK)
        qg_diags_print(d, stderr);
    assert_non_null(level);
    /* as drawn: L1. over ..@ at (10, 10) */
    assert_true(is(level, 10, 10, "lava") && has_thing(level, 11, 10, "goblin"));
    assert_true(is(level, 12, 11, "floor"));
    /* mirrored left-right, then turned clockwise, at (20, 20): 2 wide, 3 high */
    assert_int_equal(count(level, "lava"), 3);
    int goblins = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            goblins += has_thing(level, x, y, "goblin");
    assert_int_equal(goblins, 3);
    assert_true(qg_level_marker_count(level) >= 3);
    assert_true(is(level, 0, 0, "rock_wall") && is(level, 5, 5, "floor"));
    assert_non_null(qg_level_get_property(level, "subvault"));
    qg_level_free(level);
    qg_runtime_free(rt);
    qg_diags_free(d);
}

/* An encompass map placed by another takes the whole level (bailey). */
static void an_encompass_map_placed_is_the_level(void **state)
{
    (void)state;
    static const char text[] =
        "NAME: portal_wrapper\n"
        "ORIENT: encompass\n"
        "{{ if not is_validating() then\n"
        "     dgn.place_map(dgn.map_by_tag('wrapped_level'), false, false)\n"
        "   end }}\n"
        "\n"
        "NAME: wrapped_level_map\n"
        "TAGS: wrapped_level\n"
        "ORIENT: encompass\n"
        "MAP\n"
        "xxxx\n"
        "x.lx\n"
        "xxxx\n"
        "ENDMAP\n";
    qg_diags *d = qg_diags_new();
    qg_runtime *rt = corpus_of(text, d);
    qg_level *level = NULL;
    assert_int_equal(qg_runtime_resolve(rt, qg_runtime_map(rt, 0), 1, NULL, &level, d), QG_OK);
    assert_true(is(level, 1, 1, "floor") && is(level, 2, 1, "lava"));
    assert_true(is(level, 50, 50, "rock_wall"));
    qg_level_free(level);
    qg_runtime_free(rt);
    qg_diags_free(d);
}

/* ---- why a map does not resolve -------------------------------------------------- */

static void failures_say_why(void **state)
{
    (void)state;
    static const char text[] =
        "NAME: fresh_game_veto\n"
        "veto {{ return not you.have_rune('fiery') }}\n"
        "MAP\n"
        "x\n"
        "ENDMAP\n"
        "\n"
        "NAME: dummy_map\n"
        "TAGS: dummy\n"
        "\n"
        "NAME: shaped_only\n"
        ": default_subvault_glyphs()\n";
    qg_diags *d = qg_diags_new();
    qg_runtime *rt = corpus_of(text, d);
    qg_level *level = NULL;
    qg_diags_clear(d);
    assert_int_not_equal(qg_runtime_resolve(rt, qg_runtime_map(rt, 0), 1, NULL, &level, d),
                         QG_OK);
    assert_true(test_diags_contain(d, QG_ERROR, "vetoed by its veto chunk"));
    assert_int_equal(qg_diags_get(d, 0)->line, 2);
    assert_true(test_diags_contain(d, QG_NOTE, "asked about the game so far: you.have_rune"));
    qg_vars *vars = qg_vars_new();
    qg_vars_set(vars, "you.have_rune", "1");
    qg_context ctx = {NULL, 0, vars};
    assert_int_equal(qg_runtime_resolve(rt, qg_runtime_map(rt, 0), 1, &ctx, &level, d), QG_OK);
    qg_level_free(level);
    qg_vars_free(vars);
    qg_diags_clear(d);
    level = NULL;
    assert_int_not_equal(qg_runtime_resolve(rt, qg_runtime_map(rt, 1), 1, NULL, &level, d),
                         QG_OK);
    assert_true(test_diags_contain(d, QG_ERROR, "it is a dummy"));
    qg_diags_clear(d);
    assert_int_not_equal(qg_runtime_resolve(rt, qg_runtime_map(rt, 2), 1, NULL, &level, d),
                         QG_OK);
    assert_true(test_diags_contain(d, QG_ERROR, "takes its shape from the SUBVAULT"));
    qg_runtime_free(rt);
    qg_diags_free(d);
}

/* A level builder's maps: by tag only those made for the place (weight
 * 0 never), each drawn where no other placed map is (four 20x20 blocks
 * would overlap most of the time otherwise), inside the border or
 * along the edge its ORIENT names; a map that finds no room or does not
 * resolve is refused with the reason dgn.last_builder_error gives; the
 * calls that need a map of the run or a resolved one say so. */
#define ROW_20 "llllllllllllllllllll\n"
#define ROWS_5 ROW_20 ROW_20 ROW_20 ROW_20 ROW_20
#define ROWS_20 ROWS_5 ROWS_5 ROWS_5 ROWS_5
static const char spots_text[] =
    "NAME: spots\n"
    "ORIENT: encompass\n"
    "TAGS: layout\n"
    "{{\n"
    "  if is_validating() then return end\n"
    "  dgn.fill_grd_area(-5, -5, 200, 200, 'floor')\n"
    "  for i = 1, 30 do\n"
    "    assert(dgn.name(dgn.map_by_tag('piece')) == 'piece_here')\n"
    "  end\n"
    "  for i = 1, 4 do\n"
    "    assert(dgn.place_map(dgn.map_by_name('block'), false, false))\n"
    "  end\n"
    "  assert(dgn.place_map(dgn.map_by_name('north_block'), false, false))\n"
    "  assert(not dgn.place_map(dgn.map_by_name('too_wide'), false, false))\n"
    "  assert(dgn.last_builder_error() == 'no room on the level', dgn.last_builder_error())\n"
    "  assert(not dgn.place_map(dgn.map_by_name('refused'), false, false))\n"
    "  assert(dgn.last_builder_error():find('not on this level', 1, true),\n"
    "         dgn.last_builder_error())\n"
    "  local piece = dgn.map_by_tag('piece')\n"
    "  local ok, err = pcall(dgn.reuse_map, piece, 1, 1, false, false, 0)\n"
    "  assert(not ok and err:find('dgn.resolve_map', 1, true), err)\n"
    "  local map, vplace = dgn.resolve_map(piece)\n"
    "  assert(rawequal(dgn.resolve_map(map), map))\n"
    "  local f, exit, space = dgn.inspect_map(vplace, 1, 0)\n"
    "  assert(dgn.feature_name(f) == 'floor' and not exit and not space)\n"
    "  f, exit, space = dgn.inspect_map(vplace, 5, 5)\n"
    "  assert(space and not exit)\n"
    "  ok, err = pcall(dgn.inspect_map, g_dgn_curr_map, 0, 0)\n"
    "  assert(not ok and err:find('dgn.map_by_tag', 1, true), err)\n"
    "  ok, err = pcall(function()\n"
    "    for i = 1, 1100 do dgn.map_by_name('block') end\n"
    "  end)\n"
    "  assert(not ok and err:find('more than 1024 maps', 1, true), err)\n"
    "}}\n"
    "\n"
    "NAME: piece_here\nTAGS: piece\nDEPTH: D:1-10\nKMONS: 1 = goblin\nMAP\n.1.\nENDMAP\n\n"
    "NAME: piece_elsewhere\nTAGS: piece\nDEPTH: Lair\nWEIGHT: 1000\nMAP\n...\nENDMAP\n\n"
    "NAME: piece_never\nTAGS: piece\nWEIGHT: 0\nMAP\n...\nENDMAP\n\n"
    "NAME: block\nMAP\n" ROWS_20 "ENDMAP\n\n"
    "NAME: north_block\nORIENT: north\nMAP\nwww\nwww\nwww\nENDMAP\n\n"
    "NAME: too_wide\nMAP\n"
    "ccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc\n"
    "ENDMAP\n\n"
    "NAME: refused\n"
    "{{ if not is_validating() then error('not on this level') end }}\n"
    "MAP\nx\nENDMAP\n";

static void builders_find_room_and_say_why_not(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_runtime *rt = corpus_of(spots_text, d);
    qg_level *level = NULL;
    qg_context ctx = {"D:3", 0, NULL};
    qg_diags_clear(d);
    if (qg_runtime_resolve(rt, qg_runtime_map(rt, 0), 7, &ctx, &level, d) != QG_OK)
        qg_diags_print(d, stderr);
    assert_non_null(level);
    /* four blocks of 20x20 lava, none drawn over another */
    assert_int_equal(count(level, "lava"), 4 * 400);
    int north = H;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            if (is(level, x, y, "lava"))
                assert_true(x >= 2 && y >= 2 && x < W - 2 && y < H - 2);
            if (is(level, x, y, "deep_water") && y < north)
                north = y;
        }
    assert_int_equal(count(level, "deep_water"), 9);
    assert_int_equal(north, 2);
    assert_int_equal(count(level, "stone_wall"), 0);
    /* the fill reached the corners; what fell off the level was left out */
    assert_true(is(level, 0, 0, "floor") && is(level, W - 1, H - 1, "floor"));
    qg_level_free(level);
    qg_runtime_free(rt);
    qg_diags_free(d);
}

/* The game questions a map asked before it failed, each named once in the
 * note and answered by the context's variables: dgn.map_parameters as the
 * tags the map was asked for by, dgn.br_exists as a yes or no. */
static void game_questions_are_named_and_answerable(void **state)
{
    (void)state;
    static const char text[] =
        "NAME: asks_the_game\n"
        "{{ if not is_validating() then\n"
        "     assert(dgn.primary_vault_dimensions() == nil)\n"
        "     assert(dgn.br_exists('Desolation'))\n"
        "     assert(dgn.br_exists('Desolation'))\n"
        "     local p = dgn.map_parameters()\n"
        "     assert(p and p[1] == 'wanted', 'asked for by no tag')\n"
        "   end }}\n"
        "MAP\n"
        "x\n"
        "ENDMAP\n"
        "\n"
        "NAME: no_such_branch\n"
        "{{ if not is_validating() then assert(not dgn.br_exists('Desolation')) end }}\n"
        "MAP\n"
        "x\n"
        "ENDMAP\n";
    qg_diags *d = qg_diags_new();
    qg_runtime *rt = corpus_of(text, d);
    qg_level *level = NULL;
    qg_diags_clear(d);
    assert_int_not_equal(qg_runtime_resolve(rt, qg_runtime_map(rt, 0), 1, NULL, &level, d),
                         QG_OK);
    assert_true(test_diags_contain(d, QG_ERROR, "asked for by no tag"));
    assert_true(test_diags_contain(d, QG_NOTE,
                                   "asked about the game so far: dgn.primary_vault_dimensions, "
                                   "dgn.br_exists, dgn.map_parameters; answered as for a "
                                   "fresh game (--var NAME=VALUE"));
    qg_vars *vars = qg_vars_new();
    qg_vars_set(vars, "dgn.map_parameters", "wanted");
    qg_context ctx = {NULL, 0, vars};
    qg_diags_clear(d);
    assert_int_equal(qg_runtime_resolve(rt, qg_runtime_map(rt, 0), 1, &ctx, &level, d), QG_OK);
    qg_level_free(level);
    level = NULL;
    assert_int_not_equal(qg_runtime_resolve(rt, qg_runtime_map(rt, 1), 1, &ctx, &level, d),
                         QG_OK);
    qg_vars_set(vars, "dgn.br_exists", "0");
    qg_diags_clear(d);
    assert_int_equal(qg_runtime_resolve(rt, qg_runtime_map(rt, 1), 1, &ctx, &level, d), QG_OK);
    assert_int_equal(qg_diags_count(d), 0);
    qg_level_free(level);
    qg_vars_free(vars);
    qg_runtime_free(rt);
    qg_diags_free(d);
}

/* ---- the noise of the procedural layouts ------------------------------------------ */

/* crawl.simplex is smooth noise in [-1, 1] around 0; crawl.worley gives
 * the two nearest feature points, the nearest at a mean distance of 1;
 * crawl.split_bytes the bytes of an id, most significant first. */
static void noise_for_procedural_layouts(void **state)
{
    fixture *f = *state;
    qg_level *level = resolve(f,
        "local lo, hi, sum, n, jump, f1 = 1, -1, 0, 0, 0, 0\n"
        "for x = 0, 80 do for y = 0, 70 do\n"
        "  local v = crawl.simplex(x / 9, y / 7)\n"
        "  lo, hi, sum, n = math.min(lo, v), math.max(hi, v), sum + v, n + 1\n"
        "  jump = math.max(jump, math.abs(v - crawl.simplex(x / 9 + 0.01, y / 7)))\n"
        "  local d1, d2, id1, id2 = crawl.worley(x * 0.3, y * 0.3, 1.5)\n"
        "  assert(d2 >= d1 and id1 ~= id2)\n"
        "  local diff, id = crawl.worley_diff(x * 0.3, y * 0.3, 1.5)\n"
        "  assert(math.abs(diff - (d2 - d1)) < 1e-9 and id == id1)\n"
        "  f1 = f1 + d1\n"
        "end end\n"
        "assert(lo >= -1 and hi <= 1 and lo < -0.7 and hi > 0.7, lo .. ' ' .. hi)\n"
        "assert(math.abs(sum / n) < 0.1 and jump < 0.1)\n"
        "assert(math.abs(f1 / n - 1) < 0.15, f1 / n)\n"
        "assert(crawl.simplex(1.5, 2.5, 3.5) == crawl.simplex(1.5, 2.5, 3.5))\n"
        "local v4 = crawl.simplex(1.5, 2.5, 3.5, 4.5)\n"
        "assert(v4 >= -1 and v4 <= 1)\n"
        "local a, b, c, d = crawl.split_bytes(0x0A0B0C0D)\n"
        "assert(a == 10 and b == 11 and c == 12 and d == 13)\n"
        "dgn.grid(1, 1, 'floor')\n",
        "D:1", 1);
    qg_level_free(level);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(basic_is_corridors_rooms_and_stairs, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(basic_follows_the_seed, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(basic_water_and_lava_by_place, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(bigger_room_is_one_hall, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(chaotic_city_is_boxes_on_floor, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(chaotic_city_takes_its_wall, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(shoals_are_islands_in_water, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(swamp_is_mangroves_and_water, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(dgn_grid_writes_the_level, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(map_glyphs_stay_the_maps, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(a_grid_of_its_own_wins, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(out_of_the_level_and_fresh_each_time, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(layouts_at_compile_time, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(noise_for_procedural_layouts, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test(level_builders_get_a_level_budget),
        cmocka_unit_test(builders_place_maps_on_the_level),
        cmocka_unit_test(an_encompass_map_placed_is_the_level),
        cmocka_unit_test(failures_say_why),
        cmocka_unit_test(builders_find_room_and_say_why_not),
        cmocka_unit_test(game_questions_are_named_and_answerable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

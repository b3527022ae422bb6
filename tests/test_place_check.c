/* Validation: has_exit_from_glyph, glyphs_connected and the designer checks. */
#include "testutil.h"
#include "placefix.h"

#include <string.h>

/* The contrived example of the level design guide, and its bad variants. */
static void exit_from_glyph_follows_walkable_cells(void **state)
{
    (void)state;
    static const char *const good[] = {"xxxxxx", "x{.+..", "x..+>x", "xxxxxx"};
    static const char *const drowned[] = {"xxxxxx", "x{w+..", "xww+>x", "xxxxxx"};
    static const char *const walled[] = {"xxxxxx", "x{.+.x", "x..+>x", "xxxxxx"};
    qg_level *a = fix_level(good, 4, "float", NULL);
    qg_level *b = fix_level(drowned, 4, "float", NULL);
    qg_level *c = fix_level(walled, 4, "float", NULL);
    assert_true(qg_level_has_exit_from_glyph(a, '{'));
    assert_false(qg_level_has_exit_from_glyph(b, '{'));
    assert_false(qg_level_has_exit_from_glyph(c, '{'));
    assert_false(qg_level_has_exit_from_glyph(a, 'Q'));
    assert_true(qg_level_glyphs_connected(a, '{', '>'));
    assert_true(qg_level_glyphs_connected(c, '{', '>'));
    assert_false(qg_level_glyphs_connected(b, '{', '>'));
    assert_false(qg_level_glyphs_connected(a, '{', 'Q'));
    qg_level_free(a);
    qg_level_free(b);
    qg_level_free(c);
}

static void named_features_override_glyphs(void **state)
{
    (void)state;
    static const char *const rows[] = {"xxxx", "x{..", "xxxx"};
    qg_level *l = fix_level(rows, 3, "float", NULL);
    assert_true(qg_level_has_exit_from_glyph(l, '{'));
    qg_level_set_feature(l, 2, 1, -1, "lava");
    assert_false(qg_level_has_exit_from_glyph(l, '{'));
    qg_level_set_feature(l, 2, 1, -1, "open_door");
    assert_true(qg_level_has_exit_from_glyph(l, '{'));
    qg_level_free(l);
}

static void classes_of_glyphs_and_names(void **state)
{
    (void)state;
    assert_true(qg_glyph_class('x') & QG_FEAT_WALL);
    assert_true(qg_glyph_class('X') & QG_FEAT_PERMANENT);
    assert_true(qg_glyph_class('+') & QG_FEAT_DOOR);
    assert_true(qg_glyph_class('w') & QG_FEAT_DEEP_WATER);
    assert_true(qg_glyph_class('1') & QG_FEAT_FLOOR);
    assert_true(qg_glyph_class('G') & QG_FEAT_SOLID);
    assert_true(qg_feature_name_class("permarock_wall") & QG_FEAT_PERMANENT);
    assert_false(qg_feature_name_class("clear_rock_wall") & QG_FEAT_OPAQUE);
    assert_true(qg_feature_name_class("stone_stairs_down_i") & QG_FEAT_STAIRS);
    assert_true(qg_feature_name_class("granite_statue") & QG_FEAT_SOLID);
    assert_false(qg_feature_name_class("granite_statue") & QG_FEAT_WALL);
    assert_true(qg_feature_name_class("GRANITE") & QG_FEAT_WALL);
    assert_true(qg_feature_name_class("shallow water") & QG_FEAT_SHALLOW);
    assert_true(qg_feature_name_class("runed_clear_door") & QG_FEAT_DOOR);
    assert_int_equal(qg_feature_name_class("altar_zin"), 0);
}

static qg_level *filled(int w, int h, char g, const char *orient)
{
    qg_level *l = qg_level_new(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            qg_level_set_glyph(l, x, y, (unsigned char)g);
    if (orient)
        qg_level_add_property(l, "orient", orient);
    qg_level_add_property(l, "file", "big.des");
    qg_level_add_property(l, "line", "12");
    qg_level_set_name(l, "big");
    return l;
}

static void size_limits_follow_the_orient(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_level *l = filled(20, 47, '.', "north");
    assert_int_equal(qg_level_check_placement(l, d), 1);
    assert_true(test_diags_contain(d, QG_ERROR, "too large for ORIENT: north: 20x47 (the limit is 80x46)"));
    assert_string_equal(qg_diags_get(d, 0)->file, "big.des");
    assert_int_equal(qg_diags_get(d, 0)->line, 12);
    qg_level_free(l);
    qg_diags_clear(d);
    l = filled(54, 10, '.', "west");
    assert_int_equal(qg_level_check_placement(l, d), 1);
    qg_level_free(l);
    l = filled(77, 10, '.', NULL);
    qg_diags_clear(d);
    assert_int_equal(qg_level_check_placement(l, d), 1);
    assert_true(test_diags_contain(d, QG_ERROR, "the limit is 76x66"));
    qg_level_free(l);
    l = filled(80, 70, 'x', "encompass");
    qg_diags_clear(d);
    assert_int_equal(qg_level_check_placement(l, d), 0);
    qg_level_free(l);
    l = filled(50, 40, '.', "float");
    qg_diags_clear(d);
    assert_int_equal(qg_level_check_placement(l, d), 0);
    assert_int_equal(qg_diags_count(d), 0);
    qg_level_free(l);
    qg_diags_free(d);
}

static void edge_maps_need_wall_padding(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_level *l = filled(20, 10, 'x', "north");
    qg_level_set_glyph(l, 10, 9, '@');
    assert_int_equal(qg_level_check_placement(l, d), 0);
    assert_int_equal(qg_diags_count(d), 0);
    qg_level_set_glyph(l, 5, 5, '.');
    assert_int_equal(qg_level_check_placement(l, d), 0);
    assert_true(test_diags_contain(d, QG_WARNING, "needs 6 rows of wall padding along its north edge (cell 5,5"));
    /* seed 000: a north map pads its north, east and west edges */
    assert_true(test_diags_contain(d, QG_WARNING, "along its west edge (cell 5,5"));
    qg_level_free(l);
    qg_diags_clear(d);
    l = filled(20, 10, 'x', "southeast");
    qg_level_set_glyph(l, 16, 2, '.');
    qg_level_set_glyph(l, 0, 2, '@');
    qg_level_check_placement(l, d);
    assert_true(test_diags_contain(d, QG_WARNING, "along its east edge"));
    assert_false(test_diags_contain(d, QG_WARNING, "along its south edge"));
    qg_level_free(l);
    qg_diags_free(d);
}

static void encompass_maps_need_all_stairs(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_level *l = filled(30, 30, 'x', "encompass");
    for (int x = 6; x < 24; x++)
        qg_level_set_glyph(l, x, 15, '.');
    qg_level_set_glyph(l, 6, 15, '{');
    qg_level_set_glyph(l, 7, 15, '(');
    qg_level_set_glyph(l, 8, 15, '}');
    qg_level_check_placement(l, d);
    assert_true(test_diags_contain(d, QG_WARNING, "lacks the stairs [)]"));
    qg_diags_clear(d);
    qg_level_set_glyph(l, 9, 15, '[');
    qg_level_set_glyph(l, 10, 15, ')');
    qg_level_set_feature(l, 11, 15, -1, "stone_stairs_down_iii");
    qg_level_check_placement(l, d);
    assert_false(test_diags_contain(d, QG_WARNING, "lacks the stairs"));
    assert_false(test_diags_contain(d, QG_WARNING, "cannot be reached"));
    qg_level_set_glyph(l, 20, 15, 'x');
    qg_level_set_glyph(l, 22, 15, '>');
    qg_level_check_placement(l, d);
    assert_true(test_diags_contain(d, QG_WARNING, "stairs '>' of map 'big' at 22,15 cannot be reached from the other stairs"));
    qg_level_free(l);
    qg_diags_free(d);
}

static void maps_need_an_exit_and_reachable_stairs(void **state)
{
    (void)state;
    static const char *const closed[] = {"xxxxx", "x...x", "xxxxx"};
    static const char *const sealed_stair[] = {"xxxxx", "x>x.x", "xxx.."};
    static const char *const inner_exit[] = {"xxxxx", "x.@.x", "xx.xx"};
    qg_diags *d = qg_diags_new();
    /* Crawl 0.4 and 0.5 load a map with no exit and place it sealed */
    qg_level *l = fix_level(closed, 3, "north", NULL);
    assert_int_equal(qg_level_check_placement(l, d), 0);
    assert_true(test_diags_contain(d, QG_WARNING, "placed isolated"));
    qg_level_free(l);
    qg_diags_clear(d);
    /* seed 000: a float map without an exit "will be isolated" */
    l = fix_level(closed, 3, "float", NULL);
    assert_int_equal(qg_level_check_placement(l, d), 0);
    assert_true(test_diags_contain(d, QG_WARNING, "placed isolated"));
    qg_level_free(l);
    qg_diags_clear(d);
    l = fix_level(closed, 3, "float", "no_exits");
    assert_int_equal(qg_level_check_placement(l, d), 0);
    qg_level_free(l);
    l = fix_level(sealed_stair, 3, "float", NULL);
    assert_int_equal(qg_level_check_placement(l, d), 0);
    assert_true(test_diags_contain(d, QG_WARNING, "stairs '>' of map 'fixture' at 1,1 cannot be reached from the map's edge"));
    qg_level_free(l);
    qg_diags_clear(d);
    l = fix_level(inner_exit, 3, "float", NULL);
    assert_int_equal(qg_level_check_placement(l, d), 0);
    assert_true(test_diags_contain(d, QG_WARNING, "exit '@' of map 'fixture' at 2,1 is inside the map"));
    qg_level_free(l);
    qg_diags_free(d);
}

/* A seed-era vault sealed around a teleport trap (Crawl 0.4.5's
 * lemuel_jelly_drop_b and lemuel_golem_globe: KFEAT: a = teleport trap) is
 * entered and left by teleport; a map of one cell, or a transparent one,
 * stands in the level's own floor. None is told it has no exit. */
static void seed_era_ways_in_without_an_exit(void **state)
{
    (void)state;
    static const char *const globe[] = {" mmmm ", "mm11mm", "m1TT1m", "mm11mm", " mmmm "};
    static const char *const one[] = {"G"};
    static const char *const closed[] = {"xxx", "x.x", "xxx"};
    qg_diags *d = qg_diags_new();
    qg_level *l = fix_level(globe, 5, NULL, NULL);
    qg_level_check_placement(l, d);
    assert_true(test_diags_contain(d, QG_WARNING, "placed isolated"));
    qg_diags_clear(d);
    qg_level_set_feature(l, 2, 2, -1, "teleport trap");
    qg_level_set_feature(l, 3, 2, -1, "teleport trap");
    assert_int_equal(qg_level_check_placement(l, d), 0);
    assert_int_equal(qg_diags_count(d), 0);
    qg_level_free(l);
    l = fix_level(one, 1, "float", NULL);
    assert_int_equal(qg_level_check_placement(l, d), 0);
    assert_int_equal(qg_diags_count(d), 0);
    qg_level_free(l);
    l = fix_level(closed, 3, "float", "transparent");
    assert_int_equal(qg_level_check_placement(l, d), 0);
    assert_int_equal(qg_diags_count(d), 0);
    qg_level_free(l);
    qg_diags_free(d);
}

/* ---- the rules of Crawl 0.28 (and current Crawl) ----------------------- */

static qg_branches *crawl_028(void)
{
    qg_diags *d = qg_diags_new();
    qg_branches *t = NULL;
    assert_int_equal(qg_branches_load(test_src_path("lib/des/vocab"), "crawl-0.28", &t, d),
                     QG_OK);
    qg_diags_free(d);
    return t;
}

static size_t check_028(const char *const *rows, int nrows, const char *orient,
                        const char *tags, qg_diags *d)
{
    qg_branches *t = crawl_028();
    qg_level *l = fix_level(rows, nrows, orient, tags);
    qg_diags_clear(d);
    size_t errors = qg_level_check_placement_at(l, t, "D:2", NULL, d);
    qg_level_free(l);
    qg_branches_free(t);
    return errors;
}

/* mapdef.cc map_def::has_exit, which validate_map_def asks of a map: a
 * stair anywhere (a hatch will not do), or on the map's edge '@', '=',
 * '+', a closed door or any cell not FFT_SOLID -- a fountain or deep water
 * is not. Each verdict below is Debian crawl 0.28's own: `crawl -builddb`
 * with the map added refuses it ("Map '...' has no (possible) exits") or
 * loads it. A teleport trap inside is no exit to Crawl 0.28. */
static void crawl_wants_the_exit_has_exit_finds(void **state)
{
    (void)state;
    static const char *const fountain[] = {"Y"}, *const statue[] = {"G"};
    static const char *const water[] = {"xxx", "www", "xxx"};
    static const char *const stair[] = {"xxx", "x{x", "xxx"};
    static const char *const hatch[] = {"xxx", "x>x", "xxx"};
    static const char *const inner[] = {"xxx", "x@x", "xxx"};
    static const char *const notched[] = {"x x", "x.x", "xxx"};
    qg_diags *d = qg_diags_new();
    assert_int_equal(check_028(fountain, 1, NULL, NULL, d), 0);
    assert_int_equal(qg_diags_count(d), 0);
    assert_int_equal(check_028(statue, 1, NULL, NULL, d), 1);
    assert_true(test_diags_contain(d, QG_ERROR, "has no exit: Crawl refuses to load it"));
    assert_int_equal(check_028(water, 3, "float", NULL, d), 0);
    assert_int_equal(check_028(stair, 3, "float", NULL, d), 0);
    assert_int_equal(check_028(hatch, 3, "float", NULL, d), 1);
    assert_int_equal(check_028(inner, 3, "float", NULL, d), 1);
    assert_int_equal(check_028(notched, 3, "float", NULL, d), 0);
    assert_int_equal(check_028(inner, 3, "float", "no_exits", d), 0);
    qg_branches *t = crawl_028();
    qg_level *l = fix_level(inner, 3, NULL, NULL);
    qg_level_set_feature(l, 1, 1, -1, "teleport trap");
    assert_int_equal(qg_level_check_placement_at(l, t, "D:2", NULL, d), 1);
    qg_level_free(l);
    qg_branches_free(t);
    qg_diags_free(d);
}

/* Crawl 0.28 picks a vault's exits among its edge cells and takes an '@'
 * off the edge for floor (dungeon.cc _vault_grid_glyph, _pick_float_exits),
 * and asks nothing of where its stairs are (has_exit: "If we have a stair,
 * assume the vault can be disconnected"): neither the seed documents'
 * inner '@' nor their unreachable stairs are told. */
static void crawl_asks_no_reachable_stairs_nor_edge_exits(void **state)
{
    (void)state;
    static const char *const inner_exit[] = {"xxxxx", "x.@.x", "xx.xx"};
    static const char *const sealed_stair[] = {"xxxxx", "x>x.x", "xxx.."};
    qg_diags *d = qg_diags_new();
    assert_int_equal(check_028(inner_exit, 3, "float", NULL, d), 0);
    assert_int_equal(qg_diags_count(d), 0);
    assert_int_equal(check_028(sealed_stair, 3, "float", NULL, d), 0);
    assert_int_equal(qg_diags_count(d), 0);
    qg_diags_free(d);
}

/* dungeon.cc _builder_assertions: the level's outermost row and column
 * must be wall, tree or an endless sea (Debian crawl 0.28 dies with
 * "invalid map border at (30,0): floor" on a sprint map placed north with
 * floor on its first row). Where a map lands is maps.cc _apply_vault_grid's:
 * a north map on row 0, centred; an encompass map centred; a float never
 * at the edge. A pure subvault (unrand) lands inside the map placing it. */
static void crawl_wants_a_walled_level_border(void **state)
{
    (void)state;
    static const char *const open_top[] = {"x.x", "x.x", "x@x"};
    static const char *const spaced_top[] = {"x x", "x.x", "x@x"};
    static const char *const trees[] = {"ttt", "t..", "t.@"};
    qg_diags *d = qg_diags_new();
    assert_int_equal(check_028(open_top, 3, "north", NULL, d), 1);
    assert_true(test_diags_contain(d, QG_ERROR, "puts cell 1,0 (glyph '.') on the level's north border"));
    assert_true(test_diags_contain(d, QG_ERROR, "invalid map border"));
    assert_int_equal(check_028(open_top, 3, "float", NULL, d), 0);
    assert_int_equal(check_028(open_top, 3, "north", "unrand", d), 0);
    assert_int_equal(check_028(spaced_top, 3, "north", NULL, d), 0);
    assert_int_equal(check_028(trees, 3, "northwest", NULL, d), 0);
    assert_int_equal(check_028(open_top, 3, "south", NULL, d), 1);
    assert_true(test_diags_contain(d, QG_ERROR, "(glyph '@') on the level's south border"));
    qg_branches *t = crawl_028();
    /* a north map 80 wide has its first and last columns on the border */
    qg_level *l = filled(80, 10, 'x', "north");
    qg_level_set_glyph(l, 0, 5, '.');
    qg_level_set_glyph(l, 40, 9, '@');
    assert_int_equal(qg_level_check_placement_at(l, t, "D:2", NULL, d), 1);
    assert_true(test_diags_contain(d, QG_ERROR, "puts cell 0,5 (glyph '.') on the level's west border"));
    qg_level_free(l);
    /* an encompass map smaller than the level is centred off its border */
    l = filled(78, 68, '.', "encompass");
    qg_diags_clear(d);
    assert_int_equal(qg_level_check_placement_at(l, t, "D:2", NULL, d), 0);
    qg_level_free(l);
    l = filled(80, 70, 'x', "encompass");
    qg_level_set_glyph(l, 40, 69, 'W');
    assert_int_equal(qg_level_check_placement_at(l, t, "D:2", NULL, d), 1);
    assert_true(test_diags_contain(d, QG_ERROR, "puts cell 40,69 (glyph 'W') on the level's south border"));
    qg_level_free(l);
    qg_branches_free(t);
    qg_diags_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exit_from_glyph_follows_walkable_cells),
        cmocka_unit_test(named_features_override_glyphs),
        cmocka_unit_test(classes_of_glyphs_and_names),
        cmocka_unit_test(size_limits_follow_the_orient),
        cmocka_unit_test(edge_maps_need_wall_padding),
        cmocka_unit_test(encompass_maps_need_all_stairs),
        cmocka_unit_test(maps_need_an_exit_and_reachable_stairs),
        cmocka_unit_test(seed_era_ways_in_without_an_exit),
        cmocka_unit_test(crawl_wants_the_exit_has_exit_finds),
        cmocka_unit_test(crawl_asks_no_reachable_stairs_nor_edge_exits),
        cmocka_unit_test(crawl_wants_a_walled_level_border),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

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
    qg_level *l = fix_level(closed, 3, "north", NULL);
    assert_int_equal(qg_level_check_placement(l, d), 1);
    assert_true(test_diags_contain(d, QG_ERROR, "has no exit"));
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

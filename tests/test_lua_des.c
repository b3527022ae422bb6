/* The runtime through its public API over parsed .des text: global
 * preludes, the compile-time run, default-depth, resolution and SUBVAULT. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

static const char des_text[] =
    "{{\n"
    "function floor_it(e) e.subst('F = .') end\n"
    "}}\n"
    "default-depth: Lair:2-4\n"
    "\n"
    "NAME: parent_vault\n"
    "ORIENT: float\n"
    "SUBVAULT: S : sub_piece\n"
    ": floor_it(_G)\n"
    "MAP\n"
    "xxxxxxx\n"
    "xSSSSSx\n"
    "xSSSSSx\n"
    "xFFFFFx\n"
    "xxx@xxx\n"
    "ENDMAP\n"
    "\n"
    "NAME: sub_wide\n"
    "TAGS: sub_piece\n"
    "KFEAT: Q = altar_zin\n"
    "MAP\n"
    "QwwQ\n"
    "wwww\n"
    "ENDMAP\n"
    "\n"
    "NAME: sub_tall\n"
    "TAGS: sub_piece no_rotate\n"
    "MAP\n"
    "ll\n"
    "ll\n"
    "ll\n"
    "ENDMAP\n";

typedef struct fixture {
    qg_runtime *rt;
    qg_diags *diags;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->diags = qg_diags_new();
    f->rt = qg_runtime_new(NULL, f->diags);
    qg_des_file *file = NULL;
    qg_des_parse("test.des", des_text, sizeof des_text - 1, NULL, NULL, &file, f->diags);
    *state = f;
    if (!f->rt || !file || qg_runtime_add_file(f->rt, file, f->diags) != QG_OK) {
        qg_diags_print(f->diags, stderr);
        return -1;
    }
    for (size_t i = 0; i < qg_runtime_map_count(f->rt); i++)
        if (qg_runtime_compile_map(f->rt, qg_runtime_map(f->rt, i), f->diags) != QG_OK)
            return -1;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    qg_runtime_free(f->rt);
    qg_diags_free(f->diags);
    free(f);
    return 0;
}

static void test_index_fields(void **state)
{
    fixture *f = *state;
    assert_int_equal(qg_runtime_map_count(f->rt), 3);
    qg_mapdef *parent = qg_runtime_find_map(f->rt, "parent_vault");
    assert_non_null(parent);
    assert_string_equal(qg_mapdef_get_property(parent, "orient"), "float");
    assert_string_equal(qg_mapdef_get_property(parent, "depth"), "Lair:2-4");
    qg_mapdef *wide = qg_runtime_find_map(f->rt, "sub_wide");
    assert_string_equal(qg_mapdef_get_property(wide, "tags"), "minivault sub_piece");
    assert_string_equal(qg_mapdef_get_property(wide, "width"), "4");
}

static void test_subvaults_merge(void **state)
{
    fixture *f = *state;
    qg_mapdef *parent = qg_runtime_find_map(f->rt, "parent_vault");
    int seen_wide = 0, seen_tall = 0;
    for (unsigned long long seed = 0; seed < 60; seed++) {
        qg_context ctx = {"Lair:3", 0, NULL};
        qg_level *level = NULL;
        assert_int_equal(qg_runtime_resolve(f->rt, parent, seed, &ctx, &level, f->diags), QG_OK);
        const unsigned char *g = qg_level_glyphs(level);
        int w = qg_level_width(level);
        const char *sub = qg_level_get_property(level, "subvault");
        assert_non_null(sub);
        int water = 0, lava = 0, outside = 0, kept = 0, altars = 0;
        for (int y = 1; y <= 2; y++)
            for (int x = 1; x <= 5; x++) {
                unsigned char c = g[y * w + x];
                kept += c == 'S';
                water += c == 'w';
                lava += c == 'l';
                outside += c == ' ';
                qg_cell cell;
                qg_level_cell(level, x, y, &cell);
                altars += c == 'Q' && strcmp(cell.feature_name, "altar_zin") == 0;
            }
        /* the global prelude's helper ran in the parent's environment */
        assert_int_equal(g[3 * w + 1], '.');
        if (strcmp(sub, "sub_wide") == 0) {
            seen_wide++;
            assert_int_equal(water, 6);
            assert_int_equal(altars, 2); /* the subvault's own KFEAT */
            /* the column the subvault does not reach keeps the parent's
             * glyph, as Crawl's merge_subvault leaves it */
            assert_int_equal(kept, 2);
            assert_int_equal(outside, 0);
        } else {
            /* 3 high: must turn to fit 2 rows, which no_rotate forbids */
            fail_msg("sub_tall cannot fit, yet %s was placed", sub);
        }
        seen_tall += lava > 0;
        qg_level_free(level);
    }
    assert_int_equal(seen_wide, 60);
    assert_int_equal(seen_tall, 0);
}

/* The file's first map does not resolve, and an error says why. */
static void assert_resolve_fails(const char *path, const char *text, size_t len,
                                 const char *why)
{
    qg_diags *d = qg_diags_new();
    qg_runtime *rt = qg_runtime_new(NULL, d);
    qg_des_file *file = NULL;
    qg_des_parse(path, text, len, NULL, NULL, &file, d);
    assert_int_equal(qg_runtime_add_file(rt, file, d), QG_OK);
    qg_level *level = NULL;
    assert_int_not_equal(qg_runtime_resolve(rt, qg_runtime_map(rt, 0), 1, NULL, &level, d),
                         QG_OK);
    assert_null(level);
    assert_true(test_diags_contain(d, QG_ERROR, why));
    qg_runtime_free(rt);
    qg_diags_free(d);
}

/* A subvault that asks for itself nests until the depth limit, within
 * the map's budget: an error, never a hang. */
static void test_recursive_subvault_stops(void **state)
{
    (void)state;
    static const char text[] =
        "NAME: ouroboros\n"
        "TAGS: ouro\n"
        "SUBVAULT: S : ouro\n"
        "MAP\n"
        "SS\n"
        "SS\n"
        "ENDMAP\n";
    assert_resolve_fails("ouro.des", text, sizeof text - 1, "ouroboros");
}

/* Found by fuzz_lua: a SUBVAULT alternative that is only a weight names
 * an empty tag, and the tag search never moved past it (a hang). No map
 * has an empty tag: the SUBVAULT is an error. */
static void test_subvault_with_an_empty_tag(void **state)
{
    (void)state;
    static const char text[] =
        "NAME: weight_only\n"
        "TAGS: minivault\n"
        "SUBVAULT: S : w:5\n"
        "MAP\n"
        "SS\n"
        "SS\n"
        "ENDMAP\n";
    assert_resolve_fails("weight.des", text, sizeof text - 1, "no map could be placed");
}

/* A SUBVAULT is merged when its directive runs, as Crawl's is: a SUBST
 * after it that makes more key glyphs does not widen its box. */
static void test_subvault_before_later_subst(void **state)
{
    (void)state;
    static const char text[] =
        "NAME: order_holder\n"
        "SUBVAULT: S : ordered_piece\n"
        "SUBST: I = S\n"
        "MAP\n"
        "xxxxx\n"
        "xSSIx\n"
        "xxxxx\n"
        "ENDMAP\n"
        "\n"
        "NAME: ordered_piece_map\n"
        "TAGS: ordered_piece\n"
        "MAP\n"
        "ww\n"
        "ENDMAP\n";
    qg_diags *d = qg_diags_new();
    qg_runtime *rt = qg_runtime_new(NULL, d);
    qg_des_file *file = NULL;
    qg_des_parse("order.des", text, sizeof text - 1, NULL, NULL, &file, d);
    assert_int_equal(qg_runtime_add_file(rt, file, d), QG_OK);
    assert_int_equal(qg_runtime_compile_map(rt, qg_runtime_map(rt, 1), d), QG_OK);
    for (unsigned long long seed = 0; seed < 10; seed++) {
        qg_level *level = NULL;
        assert_int_equal(qg_runtime_resolve(rt, qg_runtime_map(rt, 0), seed, NULL, &level, d),
                         QG_OK);
        assert_memory_equal(qg_level_glyphs(level) + 5, "xwwSx", 5);
        qg_level_free(level);
    }
    qg_runtime_free(rt);
    qg_diags_free(d);
}

/* A subvault that takes its shape from the key glyphs' mask. */
static void test_subvault_shape(void **state)
{
    (void)state;
    static const char text[] =
        "NAME: holder\n"
        "SUBVAULT: T : shaped\n"
        "MAP\n"
        "xxxx\n"
        "xTTx\n"
        "xT.x\n"
        "xxxx\n"
        "ENDMAP\n"
        "\n"
        "NAME: shaped_sub\n"
        "TAGS: shaped\n"
        ": default_subvault_glyphs()\n"
        ": if is_subvault() then\n"
        ":   local w, h = subvault_size()\n"
        ":   assert(w == 2 and h == 2 and subvault_cell_valid(0, 1) and\n"
        ":          not subvault_cell_valid(1, 1))\n"
        ":   subst('. = W')\n"
        ": end\n";
    qg_diags *d = qg_diags_new();
    qg_runtime *rt = qg_runtime_new(NULL, d);
    qg_des_file *file = NULL;
    qg_des_parse("shape.des", text, sizeof text - 1, NULL, NULL, &file, d);
    assert_int_equal(qg_runtime_add_file(rt, file, d), QG_OK);
    assert_int_equal(qg_runtime_compile_map(rt, qg_runtime_map(rt, 1), d), QG_OK);
    /* turned or not, the exact fit is mirrored back onto the mask */
    for (unsigned long long seed = 0; seed < 20; seed++) {
        qg_level *level = NULL;
        assert_int_equal(qg_runtime_resolve(rt, qg_runtime_map(rt, 0), seed, NULL, &level, d),
                         QG_OK);
        const unsigned char *g = qg_level_glyphs(level);
        assert_memory_equal(g + 4, "xWWx", 4);
        assert_memory_equal(g + 8, "xW.x", 4);
        assert_string_equal(qg_level_get_property(level, "subvault"), "shaped_sub");
        qg_level_free(level);
    }
    qg_runtime_free(rt);
    qg_diags_free(d);
}

/* A runtime holding one parsed .des text, its first map compiled. */
static qg_runtime *compiled(const char *path, const char *text, size_t len, int legacy,
                            qg_diags *d)
{
    qg_runtime *rt = qg_runtime_new(NULL, d);
    qg_des_file *file = NULL;
    qg_des_options options = {legacy};
    qg_des_parse(path, text, len, &options, NULL, &file, d);
    assert_int_equal(qg_runtime_add_file(rt, file, d), QG_OK);
    assert_int_equal(qg_runtime_compile_map(rt, qg_runtime_map(rt, 0), d), QG_OK);
    return rt;
}

/* you.var answers the caller's variables (converted F:/D: conditionals
 * read them); legacy LFLAGS/BFLAGS and the map's file and line reach the
 * level as properties. */
static void test_variables_flags_and_provenance(void **state)
{
    (void)state;
    static const char text[] =
        "NAME: var_map\n"
        "LFLAGS: no_tele_control\n"
        "BFLAGS: islanded\n"
        ": if you.var('CLASS') == 'Mage' then\n"
        "SUBST: x = c\n"
        ": end\n"
        "MAP\n"
        "xxx\n"
        "x.x\n"
        "ENDMAP\n";
    qg_diags *d = qg_diags_new();
    qg_runtime *rt = compiled("vars.des", text, sizeof text - 1, 1, d);
    qg_mapdef *def = qg_runtime_map(rt, 0);
    qg_vars *vars = qg_vars_new();
    qg_vars_set(vars, "CLASS", "Mage");
    qg_context mage = {"D:3", 1, vars};
    qg_level *level = NULL;
    assert_int_equal(qg_runtime_resolve(rt, def, 1, &mage, &level, d), QG_OK);
    assert_memory_equal(qg_level_glyphs(level), "ccc", 3);
    assert_string_equal(qg_level_get_property(level, "lflags"), "no_tele_control");
    assert_string_equal(qg_level_get_property(level, "bflags"), "islanded");
    assert_string_equal(qg_level_get_property(level, "file"), "vars.des");
    assert_string_equal(qg_level_get_property(level, "line"), "1");
    qg_level_free(level);
    qg_context other = {"D:3", 1, NULL};
    assert_int_equal(qg_runtime_resolve(rt, def, 1, &other, &level, d), QG_OK);
    assert_memory_equal(qg_level_glyphs(level), "xxx", 3);
    qg_level_free(level);
    qg_vars_free(vars);
    qg_runtime_free(rt);
    qg_diags_free(d);
}

/* The design guide's validation helpers work without the game's Lua
 * library: a stair walled in fails has_exit_from_glyph, and validate
 * re-tries until the SUBST opens the wall. */
static void test_glyph_validation_helpers(void **state)
{
    (void)state;
    static const char text[] =
        "NAME: stair_cell\n"
        "SUBST: W = c.\n"
        "validate {{ return has_exit_from_glyph('{') and glyphs_connected('{', '>') }}\n"
        "MAP\n"
        "ccccc\n"
        "c{.>c\n"
        "ccWcc\n"
        "ENDMAP\n";
    qg_diags *d = qg_diags_new();
    qg_runtime *rt = compiled("stair.des", text, sizeof text - 1, 0, d);
    qg_mapdef *def = qg_runtime_map(rt, 0);
    for (unsigned long long seed = 0; seed < 10; seed++) {
        qg_level *level = NULL;
        assert_int_equal(qg_runtime_resolve(rt, def, seed, NULL, &level, d), QG_OK);
        assert_int_equal(qg_level_glyphs(level)[2 * 5 + 2], '.');
        qg_level_free(level);
    }
    qg_runtime_free(rt);
    qg_diags_free(d);
}

/* The validate helpers judge a cell by the feature it will be, as
 * Crawl's flood does: shallow water and a keyed trap connect, a KITEM
 * glyph stands on floor, a glyph keyed to a wall blocks. */
static void test_connections_by_feature(void **state)
{
    (void)state;
    static const char text[] =
        "NAME: by_feature\n"
        "KITEM: Z = Orb of Zot\n"
        "KFEAT: ~ = zot trap / net trap\n"
        "KFEAT: q = stone_wall\n"
        ": local open = crawl.coinflip()\n"
        ": if not open then subst('~ = q') end\n"
        ": path_open = open\n"
        "validate {{ return has_exit_from_glyph('Z') == path_open }}\n"
        "MAP\n"
        "ccccc\n"
        "cZW~@\n"
        "ccccc\n"
        "ENDMAP\n";
    qg_diags *d = qg_diags_new();
    qg_runtime *rt = compiled("feature.des", text, sizeof text - 1, 0, d);
    qg_mapdef *def = qg_runtime_map(rt, 0);
    for (unsigned long long seed = 0; seed < 10; seed++) {
        qg_level *level = NULL;
        if (qg_runtime_resolve(rt, def, seed, NULL, &level, d) != QG_OK)
            qg_diags_print(d, stderr);
        assert_non_null(level);
        qg_level_free(level);
    }
    qg_runtime_free(rt);
    qg_diags_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_fields),
        cmocka_unit_test(test_subvaults_merge),
        cmocka_unit_test(test_recursive_subvault_stops),
        cmocka_unit_test(test_subvault_with_an_empty_tag),
        cmocka_unit_test(test_subvault_shape),
        cmocka_unit_test(test_subvault_before_later_subst),
        cmocka_unit_test(test_variables_flags_and_provenance),
        cmocka_unit_test(test_glyph_validation_helpers),
        cmocka_unit_test(test_connections_by_feature),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

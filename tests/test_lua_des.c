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
        int water = 0, lava = 0, outside = 0, altars = 0;
        for (int y = 1; y <= 2; y++)
            for (int x = 1; x <= 5; x++) {
                unsigned char c = g[y * w + x];
                assert_true(c != 'S');
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
            assert_int_equal(outside, 2);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_fields),
        cmocka_unit_test(test_subvaults_merge),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

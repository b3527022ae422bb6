/* The real test bed: Debian's crawl-common (Crawl 0.28) with its own Lua
 * library. At least 95% of its maps must complete the compile-time run and
 * at least 95% must resolve for a few seeds and places. Skipped when the
 * package is not installed (QG_CRAWL_DAT may point elsewhere). */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"
#include "core/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct corpus {
    const char *dat;
    qg_runtime *rt;
    qg_diags *diags;
} corpus;

/* A runtime with the library and every .des file it loads, in its order. */
static qg_runtime *load_corpus(const char *dat, qg_diags *diags)
{
    char *dlua = qg_path_join(dat, "dlua");
    const char *paths[1] = {dlua};
    qg_runtime_options opts = {paths, 1, 0, 0, NULL};
    qg_runtime *rt = qg_runtime_new(&opts, diags);
    free(dlua);
    char **files;
    size_t n;
    if (!rt || qg_runtime_library_des_files(rt, &files, &n, diags) != QG_OK) {
        qg_runtime_free(rt);
        return NULL;
    }
    qg_des_names *names = qg_des_names_new();
    for (size_t i = 0; i < n; i++) {
        char *path = qg_path_join(dat, files[i]);
        qg_des_file *file = NULL;
        qg_des_load(path, NULL, names, &file, diags);
        if (file)
            qg_runtime_add_file(rt, file, diags);
        free(path);
        free(files[i]);
    }
    free(files);
    qg_des_names_free(names);
    return rt;
}

static int setup(void **state)
{
    static corpus c;
    const char *dat = getenv("QG_CRAWL_DAT");
    c.dat = dat && *dat ? dat : "/usr/share/crawl/dat";
    char *loadmaps = qg_path_join(c.dat, "dlua/loadmaps.lua");
    FILE *probe = loadmaps ? fopen(loadmaps, "r") : NULL;
    free(loadmaps);
    *state = &c;
    if (!probe)
        return 0;
    fclose(probe);
    c.diags = qg_diags_new();
    c.rt = load_corpus(c.dat, c.diags);
    return c.rt ? 0 : -1;
}

static int teardown(void **state)
{
    corpus *c = *state;
    qg_runtime_free(c->rt);
    qg_diags_free(c->diags);
    return 0;
}

static void test_compile_time_run(void **state)
{
    corpus *c = *state;
    if (!c->rt)
        test_skip("Crawl's data %s is not installed (tools/test-deps)", c->dat);
    size_t n = qg_runtime_map_count(c->rt), ok = 0;
    assert_int_equal(n, 5283);
    for (size_t i = 0; i < n; i++) {
        qg_diags_clear(c->diags);
        ok += qg_runtime_compile_map(c->rt, qg_runtime_map(c->rt, i), c->diags) == QG_OK;
    }
    print_message("# compile-time run: %zu of %zu maps\n", ok, n);
    assert_true(ok * 100 >= n * 95);
    /* an index field the Lua decided: a map without ORIENT floats */
    qg_mapdef *def = qg_runtime_find_map(c->rt, "lemuel_altar_in_water");
    assert_non_null(def);
    assert_string_equal(qg_mapdef_get_property(def, "orient"), "float");
    assert_string_equal(qg_mapdef_get_property(def, "depth"), "Swamp, Shoals");
    assert_string_equal(qg_mapdef_get_property(def, "weight"), "9");
    assert_non_null(strstr(qg_mapdef_get_property(def, "tags"), "minivault"));
}

static void test_resolution(void **state)
{
    corpus *c = *state;
    if (!c->rt)
        test_skip("Crawl's data %s is not installed (tools/test-deps)", c->dat);
    static const char *const places[] = {"D:5", "Lair:3", "Depths:2"};
    size_t n = qg_runtime_map_count(c->rt), tries = 0, ok = 0;
    for (size_t i = 0; i < n; i++) {
        for (int s = 0; s < 3; s++) {
            qg_context ctx = {places[s], 10, NULL};
            qg_level *level = NULL;
            qg_diags_clear(c->diags);
            tries++;
            if (qg_runtime_resolve(c->rt, qg_runtime_map(c->rt, i), (unsigned long long)s + 1,
                                   &ctx, &level, c->diags) == QG_OK) {
                ok++;
                qg_level_free(level);
            }
        }
    }
    print_message("# resolution: %zu of %zu\n", ok, tries);
    assert_true(ok * 100 >= tries * 95);
}

/* A second runtime (its own string hash seed, its own addresses) resolves
 * the same maps to the same levels. */
static void test_same_levels_in_another_runtime(void **state)
{
    corpus *c = *state;
    if (!c->rt)
        test_skip("Crawl's data %s is not installed (tools/test-deps)", c->dat);
    /* both with the same history: loaded, then every map compiled */
    qg_runtime *one = load_corpus(c->dat, c->diags), *other = load_corpus(c->dat, c->diags);
    assert_non_null(one);
    assert_non_null(other);
    size_t n = qg_runtime_map_count(one), compared = 0;
    for (size_t i = 0; i < n; i++) {
        qg_runtime_compile_map(one, qg_runtime_map(one, i), c->diags);
        qg_runtime_compile_map(other, qg_runtime_map(other, i), c->diags);
    }
    for (size_t i = 0; i < n; i += 7) {
        qg_context ctx = {"D:7", 10, NULL};
        qg_level *a = NULL, *b = NULL;
        qg_runtime_resolve(one, qg_runtime_map(one, i), 77, &ctx, &a, c->diags);
        qg_runtime_resolve(other, qg_runtime_map(other, i), 77, &ctx, &b, c->diags);
        if (a && b && memcmp(qg_level_glyphs(a), qg_level_glyphs(b),
                             (size_t)qg_level_width(a) * qg_level_height(a)) != 0)
            print_message("# %s differs\n", qg_mapdef_name(qg_runtime_map(one, i)));
        assert_true((a == NULL) == (b == NULL));
        if (a) {
            int w = qg_level_width(a), h = qg_level_height(a);
            assert_int_equal(w, qg_level_width(b));
            assert_int_equal(h, qg_level_height(b));
            assert_memory_equal(qg_level_glyphs(a), qg_level_glyphs(b), (size_t)w * h);
            assert_int_equal(qg_level_marker_count(a), qg_level_marker_count(b));
            compared++;
        }
        qg_level_free(a);
        qg_level_free(b);
    }
    qg_runtime_free(one);
    qg_runtime_free(other);
    assert_true(compared > n / 8);
}

static int count_feature(const qg_level *level, const char *name)
{
    int n = 0;
    for (int y = 0; y < qg_level_height(level); y++)
        for (int x = 0; x < qg_level_width(level); x++) {
            qg_cell cell;
            qg_level_cell(level, x, y, &cell);
            n += cell.feature_name && strcmp(cell.feature_name, name) == 0;
        }
    return n;
}

/* layout_cc.des: the maps that call Crawl's C++ layouts resolve, at their
 * own places, to the 80x70 level the layout builds (the swamp's water
 * zones then filled with trees by the library's zonify). */
static void test_level_layouts(void **state)
{
    corpus *c = *state;
    if (!c->rt)
        test_skip("Crawl's data %s is not installed (tools/test-deps)", c->dat);
    static const struct {
        const char *map, *place, *feature;
    } cases[] = {{"layout_basic", "D:3", "rock_wall"},
                 {"layout_bigger_room", "Lair:2", "stone_stairs_up_iii"},
                 {"layout_chaotic_city", "Lair:1", "rock_wall"},
                 {"layout_shoals", "Shoals:2", "open_sea"},
                 {"layout_basic_swamp", "Swamp:2", "mangrove"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        qg_mapdef *def = qg_runtime_find_map(c->rt, cases[i].map);
        assert_non_null(def);
        assert_int_equal(qg_runtime_compile_map(c->rt, def, c->diags), QG_OK);
        qg_context ctx = {cases[i].place, 10, NULL};
        qg_level *level = NULL;
        qg_diags_clear(c->diags);
        if (qg_runtime_resolve(c->rt, def, 5, &ctx, &level, c->diags) != QG_OK)
            qg_diags_print(c->diags, stderr);
        assert_non_null(level);
        assert_int_equal(qg_level_width(level), 80);
        assert_int_equal(qg_level_height(level), 70);
        if (count_feature(level, cases[i].feature) == 0)
            fail_msg("%s at %s has no %s", cases[i].map, cases[i].place, cases[i].feature);
        assert_true(count_feature(level, "floor") > 200);
        qg_level_free(level);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compile_time_run),
        cmocka_unit_test(test_resolution),
        cmocka_unit_test(test_same_levels_in_another_runtime),
        cmocka_unit_test(test_level_layouts),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/* Seeded resolution: the transforms give Crawl's documented outcomes and
 * distributions, keyed specs and masks land on the right cells, the
 * compile-time run fills the index fields. */
#include "testutil.h"
#include "lua_harness.h"

#include <stdlib.h>
#include <string.h>

/* chi-square critical values at p = 0.001 */
static const double chi2_001[] = {0, 10.83, 13.82, 16.27, 18.47, 20.52, 22.46};

static double chi_square(const long *observed, const double *expected, int n)
{
    double x = 0;
    for (int i = 0; i < n; i++)
        x += (observed[i] - expected[i]) * (observed[i] - expected[i]) / expected[i];
    return x;
}

typedef test_runtime fixture;

/* Resolves m with seed and returns its glyph rows (static). */
static const char *glyphs_for(fixture *f, th_map *m, unsigned long long seed)
{
    qg_level *level = NULL;
    qg_status st = th_resolve(f->rt, m, seed, "D:3", &level, f->diags);
    if (st != QG_OK)
        qg_diags_print(f->diags, stderr);
    assert_int_equal(st, QG_OK);
    const char *g = th_glyphs(level);
    qg_level_free(level);
    return g;
}

static void test_subst_per_cell_and_fixed(void **state)
{
    fixture *f = *state;
    th_map *each = th_map_new("each", "map(\"AAAAAAAAAAAAAAAAAAAA\")", "subst(\"A = xy\")");
    th_map *once = th_map_new("once", "map(\"AAAAAAAAAAAAAAAAAAAA\")", "subst(\"A : xy\")");
    int mixed_each = 0, mixed_once = 0;
    for (unsigned long long s = 1; s <= 50; s++) {
        const char *g = glyphs_for(f, each, s);
        mixed_each += strchr(g, 'x') && strchr(g, 'y');
        g = glyphs_for(f, once, s);
        mixed_once += strchr(g, 'x') && strchr(g, 'y');
        assert_null(strchr(g, 'A'));
    }
    assert_true(mixed_each >= 45);
    assert_int_equal(mixed_once, 0);
    th_map_free(each);
    th_map_free(once);
}

static void test_subst_weights(void **state)
{
    fixture *f = *state;
    th_map *m = th_map_new("weights", "map(\"A\")", "subst(\"A = x:30 y:10 z\")");
    long seen[3] = {0};
    const int n = 6000;
    for (int s = 0; s < n; s++) {
        char c = glyphs_for(f, m, (unsigned long long)s)[0];
        seen[c == 'x' ? 0 : c == 'y' ? 1 : 2]++;
    }
    /* "z" is one glyph of the default weight 10 */
    double expected[3] = {n * 0.6, n * 0.2, n * 0.2};
    assert_true(chi_square(seen, expected, 3) < chi2_001[2]);
    th_map_free(m);
}

static int count_char(const char *s, char c)
{
    int n = 0;
    for (; *s; s++)
        n += *s == c;
    return n;
}

static void test_nsubst_counts(void **state)
{
    fixture *f = *state;
    th_map *m = th_map_new("counts", "map(\"AAAAAAAAAA\")", "nsubst(\"A = 3=x / 2=y / *=z\")");
    long first_x = 0;
    const int n = 3000;
    for (int s = 0; s < n; s++) {
        const char *g = glyphs_for(f, m, (unsigned long long)s);
        assert_int_equal(count_char(g, 'x'), 3);
        assert_int_equal(count_char(g, 'y'), 2);
        assert_int_equal(count_char(g, 'z'), 5);
        first_x += g[0] == 'x';
    }
    /* every cell is equally likely to be among the three */
    long obs[2] = {first_x, n - first_x};
    double exp[2] = {n * 0.3, n * 0.7};
    assert_true(chi_square(obs, exp, 2) < chi2_001[1]);
    th_map_free(m);
}

static void test_nsubst_defaults(void **state)
{
    fixture *f = *state;
    /* a bare segment is "1=", the last bare one "*=" */
    th_map *m = th_map_new("defaults", "map(\"AAAAAA\")", "nsubst(\"A = x / y\")");
    for (unsigned long long s = 0; s < 100; s++) {
        const char *g = glyphs_for(f, m, s);
        assert_int_equal(count_char(g, 'x'), 1);
        assert_int_equal(count_char(g, 'y'), 5);
    }
    th_map_free(m);
    /* more positions asked for than exist: the rest is left alone */
    m = th_map_new("short", "map(\"AA.\")", "nsubst(\"A = 5=x / *=y\")");
    assert_string_equal(glyphs_for(f, m, 3), "xx.");
    th_map_free(m);
}

static void test_shuffle_permutations(void **state)
{
    fixture *f = *state;
    th_map *m = th_map_new("perm", "map(\"ABC\")", "shuffle(\"ABC\")");
    static const char *const perms[6] = {"ABC", "ACB", "BAC", "BCA", "CAB", "CBA"};
    long seen[6] = {0};
    const int n = 6000;
    for (int s = 0; s < n; s++) {
        const char *g = glyphs_for(f, m, (unsigned long long)s);
        int found = -1;
        for (int i = 0; i < 6; i++)
            if (strcmp(g, perms[i]) == 0)
                found = i;
        assert_true(found >= 0);
        seen[found]++;
    }
    double exp[6] = {n / 6.0, n / 6.0, n / 6.0, n / 6.0, n / 6.0, n / 6.0};
    assert_true(chi_square(seen, exp, 6) < chi2_001[5]);
    th_map_free(m);
}

static void test_block_shuffle(void **state)
{
    fixture *f = *state;
    th_map *m = th_map_new("blocks", "map(\"ABCD\")", "shuffle(\"AB/CD\")");
    long same = 0;
    const int n = 2000;
    for (int s = 0; s < n; s++) {
        const char *g = glyphs_for(f, m, (unsigned long long)s);
        assert_true(strcmp(g, "ABCD") == 0 || strcmp(g, "CDAB") == 0);
        same += strcmp(g, "ABCD") == 0;
    }
    long obs[2] = {same, n - same};
    double exp[2] = {n / 2.0, n / 2.0};
    assert_true(chi_square(obs, exp, 2) < chi2_001[1]);
    th_map_free(m);
}

static void test_builder_shapes(void **state)
{
    fixture *f = *state;
    th_map *m = th_map_new("shapes", NULL,
                           "extend_map{width = 5, height = 5, fill = '.'}\n"
                           "make_circle{x = 2, y = 2, radius = 2, fill = 'c'}\n");
    assert_string_equal(glyphs_for(f, m, 1), ".ccc.\nccccc\nccccc\nccccc\n.ccc.");
    th_map_free(m);
    m = th_map_new("diamond", NULL,
                   "extend_map{width = 5, height = 5, fill = '.'}\n"
                   "make_diamond{x = 2, y = 2, radius = 2, fill = 'd'}\n"
                   "make_rounded_square{x = 2, y = 2, radius = 1, fill = 'r'}\n");
    assert_string_equal(glyphs_for(f, m, 1), "..d..\n.drd.\ndrrrd\n.drd.\n..d..");
    th_map_free(m);
    m = th_map_new("box", NULL,
                   "extend_map{width = 4, height = 4, fill = ' '}\n"
                   "make_box{x1 = 0, y1 = 0, x2 = 3, y2 = 3}\n"
                   "fill_area{x1 = 1, y1 = 1, x2 = 1, y2 = 2, fill = 'w'}\n");
    assert_string_equal(glyphs_for(f, m, 1), "xxxx\nxw.x\nxw.x\nxxxx");
    th_map_free(m);
    /* two doors (Crawl may cut the same one twice), each between floor
     * outside and floor inside the box */
    m = th_map_new("doors", NULL,
                   "extend_map{width = 7, height = 7, fill = '.'}\n"
                   "make_box{x1 = 1, y1 = 1, x2 = 5, y2 = 5}\n"
                   "assert(make_box_doors{x1 = 1, y1 = 1, x2 = 5, y2 = 5, number = 2} == 2)\n");
    for (unsigned long long s = 0; s < 20; s++) {
        const char *g = glyphs_for(f, m, s);
        int doors = count_char(g, '+');
        assert_true(doors == 1 || doors == 2);
        for (int y = 0; y < 7; y++)
            for (int x = 0; x < 7; x++) {
                if (g[y * 8 + x] != '+')
                    continue;
                int vertical = x == 1 || x == 5;
                assert_true(vertical ? (y > 1 && y < 5) : (x > 1 && x < 5));
            }
    }
    th_map_free(m);
}

static void test_clear(void **state)
{
    fixture *f = *state;
    th_map *m = th_map_new("clear", "map(\"x_._x\")", "clear(\"_\")");
    assert_string_equal(glyphs_for(f, m, 1), "x . x");
    th_map_free(m);
}

/* seed 003: A and C each rock half the time; B is floor whenever both are
 * rock, otherwise rock half the time. */
static void test_seed_random_test_rule(void **state)
{
    fixture *f = *state;
    th_map *m = th_map_new("random_test",
        "map(\"xxxxxxxxxxxxxxxxxxx\")\n"
        "map(\"x........{........x\")\n"
        "map(\"xxxAxxxxxBxxxxxCxxx\")\n"
        "map(\"xxx.xxxxx.xxxxx.xxx\")\n"
        "map(\"xxx@xxxxx@xxxxx@xxx\")\n",
        "local asolid, csolid\n"
        "if crawl.random2(2) == 0 then asolid = true subst(\"A = x\") else subst(\"A = .\") end\n"
        "if crawl.random2(2) == 0 then csolid = true subst(\"C = x\") else subst(\"C = .\") end\n"
        "if asolid and csolid then subst(\"B = .\") else subst(\"B = .x\") end\n");
    long a_rock = 0, b_rock = 0, both = 0;
    const int n = 4000;
    for (int s = 0; s < n; s++) {
        const char *g = glyphs_for(f, m, (unsigned long long)s);
        const char *row = g + 2 * 20;
        int a = row[3] == 'x', b = row[9] == 'x', c = row[15] == 'x';
        assert_false(a && c && b);
        a_rock += a;
        b_rock += b;
        both += a && c;
    }
    long obs_a[2] = {a_rock, n - a_rock};
    double exp_a[2] = {n / 2.0, n / 2.0};
    assert_true(chi_square(obs_a, exp_a, 2) < chi2_001[1]);
    /* P(B rock) = P(not both rock) / 2 = 3/8 */
    long obs_b[2] = {b_rock, n - b_rock};
    double exp_b[2] = {n * 0.375, n * 0.625};
    assert_true(chi_square(obs_b, exp_b, 2) < chi2_001[1]);
    assert_true(both > 0);
    th_map_free(m);
}

static void test_same_seed_same_level(void **state)
{
    fixture *f = *state;
    th_map *m = th_map_new("det", "map(\"AAAAAAAAAAAA\")", "subst(\"A = abcdef\")");
    char first[64];
    snprintf(first, sizeof first, "%s", glyphs_for(f, m, 42));
    assert_string_equal(glyphs_for(f, m, 42), first);
    int differs = 0;
    for (unsigned long long s = 0; s < 10; s++)
        differs += strcmp(glyphs_for(f, m, s), first) != 0;
    assert_true(differs >= 9);
    th_map_free(m);
}

static void test_keyed_features_and_things(void **state)
{
    fixture *f = *state;
    th_map *m = th_map_new("keyed", "map(\"AAAA1d@\")",
                           "kfeat(\"A : altar_zin / altar_trog\")\n"
                           "mons(\"orc w:30 / goblin\")\n"
                           "item(\"long sword\")\n");
    for (unsigned long long s = 0; s < 20; s++) {
        qg_level *level;
        assert_int_equal(th_resolve(f->rt, m, s, NULL, &level, f->diags), QG_OK);
        qg_cell c0, c;
        assert_int_equal(qg_level_cell(level, 0, 0, &c0), QG_OK);
        assert_true(strcmp(c0.feature_name, "altar_zin") == 0 ||
                    strcmp(c0.feature_name, "altar_trog") == 0);
        for (int x = 1; x < 4; x++) {
            qg_level_cell(level, x, 0, &c);
            assert_string_equal(c.feature_name, c0.feature_name);
        }
        qg_level_cell(level, 4, 0, &c);
        assert_int_equal(c.things[QG_SLOT_MONSTER].kind, QG_THING_NAME);
        assert_true(strcmp(c.things[QG_SLOT_MONSTER].name, "orc") == 0 ||
                    strcmp(c.things[QG_SLOT_MONSTER].name, "goblin") == 0);
        qg_level_cell(level, 5, 0, &c);
        assert_string_equal(c.things[QG_SLOT_OBJECT].name, "long sword");
        qg_level_cell(level, 6, 0, &c);
        assert_string_equal(c.feature_name, "floor");
        assert_true(c.vault_mask & QG_MASK_EXIT);
        qg_level_free(level);
    }
    th_map_free(m);
}

static void test_masks_from_tags_and_kmask(void **state)
{
    fixture *f = *state;
    th_map *m = th_map_new("masks", "map(\"xA.\")",
                           "tags(\"no_monster_gen\") kmask(\"A = !vault / no_item_gen\")");
    qg_level *level;
    assert_int_equal(th_resolve(f->rt, m, 1, NULL, &level, f->diags), QG_OK);
    const uint32_t *mask = qg_level_vault_masks(level);
    assert_int_equal(mask[0], QG_MASK_VAULT | QG_MASK_NO_MONSTER_GEN | QG_MASK_OPAQUE);
    assert_int_equal(mask[1], QG_MASK_NO_MONSTER_GEN | QG_MASK_OPAQUE | QG_MASK_NO_ITEM_GEN);
    assert_string_equal(qg_level_get_property(level, "tags"), "minivault no_monster_gen");
    assert_string_equal(qg_level_get_property(level, "orient"), "float");
    assert_null(qg_level_get_property(level, "random_mon_list"));
    qg_level_free(level);
    th_map_free(m);
    m = th_map_new("props", "map(\"x\")",
                   "set_random_mon_list('ice beast w:90 / nothing')\n"
                   "dgn.set_border_fill_type('open_sea')\n"
                   "set_feature_name('granite_statue', 'frozen statue')\n");
    assert_int_equal(th_resolve(f->rt, m, 1, NULL, &level, f->diags), QG_OK);
    assert_string_equal(qg_level_get_property(level, "random_mon_list"), "ice beast w:90 / nothing");
    assert_string_equal(qg_level_get_property(level, "border_fill"), "open_sea");
    assert_string_equal(qg_level_get_property(level, "feature_name"),
                        "granite_statue=frozen statue");
    qg_level_free(level);
    th_map_free(m);
}

static void test_markers_and_overlays(void **state)
{
    fixture *f = *state;
    th_map *m = th_map_new("marks", "map(\"O.O\")",
                           "marker(\"O = feat:stone_arch\") colour(\"O : red / blue\")\n"
                           "kprop(\". = no_tele_into\")");
    qg_level *level;
    assert_int_equal(th_resolve(f->rt, m, 5, NULL, &level, f->diags), QG_OK);
    assert_int_equal(qg_level_marker_count(level), 5);
    int x, y;
    assert_string_equal(qg_level_marker(level, 0, &x, &y), "feat:stone_arch");
    assert_int_equal(x, 0);
    const char *c1 = qg_level_marker(level, 2, &x, &y);
    const char *c2 = qg_level_marker(level, 3, &x, &y);
    assert_string_equal(c1, c2); /* ':' — one colour for every O */
    assert_true(qg_level_vault_masks(level)[1] & QG_MASK_NO_TELE_INTO);
    qg_level_free(level);
    th_map_free(m);
}

static void test_compile_time_index(void **state)
{
    fixture *f = *state;
    th_map *m = th_map_new("indexed", "map(\"x.x\")",
                           "tags(\"b_tag a_tag\") depth(\"D:2-4, Lair\") weight(5)\n"
                           "depth_chance(\"D:3\", 500) chance(100)\n"
                           "if is_validating() then tags(\"compiled\") end\n");
    assert_int_equal(th_compile(f->rt, m, f->diags), QG_OK);
    assert_string_equal(qg_mapdef_get_property(m->def, "tags"), "a_tag b_tag compiled minivault");
    assert_string_equal(qg_mapdef_get_property(m->def, "orient"), "float");
    assert_string_equal(qg_mapdef_get_property(m->def, "depth"), "D:2-4, Lair");
    assert_string_equal(qg_mapdef_get_property(m->def, "weight"), "5");
    assert_string_equal(qg_mapdef_get_property(m->def, "chance"), "500 (D:3), 100");
    assert_string_equal(qg_mapdef_get_property(m->def, "width"), "3");
    th_map_free(m);
    m = th_map_new("encompassing", "map(\"x\")", "orient(\"encompass\")");
    assert_int_equal(th_compile(f->rt, m, f->diags), QG_OK);
    assert_string_equal(qg_mapdef_get_property(m->def, "orient"), "encompass");
    assert_string_equal(qg_mapdef_get_property(m->def, "tags"), "");
    th_map_free(m);
}

static void test_validate_retries_and_veto(void **state)
{
    fixture *f = *state;
    th_map *m = th_map_new("picky", "map(\"A\")", "subst(\"A = xy\")");
    th_map_set(m, QG_CHUNK_VALIDATE, "return mapgrd[0][0] == 'x'", 1);
    for (unsigned long long s = 0; s < 30; s++)
        assert_string_equal(glyphs_for(f, m, s), "x");
    th_map_set(m, QG_CHUNK_VALIDATE, "return false", 1);
    qg_level *level;
    assert_int_equal(th_resolve(f->rt, m, 1, NULL, &level, f->diags), QG_ERR_LIMIT);
    assert_true(test_diags_contain(f->diags, QG_ERROR, "failed its validate chunk 25 times"));
    th_map_free(m);
    m = th_map_new("vetoed", "map(\"x\")", NULL);
    th_map_set(m, QG_CHUNK_VETO, "return true", 1);
    assert_int_not_equal(th_resolve(f->rt, m, 1, NULL, &level, f->diags), QG_OK);
    assert_true(test_diags_contain(f->diags, QG_ERROR, "vetoed"));
    th_map_free(m);
}

static void test_environment_rules(void **state)
{
    fixture *f = *state;
    qg_des_chunk prelude = {"function paint(e) e.subst(\"A = z\") e.tags(\"painted\") end",
                            0, 1, "test.des"};
    prelude.len = strlen(prelude.code);
    assert_int_equal(lrt_run_global_prelude(f->rt, &prelude, f->diags), QG_OK);
    th_map *m = th_map_new("env", "map(\"AB\")",
                           "paint(_G)\n"
                           "assert(_G.kfeat == kfeat and mapgrd[1][0] == 'B')\n"
                           "mapgrd[1][0] = 'w'\n"
                           "helper_value = 7\n");
    th_map_set(m, QG_CHUNK_VALIDATE, "return helper_value == 7 and not is_validating() "
                                     "and crawl.game_started()", 1);
    assert_string_equal(glyphs_for(f, m, 1), "zw");
    th_map_free(m);
    /* a map's globals stay in its environment */
    m = th_map_new("other", "map(\"x\")", "assert(helper_value == nil)");
    assert_string_equal(glyphs_for(f, m, 1), "x");
    th_map_free(m);
}

static void test_context_answers(void **state)
{
    fixture *f = *state;
    th_map *m = th_map_new("where", "map(\"A\")",
                           "assert(you.branch() == 'Lair' and you.depth() == 3)\n"
                           "assert(you.in_branch('lair') and not you.in_branch('D'))\n"
                           "assert(you.absdepth() > 3 and dgn.br_depth('D') == 15)\n"
                           "if you.where() == 'Lair:3' then subst('A = y') end");
    qg_level *level;
    qg_context ctx = {"Lair:3", 12, NULL};
    assert_int_equal(lrt_resolve_chunks(f->rt, m->def, &m->chunks, 1, &ctx, &level, f->diags),
                     QG_OK);
    assert_int_equal(qg_level_glyphs(level)[0], 'y');
    qg_level_free(level);
    th_map_free(m);
}

static void expect_rows(const lrt_map *map, const char *rows)
{
    char buf[64];
    size_t n = 0;
    for (int y = 0; y < map->height; y++) {
        if (y)
            buf[n++] = '/';
        memcpy(buf + n, map->grid + (size_t)y * map->width, (size_t)map->width);
        n += (size_t)map->width;
    }
    buf[n] = '\0';
    assert_string_equal(buf, rows);
}

/* Crawl's rotate: column i read bottom to top becomes row i. */
static void test_rotate_and_mirror(void **state)
{
    (void)state;
    lrt_map *map = lrt_map_new("turn", "test.des", 1);
    assert_true(lrt_map_add_row(map, "ab", 2));
    assert_true(lrt_map_add_row(map, "cd", 2));
    assert_true(lrt_map_add_row(map, "ef", 2));
    assert_true(lrt_map_add_mark(map, 0, 0, "feat:floor")); /* on 'a' */
    assert_true(lrt_map_rotate(map, 1));
    expect_rows(map, "eca/fdb");
    assert_int_equal(map->marks[0].x, 2);
    assert_int_equal(map->marks[0].y, 0);
    assert_true(lrt_map_rotate(map, 0));
    expect_rows(map, "ab/cd/ef");
    assert_int_equal(map->marks[0].x, 0);
    assert_int_equal(map->marks[0].y, 0);
    assert_true(lrt_map_mirror(map, 1));
    expect_rows(map, "ba/dc/fe");
    assert_true(lrt_map_mirror(map, 0));
    expect_rows(map, "fe/dc/ba");
    assert_int_equal(map->marks[0].x, 1);
    assert_int_equal(map->marks[0].y, 2);
    lrt_map_free(map);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_subst_per_cell_and_fixed, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(test_subst_weights, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(test_nsubst_counts, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(test_nsubst_defaults, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(test_shuffle_permutations, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(test_block_shuffle, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(test_clear, test_runtime_setup, test_runtime_teardown),
        cmocka_unit_test_setup_teardown(test_builder_shapes, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(test_seed_random_test_rule, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(test_same_seed_same_level, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(test_keyed_features_and_things, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(test_masks_from_tags_and_kmask, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(test_markers_and_overlays, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(test_compile_time_index, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(test_validate_retries_and_veto, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(test_environment_rules, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(test_context_answers, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test(test_rotate_and_mirror),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* A map resolved where it belongs (qg_runtime_resolve_home): a vault at
 * its DEPTH, a map that takes its shape from a SUBVAULT inside a map that
 * uses it, a dummy described, a map that fails at its home; and the
 * SUBVAULT cycles found before any map is resolved
 * (qg_runtime_check_cycles), each at the file and line of its SUBVAULT. */
#include "testutil.h"
#include "questgrid/des.h"
#include "questgrid/lua.h"

#include <stdlib.h>
#include <string.h>

typedef test_runtime fixture;

/* The maps of text (a .des file named t.des) added to the runtime and
 * compiled, as a batch does before it resolves any. */
static void add_des(fixture *f, const char *text)
{
    qg_des_file *file = NULL;
    qg_des_options options = {0};
    qg_des_parse("t.des", text, strlen(text), &options, NULL, &file, f->diags);
    assert_non_null(file);
    size_t first = qg_runtime_map_count(f->rt);
    assert_int_equal(qg_runtime_add_file(f->rt, file, f->diags), QG_OK);
    for (size_t i = first; i < qg_runtime_map_count(f->rt); i++)
        assert_int_equal(qg_runtime_compile_map(f->rt, qg_runtime_map(f->rt, i), f->diags),
                         QG_OK);
    assert_int_equal(qg_diags_count_severity(f->diags, QG_ERROR), 0);
}

static const qg_mapdef *map_named(const fixture *f, const char *name)
{
    for (size_t i = 0; i < qg_runtime_map_count(f->rt); i++)
        if (strcmp(qg_mapdef_name(qg_runtime_map(f->rt, i)), name) == 0)
            return qg_runtime_map(f->rt, i);
    fail_msg("no map %s", name);
    return NULL;
}

static qg_status home_of(fixture *f, const char *name, qg_home *home, qg_level **level)
{
    return qg_runtime_resolve_home(f->rt, map_named(f, name), 1, NULL, home, level, f->diags);
}

/* The first error's message, or NULL. */
static const char *error_text(const qg_diags *diags)
{
    for (size_t i = 0; i < qg_diags_count(diags); i++)
        if (qg_diags_get(diags, i)->severity == QG_ERROR)
            return qg_diags_get(diags, i)->message;
    return NULL;
}

static void a_vault_resolves_at_its_depth(void **state)
{
    fixture *f = *state;
    add_des(f, "NAME: deep\nDEPTH: D:14\n"
               "validate {{ return you.depth() >= 10 }}\nMAP\nxx.xx\nENDMAP\n");
    qg_home home;
    qg_level *level = NULL;
    assert_int_equal(home_of(f, "deep", &home, &level), QG_OK);
    assert_non_null(level);
    assert_string_equal(home.place, "D:14");
    assert_null(home.inside);
    assert_null(home.what);
    qg_level_free(level);

    /* at D:1, where --place would put it, its validate refuses it */
    qg_context shallow = {"D:1", 0, NULL};
    assert_int_not_equal(qg_runtime_resolve_home(f->rt, map_named(f, "deep"), 1, &shallow,
                                                 &home, &level, f->diags),
                         QG_OK);
    assert_null(level);
}

static const char shape_maps[] =
    "NAME: host\nSUBVAULT: X : sv_shape\nMAP\nxxxxx\nxXXXx\nxXXXx\nxxxxx\nENDMAP\n\n"
    "NAME: shaped\nTAGS: sv_shape\n: default_subvault_glyphs()\n";

static void a_subvault_only_map_resolves_inside_its_user(void **state)
{
    fixture *f = *state;
    add_des(f, shape_maps);
    qg_home home;
    qg_level *level = NULL;
    assert_int_equal(home_of(f, "shaped", &home, &level), QG_OK);
    assert_non_null(level);
    assert_non_null(home.inside);
    assert_string_equal(home.inside, "host");
    assert_string_equal(qg_level_name(level), "shaped");
    assert_string_equal(qg_level_get_property(level, "placed in"), "host");
    qg_level_free(level);
}

/* The map resolves to no level, and what it is says what. */
static void assert_described(fixture *f, const char *name, const char *what)
{
    qg_home home;
    qg_level *level = NULL;
    assert_int_equal(home_of(f, name, &home, &level), QG_OK);
    assert_null(level);
    assert_non_null(home.what);
    assert_non_null(strstr(home.what, what));
}

static void a_subvault_only_map_without_a_user_is_described(void **state)
{
    fixture *f = *state;
    add_des(f, "NAME: lonely\nTAGS: sv_nobody\n: default_subvault_glyphs()\n");
    assert_described(f, "lonely", "no map here uses it");
}

static void a_dummy_is_described(void **state)
{
    fixture *f = *state;
    add_des(f, "NAME: nothing_here\nTAGS: dummy\n");
    assert_described(f, "nothing_here", "a dummy");
    assert_int_equal(qg_diags_count_severity(f->diags, QG_ERROR), 0);
}

static void a_map_that_fails_at_home_says_why(void **state)
{
    fixture *f = *state;
    add_des(f, "NAME: broken\n: if not is_validating() then error(\"broken on purpose\") end\n"
               "MAP\n.\nENDMAP\n");
    qg_home home;
    qg_level *level = NULL;
    assert_int_not_equal(home_of(f, "broken", &home, &level), QG_OK);
    assert_null(level);
    assert_null(home.what);
    const char *why = error_text(f->diags);
    assert_non_null(why);
    assert_non_null(strstr(why, "broken on purpose"));
}

/* ---- cycles -------------------------------------------------------------- */

static void assert_cycle_at(const qg_diags *diags, size_t i, int line, const char *chain)
{
    assert_true(i < qg_diags_count(diags));
    const qg_diag *d = qg_diags_get(diags, i);
    assert_int_equal(d->severity, QG_ERROR);
    assert_string_equal(d->file, "t.des");
    assert_int_equal(d->line, line);
    assert_int_equal(d->col, 11);
    if (!strstr(d->message, chain))
        fail_msg("expected %s in: %s", chain, d->message);
}

static void a_map_that_picks_itself_is_a_cycle(void **state)
{
    fixture *f = *state;
    add_des(f, "NAME: selfsub\nTAGS: sv_self\nSUBVAULT: X : sv_self\nMAP\nXX\nENDMAP\n");
    qg_diags *found = qg_diags_new();
    assert_int_equal(qg_runtime_check_cycles(f->rt, found), 1);
    assert_cycle_at(found, 0, 3, "(selfsub -> selfsub)");
    qg_diags_free(found);
}

static void a_pair_is_one_error_at_each_line(void **state)
{
    fixture *f = *state;
    add_des(f, "NAME: pair_a\nTAGS: ta\nSUBVAULT: X : tb\nMAP\nX\nENDMAP\n\n"
               "NAME: pair_b\nTAGS: tb\nSUBVAULT: X : ta\nMAP\nX\nENDMAP\n");
    qg_diags *found = qg_diags_new();
    assert_int_equal(qg_runtime_check_cycles(f->rt, found), 2);
    assert_cycle_at(found, 0, 3, "(pair_a -> pair_b -> pair_a)");
    assert_cycle_at(found, 1, 10, "(pair_b -> pair_a -> pair_b)");
    qg_diags_free(found);
}

static void a_chain_is_no_cycle(void **state)
{
    fixture *f = *state;
    add_des(f, "NAME: c0\nTAGS: t0\nSUBVAULT: X : t1\nMAP\nX\nENDMAP\n\n"
               "NAME: c1\nTAGS: t1\nSUBVAULT: X : t2\nMAP\nX\nENDMAP\n\n"
               "NAME: c2\nTAGS: t2 t0_not\nMAP\n.\nENDMAP\n");
    qg_diags *found = qg_diags_new();
    assert_int_equal(qg_runtime_check_cycles(f->rt, found), 0);
    assert_int_equal(qg_diags_count(found), 0);
    qg_diags_free(found);
}

/* Three maps share a tag: the SUBVAULT picking it may reach the one that
 * leads back (a cycle), and the maps off the cycle are not at fault. */
static void a_cycle_through_a_shared_tag(void **state)
{
    fixture *f = *state;
    add_des(f, "NAME: top\nTAGS: t_top\nSUBVAULT: X : shared\nMAP\nX\nENDMAP\n\n"
               "NAME: leaf\nTAGS: shared\nMAP\n.\nENDMAP\n\n"
               "NAME: back\nTAGS: shared\nSUBVAULT: Y : t_top\nMAP\nY\nENDMAP\n\n"
               "NAME: user\nTAGS: other\nSUBVAULT: X : shared\nMAP\nX\nENDMAP\n");
    qg_diags *found = qg_diags_new();
    assert_int_equal(qg_runtime_check_cycles(f->rt, found), 2);
    assert_cycle_at(found, 0, 3, "(top -> back -> top)");
    assert_cycle_at(found, 1, 16, "(back -> top -> back)");
    qg_diags_free(found);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(a_vault_resolves_at_its_depth, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(a_subvault_only_map_resolves_inside_its_user,
                                        test_runtime_setup, test_runtime_teardown),
        cmocka_unit_test_setup_teardown(a_subvault_only_map_without_a_user_is_described,
                                        test_runtime_setup, test_runtime_teardown),
        cmocka_unit_test_setup_teardown(a_dummy_is_described, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(a_map_that_fails_at_home_says_why, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(a_map_that_picks_itself_is_a_cycle, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(a_pair_is_one_error_at_each_line, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(a_chain_is_no_cycle, test_runtime_setup,
                                        test_runtime_teardown),
        cmocka_unit_test_setup_teardown(a_cycle_through_a_shared_tag, test_runtime_setup,
                                        test_runtime_teardown),
    };
    return cmocka_run_group_tests_name("lua_home", tests, NULL, NULL);
}

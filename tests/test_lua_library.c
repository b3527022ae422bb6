/* The game's Lua library found, not listed: a minimal dlua of the tests'
 * own (tests/data/dlua/minimal) that lacks Crawl's optional entry files,
 * a game with a load order of its own (questgrid.load), a library that
 * fails while it loads, and a directory that holds no library. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"
#include "questgrid/des.h"
#include "questgrid/lua.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static qg_runtime *runtime_for(const char *relative, qg_diags *diags)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", test_src_path(relative));
    const char *paths[1] = {path};
    qg_runtime_options opts = {paths, 1, 0, 0, NULL};
    return qg_runtime_new(&opts, diags);
}

static size_t count_severity(const qg_diags *diags, qg_severity severity)
{
    size_t n = 0;
    for (size_t i = 0; i < qg_diags_count(diags); i++)
        n += qg_diags_get(diags, i)->severity == severity;
    return n;
}

/* Runs text as a one-map .des file in rt; the compile status. */
static qg_status compile_text(qg_runtime *rt, const char *text, qg_diags *diags)
{
    qg_des_names *names = qg_des_names_new();
    qg_des_file *file = NULL;
    qg_des_options options = {0};
    qg_des_parse("library.des", text, strlen(text), &options, names, &file, diags);
    assert_non_null(file);
    size_t first = qg_runtime_map_count(rt);
    qg_runtime_add_file(rt, file, diags);
    qg_des_names_free(names);
    assert_true(qg_runtime_map_count(rt) > first);
    return qg_runtime_compile_map(rt, qg_runtime_map(rt, first), diags);
}

/* A prelude run alone, kept compiled under key (chunk NULL: the kept one). */
static qg_status run_prelude(qg_runtime *rt, size_t key, const char *code, qg_diags *diags)
{
    qg_des_chunk chunk = {code, code ? strlen(code) : 0, 1, "saved.des"};
    return qg_runtime_run_kept_prelude(rt, key, code ? &chunk : NULL, diags);
}

/* What a file's Lua did is gone after a return to the saved state: the
 * globals it defined, what it changed in the library's tables, their
 * metatables and the locals its functions share, and the library files
 * it required (which run again when required again); kept preludes run
 * again without their text. */
static void a_saved_state_comes_back(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    qg_runtime *rt = runtime_for("tests/data/dlua/minimal/dlua", diags);
    assert_non_null(rt);
    assert_int_equal(qg_runtime_save(rt, diags), QG_OK);
    assert_int_equal(run_prelude(rt, 3,
        "defined_here = 1\n"
        "util.twice = function() return 0 end\n"
        "util.added = true\n"
        "setmetatable(iter, {__index = function() return 5 end})\n"
        "assert(helper_calls() == 1 and helper_calls() == 2)\n"
        "crawl_require('dlua/later.lua')\n"
        "assert(later() == 1)\n", diags), QG_OK);
    assert_int_equal(compile_text(rt,
        "NAME: changed\n: assert(defined_here == 1 and util.twice(21) == 0)\n"
        ": assert(iter.anything == 5 and helper_calls() == 3)\nMAP\n.\nENDMAP\n", diags),
        QG_OK);
    assert_int_equal(qg_runtime_restore(rt, diags), QG_OK);
    qg_status st = compile_text(rt,
        "NAME: restored\n: assert(defined_here == nil and util.twice(21) == 42)\n"
        ": assert(util.added == nil and iter.anything == nil)\n"
        ": assert(helper_calls() == 1 and later == nil)\n"
        ": crawl_require('dlua/later.lua')\n: assert(later() == 1)\nMAP\n.\nENDMAP\n",
        diags);
    if (st != QG_OK)
        qg_diags_print(diags, stderr);
    assert_int_equal(st, QG_OK);
    assert_int_equal(qg_runtime_restore(rt, diags), QG_OK);
    assert_int_equal(run_prelude(rt, 3, NULL, diags), QG_OK);
    assert_int_equal(run_prelude(rt, 4, NULL, diags), QG_ERR_NOTFOUND);
    assert_int_equal(compile_text(rt,
        "NAME: again\n: assert(defined_here == 1 and later() == 1)\nMAP\n.\nENDMAP\n",
        diags), QG_OK);
    assert_int_equal(count_severity(diags, QG_ERROR), 0);
    qg_runtime_free(rt);
    qg_diags_free(diags);
}

/* Kept preludes hold at most 1 MiB of source: one past it runs and is
 * compiled again the next time, so that a runtime's memory does not grow
 * with the files a compile runs. */
static void kept_preludes_have_a_bound(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    qg_runtime *rt = runtime_for("tests/data/dlua/minimal/dlua", diags);
    assert_non_null(rt);
    size_t len;
    char *big = test_repeat("big_prelude_ran = true\n", "-- a long comment line\n",
                            (1024 * 1024) / 23 + 1, "", &len);
    assert_true(len > 1024 * 1024);
    assert_int_equal(run_prelude(rt, 1, "small_prelude_ran = true\n", diags), QG_OK);
    assert_int_equal(run_prelude(rt, 2, big, diags), QG_OK);
    assert_int_equal(run_prelude(rt, 1, NULL, diags), QG_OK);
    assert_int_equal(run_prelude(rt, 2, NULL, diags), QG_ERR_NOTFOUND);
    free(big);
    qg_runtime_free(rt);
    qg_diags_free(diags);
}

static void optional_files_are_skipped_with_a_note(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    qg_runtime *rt = runtime_for("tests/data/dlua/minimal/dlua", diags);
    assert_non_null(rt);
    assert_int_equal(count_severity(diags, QG_ERROR), 0);
    assert_int_equal(count_severity(diags, QG_NOTE), 3);
    assert_true(test_diags_contain(diags, QG_NOTE, "dlua/macro.lua"));
    assert_true(test_diags_contain(diags, QG_NOTE, "dlua/tags.lua"));
    assert_true(test_diags_contain(diags, QG_NOTE, "dlua/mapinit.lua"));
    qg_runtime_free(rt);
    qg_diags_free(diags);
}

/* util.lua's crawl_require is followed from the library directory, once;
 * the functions of every entry file reach the maps. */
static void requires_are_followed(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    qg_runtime *rt = runtime_for("tests/data/dlua/minimal/dlua", diags);
    assert_non_null(rt);
    qg_status st = compile_text(rt,
        "NAME: requires\n{{\nassert(loaded_helper == 1)\n"
        "assert(util.twice(21) == 42 and iter.count({1, 2}) == 2)\n"
        "assert(fixture_marker(7) == 7)\nminimal_setup(_G)\n}}\nMAP\n.\nENDMAP\n", diags);
    if (st != QG_OK)
        qg_diags_print(diags, stderr);
    assert_int_equal(st, QG_OK);
    assert_string_equal(qg_mapdef_get_property(qg_runtime_find_map(rt, "requires"), "weight"),
                        "8");
    qg_runtime_free(rt);
    qg_diags_free(diags);
}

/* The data directory may be given instead of its dlua directory. */
static void the_data_directory_will_do(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    qg_runtime *rt = runtime_for("tests/data/dlua/minimal", diags);
    assert_non_null(rt);
    assert_int_equal(count_severity(diags, QG_ERROR), 0);
    qg_runtime_free(rt);
    qg_diags_free(diags);
}

/* Current Crawl's loadmaps.lua lists dat/des itself: every .des file
 * under it, sorted, named from the data directory. */
static void loadmaps_lists_the_des_directory(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    qg_runtime *rt = runtime_for("tests/data/dlua/minimal/dlua", diags);
    assert_non_null(rt);
    char **files = NULL;
    size_t count = 0;
    assert_int_equal(qg_runtime_library_des_files(rt, &files, &count, diags), QG_OK);
    assert_int_equal(count, 2);
    assert_string_equal(files[0], "des/b.des");
    assert_string_equal(files[1], "des/sub/a.des");
    for (size_t i = 0; i < count; i++)
        free(files[i]);
    free(files);
    qg_runtime_free(rt);
    qg_diags_free(diags);
}

/* A data directory assembled from links (dlua and des pointing
 * elsewhere): des is the one beside the dlua as named (here: the fixture's
 * des/sub), not the one beside the place the link leads to. */
static void linked_directories_are_taken_as_named(void **state)
{
    (void)state;
    char dat[2048], link[4096], target[4096];
    snprintf(dat, sizeof dat, "%s", test_temp_path("linked"));
    assert_int_equal(mkdir(dat, 0700), 0);
    snprintf(target, sizeof target, "%s", test_src_path("tests/data/dlua/minimal/dlua"));
    if (target[0] != '/') {
        char cwd[2048];
        assert_non_null(getcwd(cwd, sizeof cwd));
        snprintf(target, sizeof target, "%s/%s", cwd,
                 test_src_path("tests/data/dlua/minimal/dlua"));
    }
    snprintf(link, sizeof link, "%s/dlua", dat);
    assert_int_equal(symlink(target, link), 0);
    snprintf(target + strlen(target) - 4, 8, "des/sub");
    snprintf(link, sizeof link, "%s/des", dat);
    assert_int_equal(symlink(target, link), 0);
    snprintf(link, sizeof link, "%s/dlua", dat);
    const char *paths[1] = {link};
    qg_runtime_options opts = {paths, 1, 0, 0, NULL};
    qg_diags *diags = qg_diags_new();
    qg_runtime *rt = qg_runtime_new(&opts, diags);
    assert_non_null(rt);
    char **files = NULL;
    size_t count = 0;
    assert_int_equal(qg_runtime_library_des_files(rt, &files, &count, diags), QG_OK);
    assert_int_equal(count, 1);
    assert_string_equal(files[0], "des/a.des");
    for (size_t i = 0; i < count; i++)
        free(files[i]);
    free(files);
    qg_runtime_free(rt);
    qg_diags_free(diags);
}

/* What current Crawl's library and maps ask that 0.28's did not: a fresh
 * game's answers, and crawl.setfenv (its dungeon.lua runs hooks with it). */
static void current_crawl_questions(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    qg_runtime *rt = runtime_for("tests/data/dlua/minimal/dlua", diags);
    assert_non_null(rt);
    qg_status st = compile_text(rt,
        "NAME: current\n{{\nassert(you.genus() == 'human' and you.species() == 'Human')\n"
        "assert(you.get_base_mutation_level('no jewellery') == 0)\n"
        "assert(dgn.zot_orb_type() == '' and not dgn.uniq_tag_used('uniq_x'))\n"
        "assert(not dgn.is_descent() and items.pickable('lightning rod'))\n"
        "local seen = crawl.setfenv(function() return marker end, {marker = 5})()\n"
        "assert(seen == 5)\n}}\nMAP\n.\nENDMAP\n", diags);
    if (st != QG_OK)
        qg_diags_print(diags, stderr);
    assert_int_equal(st, QG_OK);
    qg_runtime_free(rt);
    qg_diags_free(diags);
}

/* A map that draws nothing itself and leaves its work to a post_place
 * hook (Crawl's shop and decor placers) says so when resolved alone; a
 * hook of another kind is no such reason; the library's dgn.hook still
 * gets every hook. */
static void a_post_place_map_says_why_it_has_no_grid(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    qg_runtime *rt = runtime_for("tests/data/dlua/minimal/dlua", diags);
    assert_non_null(rt);
    assert_int_equal(compile_text(rt, "NAME: places_later\n"
                                      "{{ hook('post_place', function() end) }}\n", diags),
                     QG_OK);
    assert_int_equal(compile_text(rt, "NAME: hooks_main\n"
                                      "{{ hook('main', function() end) }}\n", diags),
                     QG_OK);
    assert_int_equal(compile_text(rt, "NAME: hooked_vault\n"
                                      "{{ hook('post_place', function() end)\n"
                                      "   assert(dgn.last_hook == 'post_place') }}\n"
                                      "MAP\n.\nENDMAP\n", diags),
                     QG_OK);
    qg_level *level = NULL;
    qg_diags_clear(diags);
    assert_int_not_equal(qg_runtime_resolve(rt, qg_runtime_find_map(rt, "places_later"), 1,
                                            NULL, &level, diags), QG_OK);
    assert_true(test_diags_contain(diags, QG_ERROR,
                                   "map places_later has no grid to resolve: its post_place "
                                   "hook places other maps"));
    qg_diags_clear(diags);
    assert_int_not_equal(qg_runtime_resolve(rt, qg_runtime_find_map(rt, "hooks_main"), 1,
                                            NULL, &level, diags), QG_OK);
    assert_true(test_diags_contain(diags, QG_ERROR, "map hooks_main has no grid to resolve"));
    assert_false(test_diags_contain(diags, QG_ERROR, "post_place"));
    qg_diags_clear(diags);
    assert_int_equal(qg_runtime_resolve(rt, qg_runtime_find_map(rt, "hooked_vault"), 1, NULL,
                                        &level, diags), QG_OK);
    qg_level_free(level);
    qg_runtime_free(rt);
    qg_diags_free(diags);
}

/* A library listing ../ or absolute names is refused. */
static void listing_stays_in_the_data_directory(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    qg_runtime *rt = runtime_for("tests/data/dlua/minimal/dlua", diags);
    assert_non_null(rt);
    assert_int_not_equal(compile_text(rt,
        "NAME: escape\n{{\nfile.datadir_files_recursive('dat/../..', '.des')\n}}\n"
        "MAP\n.\nENDMAP\n", diags), QG_OK);
    assert_true(test_diags_contain(diags, QG_ERROR, "not a data directory name"));
    assert_int_not_equal(compile_text(rt,
        "NAME: escape2\n{{\ncrawl_require('/etc/passwd.lua')\n}}\nMAP\n.\nENDMAP\n", diags),
        QG_OK);
    assert_true(test_diags_contain(diags, QG_ERROR, "is not a library file name"));
    qg_runtime_free(rt);
    qg_diags_free(diags);
}

/* A game with its own library names its entry files in questgrid.load:
 * they run in its order, an optional one missing is a note. */
static void a_game_lists_its_own_entry_files(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    qg_runtime *rt = runtime_for("tests/data/dlua/game", diags);
    assert_non_null(rt);
    assert_int_equal(count_severity(diags, QG_ERROR), 0);
    assert_true(test_diags_contain(diags, QG_NOTE, "extras.lua"));
    assert_int_equal(compile_text(rt,
        "NAME: game\n{{\nassert(table.concat(game_order, ' ') == 'base later')\n}}\n"
        "MAP\n.\nENDMAP\n", diags), QG_OK);
    qg_runtime_free(rt);
    qg_diags_free(diags);
}

/* A directory without the library: an error naming the first required
 * file and hinting at --lua-path, no runtime. */
static void a_directory_without_the_library_is_an_error(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    qg_runtime *rt = runtime_for("tests/data/dlua/minimal/des", diags);
    assert_null(rt);
    assert_true(test_diags_contain(diags, QG_ERROR, "dlua/util.lua"));
    assert_true(test_diags_contain(diags, QG_ERROR, "--lua-path"));
    qg_diags_free(diags);
}

/* The library's own set-up fails (it guards _G against new globals):
 * a diagnostic carrying its message, no runtime, no abort. */
static void a_failing_library_is_a_diagnostic(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    qg_runtime *rt = runtime_for("tests/data/dlua/broken", diags);
    assert_null(rt);
    assert_true(test_diags_contain(diags, QG_ERROR, "no new global new_global"));
    qg_diags_free(diags);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(optional_files_are_skipped_with_a_note),
        cmocka_unit_test(requires_are_followed),
        cmocka_unit_test(the_data_directory_will_do),
        cmocka_unit_test(loadmaps_lists_the_des_directory),
        cmocka_unit_test(linked_directories_are_taken_as_named),
        cmocka_unit_test(current_crawl_questions),
        cmocka_unit_test(a_post_place_map_says_why_it_has_no_grid),
        cmocka_unit_test(listing_stays_in_the_data_directory),
        cmocka_unit_test(a_game_lists_its_own_entry_files),
        cmocka_unit_test(a_directory_without_the_library_is_an_error),
        cmocka_unit_test(a_failing_library_is_a_diagnostic),
        cmocka_unit_test(a_saved_state_comes_back),
        cmocka_unit_test(kept_preludes_have_a_bound),
    };
    return cmocka_run_group_tests_name("lua_library", tests, NULL, NULL);
}

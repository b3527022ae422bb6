/* A game's branch table (lib/des/vocab/<game>/branches.txt): read, looked
 * up as Crawl looks branches up, each game's own facts (Crawl 0.28's table
 * read from its binary, current Crawl's from branch-data.h), the stairs a
 * map's levels have, and the Lua runtime answering from the table it is
 * handed. */
#include "testutil.h"
#include "des/branches.h"

#include <stdlib.h>
#include <string.h>

static const char table_text[] =
    "# a table of my own\n"
    "D        4  0  stone     Dungeon|the Dungeon\n"
    "Keep     1  3  stone     the Keep\n"
    "Catacomb 3  6  islanded  the Catacombs\n"
    "Pit      4  7  hell      the Pit\n"
    "Fair     1  2  none      a fair\n";

static qg_branches *parsed(qg_diags *d)
{
    qg_branches *t = NULL;
    assert_int_equal(qg_branches_parse("mine.txt", table_text, strlen(table_text), &t, d),
                     QG_OK);
    return t;
}

static qg_branches *game(const char *name, qg_diags *d)
{
    qg_branches *t = NULL;
    if (qg_branches_load(test_src_path("lib/des/vocab"), name, &t, d) != QG_OK)
        qg_diags_print(d, stderr);
    assert_non_null(t);
    return t;
}

static void table_is_read_and_looked_up_as_crawl_does(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_branches *t = parsed(d);
    assert_string_equal(qg_branches_game(t), "mine.txt");
    /* mapdef.cc level_range::set -> branch_by_abbrevname: exact case */
    assert_non_null(des_branch_by_abbrev(t, "Keep", 4));
    assert_null(des_branch_by_abbrev(t, "keep", 4));
    assert_null(des_branch_by_abbrev(t, "the Keep", 8));
    /* l-you.cc you_in_branch: abbreviation, short or long name, any case */
    assert_ptr_equal(des_branch_by_any_name(t, "THE KEEP", 8), des_branch_by_abbrev(t, "Keep", 4));
    assert_ptr_equal(des_branch_by_any_name(t, "dungeon", 7), des_branch_by_abbrev(t, "D", 1));
    size_t n;
    const char *best = des_branch_closest(t, "Catacomd", 8, &n);
    assert_non_null(best);
    assert_memory_equal(best, "Catacomb", 8);
    qg_branches_free(t);
    qg_diags_free(d);
}

static void bad_rows_are_errors_at_their_line(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "D 4 0 stone\nKeep one 3 stone\n", "D 4 0 stone\nKeep 1 3 stairs\n",
        "D 4 0 stone\nD 2 3 none\n", "# nothing\n"};
    static const char *const said[] = {"want NAME LEVELS ABSDEPTH STAIRS",
                                       "STAIRS is 'stone', 'hell', 'islanded' or 'none'",
                                       "a branch named twice", "branches.txt names no branch"};
    static const int line[] = {2, 2, 2, 0};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        qg_diags *d = qg_diags_new();
        qg_branches *t = NULL;
        assert_int_equal(qg_branches_parse("mine.txt", bad[i], strlen(bad[i]), &t, d),
                         QG_ERR_PARSE);
        assert_null(t);
        assert_int_equal(qg_diags_count(d), 1);
        const qg_diag *e = qg_diags_get(d, 0);
        assert_string_equal(e->file, "mine.txt");
        assert_int_equal(e->line, line[i]);
        assert_non_null(strstr(e->message, said[i]));
        qg_diags_free(d);
    }
}

/* The two games differ: Crawl 0.28 (read from its binary: -branches-json
 * says Lair 6 levels, Abyss 5) has no Crucible, Necropolis or Gulch;
 * current Crawl (branch-data.h at jjanow/crawl 0aa3e5a4: Lair 5, Abyss 7)
 * has them. Both keep the TAG_MAJOR_VERSION 34 branches (Forest, Lab). */
static void each_game_has_its_own_branches(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_branches *old = game("crawl-0.28", d), *cur = game("crawl-master", d);
    assert_string_equal(qg_branches_game(old), "crawl-0.28");
    assert_int_equal(des_branch_by_abbrev(old, "Lair", 4)->levels, 6);
    assert_int_equal(des_branch_by_abbrev(cur, "Lair", 4)->levels, 5);
    assert_int_equal(des_branch_by_abbrev(old, "Abyss", 5)->levels, 5);
    assert_int_equal(des_branch_by_abbrev(cur, "Abyss", 5)->levels, 7);
    assert_null(des_branch_by_abbrev(old, "Crucible", 8));
    assert_null(des_branch_by_abbrev(old, "Gulch", 5));
    assert_non_null(des_branch_by_abbrev(cur, "Crucible", 8));
    assert_non_null(des_branch_by_abbrev(cur, "Necropolis", 10));
    assert_non_null(des_branch_by_abbrev(cur, "Gulch", 5));
    assert_non_null(des_branch_by_abbrev(old, "Forest", 6));
    const des_branch *zot = des_branch_by_abbrev(old, "Zot", 3);
    assert_int_equal(zot->levels, 5);
    assert_int_equal(zot->absdepth, 27);
    assert_int_equal(des_branch_by_abbrev(old, "Tomb", 4)->stairs, DES_STAIRS_ISLANDED);
    assert_int_equal(des_branch_by_abbrev(old, "Bazaar", 6)->stairs, DES_STAIRS_NONE);
    assert_int_equal(des_branch_by_abbrev(old, "Temple", 6)->stairs, DES_STAIRS_STONE);
    /* branch.cc is_hell_subbranch: the four hells, not the Vestibule */
    static const char *const hells[] = {"Dis", "Geh", "Coc", "Tar"};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(des_branch_by_abbrev(old, hells[i], 3)->stairs, DES_STAIRS_HELL);
        assert_int_equal(des_branch_by_abbrev(cur, hells[i], 3)->stairs, DES_STAIRS_HELL);
    }
    assert_int_equal(des_branch_by_abbrev(cur, "Hell", 4)->stairs, DES_STAIRS_STONE);
    qg_branches_free(old);
    qg_branches_free(cur);
    qg_diags_free(d);
}

static void an_unknown_game_is_an_error_with_a_hint(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_branches *t = NULL;
    assert_int_equal(qg_branches_load(test_src_path("lib/des/vocab"), "crawl-0.82", &t, d),
                     QG_ERR_NOTFOUND);
    assert_null(t);
    assert_true(test_diags_contain(d, QG_ERROR, "no branch table for game 'crawl-0.82'; did "
                                                "you mean 'crawl-0.28'?"));
    qg_branches_free(t);
    qg_diags_free(d);
}

static void places_are_checked_against_the_game(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_branches *old = game("crawl-0.28", d), *cur = game("crawl-master", d);
    assert_int_equal(qg_branches_check_place(old, "Lair:6", d), QG_OK);
    assert_int_equal(qg_branches_check_place(old, "lair:6", d), QG_OK);
    assert_int_equal(qg_branches_check_place(cur, "Crucible", d), QG_OK);
    assert_int_equal(qg_diags_count(d), 0);
    assert_int_equal(qg_branches_check_place(cur, "Lair:6", d), QG_ERR_INVALID);
    assert_true(test_diags_contain(d, QG_ERROR, "Lair has levels 1 to 5 in crawl-master"));
    assert_int_equal(qg_branches_check_place(old, "Crucible:1", d), QG_ERR_INVALID);
    assert_true(test_diags_contain(d, QG_ERROR, "unknown branch 'Crucible' in place "
                                                "'Crucible:1' (crawl-0.28"));
    assert_int_equal(qg_branches_check_place(old, "Liar:2", d), QG_ERR_INVALID);
    assert_true(test_diags_contain(d, QG_ERROR, "did you mean 'Lair'?"));
    assert_int_equal(qg_branches_check_place(old, "Dwarf", d), QG_ERR_INVALID);
    assert_true(test_diags_contain(d, QG_ERROR, "Dwarf has no levels in crawl-0.28"));
    qg_branches_free(old);
    qg_branches_free(cur);
    qg_diags_free(d);
}

/* dungeon.cc _fixup_stone_stairs: three up, one on a branch's first level
 * (the exit) and in a hell (player_in_hell), three down but on its last
 * level, one in a hell; none for a portal, nor in an islanded branch
 * (_branch_needs_stairs leaves the Tomb out). The stairs a map must have
 * are those all its levels have. */
static void the_stairs_of_a_maps_levels(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_branches *t = parsed(d);
    size_t levels;
    assert_int_equal(des_branches_common_stairs(t, NULL, "Keep", &levels), DES_UP_I);
    assert_int_equal(levels, 1);
    assert_int_equal(des_branches_common_stairs(t, "D:$", NULL, &levels), DES_UP_ALL);
    assert_int_equal(des_branches_common_stairs(t, "D:2-3", NULL, &levels), DES_STAIRS_ALL);
    assert_int_equal(levels, 2);
    assert_int_equal(des_branches_common_stairs(t, "D, !D:1, !D:4", NULL, &levels),
                     DES_STAIRS_ALL);
    assert_int_equal(des_branches_common_stairs(t, "D:1-3", NULL, &levels),
                     DES_UP_I | DES_DOWN_ALL);
    assert_int_equal(des_branches_common_stairs(t, "D:2", "Fair", &levels), 0);
    assert_int_equal(levels, 2);
    assert_int_equal(des_branches_common_stairs(t, "Catacomb:2", NULL, &levels), 0);
    assert_int_equal(levels, 1);
    assert_int_equal(des_branches_common_stairs(t, "Pit:2-3", NULL, &levels),
                     DES_UP_I | DES_DOWN_I);
    assert_int_equal(des_branches_common_stairs(t, "Pit", NULL, &levels), DES_UP_I);
    /* a bare a-b is you.absdepth(): D:4 and Keep:1 are at 4 */
    assert_int_equal(des_branches_common_stairs(t, "4", NULL, &levels), DES_UP_I);
    assert_int_equal(levels, 2);
    assert_int_equal(des_branches_common_stairs(t, "Nowhere", "", &levels), DES_STAIRS_ALL);
    assert_int_equal(levels, 0);
    qg_branches_free(t);
    qg_diags_free(d);
}

/* The runtime answers you.* and dgn.* from the table it is handed. */
static qg_status run_at(const qg_branches *t, const char *place, const char *lua, qg_diags *d)
{
    qg_runtime_options options = {NULL, 0, 0, 0, t};
    qg_runtime *rt = qg_runtime_new(&options, d);
    assert_non_null(rt);
    char src[1024];
    snprintf(src, sizeof src, "NAME: probe\n: %s\nMAP\n.\nENDMAP\n", lua);
    qg_des_file *file = NULL;
    qg_des_options des = {0};
    qg_des_parse("probe.des", src, strlen(src), &des, NULL, &file, d);
    assert_non_null(file);
    assert_int_equal(qg_runtime_add_file(rt, file, d), QG_OK);
    qg_context context = {place, 0, NULL};
    qg_level *level = NULL;
    qg_status st = qg_runtime_resolve(rt, qg_runtime_map(rt, 0), 1, &context, &level, d);
    qg_level_free(level);
    qg_runtime_free(rt);
    return st;
}

static void the_runtime_answers_from_the_table_handed_in(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_branches *t = parsed(d);
    assert_int_equal(run_at(t, "Catacomb:2",
                            "assert(you.branch() == 'Catacomb' and you.depth() == 2 and "
                            "you.absdepth() == 8 and dgn.br_depth('Keep') == 1 and "
                            "dgn.br_depth() == 3 and you.in_branch('the catacombs') and "
                            "not you.in_branch('D') and not you.at_branch_bottom())", d),
                     QG_OK);
    assert_int_equal(run_at(t, "dungeon:4", "assert(you.branch() == 'D' and you.at_branch_bottom())",
                            d), QG_OK);
    assert_int_equal(qg_diags_count_severity(d, QG_ERROR), 0);
    assert_int_not_equal(run_at(t, "Keep", "you.in_branch('Kep')", d), QG_OK);
    assert_true(test_diags_contain(d, QG_ERROR, "'Kep' matches no branches of mine.txt; did "
                                                "you mean 'Keep'?"));
    assert_int_not_equal(run_at(t, "Keep", "dgn.br_depth('Lair')", d), QG_OK);
    assert_true(test_diags_contain(d, QG_ERROR, "'Lair' matches no branches of mine.txt"));
    assert_int_equal(run_at(t, "Lair:2", "", d), QG_ERR_INVALID);
    assert_true(test_diags_contain(d, QG_ERROR, "unknown branch 'Lair' in place 'Lair:2' "
                                                "(mine.txt)"));
    qg_branches_free(t);
    qg_diags_free(d);
}

static void each_game_answers_its_own_depths(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_branches *old = game("crawl-0.28", d), *cur = game("crawl-master", d);
    /* you.absdepth() = absdepth + depth (branch.cc absdungeon_depth + 1) */
    assert_int_equal(run_at(old, "Lair:6", "assert(dgn.br_depth('Lair') == 6 and "
                                           "you.absdepth() == 16 and you.at_branch_bottom())",
                            d), QG_OK);
    assert_int_equal(run_at(cur, "Lair:5", "assert(dgn.br_depth('Lair') == 5 and "
                                           "you.in_branch('the Lair of Beasts'))", d), QG_OK);
    assert_int_equal(run_at(old, "Lair:6", "", d), QG_OK);
    assert_int_equal(run_at(cur, "Lair:6", "", d), QG_ERR_INVALID);
    qg_branches_free(old);
    qg_branches_free(cur);
    qg_diags_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_is_read_and_looked_up_as_crawl_does),
        cmocka_unit_test(bad_rows_are_errors_at_their_line),
        cmocka_unit_test(each_game_has_its_own_branches),
        cmocka_unit_test(an_unknown_game_is_an_error_with_a_hint),
        cmocka_unit_test(places_are_checked_against_the_game),
        cmocka_unit_test(the_stairs_of_a_maps_levels),
        cmocka_unit_test(the_runtime_answers_from_the_table_handed_in),
        cmocka_unit_test(each_game_answers_its_own_depths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

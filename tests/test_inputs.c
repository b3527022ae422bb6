/* The one telling of what a file is (qg_file_kind_of, qg_fd_sniff), the
 * walk every command takes its files from (qg_inputs_find), a hub's
 * quests (qg_fd_hub_quests) and the Crawl of a data tree
 * (qg_des_detect_game), on tests/data/inputs and tests/data/crawltree. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static qg_file_kind kind_of(const char *path, const char *text, qg_fd_dialect dialect)
{
    return qg_file_kind_of(path, text, strlen(text), dialect, NULL);
}

static void kinds_by_bytes_and_name(void **state)
{
    (void)state;
    static const char qgc[] = "\x89QGC\r\n\x1a\nrest";
    static const char gzip[] = "\x1f\x8b\x08\x00";
    assert_int_equal(qg_file_kind_of("x.qgc", qgc, sizeof qgc - 1, QG_FD_AUTO, NULL),
                     QG_FILE_CACHE);
    assert_int_equal(qg_file_kind_of("x.xp", gzip, sizeof gzip - 1, QG_FD_AUTO, NULL),
                     QG_FILE_XP);
    assert_int_equal(kind_of("x.tmx", "<?xml version=\"1.0\"?><map/>", QG_FD_AUTO), QG_FILE_TMX);
    assert_int_equal(kind_of("x.des", "NAME: a\nMAP\n.\nENDMAP\n", QG_FD_AUTO), QG_FILE_DES);
    /* a binary file is no text format, whatever its name */
    assert_int_equal(qg_file_kind_of("x.des", "\x01\x02\x00\xff", 4, QG_FD_AUTO, NULL),
                     QG_FILE_OTHER);
    assert_int_equal(kind_of("Makefile", "all:\n", QG_FD_AUTO), QG_FILE_OTHER);
}

static void fd_files_by_records(void **state)
{
    (void)state;
    size_t entries = 0;
    assert_int_equal(kind_of("q1.txt", "F:.:1:8\nD:...\n", QG_FD_AUTO), QG_FILE_LEVEL);
    assert_int_equal(kind_of("pref.txt", "F:.:1:8\nF:#:2:8\n", QG_FD_AUTO), QG_FILE_PART);
    assert_int_equal(kind_of("hub.txt", "?:[EQU $QUEST_NUMBER 3]\n%:q3.txt\n", QG_FD_AUTO),
                     QG_FILE_HUB);
    /* FrogComposband's q_info.txt: quest record heads, its D: lines text */
    assert_int_equal(kind_of("quests.txt", "N:1:5:The Thieves\nT:TOWN\nF:q1.txt\n",
                             QG_FD_FROGCOMPOSBAND),
                     QG_FILE_HUB);
    static const char vocab[] = "N:1:floor\nN:2:wall\n";
    assert_int_equal(qg_file_kind_of("f.txt", vocab, strlen(vocab), QG_FD_AUTO, &entries),
                     QG_FILE_VOCABULARY);
    assert_int_equal(entries, 2);
    assert_int_equal(kind_of("readme.txt", "Read me.\n", QG_FD_AUTO), QG_FILE_OTHER);
}

/* Names a game reads with another parser than its map loader. */
static void game_data_by_name(void **state)
{
    (void)state;
    assert_int_equal(kind_of("misc.txt", "M:X:198\n", QG_FD_ZANGBAND), QG_FILE_GAME_DATA);
    /* s_info.txt's N:0 records are no quest heads */
    assert_int_equal(kind_of("s_info.txt", "N:0\nW:0:0:1:4\n", QG_FD_FROGCOMPOSBAND),
                     QG_FILE_GAME_DATA);
    assert_int_equal(kind_of("rooms.txt", "N:Kennel\nT:ROOM:NORMAL\nM:%%%\n",
                             QG_FD_FROGCOMPOSBAND),
                     QG_FILE_GAME_DATA);
    assert_int_equal(kind_of("MonraceDefinitions.jsonc", "{}\n", QG_FD_HENGBAND3),
                     QG_FILE_GAME_DATA);
    assert_int_equal(kind_of("ClassSkillDefinitions.txt", "N:0\nW:0:0:1:4\n", QG_FD_HENGBAND3),
                     QG_FILE_GAME_DATA);
    /* the wilderness is read by the map loader, although its name is an
     * info file's */
    assert_int_equal(kind_of("w_info.txt", "F:.:1:8\nD:...\n", QG_FD_POSCHENGBAND),
                     QG_FILE_LEVEL);
    /* a hub's name with map rows is a level */
    assert_int_equal(kind_of("QuestDefinitionList.txt", "F:.:1:8\nD:...\n", QG_FD_AUTO),
                     QG_FILE_LEVEL);
    assert_true(qg_fd_is_game_data(QG_FD_TOME, "lib/edit/ra_info.txt"));
    assert_false(qg_fd_is_game_data(QG_FD_TOME, "lib/edit/w_info.txt"));
}

static void walk_a_directory(void **state)
{
    (void)state;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", test_src_path("tests/data/inputs/edit"));
    const char *paths[] = {dir};
    qg_diags *d = qg_diags_new();
    qg_input *in = NULL;
    size_t count = 0;
    assert_int_equal(qg_inputs_find(paths, 1, &in, &count, d), QG_OK);
    /* byte order; the vocabulary, misc.txt, the readme, the makefile left out */
    static const char *const names[] = {"q0000001.txt", "q0000012.txt", "q_info.txt",
                                        "q_pref.txt"};
    static const qg_file_kind kinds[] = {QG_FILE_LEVEL, QG_FILE_LEVEL, QG_FILE_HUB,
                                         QG_FILE_PART};
    assert_int_equal(count, 4);
    for (size_t i = 0; i < count; i++) {
        assert_string_equal(strrchr(in[i].path, '/') + 1, names[i]);
        assert_int_equal(in[i].kind, kinds[i]);
        assert_false(in[i].named);
    }
    assert_int_equal(qg_diags_count(d), 1);
    assert_true(test_diags_contain(d, QG_NOTE,
                                   "skipped 2 game data files, not levels: f_info.txt, misc.txt"));
    qg_inputs_free(in, count);
    qg_diags_free(d);
}

/* A .des file's kind is told from its head when that shows it, from all
 * of it when the head is blank throughout: in a walk, each file gets the
 * kind its whole text gives. */
static void des_kind_from_its_head(void **state)
{
    (void)state;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/heads", test_temp_dir());
    assert_int_equal(mkdir(dir, 0755), 0);
    enum { LONG = 20000 };
    static const char *const names[] = {"blank_tmx.des", "long.des", "nul_early.des",
                                        "nul_late.des"};
    char *texts[4];
    for (int k = 0; k < 4; k++) {
        texts[k] = malloc(LONG + 64);
        assert_non_null(texts[k]);
        memset(texts[k], k == 0 ? ' ' : '#', LONG);
        for (size_t i = 80; i < LONG; i += 81)
            texts[k][i] = '\n';
    }
    strcpy(texts[0] + LONG, "<?xml version=\"1.0\"?><map/>");
    strcpy(texts[1] + LONG, "\nNAME: a\nMAP\n.\nENDMAP\n");
    texts[2][100] = '\0';
    texts[3][9000] = '\0';
    size_t lens[4] = {LONG + 27, LONG + 23, LONG, LONG};
    char path[4200];
    for (int k = 0; k < 4; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        test_write_file(path, texts[k], lens[k]);
    }
    const char *paths[] = {dir};
    qg_diags *d = qg_diags_new();
    qg_input *in = NULL;
    size_t count = 0;
    assert_int_equal(qg_inputs_find(paths, 1, &in, &count, d), QG_OK);
    /* the early NUL makes a binary file, left out */
    assert_int_equal(qg_file_kind_of(names[2], texts[2], lens[2], QG_FD_AUTO, NULL),
                     QG_FILE_OTHER);
    static const int listed[] = {0, 1, 3};
    assert_int_equal(count, 3);
    for (size_t i = 0; i < count; i++) {
        int k = listed[i];
        assert_string_equal(strrchr(in[i].path, '/') + 1, names[k]);
        assert_int_equal(in[i].kind, qg_file_kind_of(names[k], texts[k], lens[k], QG_FD_AUTO,
                                                     NULL));
    }
    assert_int_equal(in[0].kind, QG_FILE_TMX);
    assert_int_equal(in[1].kind, QG_FILE_DES);
    assert_int_equal(in[2].kind, QG_FILE_DES);
    qg_inputs_free(in, count);
    qg_diags_free(d);
    for (int k = 0; k < 4; k++)
        free(texts[k]);
}

static void named_files_are_told_apart(void **state)
{
    (void)state;
    char a[4096], b[4096], c[4096];
    snprintf(a, sizeof a, "%s", test_src_path("tests/data/inputs/edit/misc.txt"));
    snprintf(b, sizeof b, "%s", test_src_path("tests/data/inputs/edit/readme.txt"));
    snprintf(c, sizeof c, "%s", test_src_path("tests/data/inputs/edit/q_info.txt"));
    const char *paths[] = {a, b, c};
    qg_diags *d = qg_diags_new();
    qg_input *in = NULL;
    size_t count = 0;
    assert_int_equal(qg_inputs_find(paths, 3, &in, &count, d), QG_ERR_INVALID);
    assert_int_equal(count, 1);
    assert_int_equal(in[0].kind, QG_FILE_HUB);
    assert_true(in[0].named);
    assert_true(test_diags_contain(d, QG_NOTE, "skipped: game data Zangband 2.3.0 reads"));
    assert_true(test_diags_contain(d, QG_ERROR, "not a level"));
    assert_int_equal(qg_diags_count_severity(d, QG_ERROR), 1);
    qg_inputs_free(in, count);
    qg_diags_free(d);
}

static void hub_lists_its_quests(void **state)
{
    (void)state;
    qg_fd_options o;
    qg_fd_options_init(&o);
    qg_diags *d = qg_diags_new();
    qg_mapdef *hub = NULL;
    qg_fd_read(test_src_path("tests/data/inputs/edit/q_info.txt"), &o, &hub, d);
    assert_non_null(hub);
    qg_fd_hub_quest *quests = NULL;
    size_t count = 0;
    assert_int_equal(qg_fd_hub_quests(hub, &quests, &count), QG_OK);
    assert_int_equal(count, 2);
    assert_int_equal(quests[0].number, 1);
    assert_string_equal(quests[0].name, "Rat Cellar");
    assert_non_null(strstr(quests[0].file, "q0000001.txt"));
    assert_int_equal(quests[1].number, 12);
    assert_string_equal(quests[1].name, "Bat Loft");
    free(quests);
    qg_mapdef_free(hub);
    qg_diags_free(d);
}

static void detect(const char *tree, qg_des_game *out)
{
    char path[4096], vocab[4096];
    snprintf(path, sizeof path, "%s", test_src_path(tree));
    snprintf(vocab, sizeof vocab, "%s", test_src_path("lib/des/vocab"));
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_des_detect_game(vocab, path, NULL, 0, out, d), QG_OK);
    assert_int_equal(qg_diags_count(d), 0);
    qg_diags_free(d);
}

static void crawl_trees_tell_their_game(void **state)
{
    (void)state;
    qg_des_game g;
    detect("tests/data/crawltree/old/dat/des/portals/arena.des", &g);
    assert_string_equal(g.game, "crawl-0.28");
    assert_non_null(strstr(g.data_dir, "crawltree/old/dat"));
    assert_non_null(strstr(g.lua_dir, "crawltree/old/dat/dlua"));
    assert_string_equal(g.why, "des/portals/arena.des, no des/serial/demonic.des");
    qg_des_game_clear(&g);
    detect("tests/data/crawltree/new/dat", &g);
    assert_string_equal(g.game, "crawl-master");
    qg_des_game_clear(&g);
    detect("tests/data/crawltree/between/dat/des", &g);
    assert_null(g.game);
    assert_non_null(g.data_dir);
    assert_non_null(strstr(g.why, "its markers disagree"));
    qg_des_game_clear(&g);
    /* .des files alone: the game from them, no library */
    detect("tests/data/crawltree/desonly/des", &g);
    assert_string_equal(g.game, "crawl-master");
    assert_null(g.data_dir);
    assert_null(g.lua_dir);
    qg_des_game_clear(&g);
    /* neither a designer's own des/ nor a test's own dlua is Crawl's */
    detect("tests/data/crawltree/own/des/mine.des", &g);
    assert_null(g.game);
    assert_null(g.des_dir);
    qg_des_game_clear(&g);
    detect("tests/data/des/good.des", &g);
    assert_null(g.game);
    assert_null(g.data_dir);
    qg_des_game_clear(&g);
}

/* A line of markers.txt that is not a marker is an error with its line. */
static void a_bad_marker_is_an_error(void **state)
{
    (void)state;
    assert_int_equal(mkdir(test_temp_path("vocab"), 0700), 0);
    assert_int_equal(mkdir(test_temp_path("vocab/mine"), 0700), 0);
    test_write_temp("vocab/games.txt", "mine\n", 5);
    const char *bad = "has file des/a.des\nhas chapter 7\n";
    test_write_temp("vocab/mine/markers.txt", bad, strlen(bad));
    char vocab[4096];
    snprintf(vocab, sizeof vocab, "%s", test_temp_path("vocab"));
    qg_diags *d = qg_diags_new();
    qg_des_game g;
    assert_int_equal(qg_des_detect_game(vocab, test_src_path("tests/data/crawltree/old/dat"),
                                        NULL, 0, &g, d),
                     QG_ERR_PARSE);
    assert_true(test_diags_contain(d, QG_ERROR, "not a marker"));
    assert_int_equal(qg_diags_get(d, 0)->line, 2);
    qg_des_game_clear(&g);
    qg_diags_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kinds_by_bytes_and_name),
        cmocka_unit_test(fd_files_by_records),
        cmocka_unit_test(game_data_by_name),
        cmocka_unit_test(walk_a_directory),
        cmocka_unit_test(des_kind_from_its_head),
        cmocka_unit_test(named_files_are_told_apart),
        cmocka_unit_test(hub_lists_its_quests),
        cmocka_unit_test(crawl_trees_tell_their_game),
        cmocka_unit_test(a_bad_marker_is_an_error),
    };
    return cmocka_run_group_tests_name("inputs", tests, NULL, NULL);
}

/* The quests of game trees the shared corpus does not hold, where the user
 * points: $QG_VARIANTS/frogcomposband-7.2 (FrogComposband 7.2),
 * $QG_VARIANTS/zangband-2.3.5 (Zangband 2.3.5's zangband/ directory),
 * $QG_VARIANTS/poschengband-3.4.5 and $QG_VARIANTS/hengband-3.0.2.2, each
 * with its lib/edit. Without them the tests skip. The cells checked are
 * the ones the games' own loaders build (FrogComposband's rooms.c
 * build_room_template_aux, Zangband's init1.c process_dungeon_file_aux),
 * run headless on the same files. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct game {
    char edit[4096];
    char hub[4200];
    qg_vocab *vocab;
    qg_fd_options opt;
} game;

static void open_game_hub(game *g, const char *name, qg_fd_dialect dialect, const char *hub)
{
    const char *root = getenv("QG_VARIANTS");
    struct stat st;
    if (!root || !*root)
        test_skip("QG_VARIANTS is not set");
    snprintf(g->edit, sizeof g->edit, "%s/%s/lib/edit", root, name);
    snprintf(g->hub, sizeof g->hub, "%s/%s", g->edit, hub);
    if (stat(g->hub, &st) != 0)
        test_skip("%s is not there", g->hub);
    g->vocab = qg_vocab_new();
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_fd_load_vocab(g->vocab, dialect, g->edit, d), QG_OK);
    qg_diags_free(d);
    qg_fd_options_init(&g->opt);
    g->opt.dialect = dialect;
    g->opt.edit_dir = g->edit;
    g->opt.vocab = g->vocab;
}

static void open_game(game *g, const char *name, qg_fd_dialect dialect)
{
    open_game_hub(g, name, dialect, "q_info.txt");
}

static qg_cell cell_at(const qg_level *l, int x, int y)
{
    qg_cell c;
    assert_int_equal(qg_level_cell(l, x, y, &c), QG_OK);
    return c;
}

/* The quests q_info.txt gives a file and GENERATE: those with a map. */
static int frog_quests(const char *hub, int *numbers, int max)
{
    FILE *f = fopen(hub, "r");
    char line[512];
    int n = 0, id = -1, generate = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (!strncmp(line, "N:", 2)) {
            id = atoi(line + 2);
            generate = 0;
        } else if (!strncmp(line, "T:", 2)) {
            generate = strstr(line, "GENERATE") != NULL;
        } else if (!strncmp(line, "F:", 2) && generate && n < max) {
            numbers[n++] = id;
        }
    }
    if (f)
        fclose(f);
    return n;
}

static void print_errors(const qg_diags *d)
{
    for (size_t i = 0; i < qg_diags_count(d); i++)
        if (qg_diags_get(d, i)->severity == QG_ERROR)
            qg_diag_print(qg_diags_get(d, i), stderr);
}

/* Every FrogComposband 7.2 quest with a map loads without an error but
 * quest 73, whose file names an object k_info.txt no longer has (the game
 * itself stops reading it there and builds nothing); the cells are the
 * game's. */
static void frogcomposband_quests(void **state)
{
    (void)state;
    game g;
    open_game(&g, "frogcomposband-7.2", QG_FD_FROGCOMPOSBAND);
    int numbers[256];
    int n = frog_quests(g.hub, numbers, 256), loaded = 0;
    assert_int_equal(n, 68);
    for (int i = 0; i < n; i++) {
        qg_diags *d = qg_diags_new();
        qg_level *l = NULL;
        qg_status st = qg_fd_load_quest(g.hub, numbers[i], &g.opt, NULL, &l, d);
        if (numbers[i] == 73) {
            assert_int_equal(st, QG_ERR_PARSE);
            assert_true(test_diags_contain(d, QG_ERROR, "no object of k_info.txt is named "
                                                        "'mushroom of fast recovery'"));
        } else {
            print_errors(d);
            assert_int_equal(qg_diags_count_severity(d, QG_ERROR), 0);
            assert_non_null(l);
            assert_true(qg_level_player_start(l, NULL, NULL));
            loaded++;
        }
        qg_level_free(l);
        qg_diags_free(d);
    }
    assert_int_equal(loaded, 67);
    qg_vocab_free(g.vocab);
}

static qg_level *frog_quest(game *g, int number, qg_vars *vars)
{
    qg_level *l = NULL;
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_fd_load_quest(g->hub, number, &g->opt, vars, &l, d), QG_OK);
    qg_diags_free(d);
    return l;
}

/* The cells of issue 26's examples, as the game builds them. */
static void frogcomposband_cells(void **state)
{
    (void)state;
    game g;
    open_game(&g, "frogcomposband-7.2", QG_FD_FROGCOMPOSBAND);
    qg_level *l = frog_quest(&g, 2, NULL);
    int x, y;
    assert_true(qg_level_player_start(l, &x, &y));
    assert_int_equal(x * 100 + y, 401);
    qg_level_free(l);
    /* quest 1: '$' is OBJ(*): the '.' letter's floor, CAVE_ROOM; its '8'
     * a member of the FORMATION */
    l = frog_quest(&g, 1, NULL);
    qg_cell c = cell_at(l, 7, 1);
    assert_int_equal(c.feature, 1);
    assert_int_equal(c.cave_info, QG_INFO_ROOM);
    assert_int_equal(c.things[QG_SLOT_OBJECT].kind, QG_THING_RANDOM);
    c = cell_at(l, 8, 6);
    assert_int_equal(c.things[QG_SLOT_MONSTER].kind, QG_THING_FORMATION);
    assert_int_equal(c.things[QG_SLOT_MONSTER].index, 0);
    qg_level_free(l);
    /* quest 19: '%' is the surface's granite, an outer wall */
    l = frog_quest(&g, 19, NULL);
    c = cell_at(l, 33, 5);
    assert_int_equal(c.feature, 56);
    assert_int_equal(c.cave_info, QG_INFO_ROOM | QG_INFO_OUTER);
    qg_level_free(l);
    /* quest 55: '+' a secret door hidden as granite */
    l = frog_quest(&g, 55, NULL);
    c = cell_at(l, 58, 4);
    assert_int_equal(c.feature, 32);
    assert_int_equal(c.mimic, 56);
    qg_level_free(l);
    /* quest 93: the mithril chain mail's ego is the body armour's (Dwarven) */
    qg_vars *vars = qg_vars_new();
    qg_vars_set(vars, "RANDOM53", "0");
    l = frog_quest(&g, 93, vars);
    c = cell_at(l, 23, 16);
    assert_int_equal(c.things[QG_SLOT_OBJECT].index, 287);
    assert_int_equal(c.things[QG_SLOT_EGO].index, 70);
    qg_level_free(l);
    qg_vars_free(vars);
    qg_vocab_free(g.vocab);
}

/* Zangband 2.3.5's quests all load; 23 and 24 use letters no F: line of
 * theirs defines: a warning, and feature 0 there, as a fresh game's letter
 * table gives them. */
static void zangband235_quests(void **state)
{
    (void)state;
    game g;
    open_game(&g, "zangband-2.3.5", QG_FD_ZANGBAND235);
    static const int with_maps[] = {1,  2,  3,  4,  5,  6,  7,  10, 11, 12, 15, 16, 18, 19,
                                    20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33};
    for (size_t i = 0; i < sizeof with_maps / sizeof *with_maps; i++) {
        int n = with_maps[i];
        qg_diags *d = qg_diags_new();
        qg_level *l = NULL;
        assert_int_equal(qg_fd_load_quest(g.hub, n, &g.opt, NULL, &l, d), QG_OK);
        print_errors(d);
        assert_int_equal(qg_diags_count_severity(d, QG_ERROR), 0);
        if (n == 23 || n == 24) {
            assert_true(test_diags_contain(d, QG_WARNING, "is not defined by any F: line"));
            qg_cell c = cell_at(l, n == 23 ? 27 : 62, n == 23 ? 22 : 2);
            assert_int_equal(c.feature, 0);
            assert_int_equal(c.cave_info, 0);
        }
        qg_level_free(l);
        qg_diags_free(d);
    }
    qg_vocab_free(g.vocab);
}

/* The quests with a map of a game whose loader is init1.c
 * process_dungeon_file (PosChengband 3.4.5) or parse_fixed_map (Hengband
 * 3.0.2.2's fixed-map-parser.cpp and fixed-map-generator.cpp): all load
 * without an error, and quest 27's trap-tag doors are the game's (a
 * closed door, the granite it was drawn on as its mimic: parse_qtw_D). */
static void classic_quests(const char *name, qg_fd_dialect dialect, const char *hub,
                           const int *numbers, size_t count)
{
    game g;
    open_game_hub(&g, name, dialect, hub);
    for (size_t i = 0; i < count; i++) {
        qg_diags *d = qg_diags_new();
        qg_level *l = NULL;
        assert_int_equal(qg_fd_load_quest(g.hub, numbers[i], &g.opt, NULL, &l, d), QG_OK);
        print_errors(d);
        assert_int_equal(qg_diags_count_severity(d, QG_ERROR), 0);
        if (numbers[i] == 27) {
            qg_cell c = cell_at(l, 12, 1);
            assert_int_equal(c.feature, 56);
            assert_int_equal(c.things[QG_SLOT_TRAP].kind, QG_THING_TAG);
            assert_int_equal(c.things[QG_SLOT_TRAP].index, 32);
        }
        qg_level_free(l);
        qg_diags_free(d);
    }
    qg_vocab_free(g.vocab);
}

static void poschengband345_quests(void **state)
{
    (void)state;
    static const int with_maps[] = {1,  2,  3,  4,  5,  6,  7,  10, 11, 12, 15, 16, 19, 20,
                                    21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33};
    classic_quests("poschengband-3.4.5", QG_FD_POSCHENGBAND, "q_info.txt", with_maps,
                   sizeof with_maps / sizeof *with_maps);
}

static void hengband3_quests(void **state)
{
    (void)state;
    static const int with_maps[] = {1,  2,  3,  4,  5,  6,  7,  10, 11, 12, 13, 15, 16, 18, 19,
                                    20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34};
    classic_quests("hengband-3.0.2.2", QG_FD_HENGBAND3, "QuestDefinitionList.txt", with_maps,
                   sizeof with_maps / sizeof *with_maps);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(frogcomposband_quests),
        cmocka_unit_test(frogcomposband_cells),
        cmocka_unit_test(zangband235_quests),
        cmocka_unit_test(poschengband345_quests),
        cmocka_unit_test(hengband3_quests),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

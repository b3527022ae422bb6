/* Every dialect table on small fixtures written for questgrid
 * (tests/data/fd/dialects/NAME, not copies of the games' files): the
 * edit directory tells the dialect, each form of its records reads as its
 * game reads it, and every level goes through .des and TMX and back the
 * same. */
#define _POSIX_C_SOURCE 200809L
#include "fd_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void detection(void **state)
{
    (void)state;
    static const struct {
        const char *dir;
        qg_fd_dialect dialect;
    } dirs[] = {{"hengband3", QG_FD_HENGBAND3},       {"poschengband", QG_FD_POSCHENGBAND},
                {"frogcomposband", QG_FD_FROGCOMPOSBAND}, {"zangband235", QG_FD_ZANGBAND235},
                {"angband4", QG_FD_ANGBAND4},         {"tome", QG_FD_TOME},
                {"poschengband7", QG_FD_POSCHENGBAND7}};
    char dir[4096];
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        snprintf(dir, sizeof dir, "%s/%s", test_src_path("tests/data/fd/dialects"), dirs[i].dir);
        assert_int_equal(qg_fd_detect_edit_dir(dir, NULL), dirs[i].dialect);
    }
    /* a room template file beside vault.txt is told by its name */
    snprintf(dir, sizeof dir, "%s/angband4", test_src_path("tests/data/fd/dialects"));
    assert_int_equal(qg_fd_detect_edit_dir(dir, "x/room_template.txt"), QG_FD_ANGBAND4_ROOMS);
    /* only a name a signature holds can change the answer */
    assert_true(qg_fd_edit_dir_names("x/room_template.txt"));
    assert_true(qg_fd_edit_dir_names("q_info.txt"));
    assert_false(qg_fd_edit_dir_names("x/q0000001.txt"));
    assert_false(qg_fd_edit_dir_names(NULL));
    assert_int_equal(qg_fd_detect_edit_dir(dir, "x/q0000001.txt"), qg_fd_detect_edit_dir(dir, NULL));
    assert_int_equal(qg_fd_dialect_from_name("frog"), QG_FD_FROGCOMPOSBAND);
    assert_string_equal(qg_fd_dialect_name(QG_FD_HENGBAND3), "hengband3");
    assert_string_equal(qg_fd_vocab_file(QG_FD_HENGBAND3, QG_VOCAB_FEATURE),
                        "TerrainDefinitions.txt");
    assert_string_equal(qg_fd_quest_hub(QG_FD_HENGBAND3), "QuestDefinitionList.txt");
}

/* English file names, a quest folder, an include with a trailing space,
 * tags, clones, trap tags, bilingual Q: lines. */
static void hengband3(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, "hengband3");
    qg_level *l = quest(&f, "QuestDefinitionList.txt", 1, NULL);
    assert_string_equal(qg_level_name(l), "The Cellar");
    assert_string_equal(qg_level_get_property(l, "quest_text"), "Rats live below the inn.");
    qg_cell rat = cell_at(l, 3, 1), clone = cell_at(l, 3, 2), pit = cell_at(l, 5, 1);
    assert_string_equal(rat.feature_name, "grass");
    assert_int_equal(rat.things[QG_SLOT_MONSTER].index, 2);
    assert_int_equal(clone.things[QG_SLOT_MONSTER].kind, QG_THING_CLONE);
    assert_int_equal(pit.things[QG_SLOT_TRAP].kind, QG_THING_TAG);
    assert_int_equal(pit.things[QG_SLOT_TRAP].index, 17);
    int x, y;
    assert_true(qg_level_player_start(l, &x, &y));
    assert_int_equal(x * 10 + y, 11);
    qg_level_free(l);
    /* a quest of Q: records only: a kill-level quest, no map */
    no_map(&f, "QuestDefinitionList.txt", 2,
           "quest 2 (The Hunt) has no map: it is a kill-level quest (type 1), and the dungeon "
           "generator makes its level, at dungeon level 10");
    /* Hengband 2.x keeps the space of "%:name ": the file is not found */
    f.opt.dialect = QG_FD_HENGBAND;
    qg_fd_load_quest(file_of(&f, "QuestDefinitionList.txt"), 1, &f.opt, NULL, &l, f.diags);
    assert_true(test_diags_contain(f.diags, QG_ERROR,
                                   "cannot find include 'quests/001_Cellar.txt '"));
    qg_level_free(l);
    close_fixture(&f);
}

/* English-only Q: lines, OR, '!' objects with an ego, a quest without a
 * map, T:/L: room letters and !:SCRAMBLE beside D: rows. */
static void poschengband(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, "poschengband");
    qg_vars *vars = qg_vars_new();
    qg_vars_set(vars, "QUEST1", "Taken");
    qg_level *l = quest(&f, "q_info.txt", 1, vars);
    assert_string_equal(qg_level_name(l), "The Burrow");
    assert_string_equal(qg_level_get_property(l, "quest_text"), "Clear the burrow.");
    assert_string_equal(qg_level_get_property(l, "quest_dungeon"), "0");
    qg_cell bang = cell_at(l, 3, 1);
    assert_int_equal(bang.things[QG_SLOT_OBJECT].index, 3);
    assert_int_equal(bang.things[QG_SLOT_EGO].index, 2);
    qg_level_free(l);
    no_map(&f, "q_info.txt", 2, "quest 2 (The Wolf) has no map: it is a kill-level quest");
    /* a room-template quest map: '@' the player's start, '.' and '%' the
     * letters every room template may use */
    l = quest(&f, "q_info.txt", 4, NULL);
    int sx, sy;
    assert_true(qg_level_player_start(l, &sx, &sy));
    assert_int_equal(sx * 10 + sy, 11);
    assert_int_equal(cell_at(l, 3, 1).cave_info, QG_INFO_OUTER);
    assert_string_equal(cell_at(l, 3, 1).feature_name, "GRANITE");
    qg_level_free(l);
    l = quest(&f, "q_info.txt", 3, NULL);
    qg_cell grass = cell_at(l, 1, 1), wolf = cell_at(l, 2, 1), tree = cell_at(l, 3, 1);
    assert_int_equal(grass.cave_info, QG_INFO_ROOM | QG_INFO_GLOW);
    assert_int_equal(wolf.things[QG_SLOT_MONSTER].kind, QG_THING_NAME);
    assert_string_equal(wolf.things[QG_SLOT_MONSTER].name, "wolf, NO_GROUP");
    assert_int_equal(tree.feature, 96);
    assert_int_equal(tree.things[QG_SLOT_MONSTER].index, 2);
    assert_string_equal(qg_level_get_property(l, "type"), "QUEST:NORMAL");
    assert_string_equal(qg_level_get_property(l, "scramble"), "SCRAMBLE(w,t)");
    assert_int_equal(qg_diags_count_severity(f.diags, QG_WARNING), 0);
    qg_level_free(l);
    /* read as Hengband, the plain Q: lines are Japanese and skipped */
    f.opt.dialect = QG_FD_HENGBAND;
    assert_int_equal(qg_fd_load_quest(file_of(&f, "q_info.txt"), 2, &f.opt, NULL, &l, f.diags),
                     QG_ERR_NOTFOUND);
    qg_vars_free(vars);
    close_fixture(&f);
}

/* q_info.txt records (CRLF), a quest's own file of room-template
 * records: D: text, R:, k_info's N:* numbering; quests without a map.
 * What the room templates build is test_fd_rooms.c's. */
static void frogcomposband(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, "frogcomposband");
    qg_vars *vars = qg_vars_new();
    qg_vars_set(vars, "QUEST1", "Taken");
    qg_level *l = quest(&f, "q_info.txt", 1, vars);
    assert_string_equal(qg_level_name(l), "The Cellar (Outpost)");
    assert_string_equal(qg_level_get_property(l, "quest_level"), "5");
    assert_string_equal(qg_level_get_property(l, "quest_goal"), "KILL(rat, 4)");
    assert_string_equal(qg_level_get_property(l, "quest_text"), "Rats live below the inn.");
    assert_string_equal(qg_level_get_property(l, "scramble"), "SCRAMBLE(a,b)");
    assert_string_equal(qg_level_get_property(l, "reward"), "OBJ(long sword)");
    qg_level_free(l);
    l = quest(&f, "q_info.txt", 2, NULL);
    assert_string_equal(qg_level_name(l), "The Hall\\: Lower");
    qg_cell t = cell_at(l, 2, 1);
    assert_int_equal(t.things[QG_SLOT_MONSTER].index, 3);
    assert_int_equal(t.things[QG_SLOT_OBJECT].index, 7);
    assert_int_equal(t.things[QG_SLOT_EGO].kind, QG_THING_RANDOM);
    assert_int_equal(t.cave_info, QG_INFO_ROOM);
    qg_level_free(l);
    /* records without a map: a random quest, a quest without GENERATE
     * (played in its dungeon), and one whose file draws no map */
    no_map(&f, "q_info.txt", 40,
           "quest 40 (Random 1) has no map: it is a random quest (type RANDOM | RETAKE), and "
           "the dungeon generator makes its level, in dungeon 'angband' at level 10");
    no_map(&f, "q_info.txt", 14,
           "quest 14 (Pest Control) has no map: its type (TOWN) lacks GENERATE, so the dungeon "
           "generator makes its level, in dungeon 'warren' at level 5");
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_fd_load_quest(file_of(&f, "q_info.txt"), 3, &f.opt, NULL, &l, d),
                     QG_ERR_NOTFOUND);
    assert_true(test_diags_contain(d, QG_ERROR,
                                   "quest 3 (The Lost Map) has no map: its type (TOWN | GENERATE) "
                                   "calls for a level of its own, but no map rows are read for it"));
    qg_diags_free(d);
    assert_string_equal(qg_vocab_name(f.vocab, QG_VOCAB_OBJECT, 1), "Poison");
    assert_string_equal(qg_vocab_name(f.vocab, QG_VOCAB_OBJECT, 2), "Blindness");
    assert_string_equal(qg_vocab_name(f.vocab, QG_VOCAB_OBJECT, 33), "& Hard Biscuit~");
    qg_vars_free(vars);
    close_fixture(&f);
}

/* PosChengband 7: FrogComposband's records and room templates (told
 * apart by its m_info.txt), PosChengband's own OR and MOD, no NEQ; a
 * quest record without a file (a random quest) loads no map. */
static void poschengband7(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, "poschengband7");
    qg_vars *vars = qg_vars_new();
    qg_vars_set(vars, "QUEST1", "Taken");
    qg_level *l = quest(&f, "q_info.txt", 1, vars);
    assert_string_equal(qg_level_name(l), "The Thieves' Hideout");
    assert_string_equal(qg_level_get_property(l, "quest_level"), "5");
    assert_string_equal(qg_level_get_property(l, "quest_text"),
                        "There are thieves robbing my people!");
    /* a FORMATION member; PosChengband 7's digits put no objects */
    qg_cell member = cell_at(l, 3, 1);
    assert_int_equal(member.things[QG_SLOT_MONSTER].kind, QG_THING_FORMATION);
    assert_int_equal(member.things[QG_SLOT_MONSTER].index, 4);
    assert_int_equal(member.things[QG_SLOT_MONSTER].depth, 5);
    qg_level_free(l);
    /* no global letters: the letters its rooms.c gives a meaning in code */
    l = quest(&f, "q_info.txt", 6, NULL);
    assert_int_equal(cell_at(l, 0, 0).feature, 60);
    assert_int_equal(cell_at(l, 0, 0).cave_info, QG_INFO_ROOM | QG_INFO_INNER);
    assert_string_equal(cell_at(l, 3, 1).feature_name, "GLASS_WALL");
    assert_int_equal(cell_at(l, 1, 1).things[QG_SLOT_MONSTER].index, 5);
    /* '@' no L: line defines: a meaner monster; the start is the '<' */
    assert_int_equal(cell_at(l, 2, 2).things[QG_SLOT_MONSTER].index, 11);
    int px, py;
    assert_true(qg_level_player_start(l, &px, &py));
    assert_int_equal(px * 10 + py, 12);
    qg_level_free(l);
    l = quest(&f, "q_info.txt", 31, NULL);
    assert_string_equal(qg_level_name(l), "Old Man Willow Quest");
    assert_string_equal(qg_level_get_property(l, "quest_goal"), "KILL(old man willow)");
    assert_int_equal(cell_at(l, 2, 1).things[QG_SLOT_MONSTER].index, 4);
    assert_int_equal(cell_at(l, 1, 1).feature, 96);
    qg_level_free(l);
    char out[64];
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_fd_eval("[MOD 7 4]", 9, QG_FD_POSCHENGBAND7, NULL, out, sizeof out,
                                "x.txt", 1, d), QG_OK);
    assert_string_equal(out, "3");
    assert_int_equal(qg_fd_eval("[NEQ 1 2]", 9, QG_FD_POSCHENGBAND7, NULL, out, sizeof out,
                                "x.txt", 1, d), QG_OK);
    assert_string_equal(out, "?o?o?");
    qg_diags_free(d);
    assert_int_equal(qg_fd_dialect_from_name("pos7"), QG_FD_POSCHENGBAND7);
    qg_vars_free(vars);
    close_fixture(&f);
}

/* Zangband 2.3.5 reads no P: lines: warned, and the level has no start. */
static void zangband235(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, "zangband235");
    qg_level *l = quest(&f, "q_info.txt", 1, NULL);
    assert_false(qg_level_player_start(l, NULL, NULL));
    assert_true(test_diags_contain(f.diags, QG_WARNING, "reads no P: lines"));
    assert_int_equal(cell_at(l, 2, 1).things[QG_SLOT_MONSTER].index, 44);
    qg_level_free(l);
    close_fixture(&f);
}

/* Angband 4.2: name: records, the built-in legend, symbols standing for
 * monsters, spaces outside the vault. */
static void angband4(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, "angband4");
    qg_level *l = quest(&f, "vault.txt", 1, NULL);
    assert_string_equal(qg_level_name(l), "Tiny box");
    assert_int_equal(qg_level_width(l), 7);
    assert_string_equal(qg_level_get_property(l, "rows"), "4");
    qg_cell door = cell_at(l, 2, 1), orc = cell_at(l, 2, 2), outer = cell_at(l, 0, 0);
    assert_string_equal(door.feature_name, "secret door");
    assert_string_equal(orc.things[QG_SLOT_MONSTER].name, "o");
    assert_int_equal(outer.cave_info, QG_INFO_OUTER);
    qg_level_free(l);
    l = quest(&f, "vault.txt", 2, NULL);
    assert_string_equal(qg_level_name(l), "Moat");
    assert_false(cell_at(l, 0, 0).in_map);
    qg_level_free(l);
    f.opt.dialect = QG_FD_ANGBAND4_ROOMS;
    l = quest(&f, "room_template.txt", 1, NULL);
    assert_int_equal(cell_at(l, 1, 1).special, 1);
    assert_int_equal(cell_at(l, 2, 1).things[QG_SLOT_OBJECT].kind, QG_THING_NAME);
    qg_level_free(l);
    close_fixture(&f);
}

/* Angband 4.2 turns a vault or room template as gen-room.c build_vault
 * and build_room_template turn it where find_space places it:
 * gen-chunk.c get_random_symmetry_transform, the four transforms that
 * keep the width always, the four that swap it with the height only when
 * calc_default_transpose_weight gives them a weight (not when the map is
 * twice as wide as high); seeded, one is drawn and applied. */
static void angband4_turns(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, "angband4");
    int applied;
    qg_level *l = quest(&f, "vault.txt", 1, NULL);
    assert_int_equal(qg_level_turns(l, &applied), QG_TURNS_ANY);
    assert_int_equal(applied, -1);
    qg_level_free(l);
    l = quest(&f, "vault.txt", 3, NULL);
    assert_string_equal(qg_level_name(l), "Corridor");
    assert_int_equal(qg_level_turns(l, NULL), 0x55u);
    qg_level_free(l);
    f.opt.seeded = 1;
    unsigned seen = 0, seen_wide = 0;
    for (unsigned long long seed = 0; seed < 256; seed++) {
        f.opt.seed = seed;
        l = quest(&f, "vault.txt", 1, NULL);
        qg_level_turns(l, &applied);
        assert_true(applied >= 0 && applied < 8);
        seen |= 1u << applied;
        /* 7 x 4, 4 x 7 when turned a quarter (about one draw in eight:
           their weight is 4608 to 32768 at this size) */
        int quarter = applied & 1;
        assert_int_equal(qg_level_width(l), quarter ? 4 : 7);
        qg_level_free(l);
        l = quest(&f, "vault.txt", 3, NULL);
        qg_level_turns(l, &applied);
        seen_wide |= 1u << applied;
        assert_int_equal(qg_level_width(l), 8);
        qg_level_free(l);
    }
    assert_int_equal(seen, QG_TURNS_ANY);
    assert_int_equal(seen_wide, 0x55u);
    close_fixture(&f);
}

/* Quests, towns and wilderness are laid as the file says: the classic
 * loaders (init1.c process_dungeon_file, Hengband 3's parse_fixed_map,
 * ToME's init1.cc) write each D: row at its place, never turned. */
static void never_turned(void **state)
{
    (void)state;
    static const struct {
        const char *dir, *hub;
        int quest;
    } quests[] = {{"zangband235", "q_info.txt", 1}, {"hengband3", "QuestDefinitionList.txt", 1},
                  {"poschengband", "q_info.txt", 3}};
    for (size_t i = 0; i < sizeof quests / sizeof *quests; i++) {
        fixture f;
        open_fixture(&f, quests[i].dir);
        qg_level *l = quest(&f, quests[i].hub, quests[i].quest, NULL);
        int applied;
        assert_int_equal(qg_level_turns(l, &applied), QG_TURNS_NONE);
        assert_int_equal(applied, -1);
        qg_level_free(l);
        close_fixture(&f);
    }
}

/* ToME: special, mimic, mflag; a quest named as a special; gate pairs. */
static void tome(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, "tome");
    qg_level *l = NULL;
    assert_int_equal(qg_fd_load_file(file_of(&f, "grove.map"), &f.opt, NULL, &l, f.diags), QG_OK);
    rt_counts counts = {0, 0, 0};
    rt_level_round_trips(&f.rt, l, &f.opt, file_of(&f, "grove.map"), "grove.map", &counts);
    assert_int_equal(counts.des_exact + counts.tmx_exact, 2);
    assert_int_equal(cell_at(l, 1, 1).special, (2 << 8) + 3);
    assert_int_equal(cell_at(l, 3, 2).special, (1 << 8) + 1);
    assert_int_equal(cell_at(l, 3, 1).mflag, 2);
    assert_string_equal(qg_vocab_name(f.vocab, QG_VOCAB_MONSTER, 44), "Novice rogue");
    qg_level_free(l);
    close_fixture(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(detection),      cmocka_unit_test(hengband3),
        cmocka_unit_test(poschengband),   cmocka_unit_test(frogcomposband),
        cmocka_unit_test(zangband235),    cmocka_unit_test(angband4), cmocka_unit_test(angband4_turns), cmocka_unit_test(never_turned),
        cmocka_unit_test(tome),           cmocka_unit_test(poschengband7),
    };
    return cmocka_run_group_tests_name("fd_dialects", tests, NULL, NULL);
}

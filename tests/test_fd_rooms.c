/* FrogComposband's room templates, rule by rule, on the fixture
 * tests/data/fd/dialects/frogcomposband (written for questgrid in the
 * game's formats): each test cites the function of FrogComposband 7.2's
 * source that does what it checks, and every level also goes through .des
 * and TMX and back the same (fd_fixture.c). */
#define _POSIX_C_SOURCE 200809L
#include "fd_fixture.h"

#include <stdio.h>
#include <string.h>

static qg_level *frog_quest(fixture *f, int number)
{
    return quest(f, "q_info.txt", number, NULL);
}

static const qg_thing *thing(const qg_level *l, int x, int y, qg_slot slot)
{
    static qg_cell c;
    c = cell_at(l, x, y);
    return &c.things[slot];
}

/* rooms.c build_room_template_aux, first pass: the dungeon's floor, then
 * the '.' letter's terrain, then CAVE_ROOM; a letter with a feature takes
 * its flags (_apply_room_grid_feat keeps only the generator's wall bits),
 * one without keeps the '.' terrain and CAVE_ROOM. */
static void terrain_under_letters(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, "frogcomposband");
    qg_vars *vars = qg_vars_new();
    qg_vars_set(vars, "QUEST1", "Taken");
    qg_level *l = quest(&f, "q_info.txt", 1, vars);
    /* 'a' (ART(sting)) has no feature: '.' is FLOOR(ROOM) */
    assert_int_equal(cell_at(l, 5, 1).feature, 1);
    assert_int_equal(cell_at(l, 5, 1).cave_info, QG_INFO_ROOM);
    /* '@' is FLOOR without flags: no CAVE_ROOM */
    assert_int_equal(cell_at(l, 1, 1).feature, 1);
    assert_int_equal(cell_at(l, 1, 1).cave_info, 0);
    qg_level_free(l);
    /* '.' FLOOR(ROOM | ICKY | GLOW); '#' GRANITE(OUTER) takes OUTER only */
    l = frog_quest(&f, 2);
    assert_int_equal(cell_at(l, 1, 1).cave_info, QG_INFO_ROOM | QG_INFO_ICKY | QG_INFO_GLOW);
    assert_int_equal(cell_at(l, 0, 0).cave_info, QG_INFO_OUTER);
    qg_level_free(l);
    qg_vars_free(vars);
    close_fixture(&f);
}

/* rooms.c build_room_template_aux: the switch after _find_room_grid gives
 * letters no L: line defines their meaning in code: the surface's granite
 * as outer and inner walls (place_outer_noperm_grid, place_inner_grid),
 * glass and permanent walls, secret doors hidden as the inner wall
 * (place_secret_door: closed 300/400, locked 99/400, jammed 1/400), the
 * curtain; on the second pass '@' is a meaner monster (MON(*, DEPTH+11)). */
static void fixed_letters(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, "frogcomposband");
    qg_level *l = frog_quest(&f, 4);
    qg_cell c = cell_at(l, 0, 0);
    assert_int_equal(c.feature, 56);
    assert_int_equal(c.cave_info, QG_INFO_ROOM | QG_INFO_OUTER);
    c = cell_at(l, 2, 2);
    assert_int_equal(c.feature, 56);
    assert_int_equal(c.cave_info, QG_INFO_ROOM | QG_INFO_INNER);
    assert_int_equal(cell_at(l, 3, 2).feature, 218);
    assert_int_equal(cell_at(l, 2, 3).feature, 60);
    assert_int_equal(cell_at(l, 4, 3).feature, 219);
    c = cell_at(l, 1, 2);
    assert_int_equal(c.feature, 32);
    assert_int_equal(c.mimic, 56);
    assert_int_equal(c.cave_info, QG_INFO_ROOM);
    int x, y;
    assert_string_equal(qg_level_marker(l, 0, &x, &y),
                        "random door: closed 300/400, locked 99/400 (LOCKED_DOOR_1-7), "
                        "jammed 1/400 (JAMMED_DOOR_0-7)");
    assert_int_equal(x * 10 + y, 12);
    c = cell_at(l, 3, 3);
    assert_int_equal(c.feature, 202);
    assert_int_equal(c.mimic, 218);
    assert_int_equal(cell_at(l, 1, 3).feature, 221);
    assert_int_equal(cell_at(l, 1, 3).mimic, 0);
    assert_false(qg_level_player_start(l, NULL, NULL));
    qg_level_free(l);
    l = frog_quest(&f, 6);
    const qg_thing *m = thing(l, 2, 2, QG_SLOT_MONSTER);
    assert_int_equal(m->kind, QG_THING_RANDOM);
    assert_int_equal(m->index, 11);
    qg_level_free(l);
    close_fixture(&f);
}

/* init1.c parse_v_info: v_info.txt's L: lines before the first room are
 * letters every room and quest map may use (room_letters); rooms.c
 * _find_room_grid takes a room's own letter first, and never a global one
 * for a FORMATION room's digits. */
static void global_letters(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, "frogcomposband");
    qg_level *l = frog_quest(&f, 4);
    const qg_thing *o = thing(l, 2, 1, QG_SLOT_OBJECT);
    assert_int_equal(o->kind, QG_THING_RANDOM);
    assert_string_equal(o->name, "RING");
    assert_int_equal(o->index, 3);
    const qg_thing *m = thing(l, 3, 1, QG_SLOT_MONSTER);
    assert_int_equal(m->index, 15);
    assert_int_equal(m->flags, QG_THING_ALONE);
    assert_int_equal(thing(l, 3, 1, QG_SLOT_EGO)->kind, QG_THING_RANDOM);
    assert_int_equal(thing(l, 4, 2, QG_SLOT_MONSTER)->index, 5);
    qg_level_free(l);
    /* the FORMATION room's '9' is a member, not the global 9 */
    l = frog_quest(&f, 5);
    assert_int_equal(thing(l, 2, 1, QG_SLOT_MONSTER)->kind, QG_THING_FORMATION);
    assert_int_equal(thing(l, 2, 1, QG_SLOT_OBJECT)->kind, QG_THING_NONE);
    qg_level_free(l);
    close_fixture(&f);
}

/* rooms.c build_room_template_aux, second pass: in a quest the '@' letter
 * is the player's start, else the last '<' (when no '@' letter is
 * defined); an '@' no L: line defines is no start. */
static void player_start(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, "frogcomposband");
    qg_vars *vars = qg_vars_new();
    qg_vars_set(vars, "QUEST1", "Taken");
    qg_level *l = quest(&f, "q_info.txt", 1, vars);
    int x, y;
    assert_true(qg_level_player_start(l, &x, &y));
    assert_int_equal(x * 10 + y, 11);
    qg_level_free(l);
    l = frog_quest(&f, 6);
    assert_true(qg_level_player_start(l, &x, &y));
    assert_int_equal(x * 10 + y, 31);
    qg_level_free(l);
    qg_vars_free(vars);
    close_fixture(&f);
}

/* init1.c parse_room_line, !:SCRAMBLE: each letter of the list stands for
 * another of it (rand_range(i, n - 1) for each i, read by _find_room_grid);
 * unseeded none is drawn, with --seed the draw is the level's. A letter
 * not yet defined stops the game's reading: no level. */
static void scramble(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, "frogcomposband");
    qg_vars *vars = qg_vars_new();
    qg_vars_set(vars, "QUEST1", "Taken");
    qg_level *l = quest(&f, "q_info.txt", 1, vars);
    assert_string_equal(qg_level_get_property(l, "scramble"), "SCRAMBLE(a,b)");
    assert_null(qg_level_get_property(l, "scrambled"));
    assert_int_equal(thing(l, 5, 1, QG_SLOT_ARTIFACT)->kind, QG_THING_INDEX);
    qg_level_free(l);
    /* drawn with a seed (the level's draw is no record of the file: these
       go through no round trip) */
    f.opt.seeded = 1;
    int swapped = 0, kept = 0;
    for (unsigned long long seed = 1; seed <= 16; seed++) {
        f.opt.seed = seed;
        assert_int_equal(qg_fd_load_quest(file_of(&f, "q_info.txt"), 1, &f.opt, vars, &l, f.diags),
                         QG_OK);
        const char *drawn = qg_level_get_property(l, "scrambled");
        assert_non_null(drawn);
        /* the map may be turned too: find 'a' */
        for (int y = 0; y < qg_level_height(l); y++)
            for (int x = 0; x < qg_level_width(l); x++) {
                if (cell_at(l, x, y).glyph != 'a')
                    continue;
                if (!strcmp(drawn, "ab ba")) {
                    swapped++;
                    assert_int_equal(thing(l, x, y, QG_SLOT_OBJECT)->index, 42);
                } else {
                    kept++;
                    assert_string_equal(drawn, "aa bb");
                    assert_int_equal(thing(l, x, y, QG_SLOT_ARTIFACT)->index, 1);
                }
            }
        qg_level_free(l);
    }
    assert_true(swapped > 0 && kept > 0);
    f.opt.seeded = 0;
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_fd_load_quest(file_of(&f, "q_info.txt"), 13, &f.opt, NULL, &l, d),
                     QG_ERR_PARSE);
    assert_null(l);
    assert_true(test_diags_contain(d, QG_ERROR, "SCRAMBLE: letter 'b' is not a letter of this "
                                                "room yet (the game stops reading the file "
                                                "here: \"Undefined letter\")"));
    qg_diags_free(d);
    qg_vars_free(vars);
    close_fixture(&f);
}

/* rooms.c build_room_template_aux and _init_formation: a FORMATION room's
 * digits are the ten monsters drawn from its '0' letter's kind, strongest
 * first; the digit's own letter gives the rest of the square. */
static void formation(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, "frogcomposband");
    qg_vars *vars = qg_vars_new();
    qg_vars_set(vars, "QUEST1", "Taken");
    qg_level *l = quest(&f, "q_info.txt", 1, vars);
    const qg_thing *m = thing(l, 2, 2, QG_SLOT_MONSTER);
    assert_int_equal(m->kind, QG_THING_FORMATION);
    assert_int_equal(m->index, 1);
    assert_string_equal(m->name, "r");
    assert_int_equal(m->depth, 2);
    assert_int_equal(thing(l, 3, 1, QG_SLOT_MONSTER)->index, 0);
    assert_int_equal(cell_at(l, 3, 2).cave_info, QG_INFO_ROOM);
    qg_level_free(l);
    qg_vars_free(vars);
    close_fixture(&f);
}

static int has_turn(const qg_level *l, int t)
{
    return (qg_level_turns(l, NULL) >> t) & 1u;
}

/* quest.c _generate and rooms.c transform_alloc_room: the game turns a
 * quest map at random, a quarter turn only when the turned map fits and
 * keeps its look (transform_alloc_random), never a NO_ROTATE room; a quest
 * level is whole 66 x 22 screens. With a seed questgrid picks one as the
 * game does and turns the map, its start with it. */
static void transform(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, "frogcomposband");
    qg_level *l = frog_quest(&f, 7);
    int applied;
    assert_int_equal(qg_level_turns(l, &applied), QG_TURNS_NONE);
    assert_int_equal(applied, -1);
    qg_level_free(l);
    l = frog_quest(&f, 12);
    assert_true(has_turn(l, 2) && has_turn(l, 4) && has_turn(l, 6));
    assert_false(has_turn(l, 1) || has_turn(l, 3));
    assert_string_equal(qg_level_get_property(l, "cur_wid"), "66");
    assert_string_equal(qg_level_get_property(l, "cur_hgt"), "22");
    qg_level_free(l);
    l = frog_quest(&f, 11);
    assert_int_equal(qg_level_turns(l, NULL), QG_TURNS_ANY);
    qg_level_free(l);
    f.opt.seeded = 1;
    unsigned seen = 0;
    for (unsigned long long seed = 0; seed < 64; seed++) {
        f.opt.seed = seed;
        l = frog_quest(&f, 11);
        qg_level_turns(l, &applied);
        assert_true(applied >= 0 && applied < 8);
        seen |= 1u << applied;
        /* '@' in the top left corner, '#' in the bottom right */
        static const int corner[8][2] = {{0, 0}, {2, 0}, {2, 2}, {0, 2},
                                         {2, 0}, {0, 0}, {0, 2}, {2, 2}};
        int x, y;
        assert_true(qg_level_player_start(l, &x, &y));
        assert_int_equal(x, corner[applied][0]);
        assert_int_equal(y, corner[applied][1]);
        assert_int_equal(cell_at(l, 2 - x, 2 - y).glyph, '#');
        qg_level_free(l);
    }
    assert_int_equal(seen, QG_TURNS_ANY);
    close_fixture(&f);
}

/* init1.c _parse_room_grid_feature, _monster, _object, _trap: n% options;
 * rooms.c _apply_room_grid_feat lays floor when the feature's roll fails
 * and places a random trap only on floor (place_trap: cave_clean_bold),
 * _apply_room_grid_obj puts an object only where the terrain takes one
 * (cave_drop_bold): a trap never does. */
static void chances(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, "frogcomposband");
    qg_level *l = frog_quest(&f, 7);
    qg_cell c = cell_at(l, 1, 1);
    assert_int_equal(c.feature, 49);
    assert_int_equal(c.feature_chance, 60);
    assert_int_equal(thing(l, 2, 1, QG_SLOT_MONSTER)->chance, 50);
    assert_int_equal(thing(l, 3, 1, QG_SLOT_OBJECT)->chance, 15);
    const qg_thing *t = thing(l, 4, 1, QG_SLOT_TRAP);
    assert_int_equal(t->kind, QG_THING_RANDOM);
    assert_int_equal(t->chance, 25);
    assert_int_equal(thing(l, 4, 1, QG_SLOT_OBJECT)->flags, QG_THING_UNTRAPPED);
    /* a trap that always comes keeps the object away */
    assert_int_equal(thing(l, 5, 1, QG_SLOT_TRAP)->index, 24);
    assert_int_equal(thing(l, 5, 1, QG_SLOT_OBJECT)->kind, QG_THING_NONE);
    /* granite is no floor for a random trap */
    assert_int_equal(thing(l, 6, 1, QG_SLOT_TRAP)->kind, QG_THING_NONE);
    assert_int_equal(thing(l, 7, 1, QG_SLOT_TRAP)->chance, 40);
    assert_int_equal(thing(l, 7, 1, QG_SLOT_OBJECT)->index, 40);
    assert_int_equal(thing(l, 7, 1, QG_SLOT_OBJECT)->flags, QG_THING_UNTRAPPED);
    qg_level_free(l);
    close_fixture(&f);
}

/* init1.c parse_room_grid: OBJ() and ART() share the grid's object field
 * (the later one wins, an artifact of an object's index), EGO() looks the
 * name up among the egos of the object named before it (_lookup_ego_type,
 * _lookup_ego) or among all; rooms.c room_grid_make_obj forces that ego on
 * a named object, a random ego or artifact only with an object. */
static void egos_and_artifacts(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, "frogcomposband");
    qg_level *l = frog_quest(&f, 8);
    assert_int_equal(thing(l, 0, 0, QG_SLOT_OBJECT)->index, 43);
    assert_int_equal(thing(l, 0, 0, QG_SLOT_EGO)->index, 70);
    assert_int_equal(thing(l, 1, 0, QG_SLOT_EGO)->index, 60);
    assert_int_equal(thing(l, 2, 0, QG_SLOT_ARTIFACT)->index, 1);
    assert_int_equal(thing(l, 2, 0, QG_SLOT_OBJECT)->kind, QG_THING_NONE);
    assert_int_equal(thing(l, 3, 0, QG_SLOT_ARTIFACT)->index, 47);
    assert_int_equal(thing(l, 4, 0, QG_SLOT_OBJECT)->index, 5);
    assert_int_equal(thing(l, 4, 0, QG_SLOT_EGO)->kind, QG_THING_RANDOM);
    assert_string_equal(thing(l, 5, 0, QG_SLOT_OBJECT)->name, "RING");
    assert_int_equal(thing(l, 5, 0, QG_SLOT_EGO)->index, 71);
    assert_int_equal(thing(l, 6, 0, QG_SLOT_ARTIFACT)->index, 2);
    assert_int_equal(thing(l, 7, 0, QG_SLOT_OBJECT)->index, 40);
    assert_int_equal(thing(l, 8, 0, QG_SLOT_OBJECT)->index, 46);
    qg_level_free(l);
    close_fixture(&f);
}

/* init1.c _parse_room_grid_monster and parse_lookup_monster: '*', an
 * index, a monster symbol, a summon type, else the first monster whose
 * lowered name holds the text (a DEPRECATED one only when no other does);
 * _lookup_kind names mushrooms, potions and scrolls "mushroom of …";
 * OBJ(WAND_…) a device of that effect. A name the game cannot find stops
 * its reading of the quest's file: that quest gives no level, the others
 * load. */
static void name_lookups(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, "frogcomposband");
    qg_level *l = frog_quest(&f, 9);
    assert_int_equal(thing(l, 0, 0, QG_SLOT_MONSTER)->index, 6);
    const qg_thing *m = thing(l, 1, 0, QG_SLOT_MONSTER);
    assert_int_equal(m->kind, QG_THING_RANDOM);
    assert_string_equal(m->name, "C");
    m = thing(l, 2, 0, QG_SLOT_MONSTER);
    assert_string_equal(m->name, "ORC");
    assert_int_equal(m->index, 4);
    assert_int_equal(m->flags, QG_THING_AWAKE | QG_THING_ALONE);
    m = thing(l, 3, 0, QG_SLOT_MONSTER);
    assert_int_equal(m->kind, QG_THING_CLONE);
    assert_int_equal(m->index, 2);
    assert_int_equal(thing(l, 4, 0, QG_SLOT_MONSTER)->index, 1);
    const qg_thing *o = thing(l, 5, 0, QG_SLOT_OBJECT);
    assert_int_equal(o->index, 45);
    assert_string_equal(o->name, "WAND_BALL_FIRE");
    assert_int_equal(thing(l, 6, 0, QG_SLOT_OBJECT)->index, 2);
    qg_level_free(l);
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_fd_load_quest(file_of(&f, "q_info.txt"), 10, &f.opt, NULL, &l, d),
                     QG_ERR_PARSE);
    assert_null(l);
    assert_true(test_diags_contain(d, QG_ERROR, "no monster of r_info.txt is named 'snotling'"));
    qg_diags_clear(d);
    /* the same hub, another quest: nothing of quest 10 is said */
    assert_int_equal(qg_fd_load_quest(file_of(&f, "q_info.txt"), 9, &f.opt, NULL, &l, d), QG_OK);
    assert_int_equal(qg_diags_count(d), 0);
    qg_level_free(l);
    qg_diags_free(d);
    close_fixture(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(terrain_under_letters), cmocka_unit_test(fixed_letters),
        cmocka_unit_test(global_letters),        cmocka_unit_test(player_start),
        cmocka_unit_test(scramble),              cmocka_unit_test(formation),
        cmocka_unit_test(transform),             cmocka_unit_test(chances),
        cmocka_unit_test(egos_and_artifacts),    cmocka_unit_test(name_lookups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

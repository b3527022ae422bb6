/* Fixed and quest levels placed with the Angband loaders' rules. */
#include "testutil.h"
#include "placefix.h"

#include <string.h>

static uint32_t index_classify(void *user, int32_t f)
{
    (void)user;
    return f == 1 ? QG_FEAT_FLOOR : QG_FEAT_WALL | QG_FEAT_SOLID | QG_FEAT_OPAQUE;
}

typedef struct icave {
    qg_cave cave;
    int32_t feature[20 * 10];
    uint32_t info[20 * 10], mask[20 * 10];
    int32_t special[20 * 10];
} icave;

static void icave_init(icave *c, int with_special)
{
    for (int i = 0; i < 200; i++) {
        c->feature[i] = 56;
        c->info[i] = 0x80;
        c->mask[i] = 0;
        c->special[i] = 0;
    }
    c->cave = (qg_cave){20, 10, c->feature, c->info, c->mask,
                        with_special ? c->special : NULL, index_classify, NULL,
                        NULL, 1, NULL, NULL};
}

/* 4 × 3 quest level: feature indices, cave_info as written, things. */
static qg_level *quest_level(void)
{
    qg_level *l = qg_level_new(4, 3);
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++) {
            int wall = x == 0 || x == 3 || y == 0 || y == 2;
            qg_level_set_glyph(l, x, y, wall ? '#' : '.');
            qg_level_set_feature(l, x, y, wall ? 61 : 1, NULL);
            qg_level_set_cave_info(l, x, y, wall ? 0x08 : 0x0c | 0x400);
        }
    qg_level_set_thing(l, 1, 1, QG_SLOT_MONSTER, QG_THING_INDEX, 537, NULL);
    qg_level_set_special(l, 1, 1, 0, 0, 2);
    qg_level_set_thing(l, 2, 1, QG_SLOT_OBJECT, QG_THING_RANDOM, 7, NULL);
    qg_level_set_thing(l, 2, 1, QG_SLOT_ARTIFACT, QG_THING_INDEX, 3, NULL);
    qg_level_set_special(l, 3, 1, 12, 0, 0);
    qg_level_set_player_start(l, 2, 1);
    qg_level_add_property(l, "quest", "5");
    return l;
}

static void quest_level_cells_are_written_as_given(void **state)
{
    (void)state;
    icave c;
    icave_init(&c, 1);
    qg_level *l = quest_level();
    qg_place_options o = {.has_position = 1, .x = 2, .y = 1};
    qg_placement p = {0};
    assert_int_equal(qg_place(&c.cave, l, &o, &p, NULL), QG_OK);
    assert_string_equal(p.orient, "fixed");
    assert_int_equal(c.feature[1 * 20 + 2], 61);
    assert_int_equal(c.feature[2 * 20 + 3], 1);
    assert_int_equal(c.feature[0], 56);                 /* outside: untouched */
    assert_int_equal(c.info[1 * 20 + 2], 0x08);         /* assigned, not OR-ed */
    assert_int_equal(c.info[2 * 20 + 3], 0x40c);
    assert_int_equal(c.info[0], 0x80);
    assert_int_equal(c.mask[2 * 20 + 3], QG_MASK_VAULT); /* ICKY → vault */
    assert_int_equal(c.mask[1 * 20 + 2], 0);
    assert_int_equal(c.special[2 * 20 + 5], 12);
    assert_true(p.has_player_start);
    assert_int_equal(p.player_x, 4);
    assert_int_equal(p.player_y, 2);
    assert_int_equal(p.level_width, 66);  /* P: rounds to whole screens */
    assert_int_equal(p.level_height, 22);
    qg_placement_clear(&p);
    qg_level_free(l);
}

static void quest_things_become_requests(void **state)
{
    (void)state;
    icave c;
    icave_init(&c, 0);
    qg_level *l = quest_level();
    qg_placement p = {0};
    assert_int_equal(qg_place_fixed(&c.cave, l, NULL, &p, NULL), QG_OK);
    assert_int_equal(p.request_count, 5);
    const qg_request *r = p.requests;
    assert_int_equal(r[0].kind, QG_REQ_MONSTER);
    assert_int_equal(r[0].thing.kind, QG_THING_INDEX);
    assert_int_equal(r[0].thing.index, 537);
    assert_int_equal(r[0].asleep, 1);
    assert_int_equal(r[0].mflag, 2);
    assert_int_equal(r[1].kind, QG_REQ_SPECIAL); /* the monster's cell flags */
    assert_int_equal(r[1].mflag, 2);
    assert_int_equal(r[2].kind, QG_REQ_OBJECT);
    assert_int_equal(r[2].thing.kind, QG_THING_RANDOM);
    assert_int_equal(r[2].thing.index, 7);
    assert_int_equal(r[3].kind, QG_REQ_ARTIFACT);
    assert_int_equal(r[3].thing.index, 3);
    assert_int_equal(r[4].kind, QG_REQ_SPECIAL);
    assert_int_equal(r[4].special, 12);
    assert_int_equal(r[4].x, 3);
    assert_int_equal(r[4].y, 1);
    qg_placement_clear(&p);
    qg_level_free(l);
}

static void tome_n_zero_wakes_monsters(void **state)
{
    (void)state;
    icave c;
    icave_init(&c, 0);
    qg_level *l = quest_level();
    qg_level_add_property(l, "record", "N:1");
    qg_level_add_property(l, "record", "N:0");
    qg_placement p = {0};
    assert_int_equal(qg_place_fixed(&c.cave, l, NULL, &p, NULL), QG_OK);
    assert_int_equal(p.requests[0].asleep, 0);
    qg_placement_clear(&p);
    qg_level_free(l);
}

static void cells_outside_the_cave_are_reported(void **state)
{
    (void)state;
    icave c;
    icave_init(&c, 0);
    qg_level *l = quest_level();
    qg_diags *d = qg_diags_new();
    qg_place_options o = {.has_position = 1, .x = 18, .y = 8};
    qg_placement p = {0};
    assert_int_equal(qg_place_fixed(&c.cave, l, &o, &p, d), QG_OK);
    assert_true(test_diags_contain(d, QG_WARNING, "8 cells"));
    assert_int_equal(c.feature[9 * 20 + 19], 1);
    assert_int_equal(c.feature[8 * 20 + 18], 61);
    qg_placement_clear(&p);
    qg_diags_free(d);
    qg_level_free(l);
}

static void loader_cur_wid_and_cur_hgt_give_the_level_size(void **state)
{
    (void)state;
    icave c;
    icave_init(&c, 0);
    qg_level *l = quest_level();
    qg_level_add_property(l, "cur_hgt", "66");
    qg_level_add_property(l, "cur_wid", "198");
    qg_placement p = {0};
    assert_int_equal(qg_place_fixed(&c.cave, l, NULL, &p, NULL), QG_OK);
    assert_int_equal(p.level_width, 198);
    assert_int_equal(p.level_height, 66);
    qg_placement_clear(&p);
    qg_level_free(l);
}

static void vault_flags_and_cave_info_agree(void **state)
{
    (void)state;
    static const char *const rows[] = {"xxx", "x.@", "xxx"};
    tcave c;
    fix_cave_fill(&c, 11, 9, '#');
    qg_level *l = fix_level(rows, 3, "west", NULL);
    qg_level_set_cave_info(l, 1, 1, QG_INFO_GLOW | 0x400);
    qg_place_options o = {.fixed_transform = 1, .no_connect = 1};
    qg_placement p = {0};
    assert_int_equal(qg_place_vault(&c.cave, l, &o, &p, NULL), QG_OK);
    for (int i = 0; i < 11 * 9; i++)
        assert_int_equal((c.mask[i] & QG_MASK_VAULT) != 0, (c.info[i] & QG_INFO_ICKY) != 0);
    assert_int_equal(c.info[4 * 11 + 1], QG_INFO_GLOW | QG_INFO_ICKY | 0x400);
    qg_placement_clear(&p);
    qg_level_free(l);
}

/* An Angband-like grid of structs, reached through accessors. */
typedef struct square {
    int32_t feat;
    uint16_t info;
    uint32_t mask;
    int16_t special;
} square;

typedef struct struct_grid {
    square sq[9][11];
} struct_grid;

static int32_t get_feature(void *u, int x, int y) { return ((struct_grid *)u)->sq[y][x].feat; }
static void set_feature(void *u, int x, int y, int32_t f) { ((struct_grid *)u)->sq[y][x].feat = f; }
static uint32_t get_info(void *u, int x, int y) { return ((struct_grid *)u)->sq[y][x].info; }
static void set_info(void *u, int x, int y, uint32_t v) { ((struct_grid *)u)->sq[y][x].info = (uint16_t)v; }
static uint32_t get_mask(void *u, int x, int y) { return ((struct_grid *)u)->sq[y][x].mask; }
static void set_mask(void *u, int x, int y, uint32_t m) { ((struct_grid *)u)->sq[y][x].mask = m; }
static void set_special(void *u, int x, int y, int32_t v) { ((struct_grid *)u)->sq[y][x].special = (int16_t)v; }

static uint32_t struct_classify(void *user, int32_t f)
{
    (void)user;
    return (uint32_t)f >> 8;
}

static int32_t struct_translate(void *user, const qg_cell *cell)
{
    (void)user;
    return (int32_t)((qg_cell_class(cell) << 8) | (cell->glyph == '@' ? '.' : cell->glyph));
}

static void accessors_give_the_same_result_as_arrays(void **state)
{
    (void)state;
    static const qg_cave_access access = {get_feature, set_feature, get_info, set_info,
                                          get_mask, set_mask, set_special};
    static const char *const rows[] = {"xxx", "x.@", "xxx"};
    tcave arrays;
    fix_cave_fill(&arrays, 11, 9, '#');
    arrays.feature[4 * 11 + 8] = fix_feature('.');
    static struct_grid grid;
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 11; x++)
            grid.sq[y][x] = (square){arrays.feature[y * 11 + x], 0, 0, 0};
    qg_cave via = {11, 9, NULL, NULL, NULL, NULL, struct_classify, struct_translate,
                   NULL, fix_feature('.'), &grid, &access};
    qg_level *vault = fix_level(rows, 3, "west", NULL);
    qg_level *quest = quest_level();
    qg_place_options o = {.fixed_transform = 1};
    qg_place_options q = {.has_position = 1, .x = 6, .y = 0};
    qg_placement p1 = {0}, p2 = {0}, p3 = {0}, p4 = {0};
    assert_int_equal(qg_place_vault(&arrays.cave, vault, &o, &p1, NULL), QG_OK);
    assert_int_equal(qg_place_vault(&via, vault, &o, &p2, NULL), QG_OK);
    assert_int_equal(qg_place_fixed(&arrays.cave, quest, &q, &p3, NULL), QG_OK);
    assert_int_equal(qg_place_fixed(&via, quest, &q, &p4, NULL), QG_OK);
    assert_true(p1.exits[0].connected && p2.exits[0].connected);
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 11; x++) {
            assert_int_equal(grid.sq[y][x].feat, arrays.feature[y * 11 + x]);
            assert_int_equal(grid.sq[y][x].info, arrays.info[y * 11 + x]);
            assert_int_equal(grid.sq[y][x].mask, arrays.mask[y * 11 + x]);
            assert_int_equal(grid.sq[y][x].special, arrays.special[y * 11 + x]);
        }
    assert_int_equal(grid.sq[1][9].special, 12);
    assert_int_equal(p2.request_count, p1.request_count);
    assert_int_equal(p4.request_count, 5);
    qg_cave broken = via;
    broken.access = NULL;
    assert_int_equal(qg_place_fixed(&broken, quest, &q, &p4, NULL), QG_ERR_INVALID);
    qg_placement_clear(&p1);
    qg_placement_clear(&p2);
    qg_placement_clear(&p3);
    qg_placement_clear(&p4);
    qg_level_free(vault);
    qg_level_free(quest);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(quest_level_cells_are_written_as_given),
        cmocka_unit_test(quest_things_become_requests),
        cmocka_unit_test(tome_n_zero_wakes_monsters),
        cmocka_unit_test(cells_outside_the_cave_are_reported),
        cmocka_unit_test(loader_cur_wid_and_cur_hgt_give_the_level_size),
        cmocka_unit_test(vault_flags_and_cave_info_agree),
        cmocka_unit_test(accessors_give_the_same_result_as_arrays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

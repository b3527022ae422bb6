/* Vault placement with Crawl's rules: hand-checked fixtures. */
#include "testutil.h"
#include "placefix.h"

#include <stdlib.h>
#include <string.h>

static const char *row_text(const qg_level *l, int y, char *buf)
{
    int w = qg_level_width(l);
    for (int x = 0; x < w; x++)
        buf[x] = (char)qg_level_glyphs(l)[y * w + x];
    buf[w] = '\0';
    return buf;
}

static void transforms_move_cells_and_orient(void **state)
{
    (void)state;
    static const char *const rows[] = {"ab", "cd", "ef"};
    qg_level *l = fix_level(rows, 3, "north", NULL);
    char buf[8];
    qg_level *h = qg_level_transformed(l, QG_XFORM_HMIRROR);
    assert_string_equal(row_text(h, 0, buf), "ba");
    assert_string_equal(row_text(h, 2, buf), "fe");
    assert_string_equal(qg_level_get_property(h, "orient"), "north");
    qg_level *v = qg_level_transformed(l, QG_XFORM_VMIRROR);
    assert_string_equal(row_text(v, 0, buf), "ef");
    assert_string_equal(qg_level_get_property(v, "orient"), "south");
    qg_level *cw = qg_level_transformed(l, QG_XFORM_ROTATE_CW);
    assert_int_equal(qg_level_width(cw), 3);
    assert_int_equal(qg_level_height(cw), 2);
    assert_string_equal(row_text(cw, 0, buf), "eca");
    assert_string_equal(row_text(cw, 1, buf), "fdb");
    assert_string_equal(qg_level_get_property(cw, "orient"), "east");
    qg_level *ccw = qg_level_transformed(l, QG_XFORM_ROTATE_CCW);
    assert_string_equal(row_text(ccw, 0, buf), "bdf");
    assert_string_equal(row_text(ccw, 1, buf), "ace");
    assert_string_equal(qg_level_get_property(ccw, "orient"), "west");
    qg_level *hv = qg_level_transformed(l, QG_XFORM_HMIRROR | QG_XFORM_VMIRROR);
    assert_string_equal(row_text(hv, 0, buf), "fe");
    qg_level_free(l); qg_level_free(h); qg_level_free(v);
    qg_level_free(cw); qg_level_free(ccw); qg_level_free(hv);
}

static void transform_moves_markers_things_and_start(void **state)
{
    (void)state;
    static const char *const rows[] = {"a.", "..", ".."};
    qg_level *l = fix_level(rows, 3, "northwest", NULL);
    qg_level_add_marker(l, 0, 0, "lua:portal()");
    qg_level_set_thing(l, 0, 0, QG_SLOT_MONSTER, QG_THING_NAME, 0, "orc");
    qg_level_set_player_start(l, 1, 2);
    qg_level *cw = qg_level_transformed(l, QG_XFORM_ROTATE_CW);
    int x, y;
    assert_string_equal(qg_level_marker(cw, 0, &x, &y), "lua:portal()");
    assert_int_equal(x, 2);
    assert_int_equal(y, 0);
    qg_cell c;
    qg_level_cell(cw, 2, 0, &c);
    assert_int_equal(c.glyph, 'a');
    assert_string_equal(c.things[QG_SLOT_MONSTER].name, "orc");
    assert_true(qg_level_player_start(cw, &x, &y));
    assert_int_equal(x, 0);
    assert_int_equal(y, 1);
    assert_string_equal(qg_level_get_property(cw, "orient"), "northeast");
    qg_level_free(l);
    qg_level_free(cw);
}

typedef struct orient_case {
    const char *orient;
    int x, y;
} orient_case;

static void each_orient_has_its_position(void **state)
{
    (void)state;
    static const char *const rows[] = {"xxxxx", "x...x", "xxxxx"};
    static const orient_case cases[] = {
        {"north", 3, 0}, {"south", 3, 6}, {"east", 6, 3}, {"west", 0, 3},
        {"northwest", 0, 0}, {"northeast", 6, 0}, {"southwest", 0, 6},
        {"southeast", 6, 6}, {"centre", 3, 3}, {"encompass", 3, 3}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tcave c;
        fix_cave_fill(&c, 11, 9, '#');
        qg_level *l = fix_level(rows, 3, cases[i].orient, NULL);
        qg_place_options o = {.fixed_transform = 1, .no_connect = 1};
        qg_placement p = {0};
        assert_int_equal(qg_place_vault(&c.cave, l, &o, &p, NULL), QG_OK);
        assert_int_equal(p.x, cases[i].x);
        assert_int_equal(p.y, cases[i].y);
        assert_string_equal(p.orient, cases[i].orient);
        assert_int_equal(c.mask[(p.y + 1) * 11 + p.x + 1] & QG_MASK_VAULT, QG_MASK_VAULT);
        int encompass = strcmp(cases[i].orient, "encompass") == 0;
        int vault = 0, icky = 0;
        for (int at = 0; at < 11 * 9; at++) {
            vault += (c.mask[at] & QG_MASK_VAULT) != 0;
            icky += (c.info[at] & QG_INFO_ICKY) != 0;
        }
        assert_int_equal(vault, encompass ? 11 * 9 : 15);
        assert_int_equal(icky, vault);
        qg_placement_clear(&p);
        qg_level_free(l);
    }
}

static void rotation_turns_the_orient(void **state)
{
    (void)state;
    static const char *const rows[] = {"xxxxx", "x...x", "xxxxx"};
    tcave c;
    fix_cave_fill(&c, 11, 9, '#');
    qg_level *l = fix_level(rows, 3, "north", NULL);
    qg_place_options o = {.fixed_transform = 1, .transform = QG_XFORM_ROTATE_CW, .no_connect = 1};
    qg_placement p = {0};
    assert_int_equal(qg_place_vault(&c.cave, l, &o, &p, NULL), QG_OK);
    assert_string_equal(p.orient, "east");
    assert_int_equal(p.transform, QG_XFORM_ROTATE_CW);
    assert_int_equal(p.width, 3);
    assert_int_equal(p.height, 5);
    assert_int_equal(p.x, 8);
    assert_int_equal(p.y, 2);
    qg_placement_clear(&p);
    qg_level_free(l);
}

static void west_vault_exit_gets_a_corridor(void **state)
{
    (void)state;
    static const char *const cave_rows[] = {
        "##########", "##########", "########.#", "##########", "##########"};
    static const char *const rows[] = {"xxx", "x.@", "xxx"};
    tcave c;
    fix_cave(&c, cave_rows, 5);
    qg_level *l = fix_level(rows, 3, "west", NULL);
    qg_place_options o = {.fixed_transform = 1};
    qg_placement p = {0};
    assert_int_equal(qg_place_vault(&c.cave, l, &o, &p, NULL), QG_OK);
    assert_string_equal(fix_render(&c),
                        "##########\n"
                        "xxx#######\n"
                        "x........#\n"
                        "xxx#######\n"
                        "##########");
    assert_int_equal(p.exit_count, 1);
    assert_int_equal(p.exits[0].x, 2);
    assert_int_equal(p.exits[0].y, 2);
    assert_true(p.exits[0].connected);
    uint32_t exit_mask = c.mask[2 * 10 + 2];
    assert_true(exit_mask & QG_MASK_VAULT);
    assert_true(exit_mask & QG_MASK_EXIT);
    assert_false(exit_mask & QG_MASK_OPAQUE);
    assert_true(c.mask[2 * 10 + 1] & QG_MASK_OPAQUE);
    assert_int_equal(c.mask[2 * 10 + 3], 0);
    assert_true(c.info[1 * 10 + 0] & QG_INFO_ICKY);
    assert_false(c.info[2 * 10 + 3] & QG_INFO_ICKY);
    qg_placement_clear(&p);
    qg_level_free(l);
}

static void corridor_goes_around_other_vaults(void **state)
{
    (void)state;
    static const char *const cave_rows[] = {
        "##########", "##########", "#####...#.", "##########", "##########"};
    static const char *const rows[] = {"xxx", "x.@", "xxx"};
    tcave c;
    fix_cave(&c, cave_rows, 5);
    for (int y = 1; y <= 3; y++)
        c.mask[y * 10 + 5] = QG_MASK_VAULT; /* a wall of vault cells at x = 5 */
    c.mask[2 * 10 + 5] = QG_MASK_VAULT;
    qg_level *l = fix_level(rows, 3, "west", NULL);
    qg_place_options o = {.fixed_transform = 1, .ignore_collisions = 1};
    qg_placement p = {0};
    assert_int_equal(qg_place_vault(&c.cave, l, &o, &p, NULL), QG_OK);
    assert_true(p.exits[0].connected);
    const char *r = fix_render(&c);
    /* the vault column x = 5 is never carved, rows 1-3 */
    assert_int_equal(r[1 * 11 + 5], '#');
    assert_int_equal(r[2 * 11 + 5], '.');
    assert_int_equal(r[3 * 11 + 5], '#');
    assert_int_equal(r[2 * 11 + 3], '.');
    qg_placement_clear(&p);
    qg_level_free(l);
}

static void float_exits_are_picked_when_there_is_no_at(void **state)
{
    (void)state;
    static const char *const rows[] = {"x.x", "...", "x.x"};
    tcave c;
    fix_cave_fill(&c, 20, 20, '.');
    qg_level *l = fix_level(rows, 3, "float", NULL);
    qg_place_options o = {.fixed_transform = 1, .has_position = 1, .x = 10, .y = 10};
    qg_placement p = {0};
    assert_int_equal(qg_place_vault(&c.cave, l, &o, &p, NULL), QG_OK);
    assert_int_equal(p.x, 9);
    assert_int_equal(p.y, 9);
    assert_int_equal(p.exit_count, 4); /* fewer than 6 candidates: all of them */
    for (size_t i = 0; i < p.exit_count; i++)
        assert_true(p.exits[i].connected);
    qg_placement_clear(&p);
    qg_level_free(l);
}

static void many_edge_cells_give_n_over_8_plus_1_exits(void **state)
{
    (void)state;
    static const char *const rows[] = {"........", "........", "........", "........"};
    for (unsigned long long seed = 1; seed <= 20; seed++) {
        tcave c;
        fix_cave_fill(&c, 30, 30, '#');
        qg_level *l = fix_level(rows, 4, "centre", NULL);
        qg_place_options o = {.seed = seed, .no_connect = 1};
        qg_placement p = {0};
        assert_int_equal(qg_place_vault(&c.cave, l, &o, &p, NULL), QG_OK);
        /* 20 edge cells: 20 / 8 + 1 = 3 draws, duplicates merged */
        assert_in_range(p.exit_count, 1, 3);
        qg_placement_clear(&p);
        qg_level_free(l);
    }
}

static void door_exits_only_on_the_edge(void **state)
{
    (void)state;
    static const char *const rows[] = {"xx+xx", "x.+.x", "xxxxx"};
    tcave c;
    fix_cave_fill(&c, 11, 9, '.');
    qg_level *l = fix_level(rows, 3, "centre", NULL);
    qg_place_options o = {.fixed_transform = 1, .no_connect = 1};
    qg_placement p = {0};
    assert_int_equal(qg_place_vault(&c.cave, l, &o, &p, NULL), QG_OK);
    assert_int_equal(p.exit_count, 1);
    assert_int_equal(p.exits[0].x, p.x + 2);
    assert_int_equal(p.exits[0].y, p.y);
    qg_placement_clear(&p);
    qg_level_free(l);
}

static qg_status place_at(tcave *c, qg_level *l, int x, int y)
{
    qg_place_options o = {.fixed_transform = 1, .has_position = 1, .x = x, .y = y, .no_connect = 1};
    qg_placement p = {0};
    qg_status st = qg_place_vault(&c->cave, l, &o, &p, NULL);
    qg_placement_clear(&p);
    return st;
}

static void no_new_cell_next_to_a_vault_cell(void **state)
{
    (void)state;
    static const char *const rows[] = {"...", "...", "..."};
    tcave c;
    fix_cave_fill(&c, 20, 20, '.');
    c.mask[10 * 20 + 10] = QG_MASK_VAULT;
    qg_level *l = fix_level(rows, 3, NULL, NULL);
    assert_int_equal(place_at(&c, l, 12, 10), QG_ERR_NOTFOUND);
    assert_int_equal(fix_render(&c)[10 * 21 + 11], '.');
    assert_int_equal(c.mask[10 * 20 + 11], 0);
    assert_int_equal(place_at(&c, l, 13, 10), QG_OK);
    assert_true(c.mask[10 * 20 + 12] & QG_MASK_VAULT);
    qg_level_free(l);
}

static void forbidden_features_are_not_overwritten(void **state)
{
    (void)state;
    static const char *const rows[] = {"...", "...", "..."};
    tcave c;
    fix_cave_fill(&c, 20, 20, '.');
    c.feature[10 * 20 + 10] = fix_feature('l');
    c.feature[5 * 20 + 5] = fix_feature('w');
    c.feature[15 * 20 + 15] = fix_feature('X');
    qg_level *l = fix_level(rows, 3, NULL, NULL);
    qg_level *wet = fix_level(rows, 3, NULL, "water_ok");
    assert_int_equal(place_at(&c, l, 10, 10), QG_ERR_NOTFOUND); /* lava */
    assert_int_equal(place_at(&c, l, 5, 5), QG_ERR_NOTFOUND);   /* deep water */
    assert_int_equal(place_at(&c, wet, 5, 5), QG_OK);           /* water_ok */
    assert_int_equal(place_at(&c, l, 15, 15), QG_OK);           /* walls may go */
    c.occupied_x = 2;
    c.occupied_y = 14;
    assert_int_equal(place_at(&c, l, 3, 14), QG_ERR_NOTFOUND);  /* a monster stands there */
    qg_level_free(l);
    qg_level_free(wet);
}

static void overwritable_layout_skips_vault_cells(void **state)
{
    (void)state;
    static const char *const rows[] = {"ccccc", "ccccc", "ccccc"};
    tcave c;
    fix_cave_fill(&c, 5, 3, '.');
    c.mask[1 * 5 + 2] = QG_MASK_VAULT;
    qg_level *l = fix_level(rows, 3, "encompass", "layout overwritable");
    qg_place_options o = {.fixed_transform = 1};
    qg_placement p = {0};
    assert_int_equal(qg_place_vault(&c.cave, l, &o, &p, NULL), QG_OK);
    assert_string_equal(fix_render(&c), "ccccc\ncc.cc\nccccc");
    assert_int_equal(c.mask[0] & QG_MASK_VAULT, 0); /* layouts are not vaults */
    assert_int_equal(c.info[0] & QG_INFO_ICKY, 0);
    assert_int_equal(c.mask[1 * 5 + 2], QG_MASK_VAULT);
    qg_placement_clear(&p);
    qg_level_free(l);
}

static void tags_forbid_transforms_but_coins_still_fall(void **state)
{
    (void)state;
    static const char *const rows[] = {"xx.", "x..", "..."};
    unsigned seen = 0;
    for (unsigned long long seed = 0; seed < 200; seed++) {
        tcave c1, c2;
        fix_cave_fill(&c1, 30, 30, '.');
        fix_cave_fill(&c2, 30, 30, '.');
        qg_level *free_map = fix_level(rows, 3, "float", NULL);
        qg_level *stuck = fix_level(rows, 3, "float", "no_hmirror no_vmirror no_rotate");
        qg_place_options o = {.seed = seed, .no_connect = 1};
        qg_placement p1 = {0}, p2 = {0};
        assert_int_equal(qg_place_vault(&c1.cave, free_map, &o, &p1, NULL), QG_OK);
        assert_int_equal(qg_place_vault(&c2.cave, stuck, &o, &p2, NULL), QG_OK);
        seen |= p1.transform;
        assert_int_equal(p2.transform, 0);
        /* the same draws follow: the position does not depend on the tags */
        assert_int_equal(p1.x, p2.x);
        assert_int_equal(p1.y, p2.y);
        qg_placement_clear(&p1);
        qg_placement_clear(&p2);
        qg_level_free(free_map);
        qg_level_free(stuck);
    }
    assert_int_equal(seen, QG_XFORM_HMIRROR | QG_XFORM_VMIRROR | QG_XFORM_ROTATE_CW |
                               QG_XFORM_ROTATE_CCW);
}

static void one_by_one_and_too_long_maps_are_not_turned(void **state)
{
    (void)state;
    static const char *const dot[] = {"."};
    static const char *const bar[] = {"..........", "..........", ".........."};
    for (unsigned long long seed = 0; seed < 100; seed++) {
        tcave c;
        fix_cave_fill(&c, 40, 8, '.');
        qg_level *a = fix_level(dot, 1, NULL, NULL);
        qg_level *b = fix_level(bar, 3, "float", NULL);
        qg_place_options o = {.seed = seed, .no_connect = 1};
        qg_placement p = {0};
        assert_int_equal(qg_place_vault(&c.cave, a, &o, &p, NULL), QG_OK);
        assert_int_equal(p.transform, 0);
        qg_placement_clear(&p);
        if (qg_place_vault(&c.cave, b, &o, &p, NULL) == QG_OK)
            assert_int_equal(p.transform & (QG_XFORM_ROTATE_CW | QG_XFORM_ROTATE_CCW), 0);
        qg_placement_clear(&p);
        qg_level_free(a);
        qg_level_free(b);
    }
}

static void too_large_vault_is_refused(void **state)
{
    (void)state;
    static const char *const rows[] = {"............"};
    tcave c;
    fix_cave_fill(&c, 10, 10, '.');
    qg_level *l = fix_level(rows, 1, "north", NULL);
    qg_diags *d = qg_diags_new();
    qg_placement p = {0};
    assert_int_equal(qg_place_vault(&c.cave, l, NULL, &p, d), QG_ERR_LIMIT);
    assert_true(test_diags_contain(d, QG_ERROR, "larger than the dungeon"));
    qg_diags_free(d);
    qg_level_free(l);
}

static void minivault_stays_within_margin_and_touches_floor(void **state)
{
    (void)state;
    static const char *const rows[] = {"xxx", "x.x", "xxx"};
    static const char *const cave_rows[] = {
        "XXXXXXXXXXXXXXXX", "X##############X", "X##############X", "X##############X",
        "X##############X", "X##############X", "X##############X", "X######.#######X",
        "X##############X", "X##############X", "X##############X", "X##############X",
        "X##############X", "X##############X", "X##############X", "XXXXXXXXXXXXXXXX"};
    tcave c;
    fix_cave(&c, cave_rows, 16);
    qg_level *l = fix_level(rows, 3, NULL, NULL);
    qg_place_options o = {.seed = 7, .no_connect = 1};
    qg_placement p = {0};
    assert_int_equal(qg_place_vault(&c.cave, l, &o, &p, NULL), QG_OK);
    assert_string_equal(p.orient, "minivault");
    assert_in_range(p.x, 5, 7);
    assert_in_range(p.y, 5, 7);
    qg_placement_clear(&p);
    qg_level_free(l);
}

static int count_requests(void *user, const qg_request *r)
{
    (void)r;
    ++*(int *)user;
    return 0;
}

static int refuse(void *user, const qg_request *r)
{
    (void)user;
    return r->kind == QG_REQ_OBJECT;
}

static void things_and_markers_become_requests(void **state)
{
    (void)state;
    static const char *const rows[] = {"xxx", "x1@", "xxx"};
    tcave c;
    fix_cave_fill(&c, 11, 9, '#');
    qg_level *l = fix_level(rows, 3, "west", NULL);
    qg_level_set_thing(l, 1, 1, QG_SLOT_MONSTER, QG_THING_NAME, 0, "orc warrior");
    qg_level_set_thing(l, 1, 1, QG_SLOT_OBJECT, QG_THING_RANDOM, 3, NULL);
    qg_level_add_marker(l, 1, 1, "lua:fog_machine{}");
    int calls = 0;
    qg_place_options o = {.fixed_transform = 1, .request = count_requests, .request_user = &calls};
    qg_placement p = {0};
    assert_int_equal(qg_place_vault(&c.cave, l, &o, &p, NULL), QG_OK);
    assert_int_equal(calls, 3);
    assert_int_equal(p.request_count, 3);
    assert_int_equal(p.requests[0].kind, QG_REQ_MONSTER);
    assert_string_equal(p.requests[0].thing.name, "orc warrior");
    assert_int_equal(p.requests[0].x, 1);
    assert_int_equal(p.requests[0].y, 4);
    assert_int_equal(p.requests[0].asleep, -1);
    assert_int_equal(p.requests[1].kind, QG_REQ_OBJECT);
    assert_int_equal(p.requests[1].thing.kind, QG_THING_RANDOM);
    assert_int_equal(p.requests[1].thing.index, 3);
    assert_int_equal(p.requests[2].kind, QG_REQ_MARKER);
    assert_string_equal(p.requests[2].marker, "lua:fog_machine{}");
    assert_int_equal(p.requests[2].x, 1);
    assert_int_equal(p.requests[2].y, 4);
    qg_placement_clear(&p);
    o.request = refuse;
    fix_cave_fill(&c, 11, 9, '#');
    assert_int_equal(qg_place_vault(&c.cave, l, &o, &p, NULL), QG_ERR_INVALID);
    qg_placement_clear(&p);
    qg_level_free(l);
}

static void tags_and_kmask_give_cell_masks(void **state)
{
    (void)state;
    static const char *const rows[] = {"...", "...", "..."};
    tcave c;
    fix_cave_fill(&c, 11, 9, '.');
    qg_level *l = fix_level(rows, 3, "centre",
                            "allow_tele_closets no_item_gen no_monster_gen no_pool_fixup "
                            "no_trap_gen no_wall_fixup transparent");
    qg_level_set_vault_mask(l, 1, 1, QG_MASK_NO_TELE_INTO);
    qg_place_options o = {.fixed_transform = 1, .no_connect = 1};
    qg_placement p = {0};
    assert_int_equal(qg_place_vault(&c.cave, l, &o, &p, NULL), QG_OK);
    uint32_t want = QG_MASK_VAULT | QG_MASK_NO_TELE_CLOSET | QG_MASK_NO_ITEM_GEN |
                    QG_MASK_NO_MONSTER_GEN | QG_MASK_NO_POOL_FIXUP |
                    QG_MASK_NO_TRAP_GEN | QG_MASK_NO_WALL_FIXUP;
    assert_int_equal(c.mask[3 * 11 + 4] & ~QG_MASK_EXIT, want);
    assert_int_equal(c.mask[4 * 11 + 5], want | QG_MASK_NO_TELE_INTO);
    qg_placement_clear(&p);
    qg_level_free(l);
}

static qg_level *make_subvault(void *user, const char *tag, int w, int h,
                               unsigned long long seed)
{
    (void)seed;
    static const char *const rows[] = {"ab", "cd"};
    int *calls = user;
    ++*calls;
    assert_string_equal(tag, "sv_small");
    assert_int_equal(w, 2);
    assert_int_equal(h, 2);
    qg_level *l = fix_level(rows, 2, NULL, "no_hmirror no_vmirror no_rotate no_item_gen");
    qg_level_set_thing(l, 0, 0, QG_SLOT_MONSTER, QG_THING_NAME, 0, "rat");
    return l;
}

static void subvaults_are_merged_by_tag(void **state)
{
    (void)state;
    static const char *const rows[] = {"xxxx", "xKKx", "xKKx", "x@xx"};
    tcave c;
    fix_cave_fill(&c, 12, 12, '.');
    qg_level *l = fix_level(rows, 4, "centre", NULL);
    qg_level_add_property(l, "subvault", "K : sv_small:5 / sv_small");
    int calls = 0;
    qg_place_options o = {.fixed_transform = 1, .no_connect = 1,
                          .subvault = make_subvault, .subvault_user = &calls};
    qg_placement p = {0};
    assert_int_equal(qg_place_vault(&c.cave, l, &o, &p, NULL), QG_OK);
    assert_int_equal(calls, 1);
    const char *r = fix_render(&c);
    assert_memory_equal(r + (p.y + 1) * 13 + p.x, "xabx", 4);
    assert_memory_equal(r + (p.y + 2) * 13 + p.x, "xcdx", 4);
    assert_true(c.mask[(p.y + 1) * 12 + p.x + 1] & QG_MASK_NO_ITEM_GEN);
    assert_false(c.mask[(p.y + 1) * 12 + p.x] & QG_MASK_NO_ITEM_GEN);
    assert_int_equal(p.request_count, 1);
    assert_string_equal(p.requests[0].thing.name, "rat");
    qg_placement_clear(&p);
    qg_level_free(l);
}

static qg_level *nested_subvaults(void *user, const char *tag, int w, int h,
                                  unsigned long long seed)
{
    (void)user;
    (void)w;
    (void)h;
    (void)seed;
    static const char *const pair[] = {"ab"};
    static const char *const outer[] = {"PP"};
    static const char *const inner[] = {"q"};
    static const char *const loop[] = {"L"};
    if (strcmp(tag, "t1") == 0)
        return fix_level(pair, 1, NULL, NULL);
    if (strcmp(tag, "outer") == 0) {
        qg_level *l = fix_level(outer, 1, NULL, "no_hmirror no_vmirror no_rotate");
        qg_level_add_property(l, "subvault", "P : inner");
        return l;
    }
    if (strcmp(tag, "inner") == 0)
        return fix_level(inner, 1, NULL, NULL);
    if (strcmp(tag, "loop") == 0) {
        qg_level *l = fix_level(loop, 1, NULL, NULL);
        qg_level_add_property(l, "subvault", "L : loop");
        return l;
    }
    fail_msg("unexpected tag %s", tag);
    return NULL;
}

static char glyph_at(const qg_level *l, int x, int y)
{
    return (char)qg_level_glyphs(l)[y * qg_level_width(l) + x];
}

static void subvault_specs_weights_glyph_sets_and_nesting(void **state)
{
    (void)state;
    static const char *const rows[] = {"xxxxx", "xAB.x", "xKK.x"};
    qg_level *l = fix_level(rows, 3, "float", NULL);
    qg_level_add_property(l, "subvault", "AB : t1 w:5 / t2:0");
    qg_level_add_property(l, "subvault", "K : outer");
    assert_int_equal(qg_level_resolve_subvaults(l, nested_subvaults, NULL, 3, NULL), QG_OK);
    assert_int_equal(glyph_at(l, 1, 1), 'a');
    assert_int_equal(glyph_at(l, 2, 1), 'b');
    /* the inner 1x1 map takes one of the two P cells; the other stays P */
    char left = glyph_at(l, 1, 2), right = glyph_at(l, 2, 2);
    assert_true((left == 'q' && right == 'P') || (left == 'P' && right == 'q'));
    assert_int_equal(glyph_at(l, 3, 2), '.');
    qg_level_free(l);

    static const char *const cyc[] = {"xLx"};
    l = fix_level(cyc, 1, "float", NULL);
    qg_level_add_property(l, "subvault", "L : loop");
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_level_resolve_subvaults(l, nested_subvaults, NULL, 3, d), QG_ERR_LIMIT);
    assert_true(test_diags_contain(d, QG_ERROR, "nested more than 8 deep"));
    qg_diags_clear(d);
    qg_level_add_property(l, "subvault", "no colon here");
    assert_int_equal(qg_level_resolve_subvaults(l, nested_subvaults, NULL, 3, d), QG_ERR_LIMIT);
    qg_level_free(l);
    l = fix_level(cyc, 1, "float", NULL);
    qg_level_add_property(l, "subvault", "no colon here");
    qg_diags_clear(d);
    assert_int_equal(qg_level_resolve_subvaults(l, nested_subvaults, NULL, 3, d), QG_ERR_PARSE);
    assert_true(test_diags_contain(d, QG_ERROR, "bad SUBVAULT spec 'no colon here'"));
    qg_diags_free(d);
    qg_level_free(l);
}

static void same_seed_same_result(void **state)
{
    (void)state;
    static const char *const rows[] = {"xxxx", "x..x", "x..@", "xxxx"};
    char first[64 * 65 + 1];
    for (int round = 0; round < 2; round++) {
        qg_host *h = qg_host_generate(60, 40, 99);
        qg_level *l = fix_level(rows, 4, NULL, NULL);
        qg_place_options o = {.seed = 1234};
        qg_placement p = {0};
        assert_int_equal(qg_place_vault(qg_host_cave(h), l, &o, &p, NULL), QG_OK);
        char text[64 * 65 + 1], *q = text;
        for (int y = 0; y < 40; y++)
            for (int x = 0; x < 60; x++)
                *q++ = (char)qg_host_glyph(h, x, y);
        *q = '\0';
        if (round == 0)
            strcpy(first, text);
        else
            assert_string_equal(first, text);
        qg_placement_clear(&p);
        qg_level_free(l);
        qg_host_free(h);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(transforms_move_cells_and_orient),
        cmocka_unit_test(transform_moves_markers_things_and_start),
        cmocka_unit_test(each_orient_has_its_position),
        cmocka_unit_test(rotation_turns_the_orient),
        cmocka_unit_test(west_vault_exit_gets_a_corridor),
        cmocka_unit_test(corridor_goes_around_other_vaults),
        cmocka_unit_test(float_exits_are_picked_when_there_is_no_at),
        cmocka_unit_test(many_edge_cells_give_n_over_8_plus_1_exits),
        cmocka_unit_test(door_exits_only_on_the_edge),
        cmocka_unit_test(no_new_cell_next_to_a_vault_cell),
        cmocka_unit_test(forbidden_features_are_not_overwritten),
        cmocka_unit_test(overwritable_layout_skips_vault_cells),
        cmocka_unit_test(tags_forbid_transforms_but_coins_still_fall),
        cmocka_unit_test(one_by_one_and_too_long_maps_are_not_turned),
        cmocka_unit_test(too_large_vault_is_refused),
        cmocka_unit_test(minivault_stays_within_margin_and_touches_floor),
        cmocka_unit_test(things_and_markers_become_requests),
        cmocka_unit_test(tags_and_kmask_give_cell_masks),
        cmocka_unit_test(subvaults_are_merged_by_tag),
        cmocka_unit_test(subvault_specs_weights_glyph_sets_and_nesting),
        cmocka_unit_test(same_seed_same_result),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

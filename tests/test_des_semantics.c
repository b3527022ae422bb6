/* What .des maps mean once resolved and checked, as the seed documents
 * (../shared/seeds) and Crawl's own code define it. Each test names its
 * source: a seed file and section, or the Crawl source file whose
 * behaviour it holds questgrid to. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

typedef struct resolved {
    qg_runtime *rt;
    qg_mapdef *def;
    qg_level *level;
    qg_diags *diags;
} resolved;

static void resolve_seeded(resolved *r, const char *src, int legacy, unsigned long long seed)
{
    qg_des_options options = {legacy};
    qg_des_file *file = NULL;
    memset(r, 0, sizeof *r);
    r->diags = qg_diags_new();
    r->rt = qg_runtime_new(NULL, r->diags);
    qg_des_parse("sem.des", src, strlen(src), &options, NULL, &file, r->diags);
    assert_non_null(file);
    assert_int_equal(qg_runtime_add_file(r->rt, file, r->diags), QG_OK);
    r->def = qg_runtime_map(r->rt, 0);
    assert_non_null(r->def);
    qg_context context = {NULL, 0, NULL};
    if (qg_runtime_compile_map(r->rt, r->def, r->diags) != QG_OK ||
        qg_runtime_resolve(r->rt, r->def, seed, &context, &r->level, r->diags) != QG_OK)
        qg_diags_print(r->diags, stderr);
    assert_non_null(r->level);
}

static void resolve_text(resolved *r, const char *src, int legacy)
{
    resolve_seeded(r, src, legacy, 1);
}

static void resolved_free(resolved *r)
{
    qg_level_free(r->level);
    qg_runtime_free(r->rt);
    qg_diags_free(r->diags);
}

static qg_cell cell_at(const resolved *r, int x, int y)
{
    qg_cell cell;
    assert_int_equal(qg_level_cell(r->level, x, y, &cell), QG_OK);
    return cell;
}

static const char *feature_at(const resolved *r, int x, int y)
{
    qg_cell cell = cell_at(r, x, y);
    return cell.feature_name ? cell.feature_name : "";
}

static const char *thing_at(const resolved *r, int x, int y, qg_slot slot)
{
    qg_cell cell = cell_at(r, x, y);
    if (cell.things[slot].kind != QG_THING_NAME)
        return "";
    return cell.things[slot].name;
}

/* The marker spec at x,y, or NULL. */
static const char *marker_at(const qg_level *level, int x, int y)
{
    for (size_t i = 0; i < qg_level_marker_count(level); i++) {
        int mx, my;
        const char *spec = qg_level_marker(level, i, &mx, &my);
        if (mx == x && my == y)
            return spec;
    }
    return NULL;
}

/* mapdef.cc, keyed_mapspec::get_feat(): "return feat.get_feat('.')" -- a
 * glyph given a KMONS or KITEM but no KFEAT becomes floor, whatever the
 * glyph meant before (W shallow water, l lava). */
static void keyed_things_without_kfeat_stand_on_floor(void **state)
{
    (void)state;
    resolved r;
    resolve_text(&r,
                 "NAME: keyed_floor\nORIENT: float\nKMONS: W = goblin\nKITEM: l = dagger\n"
                 "KFEAT: w = lava\nKMONS: w = rat\n"
                 "MAP\nxxxxxx\nxWwl.x\nxx@xxx\nENDMAP\n",
                 0);
    assert_string_equal(feature_at(&r, 1, 1), "floor");
    assert_string_equal(thing_at(&r, 1, 1, QG_SLOT_MONSTER), "goblin");
    assert_string_equal(feature_at(&r, 3, 1), "floor");
    assert_string_equal(thing_at(&r, 3, 1, QG_SLOT_OBJECT), "dagger");
    /* with a KFEAT, the KFEAT decides */
    assert_string_equal(feature_at(&r, 2, 1), "lava");
    assert_string_equal(thing_at(&r, 2, 1, QG_SLOT_MONSTER), "rat");
    resolved_free(&r);
}

/* mapdef.cc, mons_list::get_monster(int index): an index past the MONS
 * slots given returns mons_spec(RANDOM_MONSTER) -- a random monster for
 * the level, as seed 000 section D "Monsters" calls '0' a normal monster. */
static void empty_mons_slot_places_a_random_monster(void **state)
{
    (void)state;
    resolved r;
    resolve_text(&r, "NAME: empty_slot\nORIENT: float\nMONS: goblin\n"
                     "MAP\nxxxxx\nx127x\nxx@xx\nENDMAP\n", 0);
    assert_string_equal(thing_at(&r, 1, 1, QG_SLOT_MONSTER), "goblin");
    for (int x = 2; x <= 3; x++) {
        qg_cell cell = cell_at(&r, x, 1);
        assert_int_equal(cell.things[QG_SLOT_MONSTER].kind, QG_THING_RANDOM);
        assert_int_equal(cell.things[QG_SLOT_MONSTER].index, 0);
    }
    resolved_free(&r);
}

/* Seed 000, section D "Map symbols" (and "Features", "Items", "Monsters"):
 * the seed-era glyphs keep their meaning when a file is read with
 * --legacy; today's Crawl makes them floor ("any other glyph is floor",
 * dungeon.cc _vault_grid_glyph). */
static void seed_era_glyphs_keep_their_meaning(void **state)
{
    (void)state;
    static const char src[] =
        "NAME: seed_glyphs\nORIENT: float\nTAGS: temple_entry\n"
        "MAP\nxxxxxxxxxxxx\nxa=~FHSOPRZx\nxxxxx@xxxxxx\nENDMAP\n";
    resolved r;
    resolve_text(&r, src, 1);
    assert_string_equal(feature_at(&r, 1, 1), "wax_wall");
    assert_string_equal(feature_at(&r, 2, 1), "secret_door");
    assert_string_equal(feature_at(&r, 3, 1), "trap");
    qg_cell f = cell_at(&r, 4, 1);
    assert_true(strcmp(f.feature_name, "granite_statue") == 0 ||
                f.things[QG_SLOT_MONSTER].kind == QG_THING_NAME);
    assert_string_equal(thing_at(&r, 5, 1, QG_SLOT_MONSTER), "orange crystal statue");
    assert_string_equal(thing_at(&r, 6, 1, QG_SLOT_MONSTER), "silver statue");
    /* O in a branch entry vault is the branch's entrance (seed 000 section B:
     * "O - stairs to the Temple") */
    assert_string_equal(feature_at(&r, 7, 1), "enter_temple");
    qg_cell p = cell_at(&r, 8, 1);
    assert_true(p.things[QG_SLOT_OBJECT].kind == QG_THING_NONE ||
                strcmp(p.things[QG_SLOT_OBJECT].name, "rune of Zot") == 0);
    const char *jelly = thing_at(&r, 9, 1, QG_SLOT_OBJECT);
    assert_true(strcmp(jelly, "honeycomb") == 0 || strcmp(jelly, "royal jelly") == 0);
    assert_string_equal(thing_at(&r, 10, 1, QG_SLOT_OBJECT), "Orb of Zot");
    resolved_free(&r);

    /* without --legacy they are what Crawl makes of them today */
    resolve_text(&r, src, 0);
    assert_string_equal(feature_at(&r, 1, 1), "floor");
    assert_string_equal(feature_at(&r, 2, 1), "runed_clear_door");
    assert_string_equal(feature_at(&r, 7, 1), "floor");
    resolved_free(&r);

    /* outside a branch entry vault, O is an appropriate rune; P places one
     * rune in two; R honeycomb twice in three */
    int runes = 0, honeycombs = 0;
    for (unsigned long long seed = 1; seed <= 60; seed++) {
        resolve_seeded(&r, "NAME: o\nORIENT: float\nMAP\nxxxx\nxOPR\nxx@x\nENDMAP\n", 1, seed);
        assert_string_equal(feature_at(&r, 1, 1), "floor");
        assert_string_equal(thing_at(&r, 1, 1, QG_SLOT_OBJECT), "rune of Zot");
        runes += strcmp(thing_at(&r, 2, 1, QG_SLOT_OBJECT), "rune of Zot") == 0;
        honeycombs += strcmp(thing_at(&r, 3, 1, QG_SLOT_OBJECT), "honeycomb") == 0;
        resolved_free(&r);
    }
    assert_in_range(runes, 15, 45);
    assert_in_range(honeycombs, 28, 52);
}

/* Seed 001 ("The MARKER parameters") and 003 ("lua:one_way_stair"): a
 * MARKER whose value is Lua keeps that Lua as the marker's body. */
static void lua_marker_keeps_its_body(void **state)
{
    (void)state;
    resolved r;
    resolve_text(&r,
                 "NAME: lua_body\nORIENT: float\n"
                 "MARKER: O = lua:one_way_stair { desc = \"A portal\", \\\n"
                 "                                dst = \"generic_portal\" }\n"
                 "KFEAT: O = enter_portal_vault\n"
                 "MAP\nxxx\nxOx\nx@x\nENDMAP\n",
                 0);
    const char *spec = marker_at(r.level, 1, 1);
    assert_non_null(spec);
    assert_string_equal(spec, "lua:one_way_stair { desc = \"A portal\", "
                              "dst = \"generic_portal\" }");
    resolved_free(&r);
}

/* Seed 002, "Feature markers": "MARKER: D=feat:enter_dis, G=feat:enter_gehenna"
 * annotates D and G each with its own feature marker. */
static void several_markers_on_one_line_are_all_kept(void **state)
{
    (void)state;
    static const char src[] = "NAME: vestibule\nORIENT: float\n"
                              "MARKER: D=feat:enter_dis, G=feat:enter_gehenna\n"
                              "MAP\nxxxx\nxDGx\nx@.x\nENDMAP\n";
    resolved r;
    resolve_text(&r, src, 1);
    assert_string_equal(marker_at(r.level, 1, 1), "feat:enter_dis");
    assert_string_equal(marker_at(r.level, 2, 1), "feat:enter_gehenna");
    resolved_free(&r);
    /* Crawl since 0.5 reads the whole line as one marker, whose feature
     * name does not exist: an error outside --legacy */
    qg_diags *d = qg_diags_new();
    qg_des_file *file = NULL;
    qg_des_parse("sem.des", src, strlen(src), NULL, NULL, &file, d);
    assert_true(test_diags_contain(d, QG_ERROR, "one MARKER: line per marker"));
    qg_des_file_free(file);
    qg_diags_free(d);
}

/* Seed 000, section E "Hints for level makers": "non-rectangular maps will
 * be padded with rock walls for the smallest rectangle containing them". */
static void ragged_seed_maps_are_padded_with_rock(void **state)
{
    (void)state;
    static const char src[] = "NAME: ragged\nORIENT: float\nMAP\nxxxxx\nx.@\nxxxxx\nENDMAP\n";
    resolved r;
    resolve_text(&r, src, 1);
    for (int x = 3; x < 5; x++) {
        qg_cell cell = cell_at(&r, x, 1);
        assert_true(cell.in_map);
        assert_int_equal(cell.glyph, 'x');
        assert_string_equal(cell.feature_name, "rock_wall");
    }
    resolved_free(&r);
    /* today's Crawl pads with space: not part of the map (mapdef.cc
     * map_lines::normalise) */
    resolve_text(&r, src, 0);
    assert_false(cell_at(&r, 4, 1).in_map);
    resolved_free(&r);
}

/* Seed 000, section D "ORIENT": "if your map is ORIENT: north, you must
 * have a 6 deep border of rock wall ... along the northern, eastern, and
 * western edges of the map" -- every such edge is reported. */
static void every_unpadded_edge_is_reported(void **state)
{
    (void)state;
    resolved r;
    resolve_text(&r,
                 "NAME: bare_north\nORIENT: north\nMAP\n"
                 "..........\n..........\n..........\n..........\n"
                 "..........\n..........\n..........\n....@.....\nENDMAP\n",
                 0);
    qg_diags *d = qg_diags_new();
    qg_level_check_placement(r.level, d);
    assert_true(test_diags_contain(d, QG_WARNING, "along its north edge"));
    assert_true(test_diags_contain(d, QG_WARNING, "along its east edge"));
    assert_true(test_diags_contain(d, QG_WARNING, "along its west edge"));
    assert_false(test_diags_contain(d, QG_WARNING, "along its south edge"));
    qg_diags_free(d);
    resolved_free(&r);
}

/* Seed 000, section D "Features", '@': "if there is no floorspace on the
 * edge of your map, it will be isolated" -- an isolated vault is placed
 * sealed, not refused, by Crawl 0.4 and 0.5 (they check no exit when they
 * load a map). Crawl 0.28 refuses it (mapdef.cc map_def::has_exit). */
static void isolated_float_vault_is_not_an_error(void **state)
{
    (void)state;
    resolved r;
    resolve_text(&r, "NAME: sealed\nORIENT: float\nMAP\nxxxxx\nx$$$x\nxxxxx\nENDMAP\n", 0);
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_level_check_placement(r.level, d), 0);
    assert_false(test_diags_contain(d, QG_ERROR, "has no exit"));
    assert_true(test_diags_contain(d, QG_WARNING, "isolated"));
    qg_diags_free(d);
    resolved_free(&r);
    resolve_text(&r, "NAME: sealed_n\nORIENT: north\nMAP\nxxxxx\nx$$$x\nxxxxx\nENDMAP\n", 0);
    d = qg_diags_new();
    assert_int_equal(qg_level_check_placement(r.level, d), 0);
    assert_true(test_diags_contain(d, QG_WARNING, "isolated"));
    qg_branches *t = NULL;
    assert_int_equal(qg_branches_load(test_src_path("lib/des/vocab"), "crawl-0.28", &t, d), QG_OK);
    assert_int_equal(qg_level_check_placement_at(r.level, t, "D:2", NULL, d), 1);
    assert_true(test_diags_contain(d, QG_ERROR, "has no exit: Crawl refuses to load it"));
    qg_branches_free(t);
    qg_diags_free(d);
    resolved_free(&r);
}

/* Seed 000, section D "Features": "><  - extra rock stairs - you can leave
 * level by these" -- in a seed-era vault they are stairs (a way out), not
 * today's escape hatches. */
static void seed_rock_stairs_are_a_way_out(void **state)
{
    (void)state;
    resolved r;
    resolve_text(&r, "NAME: rock_stairs\nORIENT: east\nMAP\nxxxxx\nx.>.x\nxxxxx\nENDMAP\n", 1);
    qg_diags *d = qg_diags_new();
    assert_string_equal(feature_at(&r, 2, 1), "rock_stairs_down");
    assert_int_equal(qg_level_check_placement(r.level, d), 0);
    assert_false(test_diags_contain(d, QG_ERROR, "has no exit"));
    qg_diags_free(d);
    resolved_free(&r);
}

static qg_diags *parse_diags(const char *src, int legacy)
{
    qg_des_options options = {legacy};
    qg_diags *d = qg_diags_new();
    qg_des_file *file = NULL;
    qg_des_parse("sem.des", src, strlen(src), &options, NULL, &file, d);
    qg_des_file_free(file);
    return d;
}

/* Seed 000 section D "CHANCE" and seed 001 ("CHANCE: 5 makes the map
 * appear less often (default is 10)") make a bare CHANCE a weight, which a
 * seed-era file is read as and told; Crawl since 0.5 (maps.cc
 * map_chance::roll, random2(10000) < chance) reads it as N in 10000, what
 * a file of that era means by it (stock 0.28's altar.des has CHANCE: 0,
 * dummy.des CHANCE: 8333): nothing is said. A chance past 10000 (100%) is
 * refused as dgn.chance refuses it. */
static void chance_forms_are_told_and_checked(void **state)
{
    (void)state;
    static const char map[] = "MAP\n.@.\nENDMAP\n";
    char src[256];
    snprintf(src, sizeof src, "NAME: c\nCHANCE: 0\n%s", map);
    qg_diags *d = parse_diags(src, 0);
    assert_int_equal(qg_diags_count(d), 0);
    qg_diags_free(d);
    snprintf(src, sizeof src, "NAME: c\nCHANCE: 5\n%s", map);
    d = parse_diags(src, 1);
    assert_true(test_diags_contain(d, QG_NOTE, "a weight"));
    qg_diags_free(d);
    static const char *const bad[] = {"CHANCE: 5000%", "CHANCE: 10001", "CHANCE: 2 : 101%"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(src, sizeof src, "NAME: c\n%s\n%s", bad[i], map);
        d = parse_diags(src, 0);
        assert_true(test_diags_contain(d, QG_ERROR, "out of range"));
        qg_diags_free(d);
    }
}

/* Crawl 0.5.2 levcomp.ypp and maps.cc (chance_priority): "CHANCE:
 * <priority> : <chance>" sets both; the map is rolled before the others
 * of lower priority. */
static void chance_with_priority_is_read(void **state)
{
    (void)state;
    static const char src[] = "NAME: c\nORIENT: float\nCHANCE: 5 : 10%\nMAP\nx.@.x\nENDMAP\n";
    qg_diags *d = qg_diags_new();
    qg_des_file *file = NULL;
    qg_des_parse("sem.des", src, strlen(src), NULL, NULL, &file, d);
    assert_int_equal(qg_diags_count_severity(d, QG_ERROR), 0);
    assert_string_equal(qg_mapdef_get_property(qg_des_map(file, 0), "chance"),
                        "1000 (priority 5)");
    qg_des_file_free(file);
    qg_diags_free(d);
    resolved r;
    resolve_text(&r, src, 1);
    resolved_free(&r);
}

/* Seed 002, "KMASK": "no_secret_doors: prevents a door from randomly being
 * turned into a secret door". */
static void kmask_no_secret_doors_is_a_mask(void **state)
{
    (void)state;
    resolved r;
    resolve_text(&r, "NAME: k\nORIENT: float\nKMASK: + = no_secret_doors\n"
                     "MAP\nxxx\nx+x\nx@x\nENDMAP\n", 1);
    assert_true(cell_at(&r, 1, 1).vault_mask & QG_MASK_NO_SECRET_DOORS);
    assert_false(cell_at(&r, 1, 2).vault_mask & QG_MASK_NO_SECRET_DOORS);
    resolved_free(&r);
}

/* Seed 002, "LFLAGS"/"BFLAGS": the level and branch flags a map sets are
 * part of what it declares. */
static void lflags_and_bflags_are_properties(void **state)
{
    (void)state;
    qg_des_options options = {1};
    qg_diags *d = qg_diags_new();
    qg_des_file *file = NULL;
    static const char src[] = "NAME: f\nORIENT: encompass\nLFLAGS: no_tele_control\n"
                              "BFLAGS: islanded\nMAP\n.\nENDMAP\n";
    qg_des_parse("sem.des", src, strlen(src), &options, NULL, &file, d);
    const qg_mapdef *def = qg_des_map(file, 0);
    assert_string_equal(qg_mapdef_get_property(def, "lflags"), "no_tele_control");
    assert_string_equal(qg_mapdef_get_property(def, "bflags"), "islanded");
    qg_des_file_free(file);
    qg_diags_free(d);
}

/* Seed 000, section D "ORIENT": "encompass: the vault completely occupies
 * the entire level" -- placed, nothing of the host's own layout is left
 * around it (dungeon.cc builds no layout around an encompass vault; the
 * level stays rock) and every cell belongs to the vault. */
static void encompass_vault_fills_the_level(void **state)
{
    (void)state;
    resolved r;
    resolve_text(&r, "NAME: whole\nORIENT: encompass\nMAP\n"
                     "xxxxxxx\nx.{.}.x\nx.(.).x\nx.[.].x\nxxxxxxx\nENDMAP\n", 0);
    qg_host *host = qg_host_generate(30, 12, 7);
    qg_cave *cave = qg_host_cave(host);
    qg_placement p;
    memset(&p, 0, sizeof p);
    qg_place_options options;
    memset(&options, 0, sizeof options);
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_place_vault(cave, r.level, &options, &p, d), QG_OK);
    for (int y = 0; y < cave->height; y++)
        for (int x = 0; x < cave->width; x++) {
            int at = y * cave->width + x;
            int inside = x >= p.x && x < p.x + p.width && y >= p.y && y < p.y + p.height;
            assert_true(cave->vault_mask[at] & QG_MASK_VAULT);
            if (!inside)
                assert_true(cave->classify(cave->user, cave->feature[at]) & QG_FEAT_WALL);
        }
    qg_placement_clear(&p);
    qg_diags_free(d);
    qg_host_free(host);
    resolved_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keyed_things_without_kfeat_stand_on_floor),
        cmocka_unit_test(empty_mons_slot_places_a_random_monster),
        cmocka_unit_test(seed_era_glyphs_keep_their_meaning),
        cmocka_unit_test(lua_marker_keeps_its_body),
        cmocka_unit_test(several_markers_on_one_line_are_all_kept),
        cmocka_unit_test(ragged_seed_maps_are_padded_with_rock),
        cmocka_unit_test(every_unpadded_edge_is_reported),
        cmocka_unit_test(isolated_float_vault_is_not_an_error),
        cmocka_unit_test(seed_rock_stairs_are_a_way_out),
        cmocka_unit_test(chance_forms_are_told_and_checked),
        cmocka_unit_test(chance_with_priority_is_read),
        cmocka_unit_test(kmask_no_secret_doors_is_a_mask),
        cmocka_unit_test(lflags_and_bflags_are_properties),
        cmocka_unit_test(encompass_vault_fills_the_level),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Core IR: diagnostics, variables, flags, levels, map definitions, vocabulary, rng. */
#define _GNU_SOURCE
#include "testutil.h"
#include "core/buf.h"
#include "core/groups.h"
#include "core/mapdef.h"
#include "core/rng.h"
#include "core/suggest.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

static char *print_to_string(const qg_diags *diags)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    qg_diags_print(diags, out);
    fclose(out);
    return text;
}

static void diag_prints_line_and_caret(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    const char *line = "F:a:1:x8";
    qg_diags_add(d, QG_ERROR, "q.txt", 7, 7, line, strlen(line), "bad number '%s'", "x8");
    char *text = print_to_string(d);
    assert_string_equal(text, "q.txt:7:7: error: bad number 'x8'\n  F:a:1:x8\n        ^\n");
    assert_int_equal(qg_diags_count_severity(d, QG_ERROR), 1);
    assert_int_equal(qg_diags_count_severity(d, QG_WARNING), 0);
    free(text);
    qg_diags_free(d);
}

static void diag_escapes_non_ascii(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    const char line[] = "D:\xc2\xa0x";
    qg_diags_add(d, QG_WARNING, "m.des", 3, 5, line, 5, "non-ASCII byte");
    char *text = print_to_string(d);
    assert_string_equal(text, "m.des:3:5: warning: non-ASCII byte\n  D:\\xC2\\xA0x\n            ^\n");
    free(text);
    qg_diags_free(d);
}

static long peak_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static void count_passed(void *user, const qg_diag *diag)
{
    size_t *passed = user;
    passed[diag->severity]++;
}

/* A million errors with a cap of 50 keep nothing past the 50, whether
 * kept or passed on: kept, they would take hundreds of MiB. */
static void diag_cap_keeps_memory_flat(void **state)
{
    (void)state;
    char line[120];
    memset(line, 'x', sizeof line);
    size_t passed[3] = {0, 0, 0};
    qg_diags *kept = qg_diags_new(), *streamed = qg_diags_new();
    qg_diags_set_filter(kept, QG_NOTE, 50);
    qg_diags_set_filter(streamed, QG_ERROR, 50);
    qg_diags_set_sink(streamed, count_passed, passed);
    long before = peak_kib();
    for (int i = 1; i <= 1000000; i++) {
        qg_diags_add(kept, QG_ERROR, "big.txt", i, 1, line, sizeof line, "bad line %d", i);
        qg_diags_add(streamed, i % 2 ? QG_ERROR : QG_WARNING, "big.txt", i, 1, line,
                     sizeof line, "bad line %d", i);
    }
    assert_true(peak_kib() - before < 4096);
    assert_int_equal(qg_diags_count(kept), 50);
    assert_int_equal(qg_diags_get(kept, 49)->line, 50);
    assert_int_equal(qg_diags_count_severity(kept, QG_ERROR), 1000000);
    assert_int_equal(qg_diags_dropped(kept), 1000000 - 50);
    assert_true(qg_diags_over_limit(kept));
    assert_int_equal(qg_diags_count(streamed), 0);
    assert_int_equal(passed[QG_ERROR], 50);
    assert_int_equal(passed[QG_WARNING], 0);
    assert_int_equal(qg_diags_count_severity(streamed, QG_WARNING), 500000);
    assert_true(qg_diags_over_limit(streamed));
    qg_diags_free(kept);
    qg_diags_free(streamed);
}

/* Without a limit nothing is dropped; under one that is never reached,
 * the run is not over it. */
static void diag_filter_without_limit(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_diags_set_filter(d, QG_WARNING, 0);
    for (int i = 0; i < 100; i++)
        qg_diags_add(d, QG_ERROR, "f", i + 1, 0, NULL, 0, "e");
    qg_diags_add(d, QG_NOTE, "f", 1, 0, NULL, 0, "n");
    assert_int_equal(qg_diags_count(d), 100);
    assert_int_equal(qg_diags_dropped(d), 1);
    assert_false(qg_diags_over_limit(d));
    qg_diags_set_filter(d, QG_NOTE, 200);
    qg_diags_add(d, QG_ERROR, "f", 101, 0, NULL, 0, "e");
    assert_false(qg_diags_over_limit(d));
    qg_diags_free(d);
}

static void vars_set_get_replace(void **state)
{
    (void)state;
    qg_vars *v = qg_vars_new();
    assert_int_equal(qg_vars_set(v, "$LEVEL", "5"), QG_OK);
    assert_int_equal(qg_vars_set_assignment(v, "CLASS=Warrior"), QG_OK);
    assert_int_equal(qg_vars_set_int(v, "LEVEL", 12), QG_OK);
    assert_string_equal(qg_vars_get(v, "LEVEL"), "12");
    assert_string_equal(qg_vars_get(v, "$CLASS"), "Warrior");
    assert_null(qg_vars_get(v, "RACE"));
    assert_int_equal(qg_vars_count(v), 2);
    assert_int_equal(qg_vars_set_assignment(v, "=x"), QG_ERR_INVALID);
    assert_int_equal(qg_vars_set_assignment(v, "novalue"), QG_ERR_INVALID);
    qg_vars_free(v);
}

static void flags_round_trip(void **state)
{
    (void)state;
    assert_int_equal(qg_mask_from_name("no_monster_gen"), QG_MASK_NO_MONSTER_GEN);
    assert_string_equal(qg_mask_name(QG_MASK_OPAQUE), "opaque");
    assert_int_equal(qg_mask_from_name("bogus"), 0);
    assert_int_equal(qg_info_from_name("ICKY"), 4);
    assert_string_equal(qg_info_name(QG_INFO_ROOM), "ROOM");
}

static void level_cells_and_things(void **state)
{
    (void)state;
    qg_level *l = qg_level_new(4, 3);
    assert_non_null(l);
    assert_int_equal(qg_level_set_feature(l, 1, 2, 61, "permanent wall"), QG_OK);
    assert_int_equal(qg_level_set_cave_info(l, 1, 2, 0x40c), QG_OK);
    assert_int_equal(qg_level_set_thing(l, 2, 0, QG_SLOT_MONSTER, QG_THING_RANDOM, 9, NULL), QG_OK);
    assert_int_equal(qg_level_set_thing(l, 3, 0, QG_SLOT_OBJECT, QG_THING_NAME, -1, "scroll"), QG_OK);
    assert_int_equal(qg_level_set_special(l, 2, 0, 7, 3, 2), QG_OK);
    assert_int_equal(qg_level_set_feature(l, 4, 0, 1, NULL), QG_ERR_INVALID);

    qg_cell c;
    assert_int_equal(qg_level_cell(l, 1, 2, &c), QG_OK);
    assert_int_equal(c.feature, 61);
    assert_string_equal(c.feature_name, "permanent wall");
    assert_int_equal(c.cave_info, 0x40c);
    assert_true(c.in_map);
    assert_int_equal(qg_level_cell(l, 2, 0, &c), QG_OK);
    assert_int_equal(c.things[QG_SLOT_MONSTER].kind, QG_THING_RANDOM);
    assert_int_equal(c.things[QG_SLOT_MONSTER].index, 9);
    assert_int_equal(c.special, 7);
    assert_int_equal(c.mimic, 3);
    assert_int_equal(c.mflag, 2);
    assert_int_equal(qg_level_cell(l, 3, 0, &c), QG_OK);
    assert_string_equal(c.things[QG_SLOT_OBJECT].name, "scroll");
    assert_int_equal(qg_level_cell(l, 0, 0, &c), QG_OK);
    assert_false(c.in_map);
    assert_int_equal(c.feature, -1);
    assert_int_equal(qg_level_features(l)[2 * 4 + 1], 61);
    assert_int_equal(qg_level_cave_info(l)[2 * 4 + 1], 0x40c);

    assert_false(qg_level_player_start(l, NULL, NULL));
    qg_level_set_player_start(l, 3, 1);
    int x, y;
    assert_true(qg_level_player_start(l, &x, &y));
    assert_int_equal(x, 3);
    assert_int_equal(y, 1);
    qg_level_free(l);
}

/* A thing's chance and placing flags, and a feature's chance, are kept
 * with the cell. */
static void level_chances_and_flags(void **state)
{
    (void)state;
    qg_level *l = qg_level_new(2, 1);
    qg_thing orc = {QG_THING_RANDOM, 5, "ORC", 50, QG_THING_AWAKE | QG_THING_ALONE, 0};
    assert_int_equal(qg_level_put_thing(l, 0, 0, QG_SLOT_MONSTER, &orc), QG_OK);
    assert_int_equal(qg_level_set_feature_chance(l, 1, 0, 60), QG_OK);
    qg_cell c;
    qg_level_cell(l, 0, 0, &c);
    assert_int_equal(c.things[QG_SLOT_MONSTER].chance, 50);
    assert_int_equal(c.things[QG_SLOT_MONSTER].flags, QG_THING_AWAKE | QG_THING_ALONE);
    assert_string_equal(c.things[QG_SLOT_MONSTER].name, "ORC");
    qg_level_cell(l, 1, 0, &c);
    assert_int_equal(c.feature_chance, 60);
    /* a thing set without them has none */
    assert_int_equal(qg_level_set_thing(l, 0, 0, QG_SLOT_MONSTER, QG_THING_INDEX, 3, NULL), QG_OK);
    qg_level_cell(l, 0, 0, &c);
    assert_int_equal(c.things[QG_SLOT_MONSTER].chance, 0);
    assert_int_equal(c.things[QG_SLOT_MONSTER].flags, 0);
    assert_int_equal(qg_thing_flag_from_name("HASTED"), QG_THING_HASTED);
    assert_string_equal(qg_thing_flag_name(QG_THING_NO_UNIQUE), "NO_UNIQUE");
    qg_level_free(l);
}

static char glyph_at(const qg_level *l, int x, int y)
{
    qg_cell c;
    qg_level_cell(l, x, y, &c);
    return (char)c.glyph;
}

/* The eight transforms as FrogComposband's rooms.c numbers them
 * (transform_alloc, _transform): t & 3 quarter turns clockwise, then a
 * mirror left to right when t & 4, moved back to the origin. */
static void level_turns_as_the_game(void **state)
{
    (void)state;
    qg_level *l = qg_level_new(3, 2);
    const char *rows[] = {"abc", "def"};
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++)
            qg_level_set_glyph(l, x, y, (unsigned char)rows[y][x]);
    qg_level_set_player_start(l, 2, 1);
    qg_level_add_marker(l, 1, 0, "m");
    qg_level_set_turns(l, QG_TURNS_ANY, -1);
    int applied;
    assert_int_equal(qg_level_turns(l, &applied), QG_TURNS_ANY);
    assert_int_equal(applied, -1);
    static const struct {
        int t;
        const char *rows[3];
    } want[] = {{1, {"da", "eb", "fc"}}, {4, {"cba", "fed"}}, {5, {"ad", "be", "cf"}},
                {2, {"fed", "cba"}}};
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        qg_level *t = qg_level_turned(l, want[k].t);
        assert_non_null(t);
        int h = qg_level_height(t), w = qg_level_width(t);
        assert_int_equal(h, (want[k].t & 1) ? 3 : 2);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                assert_int_equal(glyph_at(t, x, y), want[k].rows[y][x]);
        int sx, sy;
        assert_true(qg_level_player_start(t, &sx, &sy));
        assert_int_equal(glyph_at(t, sx, sy), 'f');
        int mx, my;
        qg_level_marker(t, 0, &mx, &my);
        assert_int_equal(glyph_at(t, mx, my), 'b');
        assert_int_equal(qg_level_turns(t, &applied), QG_TURNS_ANY);
        assert_int_equal(applied, want[k].t);
        qg_level_free(t);
    }
    assert_null(qg_level_turned(l, 8));
    qg_level_free(l);
}

static void level_masks_and_specials_appear_when_set(void **state)
{
    (void)state;
    qg_level *l = qg_level_new(3, 2);
    assert_int_equal(qg_level_set_special(l, 0, 0, 0, 0, 0), QG_OK);
    assert_int_equal(qg_level_set_vault_mask(l, 1, 0, 0), QG_OK);
    assert_null(qg_level_specials(l));
    assert_null(qg_level_vault_masks(l));
    assert_int_equal(qg_level_set_special(l, 2, 1, -1, 0, 0), QG_OK);
    assert_int_equal(qg_level_set_vault_mask(l, 1, 1, QG_MASK_VAULT), QG_OK);
    assert_int_equal(qg_level_specials(l)[5], -1);
    assert_int_equal(qg_level_specials(l)[0], 0);
    assert_int_equal(qg_level_vault_masks(l)[4], QG_MASK_VAULT);
    assert_int_equal(qg_level_vault_masks(l)[1], 0);
    qg_level_clear_cell(l, 2, 1);
    assert_int_equal(qg_level_specials(l)[5], 0);
    qg_cell c;
    assert_int_equal(qg_level_cell(l, 1, 1, &c), QG_OK);
    assert_int_equal(c.vault_mask, QG_MASK_VAULT);
    qg_level_free(l);
}

static int count_cells(void *user, int x, int y, const qg_cell *cell)
{
    (void)x; (void)y; (void)cell;
    (*(int *)user)++;
    return 0;
}

static void level_foreach_visits_in_map_cells(void **state)
{
    (void)state;
    qg_level *l = qg_level_new(10, 10);
    qg_level_set_glyph(l, 0, 0, '#');
    qg_level_set_glyph(l, 9, 9, '.');
    qg_level_set_glyph(l, 5, 5, '.');
    qg_level_clear_cell(l, 5, 5);
    int n = 0;
    assert_int_equal(qg_level_foreach(l, count_cells, &n), 0);
    assert_int_equal(n, 2);
    assert_null(qg_level_new(0, 5));
    assert_null(qg_level_new(100000, 100000));
    qg_level_free(l);
}

static void level_markers_and_properties(void **state)
{
    (void)state;
    qg_level *l = qg_level_new(2, 2);
    qg_level_add_marker(l, 1, 1, "feat:altar");
    qg_level_add_property(l, "tag", "a");
    qg_level_add_property(l, "tag", "b");
    int x, y;
    assert_string_equal(qg_level_marker(l, 0, &x, &y), "feat:altar");
    assert_int_equal(x + y, 2);
    assert_int_equal(qg_level_property_count(l), 2);
    assert_string_equal(qg_level_get_property(l, "tag"), "a");
    const char *value;
    assert_string_equal(qg_level_property(l, 1, &value), "tag");
    assert_string_equal(value, "b");
    qg_level_free(l);
}

static void mapdef_rows_and_properties(void **state)
{
    (void)state;
    qg_mapdef *m = qg_mapdef_new(QG_FORMAT_DES, "test_map");
    qg_mapdef_set_file(m, "a.des", 4);
    qg_mapdef_add_row(m, "xxx", 3, 6);
    qg_mapdef_add_row(m, "x.x.x", 5, 7);
    qg_mapdef_add_property(m, "orient", "float");
    assert_string_equal(qg_mapdef_name(m), "test_map");
    assert_int_equal(qg_mapdef_width(m), 5);
    assert_int_equal(qg_mapdef_row_count(m), 2);
    size_t len;
    int line;
    assert_string_equal(qg_mapdef_row(m, 1, &len, &line), "x.x.x");
    assert_int_equal(line, 7);
    assert_string_equal(qg_mapdef_get_property(m, "orient"), "float");
    assert_string_equal(qg_mapdef_file(m), "a.des");
    qg_mapdef_free(m);
}

static void vocab_reads_numeric_and_tagged(void **state)
{
    (void)state;
    const char zang[] = "# comment\nV:2.8.1\nN:0:nothing\nN:1:open floor\nG:.:w\nN:61:permanent wall\n";
    const char heng[] = "N:1:FLOOR\nJ:\xe5\xba\x8a\nE:open floor\nN:2:PERMANENT\nE:permanent wall\n";
    const char bad[] = "N:x:oops\nN:3:fine\n";
    qg_vocab *v = qg_vocab_new();
    qg_diags *d = qg_diags_new();
    const char *p = test_write_temp("f_zang.txt", zang, sizeof zang - 1);
    assert_int_equal(qg_vocab_load_file(v, QG_VOCAB_FEATURE, p, d), QG_OK);
    assert_string_equal(qg_vocab_name(v, QG_VOCAB_FEATURE, 61), "permanent wall");
    assert_int_equal(qg_vocab_lookup(v, QG_VOCAB_FEATURE, "Open Floor"), 1);
    assert_int_equal(qg_vocab_size(v, QG_VOCAB_FEATURE), 3);
    p = test_write_temp("r_heng.txt", heng, sizeof heng - 1);
    assert_int_equal(qg_vocab_load_file(v, QG_VOCAB_MONSTER, p, d), QG_OK);
    assert_string_equal(qg_vocab_tag(v, QG_VOCAB_MONSTER, 2), "PERMANENT");
    assert_string_equal(qg_vocab_name(v, QG_VOCAB_MONSTER, 2), "permanent wall");
    assert_int_equal(qg_vocab_lookup(v, QG_VOCAB_MONSTER, "FLOOR"), 1);
    assert_int_equal(qg_vocab_lookup(v, QG_VOCAB_MONSTER, "nope"), -1);
    p = test_write_temp("k_bad.txt", bad, sizeof bad - 1);
    assert_int_equal(qg_vocab_load_file(v, QG_VOCAB_OBJECT, p, d), QG_ERR_PARSE);
    assert_true(test_diags_contain(d, QG_ERROR, "bad index"));
    assert_int_equal(qg_diags_get(d, 0)->line, 1);
    assert_string_equal(qg_vocab_name(v, QG_VOCAB_OBJECT, 3), "fine");
    qg_diags_free(d);
    qg_vocab_free(v);
}

/* Hengband 3.0.2's MonraceDefinitions.jsonc form (main/info-initializer.cpp
 * init_json: nlohmann::json::parse with comments and trailing commas
 * ignored; race-reader.cpp parse_monraces_info: "id", "name" {"ja",
 * "en"}, "symbol" {"character", "color"}). A comment's marks inside a
 * string are text; a comment's lines still count. */
static void vocab_reads_hengband3_jsonc(void **state)
{
    (void)state;
    const char good[] =
        "{\n  \"versions\": 1.0,\n  \"monsters\": [\n"
        "    /*\"id\": \xe3\x83\xa2\xe3\x83\xb3\xe3\x82\xb9\xe3\x82\xbf\xe3\x83\xbcID,\n"
        "      \"name\": { \"ja\": ... } */\n"
        "    { \"id\": 0, \"name\": { \"ja\": \"\xe3\x83\x97\", \"en\": \"Player\", },\n"
        "      \"symbol\": { \"character\": \"@\", \"color\": \"White\", }, },\n"
        "    //##### Town monsters ##### \"\n"
        "    { \"id\": 44, \"name\": { \"ja\": \"\xe8\xa6\x8b\", \"en\": \"Novice rogue // /* */\", },\n"
        "      \"symbol\": { \"character\": \"p\", \"color\": \"Light Blue\" }, },\n"
        "  ],\n}\n";
    qg_vocab *v = qg_vocab_new();
    qg_diags *d = qg_diags_new();
    const char *p = test_write_temp("MonraceDefinitions.jsonc", good, sizeof good - 1);
    assert_int_equal(qg_vocab_load_file(v, QG_VOCAB_MONSTER, p, d), QG_OK);
    assert_int_equal(qg_diags_count(d), 0);
    assert_string_equal(qg_vocab_name(v, QG_VOCAB_MONSTER, 44), "Novice rogue // /* */");
    assert_string_equal(qg_vocab_tag(v, QG_VOCAB_MONSTER, 44), "\xe8\xa6\x8b");
    assert_string_equal(qg_vocab_name(v, QG_VOCAB_MONSTER, 0), "Player");
    assert_int_equal(qg_vocab_lookup(v, QG_VOCAB_MONSTER, "novice rogue // /* */"), 44);
    char glyph, colour;
    assert_true(qg_vocab_look(v, QG_VOCAB_MONSTER, 44, &glyph, &colour));
    assert_int_equal(glyph, 'p');
    assert_int_equal(colour, 'B');
    assert_string_equal(qg_vocab_source(v, QG_VOCAB_MONSTER), "MonraceDefinitions.jsonc");
    static const struct {
        const char *text, *why;
        int line;
    } bad[] = {
        {"{\"monsters\": [\n /* never ends\n", "a comment that never ends", 2},
        {"{\"monsters\": [\n\n {\"id\": 1,, } ]}", "", 3},
        {"{\"monsters\": [ {\"name\": {\"en\": \"x\"}} ]}", "no integer \"id\"", 0},
        {"{\"version\": 1}", "no list of definitions", 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        qg_diags_clear(d);
        p = test_write_temp("BaseitemDefinitions.jsonc", bad[i].text, strlen(bad[i].text));
        assert_int_equal(qg_vocab_load_file(v, QG_VOCAB_OBJECT, p, d), QG_ERR_PARSE);
        assert_true(test_diags_contain(d, QG_ERROR, bad[i].why));
        assert_int_equal(qg_diags_get(d, 0)->line, bad[i].line);
    }
    /* a list is parsed whole (about 7 times its size): capped at 16 MiB */
    size_t big = 16u * 1024u * 1024u + 1;
    char *spaces = malloc(big);
    assert_non_null(spaces);
    memset(spaces, ' ', big);
    p = test_write_temp("ArtifactDefinitions.jsonc", spaces, big);
    free(spaces);
    qg_diags_clear(d);
    assert_int_not_equal(qg_vocab_load_file(v, QG_VOCAB_ARTIFACT, p, d), QG_OK);
    assert_true(test_diags_contain(d, QG_ERROR, "larger than the 16777216 byte limit"));
    qg_diags_free(d);
    qg_vocab_free(v);
}

/* What name lookups need of an entry: the numbers of its I: line (tval,
 * sval) and the words of its F: and T: lines the format keeps. */
static void vocab_keeps_numbers_and_words(void **state)
{
    (void)state;
    char dir[] = "/tmp/qgvocab.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/e_info.txt", dir);
    FILE *f = fopen(path, "w");
    fputs("N:60:(Dwarven)\nT:SHIELD\nN:70:(Dwarven)\nT:BODY_ARMOR | SPECIAL\nI:37:4\n"
          "F:STR | DEPRECATED\n", f);
    fclose(f);
    static const char *const files[QG_VOCAB_KINDS] = {[QG_VOCAB_EGO] = "e_info.txt"};
    qg_vocab_format formats[QG_VOCAB_KINDS];
    memset(formats, 0, sizeof formats);
    formats[QG_VOCAB_EGO] = (qg_vocab_format){"N", 0, 0, 0, NULL, "I", "F T",
                                              "SHIELD BODY_ARMOR DEPRECATED"};
    qg_vocab *v = qg_vocab_new();
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_vocab_load_files(v, dir, files, formats, d), QG_OK);
    assert_string_equal(qg_vocab_name(v, QG_VOCAB_EGO, 70), "(Dwarven)");
    assert_true(qg_vocab_has_word(v, QG_VOCAB_EGO, 60, "SHIELD"));
    assert_false(qg_vocab_has_word(v, QG_VOCAB_EGO, 60, "BODY_ARMOR"));
    assert_true(qg_vocab_has_word(v, QG_VOCAB_EGO, 70, "BODY_ARMOR"));
    assert_true(qg_vocab_has_word(v, QG_VOCAB_EGO, 70, "DEPRECATED"));
    assert_false(qg_vocab_has_word(v, QG_VOCAB_EGO, 70, "SPECIAL"));  /* not kept */
    int32_t n[2];
    assert_false(qg_vocab_numbers(v, QG_VOCAB_EGO, 60, n));
    assert_true(qg_vocab_numbers(v, QG_VOCAB_EGO, 70, n));
    assert_int_equal(n[0], 37);
    assert_int_equal(n[1], 4);
    qg_vocab_free(v);
    qg_diags_free(d);
    remove(path);
    rmdir(dir);
}

static void vocab_missing_dir_is_diagnosed(void **state)
{
    (void)state;
    qg_vocab *v = qg_vocab_new();
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_vocab_load_dir(v, "/nonexistent/dir", d), QG_ERR_NOTFOUND);
    assert_int_equal(qg_diags_count_severity(d, QG_ERROR), 1);
    qg_diags_free(d);
    qg_vocab_free(v);
}

/* The tests run from the build tree: the source tree's lib/ is found. */
static void data_found_in_the_build_tree(void **state)
{
    (void)state;
    unsetenv("QUESTGRID_DATA");
    qg_diags *d = qg_diags_new();
    char *path;
    assert_int_equal(qg_data_find("edit/mapping.txt", &path, d), QG_OK);
    char *want = realpath(test_src_path("lib/edit/mapping.txt"), NULL);
    char *got = realpath(path, NULL);
    assert_string_equal(got, want);
    assert_int_equal(qg_diags_count(d), 0);
    free(want);
    free(got);
    free(path);
    qg_diags_free(d);
}

static void data_override_comes_first(void **state)
{
    (void)state;
    mkdir(test_temp_path("edit"), 0755);
    test_write_temp("edit/f_info.txt", "N:1:override\n", 14);
    char dirs[4096];
    snprintf(dirs, sizeof dirs, "/nonexistent/qg::%s", test_temp_dir());
    setenv("QUESTGRID_DATA", dirs, 1);
    qg_diags *d = qg_diags_new();
    char *path;
    assert_int_equal(qg_data_find("edit/f_info.txt", &path, d), QG_OK);
    assert_string_equal(path, test_temp_path("edit/f_info.txt"));
    free(path);
    /* what the override lacks comes from the next place */
    assert_int_equal(qg_data_find("edit/mapping.txt", &path, d), QG_OK);
    assert_non_null(strstr(path, "lib/edit/mapping.txt"));
    free(path);
    unsetenv("QUESTGRID_DATA");
    qg_diags_free(d);
}

static void data_missing_names_every_place(void **state)
{
    (void)state;
    setenv("QUESTGRID_DATA", "/nonexistent/one:/nonexistent/two", 1);
    qg_diags *d = qg_diags_new();
    char *path = (char *)"untouched";
    assert_int_equal(qg_data_find("edit/no_such_file.txt", &path, d), QG_ERR_NOTFOUND);
    assert_null(path);
    assert_int_equal(qg_diags_count_severity(d, QG_ERROR), 1);
    const char *m = qg_diags_get(d, 0)->message;
    assert_non_null(strstr(m, "'edit/no_such_file.txt' was not found"));
    assert_non_null(strstr(m, "/nonexistent/one/edit/no_such_file.txt (QUESTGRID_DATA)"));
    assert_non_null(strstr(m, "/nonexistent/two/edit/no_such_file.txt (QUESTGRID_DATA)"));
    assert_non_null(strstr(m, "lib/edit/no_such_file.txt (build tree)"));
    assert_non_null(strstr(m, "(installed prefix)"));
    unsetenv("QUESTGRID_DATA");
    qg_diags_free(d);
}

static void rng_is_deterministic_and_bounded(void **state)
{
    (void)state;
    qg_rng a, b;
    qg_rng_seed(&a, 42, 1);
    qg_rng_seed(&b, 42, 1);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(qg_rng_next(&a), qg_rng_next(&b));
    int counts[6] = {0};
    for (int i = 0; i < 60000; i++) {
        int32_t r = qg_rng_below(&a, 6);
        assert_in_range(r, 0, 5);
        counts[r]++;
    }
    for (int i = 0; i < 6; i++)
        assert_in_range(counts[i], 9500, 10500);
    for (int i = 0; i < 1000; i++) {
        int32_t v = qg_rng_range(&a, -3, 3);
        assert_true(v >= -3 && v <= 3);
        double r = qg_rng_real(&a);
        assert_true(r >= 0.0 && r < 1.0);
    }
    assert_int_equal(qg_rng_below(&a, 0), 0);
}

static void rng_known_first_values(void **state)
{
    (void)state;
    qg_rng r;
    qg_rng_seed(&r, 42, 54);
    /* PCG32 reference values for seed 42, stream 54 (pcg32-global demo). */
    assert_int_equal(qg_rng_next(&r), 0xa15c02b7u);
    assert_int_equal(qg_rng_next(&r), 0x7b47f409u);
    assert_int_equal(qg_rng_next(&r), 0xba1d3330u);
}

static void buf_grows_and_formats(void **state)
{
    (void)state;
    qg_buf b;
    qg_buf_init(&b);
    for (int i = 0; i < 1000; i++)
        qg_buf_printf(&b, "%d,", i);
    assert_int_equal(strncmp(b.data, "0,1,2,", 6), 0);
    assert_int_equal(b.len, strlen(b.data));
    char *s = qg_buf_take(&b);
    assert_null(b.data);
    free(s);
    char digits[QG_DECIMAL_SIZE];
    assert_string_equal(qg_decimal(digits, 0), "0");
    assert_string_equal(qg_decimal(digits, -1027), "-1027");
    assert_string_equal(qg_decimal(digits, LLONG_MIN), "-9223372036854775808");
    assert_string_equal(qg_decimal(digits, LLONG_MAX), "9223372036854775807");
}

static const char *suggest_from(const char *word, const char *const *names)
{
    static char hint[64];
    qg_suggest s;
    qg_suggest_init(&s, word, strlen(word));
    qg_suggest_offer_all(&s, names);
    if (!qg_suggest_best(&s))
        return NULL;
    snprintf(hint, sizeof hint, "%.*s", (int)s.best_len, s.best);
    return hint;
}

static void suggest_finds_close_names_only(void **state)
{
    (void)state;
    static const char *const names[] = {"sword", "goblin", "granite_statue", "stone_wall",
                                        "compile", "check", NULL};
    /* A transposition is one edit, case is ignored. */
    assert_string_equal(suggest_from("swrod", names), "sword");
    assert_string_equal(suggest_from("Goblni", names), "goblin");
    assert_string_equal(suggest_from("granit_statue", names), "granite_statue");
    assert_string_equal(suggest_from("chek", names), "check");
    assert_string_equal(suggest_from("compiel", names), "compile");
    /* Nothing close: no hint rather than a wild one. */
    assert_null(suggest_from("gobbo", names));
    assert_null(suggest_from("x", names));
    assert_null(suggest_from("no_such_wall", names));
    char longword[300];
    memset(longword, 'a', sizeof longword - 1);
    longword[sizeof longword - 1] = '\0';
    assert_null(suggest_from(longword, names));
}

static void edit_distance_is_capped(void **state)
{
    (void)state;
    assert_int_equal(qg_edit_distance("kitten", 6, "sitting", 7, 10), 3);
    assert_int_equal(qg_edit_distance("kitten", 6, "sitting", 7, 2), 3);
    assert_int_equal(qg_edit_distance("ab", 2, "ba", 2, 5), 1);
    assert_int_equal(qg_edit_distance("", 0, "abc", 3, 5), 3);
    assert_int_equal(qg_edit_distance("abc", 3, "ABC", 3, 0), 0);
}

/* Equal texts counted together, in the order of their first occurrence. */
static void text_groups_count_in_first_order(void **state)
{
    (void)state;
    const char *texts[] = {"lua", "kprop:no_tele_into", "lua", "colour:red", "lua",
                           "kprop:no_tele_into"};
    qg_text_group *groups;
    size_t count;
    assert_int_equal(qg_text_groups(texts, 6, &groups, &count), QG_OK);
    assert_int_equal(count, 3);
    assert_int_equal(groups[0].first, 0);
    assert_int_equal(groups[0].count, 3);
    assert_int_equal(groups[1].first, 1);
    assert_int_equal(groups[1].count, 2);
    assert_int_equal(groups[2].first, 3);
    assert_int_equal(groups[2].count, 1);
    free(groups);
    assert_int_equal(qg_text_groups(texts, 0, &groups, &count), QG_OK);
    assert_null(groups);
    assert_int_equal(count, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(diag_prints_line_and_caret),
        cmocka_unit_test(data_found_in_the_build_tree),
        cmocka_unit_test(data_override_comes_first),
        cmocka_unit_test(data_missing_names_every_place),
        cmocka_unit_test(diag_escapes_non_ascii),
        cmocka_unit_test(diag_cap_keeps_memory_flat),
        cmocka_unit_test(diag_filter_without_limit),
        cmocka_unit_test(vars_set_get_replace),
        cmocka_unit_test(flags_round_trip),
        cmocka_unit_test(level_cells_and_things),
        cmocka_unit_test(level_chances_and_flags),
        cmocka_unit_test(level_turns_as_the_game),
        cmocka_unit_test(level_masks_and_specials_appear_when_set),
        cmocka_unit_test(level_foreach_visits_in_map_cells),
        cmocka_unit_test(level_markers_and_properties),
        cmocka_unit_test(mapdef_rows_and_properties),
        cmocka_unit_test(vocab_reads_numeric_and_tagged),
        cmocka_unit_test(vocab_reads_hengband3_jsonc),
        cmocka_unit_test(vocab_keeps_numbers_and_words),
        cmocka_unit_test(vocab_missing_dir_is_diagnosed),
        cmocka_unit_test(rng_is_deterministic_and_bounded),
        cmocka_unit_test(rng_known_first_values),
        cmocka_unit_test(buf_grows_and_formats),
        cmocka_unit_test(suggest_finds_close_names_only),
        cmocka_unit_test(edit_distance_is_capped),
        cmocka_unit_test(text_groups_count_in_first_order),
    };
    return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}

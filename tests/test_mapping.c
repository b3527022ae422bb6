/* The vocabulary mapping reader and the bundled lib/edit/mapping.txt. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

static qg_mapping *load_bundled_file(qg_diags *diags)
{
    qg_mapping *m = qg_mapping_new();
    assert_non_null(m);
    assert_int_equal(qg_mapping_load_file(m, test_src_path("lib/edit/mapping.txt"), diags),
                     QG_OK);
    return m;
}

static qg_mapping *load_text(const char *text, qg_diags *diags, qg_status expect)
{
    qg_mapping *m = qg_mapping_new();
    assert_int_equal(qg_mapping_load_text(m, "t.map", text, strlen(text), diags), expect);
    return m;
}

static void bundled_loads_without_diagnostics(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_mapping *m = load_bundled_file(d);
    qg_diags_print(d, stderr);
    assert_int_equal(qg_diags_count(d), 0);
    assert_true(qg_mapping_count(m) > 200);
    qg_mapping_free(m);
    qg_diags_free(d);
}

static void bundled_forward_lookups(void **state)
{
    (void)state;
    qg_mapping *m = load_bundled_file(NULL);
    const qg_mapping_entry *e = qg_mapping_by_index(m, QG_VOCAB_FEATURE, 61);
    assert_non_null(e);
    assert_string_equal(e->crawl_name, "permarock_wall");
    assert_int_equal(e->glyph, 'X');
    assert_string_equal(e->edit_name, "inner bedrock");
    e = qg_mapping_by_index(m, QG_VOCAB_FEATURE, 1);
    assert_string_equal(e->crawl_name, "floor");
    assert_int_equal(e->glyph, '.');
    e = qg_mapping_by_index(m, QG_VOCAB_FEATURE, 7);
    assert_string_equal(e->crawl_name, "stone_stairs_down_i");
    assert_int_equal(e->glyph, '}');
    e = qg_mapping_by_index(m, QG_VOCAB_FEATURE, 62);
    assert_string_equal(e->crawl_name, "permarock_wall");
    assert_int_equal(e->glyph, -1);
    e = qg_mapping_by_index(m, QG_VOCAB_MONSTER, 10);
    assert_string_equal(e->crawl_name, "kobold");
    assert_null(qg_mapping_by_index(m, QG_VOCAB_FEATURE, 13));
    assert_null(qg_mapping_by_index(m, QG_VOCAB_FEATURE, 5000));
    qg_mapping_free(m);
}

static void bundled_reverse_lookups_prefer_first_line(void **state)
{
    (void)state;
    qg_mapping *m = load_bundled_file(NULL);
    assert_int_equal(qg_mapping_by_crawl_name(m, QG_VOCAB_FEATURE, "rock_wall")->index, 56);
    assert_int_equal(qg_mapping_by_crawl_name(m, QG_VOCAB_FEATURE, "Rock_Wall")->index, 56);
    assert_int_equal(qg_mapping_by_crawl_name(m, QG_VOCAB_FEATURE, "permarock_wall")->index, 61);
    assert_int_equal(qg_mapping_by_crawl_name(m, QG_VOCAB_FEATURE, "floor")->index, 1);
    assert_int_equal(qg_mapping_by_crawl_name(m, QG_VOCAB_MONSTER, "human")->index, 1);
    assert_int_equal(qg_mapping_by_glyph(m, QG_VOCAB_FEATURE, 'x')->index, 56);
    assert_int_equal(qg_mapping_by_glyph(m, QG_VOCAB_FEATURE, 'c')->index, 57);
    assert_int_equal(qg_mapping_by_glyph(m, QG_VOCAB_FEATURE, 'w')->index, 83);
    assert_int_equal(qg_mapping_by_glyph(m, QG_VOCAB_FEATURE, '+')->index, 32);
    assert_null(qg_mapping_by_glyph(m, QG_VOCAB_FEATURE, 'Q'));
    assert_null(qg_mapping_by_crawl_name(m, QG_VOCAB_FEATURE, "no_such_feature"));
    qg_mapping_free(m);
}

static void edit_names_and_tags_are_exact(void **state)
{
    (void)state;
    qg_mapping *m = load_bundled_file(NULL);
    const qg_mapping_entry *tag = qg_mapping_by_edit_name(m, QG_VOCAB_FEATURE, "FLOOR");
    const qg_mapping_entry *name = qg_mapping_by_edit_name(m, QG_VOCAB_FEATURE, "floor");
    assert_non_null(tag);
    assert_non_null(name);
    assert_int_equal(tag->index, -1);
    assert_int_equal(name->index, 1);
    assert_string_equal(qg_mapping_by_edit_name(m, QG_VOCAB_FEATURE, "PERMANENT")->crawl_name,
                        "permarock_wall");
    assert_string_equal(qg_mapping_by_edit_name(m, QG_VOCAB_FEATURE, "granite wall")->crawl_name,
                        "rock_wall");
    assert_null(qg_mapping_by_edit_name(m, QG_VOCAB_FEATURE, "Floor"));
    assert_null(qg_mapping_by_edit_name(m, QG_VOCAB_MONSTER, "floor"));
    qg_mapping_free(m);
}

static void bundled_vocabulary_loads(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_vocab *v = qg_vocab_new();
    assert_int_equal(qg_vocab_load_dir(v, test_src_path("lib/edit"), d), QG_OK);
    assert_int_equal(qg_diags_count(d), 0);
    assert_int_equal(qg_vocab_size(v, QG_VOCAB_FEATURE), 72);
    assert_int_equal(qg_vocab_size(v, QG_VOCAB_MONSTER), 61);
    assert_int_equal(qg_vocab_size(v, QG_VOCAB_OBJECT), 62);
    assert_int_equal(qg_vocab_size(v, QG_VOCAB_ARTIFACT), 10);
    /* The numbers mean what they mean in Zangband quests. */
    assert_string_equal(qg_vocab_name(v, QG_VOCAB_FEATURE, 1), "floor");
    assert_string_equal(qg_vocab_name(v, QG_VOCAB_FEATURE, 6), "staircase up");
    assert_string_equal(qg_vocab_name(v, QG_VOCAB_FEATURE, 7), "staircase down");
    assert_string_equal(qg_vocab_name(v, QG_VOCAB_FEATURE, 32), "closed door");
    assert_string_equal(qg_vocab_name(v, QG_VOCAB_FEATURE, 61), "inner bedrock");
    assert_string_equal(qg_vocab_name(v, QG_VOCAB_FEATURE, 83), "deep water");
    assert_int_equal(qg_vocab_lookup(v, QG_VOCAB_MONSTER, "kobold chieftain"), 57);
    assert_string_equal(qg_vocab_name(v, QG_VOCAB_ARTIFACT, 8), "'Yipnak's Pride'");
    qg_vocab_free(v);
    qg_diags_free(d);
}

/* Every feature, monster and object of the bundled vocabulary has an
 * entry, under the name lib/edit gives it. */
static void bundled_vocabulary_is_covered(void **state)
{
    (void)state;
    qg_mapping *m = load_bundled_file(NULL);
    qg_vocab *v = qg_vocab_new();
    assert_int_equal(qg_vocab_load_dir(v, test_src_path("lib/edit"), NULL), QG_OK);
    const qg_vocab_kind kinds[] = {QG_VOCAB_FEATURE, QG_VOCAB_MONSTER, QG_VOCAB_OBJECT};
    for (size_t k = 0; k < 3; k++) {
        size_t seen = 0;
        for (int i = 0; seen < qg_vocab_size(v, kinds[k]); i++) {
            const char *name = qg_vocab_name(v, kinds[k], i);
            if (!name)
                continue;
            seen++;
            if (kinds[k] != QG_VOCAB_FEATURE && i == 0)
                continue; /* the player, and "nothing" */
            const qg_mapping_entry *e = qg_mapping_by_index(m, kinds[k], i);
            if (!e)
                fail_msg("%s %d (%s) has no mapping", qg_mapping_kind_name(kinds[k]), i, name);
            assert_string_equal(e->edit_name, name);
        }
    }
    for (size_t i = 0; i < qg_mapping_count(m); i++) {
        const qg_mapping_entry *e = qg_mapping_entry_at(m, i);
        if (e->index >= 0)
            assert_string_equal(qg_vocab_name(v, e->kind, e->index), e->edit_name);
    }
    qg_vocab_free(v);
    qg_mapping_free(m);
}

static void malformed_lines_are_all_reported(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    const char *text = "# comment\n"
                       "feature:1:floor:floor:.\n"
                       "creature:2:x:y:\n"
                       "feature:x2:wall:rock_wall:x\n"
                       "feature:3:door\n"
                       "feature:4:pit::^^\n"
                       "feature:5::floor:\n"
                       "feature:6: spaced:floor:\n"
                       "feature:1:again:floor:\n"
                       "feature:-:floor:floor:\n"
                       "feature:7:glyph:floor:\xc3\n"
                       "monster:9:d\xc3\xa9mon:imp:\n";
    qg_mapping *m = load_text(text, d, QG_ERR_PARSE);
    assert_int_equal(qg_diags_count_severity(d, QG_ERROR), 9);
    const struct { int line, col; const char *text; } want[] = {
        {3, 1, "unknown kind 'creature'"},
        {4, 9, "bad index 'x2'"},
        {5, 15, "too few fields"},
        {6, 16, "the glyph '^^'"},
        {7, 11, "the lib/edit name is empty"},
        {8, 11, "starts or ends with a space"},
        {9, 1, "feature 1 is already mapped on line 2"},
        {10, 1, "feature 'floor' is already mapped on line 2"},
        {11, 23, "not one printable character"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const qg_diag *diag = qg_diags_get(d, i);
        assert_string_equal(diag->file, "t.map");
        assert_int_equal(diag->line, want[i].line);
        assert_int_equal(diag->col, want[i].col);
        assert_non_null(strstr(diag->message, want[i].text));
        assert_non_null(diag->source_line);
    }
    assert_int_equal(qg_mapping_count(m), 2);
    assert_string_equal(qg_mapping_by_index(m, QG_VOCAB_MONSTER, 9)->edit_name, "d\xc3\xa9mon");
    assert_string_equal(qg_mapping_by_index(m, QG_VOCAB_FEATURE, 1)->edit_name, "floor");
    qg_mapping_free(m);
    qg_diags_free(d);
}

static void nul_bytes_are_reported(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    static const char text[] = "feature:1:flo\0or:floor:.\nfeature:2:wall:rock_wall:x\n";
    qg_mapping *m = qg_mapping_new();
    assert_int_equal(qg_mapping_load_text(m, "nul.map", text, sizeof text - 1, d), QG_ERR_PARSE);
    assert_int_equal(qg_diags_count(d), 1);
    assert_int_equal(qg_diags_get(d, 0)->line, 1);
    assert_int_equal(qg_diags_get(d, 0)->col, 14);
    assert_true(test_diags_contain(d, QG_ERROR, "NUL byte"));
    assert_int_equal(qg_mapping_count(m), 1);
    assert_int_equal(qg_mapping_by_glyph(m, QG_VOCAB_FEATURE, 'x')->index, 2);
    qg_mapping_free(m);
    qg_diags_free(d);
}

static void later_files_override_earlier_ones(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_mapping *m = load_bundled_file(d);
    const char *extra = "feature:61:inner bedrock:clear_permarock_wall:o\n"
                        "feature:56:rock wall:rock_wall:x\n"
                        "feature:200:lava rock:rock_wall:x\n"
                        "monster:61:sea serpent:sea snake:\n";
    assert_int_equal(qg_mapping_load_text(m, "extra.map", extra, strlen(extra), d), QG_OK);
    assert_int_equal(qg_diags_count(d), 0);
    const qg_mapping_entry *e = qg_mapping_by_index(m, QG_VOCAB_FEATURE, 61);
    assert_string_equal(e->crawl_name, "clear_permarock_wall");
    assert_string_equal(e->file, "extra.map");
    assert_int_equal(e->line, 1);
    assert_int_equal(qg_mapping_by_glyph(m, QG_VOCAB_FEATURE, 'o')->index, 61);
    assert_int_equal(qg_mapping_by_glyph(m, QG_VOCAB_FEATURE, 'x')->index, 56);
    assert_int_equal(qg_mapping_by_crawl_name(m, QG_VOCAB_FEATURE, "rock_wall")->index, 56);
    assert_string_equal(qg_mapping_by_crawl_name(m, QG_VOCAB_FEATURE, "rock_wall")->file,
                        "extra.map");
    assert_int_equal(qg_mapping_by_crawl_name(m, QG_VOCAB_FEATURE, "permarock_wall")->index, 60);
    assert_string_equal(qg_mapping_by_index(m, QG_VOCAB_FEATURE, 200)->edit_name, "lava rock");
    assert_string_equal(qg_mapping_by_index(m, QG_VOCAB_MONSTER, 61)->crawl_name, "sea snake");
    assert_int_equal(qg_mapping_by_index(m, QG_VOCAB_FEATURE, 1)->glyph, '.');
    qg_mapping_free(m);
    qg_diags_free(d);
}

static void first_line_wins_within_a_file(void **state)
{
    (void)state;
    qg_mapping *m = load_text("feature:5:a:rock_wall:x\nfeature:9:b:rock_wall:x\n"
                              "feature:2:c:ROCK_WALL:\n",
                              NULL, QG_OK);
    assert_int_equal(qg_mapping_by_crawl_name(m, QG_VOCAB_FEATURE, "rock_wall")->index, 5);
    assert_int_equal(qg_mapping_by_glyph(m, QG_VOCAB_FEATURE, 'x')->index, 5);
    assert_int_equal(qg_mapping_by_edit_name(m, QG_VOCAB_FEATURE, "c")->index, 2);
    qg_mapping_free(m);
}

static void many_entries_grow_the_tables(void **state)
{
    (void)state;
    qg_mapping *m = qg_mapping_new();
    char line[64];
    for (int i = 0; i < 3000; i++) {
        int n = snprintf(line, sizeof line, "object:%d:thing %d:item %d:\n", i * 7, i, i);
        assert_int_equal(qg_mapping_load_text(m, "gen", line, (size_t)n, NULL), QG_OK);
    }
    assert_int_equal(qg_mapping_count(m), 3000);
    for (int i = 0; i < 3000; i += 97) {
        char name[32];
        snprintf(name, sizeof name, "ITEM %d", i);
        assert_int_equal(qg_mapping_by_crawl_name(m, QG_VOCAB_OBJECT, name)->index, i * 7);
        snprintf(name, sizeof name, "thing %d", i);
        assert_int_equal(qg_mapping_by_edit_name(m, QG_VOCAB_OBJECT, name)->index, i * 7);
    }
    qg_mapping_free(m);
}

static void missing_file_is_diagnosed(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_mapping *m = qg_mapping_new();
    assert_int_equal(qg_mapping_load_file(m, "/nonexistent/mapping.txt", d), QG_ERR_NOTFOUND);
    assert_true(test_diags_contain(d, QG_ERROR, "cannot open"));
    assert_int_equal(qg_mapping_count(m), 0);
    assert_null(qg_mapping_by_glyph(m, QG_VOCAB_FEATURE, '.'));
    assert_null(qg_mapping_by_edit_name(m, QG_VOCAB_FEATURE, "floor"));
    qg_mapping_free(m);
    qg_diags_free(d);
}

static void bundled_loader_uses_the_data_dir(void **state)
{
    (void)state;
    char dir[4096];
    snprintf(dir, sizeof dir, "/nonexistent/questgrid:%s", test_src_path("lib"));
    setenv("QUESTGRID_DATA", dir, 1);
    qg_diags *d = qg_diags_new();
    qg_mapping *m = qg_mapping_new();
    assert_int_equal(qg_mapping_load_bundled(m, d), QG_OK);
    assert_int_equal(qg_diags_count(d), 0);
    assert_int_equal(qg_mapping_by_glyph(m, QG_VOCAB_FEATURE, 'X')->index, 61);
    qg_mapping_free(m);
    qg_diags_free(d);
    unsetenv("QUESTGRID_DATA");
}

static void kind_names(void **state)
{
    (void)state;
    assert_string_equal(qg_mapping_kind_name(QG_VOCAB_FEATURE), "feature");
    assert_string_equal(qg_mapping_kind_name(QG_VOCAB_ARTIFACT), "artifact");
    assert_null(qg_mapping_kind_name(QG_VOCAB_KINDS));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bundled_loads_without_diagnostics),
        cmocka_unit_test(bundled_forward_lookups),
        cmocka_unit_test(bundled_reverse_lookups_prefer_first_line),
        cmocka_unit_test(edit_names_and_tags_are_exact),
        cmocka_unit_test(bundled_vocabulary_loads),
        cmocka_unit_test(bundled_vocabulary_is_covered),
        cmocka_unit_test(malformed_lines_are_all_reported),
        cmocka_unit_test(nul_bytes_are_reported),
        cmocka_unit_test(later_files_override_earlier_ones),
        cmocka_unit_test(first_line_wins_within_a_file),
        cmocka_unit_test(many_entries_grow_the_tables),
        cmocka_unit_test(missing_file_is_diagnosed),
        cmocka_unit_test(bundled_loader_uses_the_data_dir),
        cmocka_unit_test(kind_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

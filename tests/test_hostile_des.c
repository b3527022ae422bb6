/* Hostile .des files: a 10 MB line, a million rows, NUL bytes and invalid
 * UTF-8 end in diagnostics (from the reader or from the compile-time run),
 * quickly and in bounded memory. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"
#include "questgrid/des.h"
#include "questgrid/lua.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Parses text and compiles its first map; returns the compile status
 * (the parse status in *parsed). */
static qg_status compile(const char *text, size_t len, qg_status *parsed, qg_diags *diags)
{
    qg_des_names *names = qg_des_names_new();
    qg_des_file *file = NULL;
    qg_des_options options = {0};
    *parsed = qg_des_parse("hostile.des", text, len, &options, names, &file, diags);
    assert_non_null(file);
    qg_runtime *rt = qg_runtime_new(NULL, diags);
    assert_non_null(rt);
    qg_runtime_add_file(rt, file, diags);
    qg_status st = qg_runtime_map_count(rt)
                       ? qg_runtime_compile_map(rt, qg_runtime_map(rt, 0), diags)
                       : QG_ERR_NOTFOUND;
    qg_runtime_free(rt);
    qg_des_names_free(names);
    return st;
}

static void ten_megabyte_row(void **state)
{
    (void)state;
    size_t len;
    char *text = test_repeat("NAME: long\nMAP\n", "x", 10u << 20, "\nENDMAP\n", &len);
    qg_diags *diags = qg_diags_new();
    qg_status parsed;
    assert_int_not_equal(compile(text, len, &parsed, diags), QG_OK);
    assert_int_equal(parsed, QG_OK);
    assert_true(test_diags_contain(diags, QG_ERROR, "map is larger than 80x70"));
    qg_diags_free(diags);
    free(text);
}

static void million_rows(void **state)
{
    (void)state;
    size_t len;
    char *text = test_repeat("NAME: rows\nMAP\n", "x.x\n", 1000000, "ENDMAP\n", &len);
    qg_diags *diags = qg_diags_new();
    qg_status parsed;
    assert_int_not_equal(compile(text, len, &parsed, diags), QG_OK);
    assert_true(test_diags_contain(diags, QG_ERROR, "map is larger than 80x70"));
    qg_diags_free(diags);
    free(text);
}

static void ten_megabyte_lua_line(void **state)
{
    (void)state;
    size_t len;
    char *text = test_repeat("NAME: lualong\n: local s = \"", "a", 10u << 20,
                        "\"\n: assert(#s == 10485760)\nMAP\nx\nENDMAP\n", &len);
    qg_diags *diags = qg_diags_new();
    qg_status parsed;
    assert_int_equal(compile(text, len, &parsed, diags), QG_OK);
    assert_int_equal(parsed, QG_OK);
    qg_diags_free(diags);
    free(text);
}

static void nul_bytes(void **state)
{
    (void)state;
    static const char text[] = "NAME: nul\nTAGS: a\0b\nMAP\nx\0x\nENDMAP\n";
    qg_diags *diags = qg_diags_new();
    qg_status parsed;
    compile(text, sizeof text - 1, &parsed, diags);
    assert_int_not_equal(parsed, QG_OK);
    assert_true(test_diags_contain(diags, QG_ERROR, "unexpected character \\x00"));
    const qg_diag *d = qg_diags_get(diags, 0);
    assert_int_equal(d->line, 2);
    assert_int_equal(d->source_len, 9);
    qg_diags_free(diags);
}

/* A NUL in a map's name must not silently cut the name short. */
static void nul_byte_in_a_name(void **state)
{
    (void)state;
    static const char text[] = "NAME: nu\0l\nMAP\nx\nENDMAP\n";
    qg_diags *diags = qg_diags_new();
    qg_status parsed;
    compile(text, sizeof text - 1, &parsed, diags);
    assert_int_not_equal(parsed, QG_OK);
    assert_true(test_diags_contain(diags, QG_ERROR, "NUL byte in a map name"));
    assert_int_equal(qg_diags_get(diags, 0)->line, 1);
    qg_diags_free(diags);
}

static void invalid_utf8(void **state)
{
    (void)state;
    static const char text[] = "NAME: utf\nMAP\nx\xff\xfe.\nENDMAP\n";
    qg_diags *diags = qg_diags_new();
    qg_status parsed;
    compile(text, sizeof text - 1, &parsed, diags);
    assert_true(test_diags_contain(diags, QG_WARNING, "byte that is not ASCII inside MAP (kept)"));
    qg_diags_free(diags);
}

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A line of 680,000 bad NSUBST entries (4 MB): each error read the line
 * from its start (25 s of CPU for a quarter of it); the diagnostics past
 * the cap are counted, not kept. */
static void errors_along_one_long_line(void **state)
{
    (void)state;
    size_t len;
    char *text = test_repeat("NAME: x\nNSUBST: . = 1:x / ", "1:, / ", 680000,
                             "\nMAP\nx\nENDMAP\n", &len);
    qg_diags *diags = qg_diags_new();
    qg_diags_set_filter(diags, QG_NOTE, 50);
    qg_des_file *file = NULL;
    double start = cpu_seconds();
    assert_int_not_equal(qg_des_parse("hostile.des", text, len, NULL, NULL, &file, diags), QG_OK);
    double took = cpu_seconds() - start;
    assert_true(qg_diags_count(diags) <= 50);
    assert_true(qg_diags_dropped(diags) > 600000);
    assert_true(took < 2.5);
    qg_des_file_free(file);
    qg_diags_free(diags);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ten_megabyte_row),
        cmocka_unit_test(million_rows),
        cmocka_unit_test(ten_megabyte_lua_line),
        cmocka_unit_test(nul_bytes),
        cmocka_unit_test(nul_byte_in_a_name),
        cmocka_unit_test(invalid_utf8),
        cmocka_unit_test(errors_along_one_long_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Hostile input to the readers on main (F:/D: with its includes, the
 * mapping file, the core file reader): each case must end in a clear
 * diagnostic, within bounded time and memory, never a crash or a hang. */
#define _GNU_SOURCE
#include "testutil.h"
#include "questgrid/fd.h"
#include "questgrid/mapping.h"
#include "core/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static qg_status parse(const char *path, const char *text, size_t len, const qg_fd_options *opt,
                       qg_mapdef **def, qg_diags *diags)
{
    qg_fd_options defaults;
    qg_fd_options_init(&defaults);
    return qg_fd_parse(path, text, len, opt ? opt : &defaults, def, diags);
}

static void ten_megabyte_line(void **state)
{
    (void)state;
    size_t len;
    char *text = test_repeat("F:.:1:8\nD:", ".", 10u << 20, "\nP:0:0\n", &len);
    qg_diags *diags = qg_diags_new();
    qg_mapdef *def = NULL;
    assert_int_equal(parse("long.txt", text, len, NULL, &def, diags), QG_OK);
    assert_true(test_diags_contain(diags, QG_WARNING,
                                   "row of 10485760 columns: Zangband 2.3.0 lays a row only up to "
                                   "its map's width (198 columns, MAX_WID) and drops map columns "
                                   "198-10485759"));
    assert_int_equal(qg_mapdef_width(def), 10 << 20);
    qg_level *level = NULL;
    assert_int_equal(qg_fd_resolve(def, NULL, NULL, &level, diags), QG_OK);
    assert_int_equal(qg_level_width(level), 198);
    qg_level_free(level);
    qg_mapdef_free(def);
    qg_diags_free(diags);
    free(text);
}

static void ten_megabyte_comment_and_condition(void **state)
{
    (void)state;
    size_t len;
    char *text = test_repeat("?:[EQU 1 ", "1 ", 5u << 20, "]\nF:.:1:8\nD:.\n", &len);
    qg_diags *diags = qg_diags_new();
    qg_mapdef *def = NULL;
    assert_int_equal(parse("cond.txt", text, len, NULL, &def, diags), QG_OK);
    qg_level *level = NULL;
    assert_int_equal(qg_fd_resolve(def, NULL, NULL, &level, diags), QG_OK);
    assert_int_equal(qg_level_width(level), 1);
    qg_level_free(level);
    qg_mapdef_free(def);
    qg_diags_free(diags);
    free(text);
}

/* A level larger than the cell limit is refused with a diagnostic, not
 * attempted (a 17 MB row would need 17 Mi cells). Angband 4's vault rows
 * are read whole: the classic loaders' stop at MAX_WID does not bound it. */
static void oversized_level_is_refused(void **state)
{
    (void)state;
    size_t len;
    char *text = test_repeat("name:wide\nD:", ".", 17u << 20, "\n", &len);
    qg_diags *diags = qg_diags_new();
    qg_mapdef *def = NULL;
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.dialect = QG_FD_ANGBAND4;
    assert_int_equal(parse("wide.txt", text, len, &opt, &def, diags), QG_OK);
    qg_level *level = NULL;
    assert_int_equal(qg_fd_resolve(def, NULL, NULL, &level, diags), QG_ERR_LIMIT);
    assert_null(level);
    assert_true(test_diags_contain(diags, QG_ERROR, "needs 17825792 x 1 cells, more than the limit"));
    qg_mapdef_free(def);
    qg_diags_free(diags);
    free(text);
}

static void million_rows(void **state)
{
    (void)state;
    size_t len;
    char *text = test_repeat("F:.:1:8\n", "D:...\n", 1000000, "P:0:0\n", &len);
    qg_diags *diags = qg_diags_new();
    qg_mapdef *def = NULL;
    assert_int_equal(parse("rows.txt", text, len, NULL, &def, diags), QG_OK);
    assert_int_equal(qg_mapdef_row_count(def), 1000000);
    qg_level *level = NULL;
    assert_int_equal(qg_fd_resolve(def, NULL, NULL, &level, diags), QG_ERR_PARSE);
    assert_true(test_diags_contain(diags, QG_ERROR, "more than 66 rows"));
    assert_int_equal(qg_diags_count_severity(diags, QG_ERROR), 1);
    assert_non_null(level);
    assert_int_equal(qg_level_height(level), 1000000);
    qg_level_free(level);
    qg_mapdef_free(def);
    qg_diags_free(diags);
    free(text);
}

/* A NUL byte is data: kept in the row, named in the diagnostic, shown
 * (as \x00) in the source line, never cutting a message short. */
static void nul_bytes(void **state)
{
    (void)state;
    static const char text[] = "F:a:1:8\nF:b\0:1:8\nD:a\0a\nP:0:0\n";
    qg_diags *diags = qg_diags_new();
    qg_mapdef *def = NULL;
    assert_int_equal(parse("nul.txt", text, sizeof text - 1, NULL, &def, diags), QG_OK);
    assert_true(test_diags_contain(diags, QG_WARNING, "the letter field has 2 bytes; the games use only 'b'"));
    size_t row_len;
    const char *row = qg_mapdef_row(def, 0, &row_len, NULL);
    assert_int_equal(row_len, 3);
    assert_memory_equal(row, "a\0a", 3);
    qg_level *level = NULL;
    assert_int_equal(qg_fd_resolve(def, NULL, NULL, &level, diags), QG_OK);
    assert_true(test_diags_contain(diags, QG_WARNING,
                                   "is not defined by any F: line read so far"));
    const qg_diag *last = qg_diags_get(diags, qg_diags_count(diags) - 1);
    assert_int_equal(last->line, 3);
    assert_int_equal(last->col, 4);
    assert_int_equal(last->source_len, 5);
    assert_memory_equal(last->source_line, "D:a\0a", 5);
    char *shown;
    size_t shown_len;
    FILE *out = open_memstream(&shown, &shown_len);
    qg_diag_print(last, out);
    fclose(out);
    assert_string_equal(shown, "nul.txt:3:4: warning: letter '\\x00' (first at map row 0, "
                               "column 1) is not defined by any F: line read so far: Zangband "
                               "2.3.0 places what an earlier load left in its letter table, on a "
                               "fresh game feature 0 and nothing else, as questgrid does\n"
                               "  D:a\\x00a\n     ^\n");
    free(shown);
    qg_level_free(level);
    qg_mapdef_free(def);
    qg_diags_free(diags);
}

static void invalid_utf8(void **state)
{
    (void)state;
    static const char text[] = "Q:1:N:Bad \xc3\x28 name \xff\nF:.:1:8\nD:.\xfe.\nP:0:0\n";
    qg_diags *diags = qg_diags_new();
    qg_mapdef *def = NULL;
    assert_int_equal(parse("utf8.txt", text, sizeof text - 1, NULL, &def, diags), QG_ERR_PARSE);
    assert_true(test_diags_contain(diags, QG_ERROR, "non-ASCII byte \\xFE in a D: row"));
    assert_string_equal(qg_mapdef_get_property(def, "desc"), "Bad \xc3\x28 name \xff");
    qg_mapdef_free(def);
    qg_diags_free(diags);
}

/* A NUL right after a record's key, the colon further on (fuzz_fd's
 * first finding): the key is compared by its length, never read past the
 * table's own text (an AddressSanitizer build reads out of bounds when
 * it is). Every dialect's table is tried. */
static void nul_inside_a_record_key(void **state)
{
    (void)state;
    static const char text[] = "Q\0# File: a long comment:3:N:x\nF:.:1:8\nD:.\n";
    for (int d = 1; d < (int)qg_fd_dialect_count(); d++) {
        qg_fd_options opt;
        qg_fd_options_init(&opt);
        opt.dialect = (qg_fd_dialect)d;
        qg_diags *diags = qg_diags_new();
        qg_mapdef *def = NULL;
        qg_fd_parse("nulkey.txt", text, sizeof text - 1, &opt, &def, diags);
        assert_non_null(def);
        assert_int_equal(qg_fd_record_at(def, 0)->kind, QG_FD_OTHER);
        qg_mapdef_free(def);
        qg_diags_free(diags);
    }
}

/* Files served from memory: "nN.txt" includes "n(N+1).txt" up to 1000. */
static int chain_source(void *user, const char *path, const char **data, size_t *len)
{
    char *files = user;
    const char *slash = strrchr(path, '/');
    int n;
    if (sscanf(slash ? slash + 1 : path, "n%d.txt", &n) != 1 || n < 0 || n > 1000)
        return 0;
    char *text = files + (size_t)n * 32;
    if (n == 1000)
        snprintf(text, 32, "F:.:1:8\n");
    else
        snprintf(text, 32, "%%:n%d.txt\n", n + 1);
    *data = text;
    *len = strlen(text);
    return 1;
}

static void includes_nested_1000_deep(void **state)
{
    (void)state;
    char *files = calloc(1001, 32);
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.source = chain_source;
    opt.source_user = files;
    static const char top[] = "%:n0.txt\nD:.\n";
    qg_diags *diags = qg_diags_new();
    qg_mapdef *def = NULL;
    assert_int_equal(parse("top.txt", top, sizeof top - 1, &opt, &def, diags), QG_ERR_PARSE);
    assert_true(test_diags_contain(diags, QG_ERROR, "includes nested deeper than 16 files"));
    assert_int_equal(qg_diags_count_severity(diags, QG_ERROR), 1);
    qg_mapdef_free(def);

    qg_diags_clear(diags);
    opt.max_include_depth = 2000;
    assert_int_equal(parse("top.txt", top, sizeof top - 1, &opt, &def, diags), QG_OK);
    assert_int_equal(qg_fd_file_count(def), 1002);
    qg_level *level = NULL;
    assert_int_equal(qg_fd_resolve(def, &opt, NULL, &level, diags), QG_OK);
    assert_int_equal(qg_level_features(level)[0], 1);
    qg_level_free(level);
    qg_mapdef_free(def);
    qg_diags_free(diags);
    free(files);
}

static void include_cycles_on_disk(void **state)
{
    (void)state;
    static const char a[] = "F:.:1:8\n%:cyc_b.txt\nD:.\n";
    static const char b[] = "%:cyc_a.txt\n%:cyc_b.txt\n";
    const char *path = test_write_temp("cyc_a.txt", a, sizeof a - 1);
    test_write_temp("cyc_b.txt", b, sizeof b - 1);
    qg_diags *diags = qg_diags_new();
    qg_mapdef *def = NULL;
    assert_int_equal(qg_fd_read(path, NULL, &def, diags), QG_ERR_PARSE);
    assert_non_null(def);
    assert_int_equal(qg_diags_count_severity(diags, QG_ERROR), 2);
    assert_true(test_diags_contain(diags, QG_ERROR, "include cycle: '"));
    assert_int_equal(qg_fd_file_count(def), 2);
    qg_level *level = NULL;
    qg_fd_resolve(def, NULL, NULL, &level, diags);
    assert_non_null(level);
    qg_level_free(level);
    qg_mapdef_free(def);
    qg_diags_free(diags);
}

/* An include bomb on disk: twelve files, each including the next eight
 * times. Every file is read once, but the games read an include anew each
 * time they reach it, so laying the level out would walk 8^12 copies of
 * the last file: the walk stops at its limit with an error, at once. */
static void include_fan_out_on_disk(void **state)
{
    (void)state;
    char name[32], text[256];
    const char *top = NULL;
    for (int i = 0; i < 12; i++) {
        int at = 0;
        for (int k = 0; k < 8; k++)
            at += snprintf(text + at, sizeof text - (size_t)at, "%%:fan%d.txt\n", i + 1);
        snprintf(name, sizeof name, "fan%d.txt", i);
        const char *path = test_write_temp(name, text, (size_t)at);
        if (i == 0)
            top = path;
    }
    static const char last[] = "F:.:1:8\nD:..\n";
    test_write_temp("fan12.txt", last, sizeof last - 1);
    qg_diags *diags = qg_diags_new();
    qg_mapdef *def = NULL;
    assert_int_equal(qg_fd_read(top, NULL, &def, diags), QG_OK);
    assert_int_equal(qg_fd_file_count(def), 13);
    qg_level *level = NULL;
    assert_int_equal(qg_fd_resolve(def, NULL, NULL, &level, diags), QG_ERR_LIMIT);
    assert_null(level);
    assert_true(test_diags_contain(diags, QG_ERROR, "the includes would be read over and over"));
    assert_int_equal(qg_diags_count_severity(diags, QG_ERROR), 1);
    qg_mapdef_free(def);
    qg_diags_free(diags);
}

/* A file laid out again and again says what is wrong with it once: the
 * games read it anew each time, but its lines are the same lines. */
static void include_read_again_reports_once(void **state)
{
    (void)state;
    char text[64 * 16 + 32];
    int at = snprintf(text, sizeof text, "F:.:1:8\n");
    for (int k = 0; k < 64; k++)
        at += snprintf(text + at, sizeof text - (size_t)at, "%%:again_b.txt\n");
    const char *top = test_write_temp("again_a.txt", text, (size_t)at);
    static const char b[] = "D:.\nP:99:99\n%:again_missing.txt\n";
    test_write_temp("again_b.txt", b, sizeof b - 1);
    qg_diags *diags = qg_diags_new();
    qg_mapdef *def = NULL;
    assert_int_equal(qg_fd_read(top, NULL, &def, diags), QG_OK);
    qg_level *level = NULL;
    assert_int_equal(qg_fd_resolve(def, NULL, NULL, &level, diags), QG_ERR_PARSE);
    assert_int_equal(qg_diags_count_severity(diags, QG_ERROR), 1);
    assert_true(test_diags_contain(diags, QG_ERROR, "cannot find include 'again_missing.txt'"));
    assert_int_equal(qg_diags_count_severity(diags, QG_WARNING), 1);
    assert_true(test_diags_contain(diags, QG_WARNING, "player start (row 99, column 99)"));
    qg_level_free(level);
    qg_mapdef_free(def);
    qg_diags_free(diags);
}

/* The same bomb through a host's source, which serves one text under
 * ever longer names ("a/x.txt", "b/x.txt", "a/b/x.txt", ...): each name is
 * a file of its own, 2^16 of them at the nesting limit, 128 MiB in all.
 * Reading stops at the limits on what a load's includes may read in all:
 * 4,096 files, 64 MiB. */
static int growing_names(void *user, const char *path, const char **data, size_t *len)
{
    const char *x = user;
    size_t n = strlen(path);
    if (n < 5 || strcmp(path + n - 5, "x.txt") != 0)
        return 0;
    *data = x;
    *len = strlen(x);
    return 1;
}

static void include_names_that_never_repeat(void **state)
{
    (void)state;
    size_t len;
    char *x = test_repeat("%:a/x.txt\n%:b/x.txt\n", "#", 2000, "\n", &len);
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.source = growing_names;
    opt.source_user = x;
    static const char top[] = "F:.:1:8\n%:x.txt\nD:.\n";
    qg_diags *diags = qg_diags_new();
    qg_mapdef *def = NULL;
    assert_int_equal(parse("top.txt", top, sizeof top - 1, &opt, &def, diags), QG_ERR_PARSE);
    assert_true(test_diags_contain(diags, QG_ERROR, "includes have read 4096 files: '"));
    assert_int_equal(qg_fd_file_count(def), 4096);
    qg_mapdef_free(def);
    qg_diags_clear(diags);

    free(x);
    x = test_repeat("%:a/x.txt\n%:b/x.txt\n", "#", 20u << 10, "\n", &len);
    opt.source_user = x;
    assert_int_equal(parse("top.txt", top, sizeof top - 1, &opt, &def, diags), QG_ERR_PARSE);
    assert_true(test_diags_contain(diags, QG_ERROR, "includes have read more than 64 MiB in all"));
    assert_true(qg_fd_file_count(def) < 4096);
    qg_mapdef_free(def);
    qg_diags_free(diags);
    free(x);
}

/* An include naming a device or a FIFO nobody writes to is refused at
 * once: no endless read, no hang (devices lie outside the data root, so
 * they are reached only with allow_include_outside). */
static void include_of_device_and_fifo(void **state)
{
    (void)state;
    const char *marker = test_write_temp("fifo_top.txt", "", 0);
    char fifo[512];
    snprintf(fifo, sizeof fifo, "%.*sfifo", (int)(strrchr(marker, '/') + 1 - marker), marker);
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    static const char text[] = "%:/dev/zero\n%:fifo\n%:/dev/null\nF:.:1:8\nD:.\n";
    const char *path = test_write_temp("fifo_top.txt", text, sizeof text - 1);
    qg_diags *diags = qg_diags_new();
    qg_mapdef *def = NULL;
    qg_fd_options anywhere;
    qg_fd_options_init(&anywhere);
    anywhere.allow_include_outside = 1;
    assert_int_equal(qg_fd_read(path, &anywhere, &def, diags), QG_ERR_PARSE);
    assert_int_equal(qg_diags_count_severity(diags, QG_ERROR), 3);
    assert_true(test_diags_contain(diags, QG_ERROR, "'/dev/zero': cannot read: not a regular file"));
    assert_true(test_diags_contain(diags, QG_ERROR, "fifo': cannot read: not a regular file"));
    qg_mapdef_free(def);

    qg_diags_clear(diags);
    assert_int_equal(qg_fd_read(fifo, NULL, &def, diags), QG_ERR_IO);
    assert_null(def);
    assert_true(test_diags_contain(diags, QG_ERROR, "not a regular file"));
    qg_diags_free(diags);
    unlink(fifo);
}

/* A file over the size limit is refused before it is read. */
static void file_over_the_size_limit(void **state)
{
    (void)state;
    const char *path = test_write_temp("huge.txt", "", 0);
    assert_int_equal(truncate(path, (off_t)65 << 20), 0);
    qg_diags *diags = qg_diags_new();
    qg_mapdef *def = NULL;
    assert_int_equal(qg_fd_read(path, NULL, &def, diags), QG_ERR_LIMIT);
    assert_null(def);
    assert_true(test_diags_contain(diags, QG_ERROR, "file is larger than the 67108864 byte limit"));
    qg_diags_free(diags);
    assert_int_equal(truncate(path, 0), 0);
}

static void deep_expression(void **state)
{
    (void)state;
    size_t len;
    char *text = test_repeat("?:", "[NOT ", 100000, "1\nD:.\n", &len);
    qg_diags *diags = qg_diags_new();
    qg_mapdef *def = NULL;
    assert_int_equal(parse("deep.txt", text, len, NULL, &def, diags), QG_ERR_PARSE);
    assert_true(test_diags_contain(diags, QG_ERROR, "expression nested deeper than"));
    qg_mapdef_free(def);
    qg_diags_free(diags);
    free(text);
}

static void mapping_with_nul_and_long_line(void **state)
{
    (void)state;
    size_t len;
    char *text = test_repeat("# hostile\n", "x", 1u << 20, "\nF\0oo\n\xff\xfe\n", &len);
    qg_mapping *mapping = qg_mapping_new();
    qg_diags *diags = qg_diags_new();
    assert_int_equal(qg_mapping_load_text(mapping, "mapping.txt", text, len, diags), QG_ERR_PARSE);
    assert_true(qg_diags_count_severity(diags, QG_ERROR) >= 2);
    for (size_t i = 0; i < qg_diags_count(diags); i++)
        assert_true(qg_diags_get(diags, i)->line >= 2);
    qg_diags_free(diags);
    qg_mapping_free(mapping);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ten_megabyte_line),
        cmocka_unit_test(ten_megabyte_comment_and_condition),
        cmocka_unit_test(oversized_level_is_refused),
        cmocka_unit_test(million_rows),
        cmocka_unit_test(nul_bytes),
        cmocka_unit_test(nul_inside_a_record_key),
        cmocka_unit_test(invalid_utf8),
        cmocka_unit_test(includes_nested_1000_deep),
        cmocka_unit_test(include_cycles_on_disk),
        cmocka_unit_test(include_fan_out_on_disk),
        cmocka_unit_test(include_read_again_reports_once),
        cmocka_unit_test(include_names_that_never_repeat),
        cmocka_unit_test(include_of_device_and_fifo),
        cmocka_unit_test(file_over_the_size_limit),
        cmocka_unit_test(deep_expression),
        cmocka_unit_test(mapping_with_nul_and_long_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

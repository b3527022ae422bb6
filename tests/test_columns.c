/* The index's columns gathered in one pass (src/cache/columns.c): each
 * column's bytes come back whole and in column order, whether it stayed
 * in memory or went to its scratch file, and a scratch file that cannot
 * be made fails the read instead of losing a column. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"
#include "cache/columns.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct gathered {
    qg_buf bytes;
    size_t calls;
} gathered;

static void gather(void *user, const void *data, size_t len)
{
    gathered *g = user;
    qg_buf_append(&g->bytes, data, len);
    g->calls++;
}

/* Byte i of column k: distinct for every column and place. */
static char byte_of(size_t k, size_t i)
{
    return (char)('a' + (k * 7 + i * 13 + i / 251) % 26);
}

/* Column k gets sizes[k] bytes, appended a few at a time and interleaved
 * with the other columns, as the writer appends a map's columns. */
static void fill(qgc_columns *c, const size_t *sizes, size_t count)
{
    size_t done[8] = {0}, step = 37;
    for (int more = 1; more;) {
        more = 0;
        for (size_t k = 0; k < count; k++) {
            for (size_t j = 0; j < step && done[k] < sizes[k]; j++, done[k]++)
                qg_buf_putc(qgc_column_buf(c, k), byte_of(k, done[k]));
            assert_int_equal(qgc_columns_settle(c, k), 1);
            more |= done[k] < sizes[k];
        }
    }
}

static void columns_come_back_in_order(void **state)
{
    (void)state;
    /* in memory, empty, spilled several times over, spilled at a bound's
     * edge, in memory */
    const size_t sizes[5] = {10, 0, 300000, 65536 + 37, 4000};
    qgc_columns c;
    assert_int_equal(qgc_columns_init(&c, 5), 1);
    fill(&c, sizes, 5);
    gathered g;
    qg_buf_init(&g.bytes);
    g.calls = 0;
    assert_int_equal(qgc_columns_read(&c, gather, &g), 1);
    size_t at = 0;
    for (size_t k = 0; k < 5; k++)
        for (size_t i = 0; i < sizes[k]; i++, at++)
            if (g.bytes.data[at] != byte_of(k, i))
                fail_msg("column %zu byte %zu differs", k, i);
    assert_int_equal(g.bytes.len, at);
    assert_true(g.calls > 5);   /* the spilled columns came back in pieces */
    qg_buf_free(&g.bytes);
    qgc_columns_free(&c);
}

static void no_scratch_file_fails_the_read(void **state)
{
    (void)state;
    const char *was = getenv("TMPDIR");
    char *saved = was ? strdup(was) : NULL;
    setenv("TMPDIR", "/nonexistent/questgrid-test", 1);
    qgc_columns c;
    assert_int_equal(qgc_columns_init(&c, 2), 1);
    for (size_t i = 0; i < 70000; i++)
        qg_buf_putc(qgc_column_buf(&c, 1), 'x');
    assert_int_equal(qgc_columns_settle(&c, 1), 0);
    assert_int_equal(c.err, ENOENT);
    gathered g;
    qg_buf_init(&g.bytes);
    g.calls = 0;
    assert_int_equal(qgc_columns_read(&c, gather, &g), 0);
    assert_int_equal(errno, ENOENT);
    assert_int_equal(g.calls, 0);
    qg_buf_free(&g.bytes);
    qgc_columns_free(&c);
    if (saved)
        setenv("TMPDIR", saved, 1);
    else
        unsetenv("TMPDIR");
    free(saved);
}

static void nothing_gathered_reads_nothing(void **state)
{
    (void)state;
    qgc_columns c;
    assert_int_equal(qgc_columns_init(&c, 14), 1);
    gathered g;
    qg_buf_init(&g.bytes);
    g.calls = 0;
    assert_int_equal(qgc_columns_read(&c, gather, &g), 1);
    assert_int_equal(g.calls, 0);
    qg_buf_free(&g.bytes);
    qgc_columns_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(columns_come_back_in_order),
        cmocka_unit_test(no_scratch_file_fails_the_read),
        cmocka_unit_test(nothing_gathered_reads_nothing),
    };
    return cmocka_run_group_tests_name("columns", tests, NULL, NULL);
}

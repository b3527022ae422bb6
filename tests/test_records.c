/* The writer's external sort (src/cache/records.c): records gathered in
 * runs, merged in name order then in the order they were added, and read
 * back through a window however large a record is. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"
#include "cache/format.h"
#include "cache/records.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add(qgc_records *r, const char *name, uint64_t place, size_t pad)
{
    qg_buf b;
    qg_buf_init(&b);
    qgc_put_cstr(&b, name);
    qgc_put_varint(&b, place);
    for (size_t i = 0; i < pad; i++)
        qg_buf_putc(&b, (char)('a' + i % 26));
    assert_int_equal(qgc_records_add(r, &b), 1);
    qg_buf_free(&b);
}

typedef struct seen {
    size_t count;
    char prev[64];
    uint64_t prev_place;
    size_t out_of_order;
} seen;

static void note(void *user, const unsigned char *record, size_t len)
{
    seen *s = user;
    uint64_t place;
    const char *name = qgc_record_name(record, len, &place);
    int c = strcmp(s->prev, name);
    if (s->count && (c > 0 || (c == 0 && s->prev_place > place)))
        s->out_of_order++;
    snprintf(s->prev, sizeof s->prev, "%s", name);
    s->prev_place = place;
    s->count++;
}

/* Merges r's runs into a new scratch file out, noting each record in s. */
static void merge_noting(qgc_records *r, qgc_spill *out, seen *s)
{
    assert_int_equal(qgc_spill_open(out), 1);
    assert_int_equal(qgc_records_merge(r, out, note, s), 1);
}

/* Names in a scrambled order, some given twice, over many runs. */
static void merge_orders_many_runs(void **state)
{
    (void)state;
    enum { COUNT = 30000 };
    qgc_records r;
    assert_int_equal(qgc_records_open(&r), 1);
    for (uint64_t i = 0; i < COUNT; i++) {
        char name[32];
        snprintf(name, sizeof name, "n%06u", (unsigned)((i * 7919) % (COUNT / 2)));
        add(&r, name, i, 20);
    }
    qgc_spill out;
    seen s = {0};
    merge_noting(&r, &out, &s);
    assert_true(r.run_count > 2);
    assert_int_equal(s.count, COUNT);
    assert_int_equal(s.out_of_order, 0);
    assert_int_equal(qgc_spill_flush(&out), 1);
    /* The merged file reads back in the same order. */
    qgc_record_reader rd;
    qgc_record_reader_init(&rd, &out, 0, out.size);
    seen again = {0};
    const unsigned char *record;
    size_t len;
    while (qgc_record_next(&rd, &record, &len))
        note(&again, record, len);
    assert_int_equal(rd.failed, 0);
    assert_int_equal(again.count, COUNT);
    assert_int_equal(again.out_of_order, 0);
    qgc_record_reader_free(&rd);
    qgc_spill_close(&out);
    qgc_records_close(&r);
}

/* Records of every size up to a run's: the buffer gathering a run never
 * grows past a run's size (a doubling past it would keep twice as much
 * for the rest of the compile), and a record larger than a run leaves no
 * buffer of its size behind. */
static void a_run_stays_within_its_size(void **state)
{
    (void)state;
    qgc_records r;
    assert_int_equal(qgc_records_open(&r), 1);
    for (uint64_t i = 0; i < 3000; i++) {
        char name[32];
        snprintf(name, sizeof name, "m%06u", (unsigned)i);
        add(&r, name, i, (size_t)(i * 7919 % 1500));
        assert_true(r.run.cap <= QGC_RUN_BYTES);
    }
    add(&r, "huge", 3000, QGC_RUN_BYTES + 10);
    add(&r, "after", 3001, 10);
    assert_true(r.run.cap <= QGC_RUN_BYTES);
    qgc_spill out;
    seen s = {0};
    merge_noting(&r, &out, &s);
    assert_int_equal(s.count, 3002);
    assert_int_equal(s.out_of_order, 0);
    qgc_spill_close(&out);
    qgc_records_close(&r);
}

/* A record far larger than the reader's window, between small ones. */
static void large_records_read_whole(void **state)
{
    (void)state;
    qgc_records r;
    assert_int_equal(qgc_records_open(&r), 1);
    add(&r, "b", 0, 10);
    add(&r, "a", 1, 300 * 1024);
    add(&r, "c", 2, 5);
    qgc_spill out;
    assert_int_equal(qgc_spill_open(&out), 1);
    assert_int_equal(qgc_records_merge(&r, &out, NULL, NULL), 1);
    assert_int_equal(qgc_spill_flush(&out), 1);
    qgc_record_reader rd;
    qgc_record_reader_init(&rd, &out, 0, out.size);
    const unsigned char *record;
    size_t len;
    const char *want[] = {"a", "b", "c"};
    size_t pads[] = {300 * 1024, 10, 5};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(qgc_record_next(&rd, &record, &len), 1);
        uint64_t place;
        assert_string_equal(qgc_record_name(record, len, &place), want[i]);
        assert_int_equal(len, 3 + 1 + pads[i]);
        assert_int_equal(record[len - 1], 'a' + (pads[i] - 1) % 26);
    }
    assert_int_equal(qgc_record_next(&rd, &record, &len), 0);
    assert_int_equal(rd.failed, 0);
    qgc_record_reader_free(&rd);
    qgc_spill_close(&out);
    qgc_records_close(&r);
}

/* A frame that claims more bytes than the file has is a failure, not a
 * short record. */
static void torn_frame_fails(void **state)
{
    (void)state;
    qgc_spill file;
    assert_int_equal(qgc_spill_open(&file), 1);
    const unsigned char torn[] = {0x05, 'a', 'b'};
    qgc_spill_append(&file, torn, sizeof torn);
    assert_int_equal(qgc_spill_flush(&file), 1);
    qgc_record_reader rd;
    qgc_record_reader_init(&rd, &file, 0, file.size);
    const unsigned char *record;
    size_t len;
    assert_int_equal(qgc_record_next(&rd, &record, &len), 0);
    assert_int_not_equal(rd.failed, 0);
    qgc_record_reader_free(&rd);
    qgc_spill_close(&file);
}

static void empty_merge(void **state)
{
    (void)state;
    qgc_records r;
    assert_int_equal(qgc_records_open(&r), 1);
    qgc_spill out;
    seen s = {0};
    merge_noting(&r, &out, &s);
    assert_int_equal(s.count, 0);
    assert_int_equal(out.size, 0);
    qgc_spill_close(&out);
    qgc_records_close(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(merge_orders_many_runs),
        cmocka_unit_test(a_run_stays_within_its_size),
        cmocka_unit_test(large_records_read_whole),
        cmocka_unit_test(torn_frame_fails),
        cmocka_unit_test(empty_merge),
    };
    return cmocka_run_group_tests_name("records", tests, NULL, NULL);
}

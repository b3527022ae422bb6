/* The preset dictionary (src/cache/dict.c): the same bytes for the same
 * input whatever order its blobs come in, the same bytes as the builder
 * made before it sorted in place and before its line table had a bound,
 * and a table that stops growing at that bound. Inputs are made here by a
 * seeded generator, so they need no corpus. */
#include "testutil.h"
#include "cache/pack.h"
#include "core/buf.h"

#include <stdlib.h>
#include <string.h>

/* A generator of its own, so the inputs are the same on every libc. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

/* Appends a line of len bytes (its newline included) that seed alone
 * decides; the alphabet is a map's, so lines differ early and late. */
static void append_line(qg_buf *blob, uint64_t seed, size_t len)
{
    static const char alphabet[] = "x.#+=@ABCDEFGHIJKLMNOPQRSTUVWXYZ:0123456789";
    uint64_t state = seed * 0x9e3779b97f4a7c15ull + 1;
    for (size_t i = 0; i + 1 < len; i++)
        qg_buf_putc(blob, alphabet[next_random(&state) % (sizeof alphabet - 1)]);
    qg_buf_putc(blob, '\n');
}

enum {
    BLOBS = 1500,
    COMMON = 600,        /* line k in about one blob in k + 2 */
    TIED = 3000,         /* each in exactly three blobs, all of one length */
    TIED_LEN = 20,
    UNIQUE_PER_BLOB = 5,
    LONG_LEN = 40000     /* longer than any dictionary, in three blobs */
};

/* The texts of a crafted corpus, one buffer per blob. The lines of equal
 * value and length (TIED) are more than the room left for them, so which
 * of them are chosen depends on their order by text. */
static qg_buf *crafted_blobs(void)
{
    qg_buf *blobs = calloc(BLOBS, sizeof *blobs);
    assert_non_null(blobs);
    uint64_t state = 0x5eed;
    for (size_t b = 0; b < BLOBS; b++) {
        qg_buf_init(&blobs[b]);
        for (size_t k = 0; k < COMMON; k++)
            if (next_random(&state) % (k + 2) == 0)
                append_line(&blobs[b], k, 10 + k % 61);
        qg_buf_puts(&blobs[b], "x\n..\n");
    }
    for (size_t t = 0; t < TIED; t++) {
        size_t first = next_random(&state) % BLOBS, step = 1 + next_random(&state) % 400;
        for (size_t k = 0; k < 3; k++)
            append_line(&blobs[(first + k * step) % BLOBS], 100000 + t, TIED_LEN);
    }
    for (size_t k = 0; k < 3; k++)
        append_line(&blobs[k * 500], 7, LONG_LEN);
    for (size_t b = 0; b < BLOBS; b++) {
        for (size_t u = 0; u < UNIQUE_PER_BLOB; u++)
            append_line(&blobs[b], 1000000 + b * UNIQUE_PER_BLOB + u, 12 + u);
        if (b % 2)
            blobs[b].len--;  /* a last line without its newline */
        assert_false(blobs[b].failed);
    }
    return blobs;
}

static void free_blobs(qg_buf *blobs, size_t count)
{
    for (size_t b = 0; b < count; b++)
        qg_buf_free(&blobs[b]);
    free(blobs);
}

/* The blobs written to a scratch file in the order order[0..count) gives,
 * each after its head, as the writer writes them. */
static void corpus_write(qgc_spill *text, const qg_buf *blobs, const size_t *order,
                         size_t count)
{
    assert_true(qgc_spill_open(text));
    for (size_t i = 0; i < count; i++) {
        const qg_buf *b = &blobs[order[i]];
        unsigned char head[QGC_TEXT_HEAD];
        qgc_store_u32(head, (uint32_t)b->len);
        qgc_store_u32(head + 4, (uint32_t)b->len);
        qgc_spill_append(text, head, sizeof head);
        qgc_spill_append(text, b->data, b->len);
    }
    assert_true(qgc_spill_flush(text));
}

static size_t *identity_order(size_t count)
{
    size_t *order = malloc(count * sizeof *order);
    assert_non_null(order);
    for (size_t i = 0; i < count; i++)
        order[i] = i;
    return order;
}

static void dictionary_of(const qg_buf *blobs, const size_t *order, size_t count, qg_buf *dict)
{
    qgc_spill text;
    corpus_write(&text, blobs, order, count);
    qg_buf_init(dict);
    qgc_span all = {0, text.size};
    assert_int_equal(qgc_build_dictionary(&text, &all, 1, dict), QG_OK);
    qgc_spill_close(&text);
}

static void bounded_dictionary_of(const qg_buf *blobs, size_t count, size_t max_lines,
                                  qg_buf *dict, qgc_dictionary_table *held)
{
    size_t *order = identity_order(count);
    qgc_spill text;
    corpus_write(&text, blobs, order, count);
    qg_buf_init(dict);
    qgc_span all = {0, text.size};
    assert_int_equal(qgc_build_dictionary_bounded(&text, &all, 1, max_lines, dict, held), QG_OK);
    qgc_spill_close(&text);
    free(order);
}

static int dictionary_holds(const qg_buf *dict, const qg_buf *line)
{
    for (size_t at = 0; at + line->len <= dict->len; at++)
        if (memcmp(dict->data + at, line->data, line->len) == 0)
            return 1;
    return 0;
}

/* Made by the builder as it was when it sorted with qsort (commit
 * c5ce760): every cache compiled since must come out the same. */
enum { KNOWN_LEN = 32768, KNOWN_CRC = 0xe717e8c0 };

static void same_bytes_as_before(void **state)
{
    (void)state;
    qg_buf *blobs = crafted_blobs();
    size_t *order = identity_order(BLOBS);
    qg_buf dict;
    dictionary_of(blobs, order, BLOBS, &dict);
    assert_int_equal(dict.len, KNOWN_LEN);
    assert_int_equal(qgc_crc32(dict.data, dict.len), KNOWN_CRC);
    qg_buf_free(&dict);
    free(order);
    free_blobs(blobs, BLOBS);
}

/* A line's count is the number of blobs that hold it and lines alike in
 * value and length are chosen by their text, so where a line is first
 * seen, which orders the lines the sort is given, changes nothing. */
static void same_bytes_in_any_order(void **state)
{
    (void)state;
    qg_buf *blobs = crafted_blobs();
    size_t *order = identity_order(BLOBS);
    qg_buf first, reversed, interleaved;
    dictionary_of(blobs, order, BLOBS, &first);
    for (size_t i = 0; i < BLOBS; i++)
        order[i] = BLOBS - 1 - i;
    dictionary_of(blobs, order, BLOBS, &reversed);
    for (size_t i = 0; i < BLOBS; i++)
        order[i] = i < BLOBS / 2 ? 2 * i + 1 : 2 * (i - BLOBS / 2);
    dictionary_of(blobs, order, BLOBS, &interleaved);
    assert_int_equal(reversed.len, first.len);
    assert_memory_equal(reversed.data, first.data, first.len);
    assert_int_equal(interleaved.len, first.len);
    assert_memory_equal(interleaved.data, first.data, first.len);
    qg_buf_free(&first);
    qg_buf_free(&reversed);
    qg_buf_free(&interleaved);
    free(order);
    free_blobs(blobs, BLOBS);
}

/* A bound the input stays under (or just reaches) changes nothing. */
static void bound_not_reached_changes_nothing(void **state)
{
    (void)state;
    qg_buf *blobs = crafted_blobs();
    qg_buf unbounded, at_bound;
    qgc_dictionary_table held;
    bounded_dictionary_of(blobs, BLOBS, QGC_DICTIONARY_MAX_LINES, &unbounded, &held);
    size_t distinct = held.lines;
    assert_true(distinct < QGC_DICTIONARY_MAX_LINES);
    bounded_dictionary_of(blobs, BLOBS, distinct, &at_bound, &held);
    assert_int_equal(held.lines, distinct);
    assert_int_equal(held.line_cap, distinct);
    assert_int_equal(at_bound.len, unbounded.len);
    assert_memory_equal(at_bound.data, unbounded.data, unbounded.len);
    qg_buf_free(&unbounded);
    qg_buf_free(&at_bound);
    free_blobs(blobs, BLOBS);
}

enum {
    SHARED = 40,          /* in every blob, from the first */
    FRESH_PER_BLOB = 20,  /* lines no other blob has */
    LATE_FROM = 600,      /* the late line is in every blob from this one */
    BOUND = 5000          /* reached around blob 250 */
};

/* count blobs: SHARED lines in each, FRESH_PER_BLOB lines of its own, and
 * from blob LATE_FROM on one more line they share. */
static qg_buf *blobs_past_the_bound(size_t count, qg_buf *shared, qg_buf *late)
{
    qg_buf *blobs = calloc(count, sizeof *blobs);
    assert_non_null(blobs);
    for (size_t b = 0; b < count; b++) {
        qg_buf_init(&blobs[b]);
        for (size_t k = 0; k < SHARED; k++)
            append_line(&blobs[b], 200000 + k, 30);
        for (size_t u = 0; u < FRESH_PER_BLOB; u++)
            append_line(&blobs[b], 300000 + b * FRESH_PER_BLOB + u, 16);
        if (b >= LATE_FROM)
            append_line(&blobs[b], 400000, 40);
        assert_false(blobs[b].failed);
    }
    qg_buf_init(shared);
    append_line(shared, 200000 + SHARED - 1, 30);
    qg_buf_init(late);
    append_line(late, 400000, 40);
    return blobs;
}

/* Past the bound the input still compiles to a dictionary, made of the
 * lines seen before the table filled, and the table stops growing: four
 * times the input leaves it as it was. */
static void table_stops_at_the_bound(void **state)
{
    (void)state;
    qg_buf shared, late, dict;
    qgc_dictionary_table held, held_more;
    qg_buf *blobs = blobs_past_the_bound(4000, &shared, &late);
    bounded_dictionary_of(blobs, 1000, BOUND, &dict, &held);
    assert_int_equal(held.lines, BOUND);
    assert_true(held.line_cap <= BOUND);
    assert_true(held.index_cap <= 4 * BOUND);
    assert_true(dictionary_holds(&dict, &shared));
    assert_false(dictionary_holds(&dict, &late));
    qg_buf_free(&dict);
    bounded_dictionary_of(blobs, 4000, BOUND, &dict, &held_more);
    assert_int_equal(held_more.lines, held.lines);
    assert_int_equal(held_more.line_cap, held.line_cap);
    assert_int_equal(held_more.index_cap, held.index_cap);
    assert_true(dictionary_holds(&dict, &shared));
    qg_buf_free(&dict);
    qg_buf_free(&shared);
    qg_buf_free(&late);
    free_blobs(blobs, 4000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_bytes_as_before),
        cmocka_unit_test(same_bytes_in_any_order),
        cmocka_unit_test(bound_not_reached_changes_nothing),
        cmocka_unit_test(table_stops_at_the_bound),
    };
    return cmocka_run_group_tests_name("dict", tests, NULL, NULL);
}

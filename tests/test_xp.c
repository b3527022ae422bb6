/* REXPaint .xp: round trips, what is not carried, the layout on disk
 * (column-major, transparent background), old files and hard limits. */
#include "testutil.h"
#include "convert_fixtures.h"
#include "formats/formats.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static void glyph_level_round_trips(void **state)
{
    (void)state;
    qg_level *level = fixture_glyph_level();
    unsigned char *data;
    size_t len;
    qg_diags *diags = qg_diags_new();
    assert_int_equal(qg_xp_write(level, NULL, &data, &len, diags), QG_OK);
    assert_int_equal(qg_diags_count(diags), 0);
    assert_int_equal(data[0], 0x1F);
    assert_int_equal(data[1], 0x8B);
    qg_level *back;
    assert_int_equal(qg_xp_read("g.xp", data, len, &back, diags), QG_OK);
    assert_int_equal(qg_diags_count(diags), 0);
    char what[128] = "";
    int equal = qg_level_equal(level, back, what, sizeof what);
    if (!equal)
        fprintf(stderr, "# differs: %s\n", what);
    assert_true(equal);
    free(data);
    qg_level_free(back);
    qg_level_free(level);
    qg_diags_free(diags);
}

static void says_what_it_cannot_carry(void **state)
{
    (void)state;
    qg_level *level = fixture_rich_level();
    unsigned char *data;
    size_t len;
    qg_diags *diags = qg_diags_new();
    assert_int_equal(qg_xp_write(level, NULL, &data, &len, diags), QG_OK);
    assert_true(test_diags_contain(diags, QG_WARNING, "feature indices and names (30 cells)"));
    assert_true(test_diags_contain(diags, QG_WARNING, "cave_info flags and vault masks"));
    assert_true(test_diags_contain(diags, QG_WARNING, "special, mimic and mflag values (1 cells)"));
    assert_true(test_diags_contain(diags, QG_WARNING, "given by name or tag (Crawl specs, Hengband tags) (2 cells)"));
    assert_true(test_diags_contain(diags, QG_WARNING, "names of things (1 cells)"));
    assert_true(test_diags_contain(diags, QG_WARNING, "markers (2)"));
    assert_true(test_diags_contain(diags, QG_WARNING, "name or properties (5)"));
    qg_level *back;
    assert_int_equal(qg_xp_read("r.xp", data, len, &back, NULL), QG_OK);
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 7; x++) {
            qg_cell a, b;
            qg_level_cell(level, x, y, &a);
            qg_level_cell(back, x, y, &b);
            assert_int_equal(a.in_map, b.in_map);
            assert_int_equal(a.glyph, b.glyph);
        }
    /* several things a cell, clones and rewards are kept exactly */
    qg_cell cell;
    qg_level_cell(back, 2, 1, &cell);
    assert_int_equal(cell.things[QG_SLOT_MONSTER].kind, QG_THING_INDEX);
    assert_int_equal(cell.things[QG_SLOT_MONSTER].index, 44);
    assert_int_equal(cell.things[QG_SLOT_OBJECT].kind, QG_THING_RANDOM);
    assert_int_equal(cell.things[QG_SLOT_OBJECT].index, 3);
    qg_level_cell(back, 1, 2, &cell);
    assert_int_equal(cell.things[QG_SLOT_MONSTER].kind, QG_THING_CLONE);
    assert_int_equal(cell.things[QG_SLOT_MONSTER].index, 12);
    assert_int_equal(cell.things[QG_SLOT_ARTIFACT].kind, QG_THING_REWARD);
    qg_level_cell(back, 2, 2, &cell);
    assert_int_equal(cell.things[QG_SLOT_MONSTER].kind, QG_THING_NONE);
    int sx, sy;
    assert_true(qg_level_player_start(back, &sx, &sy));
    assert_int_equal(sx, 4);
    assert_int_equal(sy, 1);
    free(data);
    qg_level_free(back);
    qg_level_free(level);
    qg_diags_free(diags);
}

/* REXPaint shows the level in colour: things on layers 2 and 3 with a
 * visible (not key-coloured) background and the game's glyph and colour;
 * the exact values sit on transparent data layers. */
static void layers_show_things_in_colour(void **state)
{
    (void)state;
    qg_vocab *vocab = qg_vocab_new();
    assert_int_equal(qg_vocab_load_dir(vocab, test_src_path("lib/edit"), NULL), QG_OK);
    char monster_glyph, monster_colour;
    assert_true(qg_vocab_look(vocab, QG_VOCAB_MONSTER, 44, &monster_glyph, &monster_colour));
    qg_level *level = fixture_rich_level();
    qg_write_options wo;
    memset(&wo, 0, sizeof wo);
    wo.vocab = vocab;
    unsigned char *data;
    size_t len;
    assert_int_equal(qg_xp_write(level, &wo, &data, &len, NULL), QG_OK);
    qg_buf raw;
    qg_buf_init(&raw);
    assert_int_equal(qg_inflate(&raw, data, len, 1u << 24, NULL), QG_OK);
    const unsigned char *b = (const unsigned char *)raw.data;
    int32_t layers = (int32_t)(b[4] | b[5] << 8 | b[6] << 16 | (uint32_t)b[7] << 24);
    assert_true(layers >= 4);
    /* layer 3 (monsters), cell (2,1): 7x5 level, column-major */
    size_t layer_bytes = 8 + 7 * 5 * 10;
    const unsigned char *c = b + 8 + 2 * layer_bytes + 8 + (2 * 5 + 1) * 10;
    assert_int_equal(c[0], (unsigned char)monster_glyph);
    assert_false(c[7] == 255 && c[8] == 0 && c[9] == 255);
    assert_true(c[4] || c[5] || c[6]);
    /* layer 4 (data), the same cell: transparent, holding index 44 */
    c = b + 8 + 3 * layer_bytes + 8 + (2 * 5 + 1) * 10;
    assert_true(c[7] == 255 && c[8] == 0 && c[9] == 255);
    assert_int_equal(c[4], 'q');
    qg_buf_free(&raw);
    free(data);
    qg_level_free(level);
    qg_vocab_free(vocab);
}

static void put_i32(unsigned char *p, int32_t v)
{
    uint32_t u = (uint32_t)v;
    p[0] = (unsigned char)u;
    p[1] = (unsigned char)(u >> 8);
    p[2] = (unsigned char)(u >> 16);
    p[3] = (unsigned char)(u >> 24);
}

/* A plain (not gzipped) 2×3 one-layer file: column-major cells, the
 * middle of the first column transparent. */
static size_t make_plain(unsigned char *buf, int old_header)
{
    size_t at = 0;
    if (!old_header) {
        put_i32(buf, -1);
        at = 4;
    }
    put_i32(buf + at, 1);
    put_i32(buf + at + 4, 2);
    put_i32(buf + at + 8, 3);
    at += 12;
    const char glyphs[] = "ab?def";
    for (int i = 0; i < 6; i++, at += 10) {
        put_i32(buf + at, glyphs[i]);
        memset(buf + at + 4, 0, 6);
        if (i == 1) {
            buf[at + 7] = 255;
            buf[at + 9] = 255;
        }
    }
    return at;
}

static void reads_column_major_and_old_files(void **state)
{
    (void)state;
    for (int old = 0; old < 2; old++) {
        unsigned char buf[256];
        size_t len = make_plain(buf, old);
        qg_level *level;
        assert_int_equal(qg_xp_read("p.xp", buf, len, &level, NULL), QG_OK);
        assert_int_equal(qg_level_width(level), 2);
        assert_int_equal(qg_level_height(level), 3);
        qg_cell cell;
        qg_level_cell(level, 0, 0, &cell);
        assert_int_equal(cell.glyph, 'a');
        qg_level_cell(level, 0, 1, &cell);
        assert_false(cell.in_map);
        qg_level_cell(level, 0, 2, &cell);
        assert_int_equal(cell.glyph, '?');
        qg_level_cell(level, 1, 0, &cell);
        assert_int_equal(cell.glyph, 'd');
        qg_level_free(level);
    }
}

static void rejects_damaged_files(void **state)
{
    (void)state;
    unsigned char buf[256];
    size_t len = make_plain(buf, 0);
    qg_level *level;
    qg_diags *diags = qg_diags_new();
    assert_int_equal(qg_xp_read("t.xp", buf, len - 1, &level, diags), QG_ERR_CORRUPT);
    assert_true(test_diags_contain(diags, QG_ERROR, "exceeds the file"));
    put_i32(buf + 4, 10);
    assert_int_equal(qg_xp_read("t.xp", buf, len, &level, diags), QG_ERR_CORRUPT);
    assert_true(test_diags_contain(diags, QG_ERROR, "10 layers"));
    unsigned char gz[] = {0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3};
    assert_int_equal(qg_xp_read("t.xp", gz, sizeof gz, &level, diags), QG_ERR_CORRUPT);
    assert_true(test_diags_contain(diags, QG_ERROR, "gzip data is damaged"));
    qg_diags_free(diags);
}

/* A small file that inflates beyond the cap is refused, not allocated. */
static void caps_what_it_inflates(void **state)
{
    (void)state;
    size_t big = 80u * 1024u * 1024u;
    unsigned char *zeros = calloc(big, 1);
    assert_non_null(zeros);
    z_stream z;
    memset(&z, 0, sizeof z);
    assert_int_equal(deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    size_t cap = deflateBound(&z, big);
    unsigned char *packed = malloc(cap);
    assert_non_null(packed);
    z.next_in = zeros;
    z.avail_in = (uInt)big;
    z.next_out = packed;
    z.avail_out = (uInt)cap;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    size_t len = z.total_out;
    deflateEnd(&z);
    free(zeros);
    qg_level *level;
    qg_diags *diags = qg_diags_new();
    assert_int_equal(qg_xp_read("bomb.xp", packed, len, &level, diags), QG_ERR_LIMIT);
    assert_true(test_diags_contain(diags, QG_ERROR, "inflates to more than"));
    free(packed);
    qg_diags_free(diags);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(glyph_level_round_trips),
        cmocka_unit_test(says_what_it_cannot_carry),
        cmocka_unit_test(layers_show_things_in_colour),
        cmocka_unit_test(reads_column_major_and_old_files),
        cmocka_unit_test(rejects_damaged_files),
        cmocka_unit_test(caps_what_it_inflates),
    };
    return cmocka_run_group_tests_name("xp", tests, NULL, NULL);
}

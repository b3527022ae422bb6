/* Structured directive arguments, parsed from one argument string as a
 * .des line or a Lua call hands it over. */
#include "testutil.h"
#include "des/directives.h"
#include "des/glyphs.h"

#include <stdlib.h>
#include <string.h>

#define S(text) text, strlen(text)

static void subst_weights_and_fixed(void **state)
{
    (void)state;
    qg_arena arena;
    qg_arena_init(&arena);
    des_subst s;
    des_spec_error err;
    assert_int_equal(des_parse_subst(&arena, S("x = a:5 bc"), &s, &err), DES_PARSE_OK);
    assert_string_equal(s.keys, "x");
    assert_false(s.fixed);
    assert_int_equal(s.count, 3);
    assert_int_equal(s.choices[0].glyph, 'a');
    assert_int_equal(s.choices[0].weight, 5);
    assert_int_equal(s.choices[2].glyph, 'c');
    assert_int_equal(s.choices[2].weight, 10);
    /* '=' and ':' may themselves be glyphs */
    assert_int_equal(des_parse_subst(&arena, S("= = +=:1"), &s, &err), DES_PARSE_OK);
    assert_string_equal(s.keys, "=");
    assert_int_equal(s.count, 4);
    assert_int_equal(s.choices[1].glyph, '=');
    assert_int_equal(des_parse_subst(&arena, S("G : Gbt x:5"), &s, &err), DES_PARSE_OK);
    assert_true(s.fixed);
    assert_int_equal(s.choices[3].glyph, 'x');
    assert_int_equal(s.choices[3].weight, 5);
    assert_int_equal(des_parse_subst(&arena, S("x"), &s, &err), DES_PARSE_BAD);
    assert_non_null(strstr(err.message, "must use = or :"));
    assert_int_equal(des_parse_subst(&arena, S("x = "), &s, &err), DES_PARSE_BAD);
    assert_non_null(strstr(err.message, "no substitute"));
    qg_arena_free(&arena);
}

static void nsubst_segments(void **state)
{
    (void)state;
    qg_arena arena;
    qg_arena_init(&arena);
    des_nsubst n;
    des_spec_error err;
    assert_int_equal(des_parse_nsubst(&arena, S("+ = 2=x / 1:y:5 z / *=."), &n, &err), DES_PARSE_OK);
    assert_string_equal(n.keys, "+");
    assert_int_equal(n.count, 3);
    assert_int_equal(n.segs[0].count, 2);
    assert_false(n.segs[0].fixed);
    assert_int_equal(n.segs[1].count, 1);
    assert_true(n.segs[1].fixed);
    assert_int_equal(n.segs[1].choice_count, 2);
    assert_int_equal(n.segs[1].choices[0].weight, 5);
    assert_int_equal(n.segs[2].count, -1);
    /* bare segments: 1= except the last, which takes the rest */
    assert_int_equal(des_parse_nsubst(&arena, S("A = B / C"), &n, &err), DES_PARSE_OK);
    assert_int_equal(n.segs[0].count, 1);
    assert_int_equal(n.segs[1].count, -1);
    assert_int_equal(des_parse_nsubst(&arena, S("A = x:5 y"), &n, &err), DES_PARSE_BAD);
    assert_int_equal(err.offset, 4);
    qg_arena_free(&arena);
}

static void shuffle_forms(void **state)
{
    (void)state;
    qg_arena arena;
    qg_arena_init(&arena);
    des_shuffle sh;
    des_spec_error err;
    assert_int_equal(des_parse_shuffle(&arena, S("a b c"), &sh, &err), DES_PARSE_OK);
    assert_string_equal(sh.glyphs, "abc");
    assert_int_equal(sh.block_len, 1);
    assert_int_equal(sh.block_count, 3);
    assert_int_equal(des_parse_shuffle(&arena, S("12/3w/xy"), &sh, &err), DES_PARSE_OK);
    assert_string_equal(sh.glyphs, "123wxy");
    assert_int_equal(sh.block_len, 2);
    assert_int_equal(sh.block_count, 3);
    assert_int_equal(des_parse_shuffle(&arena, S("ab,cd"), &sh, &err), DES_PARSE_BAD);
    assert_int_equal(err.offset, 2);
    assert_int_equal(des_parse_shuffle(&arena, S("ab/c"), &sh, &err), DES_PARSE_BAD);
    qg_arena_free(&arena);
}

static void keyed_specs(void **state)
{
    (void)state;
    qg_arena arena;
    qg_arena_init(&arena);
    des_keyed k;
    des_spec_error err;
    assert_int_equal(des_parse_keyed(&arena, DES_DIR_KFEAT, S("Z = C / w:5 needle trap / altar_zin"),
                                     &k, &err), DES_PARSE_OK);
    assert_string_equal(k.keys, "Z");
    assert_int_equal(k.slot_count, 1);
    assert_int_equal(k.slots[0].count, 3);
    assert_string_equal(k.slots[0].alts[1].text, "needle trap");
    assert_int_equal(k.slots[0].alts[1].weight, 5);
    assert_int_equal(des_parse_keyed(&arena, DES_DIR_KMONS, S("pq : orc w:2 / goblin, rat"), &k, &err),
                     DES_PARSE_OK);
    assert_string_equal(k.keys, "pq");
    assert_true(k.fixed);
    assert_int_equal(k.slot_count, 2);
    assert_int_equal(k.slots[0].alts[0].weight, 2);
    assert_string_equal(k.slots[0].alts[0].text, "orc");
    assert_string_equal(k.slots[1].alts[0].text, "rat");
    assert_int_equal(des_parse_keyed(&arena, DES_DIR_KMASK, S("- = !vault / no_item_gen"), &k, &err),
                     DES_PARSE_OK);
    assert_true(k.slots[0].alts[0].negate);
    assert_int_equal(k.slots[0].alts[0].mask, QG_MASK_VAULT);
    assert_int_equal(k.slots[0].alts[1].mask, QG_MASK_NO_ITEM_GEN);
    assert_int_equal(des_parse_keyed(&arena, DES_DIR_COLOUR, S("t = red w:4 / lightred:3"), &k, &err),
                     DES_PARSE_OK);
    assert_int_equal(k.slots[0].alts[0].weight, 4);
    assert_string_equal(k.slots[0].alts[1].text, "lightred");
    assert_int_equal(k.slots[0].alts[1].weight, 3);
    assert_int_equal(des_parse_keyed(&arena, DES_DIR_SUBVAULT, S("X = tag"), &k, &err), DES_PARSE_BAD);
    qg_arena_free(&arena);
}

static void mons_item_slots(void **state)
{
    (void)state;
    qg_arena arena;
    qg_arena_init(&arena);
    des_slot s;
    des_spec_error err;
    assert_int_equal(des_parse_slot(&arena, S("w:10 any book / w:90 nothing"), &s, &err), DES_PARSE_OK);
    assert_int_equal(s.count, 2);
    assert_string_equal(s.alts[0].text, "any book");
    assert_int_equal(s.alts[0].weight, 10);
    assert_int_equal(s.alts[1].weight, 90);
    assert_int_equal(des_parse_slot(&arena, S("orc priest"), &s, &err), DES_PARSE_OK);
    assert_int_equal(s.alts[0].weight, 10);
    qg_arena_free(&arena);
}

static void markers(void **state)
{
    (void)state;
    qg_arena arena;
    qg_arena_init(&arena);
    des_marker m;
    des_spec_error err;
    assert_int_equal(des_parse_marker(&arena, S("O = lua:one_way_stair { x = 1 }"), &m, &err),
                     DES_PARSE_OK);
    assert_int_equal(m.key, 'O');
    assert_int_equal(m.kind, DES_MARKER_LUA);
    assert_string_equal(m.value, "one_way_stair { x = 1 }");
    /* the separator is searched from index 1, so '=' can be the key */
    assert_int_equal(des_parse_marker(&arena, S("= : feat:floor"), &m, &err), DES_PARSE_OK);
    assert_int_equal(m.key, '=');
    assert_int_equal(m.kind, DES_MARKER_FEAT);
    assert_int_equal(des_parse_marker(&arena, S("AB = x"), &m, &err), DES_PARSE_BAD);
    assert_int_equal(err.offset, 1);
    qg_arena_free(&arena);
}

static void depth_ranges(void **state)
{
    (void)state;
    qg_arena arena;
    qg_arena_init(&arena);
    des_ranges r;
    des_spec_error err;
    assert_int_equal(des_parse_ranges(&arena, S("D:2-4, !D:3, Lair, Elf:$, Zot:3-, 7-20, *"), &r, &err),
                     DES_PARSE_OK);
    assert_int_equal(r.count, 7);
    assert_string_equal(r.items[0].branch, "D");
    assert_int_equal(r.items[0].lo, 2);
    assert_int_equal(r.items[0].hi, 4);
    assert_true(r.items[1].deny);
    assert_int_equal(r.items[1].lo, 3);
    assert_int_equal(r.items[1].hi, 3);
    assert_int_equal(r.items[2].hi, -1);
    assert_int_equal(r.items[3].lo, -1);
    assert_int_equal(r.items[4].lo, 3);
    assert_int_equal(r.items[4].hi, -1);
    assert_true(r.items[5].absolute);
    assert_null(r.items[5].branch);
    assert_int_equal(r.items[5].hi, 20);
    assert_true(r.items[6].any_branch);
    assert_int_equal(des_parse_ranges(&arena, S("D:x"), &r, &err), DES_PARSE_BAD);
    assert_int_equal(err.offset, 2);
    qg_arena_free(&arena);
}

/* Found by fuzz_des: blanks before the dash made the upper bound's span
 * reach past the end of the text. */
static void depth_range_with_blanks_before_the_dash(void **state)
{
    (void)state;
    static const char text[] = "D:2\t\t\t -7, D:9";
    char *heap = malloc(sizeof text - 1);
    assert_non_null(heap);
    memcpy(heap, text, sizeof text - 1);
    qg_arena arena;
    qg_arena_init(&arena);
    des_ranges r;
    des_spec_error err;
    assert_int_equal(des_parse_ranges(&arena, heap, sizeof text - 1, &r, &err), DES_PARSE_OK);
    assert_int_equal(r.count, 2);
    assert_int_equal(r.items[0].lo, 2);
    assert_int_equal(r.items[0].hi, 7);
    assert_int_equal(r.items[1].lo, 9);
    qg_arena_free(&arena);
    free(heap);
}

static void spec_dispatch(void **state)
{
    (void)state;
    qg_arena arena;
    qg_arena_init(&arena);
    des_spec spec;
    des_spec_error err;
    assert_int_equal(des_parse_spec(&arena, DES_DIR_ORIENT, S("southwest"), &spec, &err), DES_PARSE_OK);
    assert_int_equal(des_parse_spec(&arena, DES_DIR_ORIENT, S("up"), &spec, &err), DES_PARSE_BAD);
    assert_int_equal(spec.kind, DES_SPEC_NONE);
    assert_int_equal(des_parse_spec(&arena, DES_DIR_ITEM, S("stone"), &spec, &err), DES_PARSE_OK);
    assert_int_equal(spec.kind, DES_SPEC_SLOT);
    qg_arena_free(&arena);
}

static void keyword_table(void **state)
{
    (void)state;
    for (int dir = 0; dir < DES_DIR_COUNT; dir++) {
        const des_keyword *kw = des_keyword_for((des_dir)dir);
        assert_non_null(kw);
        const char *w = kw->word;
        assert_ptr_equal(des_keyword_match(w, w + strlen(w), 1), kw);
        if (kw->legacy)
            assert_null(des_keyword_match(w, w + strlen(w), 0));
        assert_null(des_keyword_match(w, w + strlen(w) - 1, 1));
    }
    const char *lower = "name:";
    assert_null(des_keyword_match(lower, lower + 5, 1));
}

static void glyph_table(void **state)
{
    (void)state;
    assert_string_equal(des_glyph_info('x')->feature, "rock_wall");
    assert_int_equal(des_glyph_info('3')->kind, DES_GLYPH_MONSTER);
    assert_int_equal(des_glyph_info('3')->slot, 2);
    assert_int_equal(des_glyph_info('k')->slot, 7);
    assert_int_equal(des_glyph_info(' ')->kind, DES_GLYPH_OUTSIDE);
    assert_false(des_glyph_is_builtin('Q'));
    assert_string_equal(des_glyph_info('Q')->feature, "floor");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(subst_weights_and_fixed),
        cmocka_unit_test(nsubst_segments),
        cmocka_unit_test(shuffle_forms),
        cmocka_unit_test(keyed_specs),
        cmocka_unit_test(mons_item_slots),
        cmocka_unit_test(markers),
        cmocka_unit_test(depth_ranges),
        cmocka_unit_test(depth_range_with_blanks_before_the_dash),
        cmocka_unit_test(spec_dispatch),
        cmocka_unit_test(keyword_table),
        cmocka_unit_test(glyph_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

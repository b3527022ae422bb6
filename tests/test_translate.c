/* The translator between games (questgrid/games.h), one rule a test, on
 * the small tables of tests/data/games ("band" numbers its things as the
 * Angband family does, "crawlish" names them as Crawl does), then on the
 * bundled tables the cases issue 27 names. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

typedef struct pair {
    qg_game *band, *crawl;
    qg_diags *diags;
} pair;

static void load_pair(pair *p)
{
    p->diags = qg_diags_new();
    const char *dir = test_src_path("tests/data/games");
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", dir);
    assert_int_equal(qg_game_load(copy, "band", &p->band, p->diags), QG_OK);
    assert_int_equal(qg_game_load(copy, "crawlish", &p->crawl, p->diags), QG_OK);
    assert_false(qg_game_is_crawl(p->band));
    assert_true(qg_game_is_crawl(p->crawl));
}

static void free_pair(pair *p)
{
    qg_game_free(p->band);
    qg_game_free(p->crawl);
    qg_diags_free(p->diags);
}

static const char *feature(qg_translator *t, int32_t index, const char *name, int32_t *out)
{
    const char *to = NULL;
    *out = -2;
    return qg_translate_feature(t, index, name, out, &to) ? to : NULL;
}

static qg_thing thing(qg_translator *t, qg_slot slot, qg_thing_kind kind, int32_t index,
                      const char *name, int *ok)
{
    qg_thing in = {.kind = kind, .index = index, .name = name}, out;
    *ok = qg_translate_thing(t, slot, &in, &out);
    return out;
}

/* the same name, compared without case and with '_' as a space */
static void same_name_is_exact(void **state)
{
    (void)state;
    pair p;
    load_pair(&p);
    qg_translator *t = qg_translator_new(p.crawl, NULL, p.band, 0);
    int32_t index;
    assert_string_equal(feature(t, -1, "deep_water", &index), "DEEP_WATER");
    assert_int_equal(index, 83);
    qg_translator *back = qg_translator_new(p.band, NULL, p.crawl, 0);
    assert_string_equal(feature(back, 83, NULL, &index), "deep_water");
    assert_int_equal(index, -1);
    assert_int_equal(qg_translator_report(t, p.diags) + qg_translator_report(back, p.diags), 0);
    assert_int_equal(qg_diags_count(p.diags), 0);
    qg_translator_free(back);
    qg_translator_free(t);
    free_pair(&p);
}

/* exact.txt's "same" lines: the first name the target has */
static void same_line_is_exact(void **state)
{
    (void)state;
    pair p;
    load_pair(&p);
    qg_translator *t = qg_translator_new(p.crawl, NULL, p.band, 0);
    int32_t index;
    assert_string_equal(feature(t, -1, "rock_wall", &index), "GRANITE");
    assert_int_equal(index, 56);
    qg_translator *back = qg_translator_new(p.band, NULL, p.crawl, 0);
    int ok;
    qg_thing m = thing(back, QG_SLOT_MONSTER, QG_THING_INDEX, 1, NULL, &ok);
    assert_true(ok);
    assert_int_equal(m.kind, QG_THING_NAME);
    assert_string_equal(m.name, "jackal");
    assert_int_equal(qg_translator_report(back, p.diags), 0);
    assert_int_equal(qg_diags_count(p.diags), 0);
    qg_translator_free(back);
    qg_translator_free(t);
    free_pair(&p);
}

/* no exact entry: the nearest of the class, by relative depth, uniques
 * left aside; a warning names both */
static void nearest_of_class_by_depth(void **state)
{
    (void)state;
    pair p;
    load_pair(&p);
    qg_translator *t = qg_translator_new(p.band, NULL, p.crawl, 0);
    int ok;
    qg_thing small = thing(t, QG_SLOT_MONSTER, QG_THING_INDEX, 2, NULL, &ok);
    assert_true(ok);
    assert_string_equal(small.name, "kobold");
    qg_thing champion = thing(t, QG_SLOT_MONSTER, QG_THING_INDEX, 3, NULL, &ok);
    assert_true(ok);
    assert_string_equal(champion.name, "big kobold");
    /* a unique is never the nearest of a monster that is not one */
    qg_thing king = thing(t, QG_SLOT_MONSTER, QG_THING_INDEX, 4, NULL, &ok);
    assert_true(ok);
    assert_string_equal(king.name, "Sonja");
    assert_int_equal(qg_translator_report(t, p.diags), 0);
    assert_true(test_diags_contain(p.diags, QG_WARNING,
                                   "crawlish has no monster 'Small kobold' (monster 2): 'kobold' "
                                   "is taken, the nearest of its class, kobold"));
    /* a feature of the class: its stand-in (exact.txt's class line) */
    int32_t index;
    qg_translator *back = qg_translator_new(p.crawl, NULL, p.band, 0);
    assert_string_equal(feature(back, -1, "stone_wall", &index), "GRANITE");
    qg_translator_free(back);
    qg_translator_free(t);
    free_pair(&p);
}

/* no entry of the class: one of its family (monsters and objects) */
static void nearest_of_family(void **state)
{
    (void)state;
    pair p;
    load_pair(&p);
    qg_translator *t = qg_translator_new(p.band, NULL, p.crawl, 0);
    int ok;
    qg_thing cat = thing(t, QG_SLOT_MONSTER, QG_THING_INDEX, 5, NULL, &ok);
    assert_true(ok);
    assert_string_equal(cat.name, "jackal");
    qg_thing food = thing(t, QG_SLOT_OBJECT, QG_THING_INDEX, 4, NULL, &ok);
    assert_true(ok);
    assert_string_equal(food.name, "potion of curing");
    qg_translator_report(t, p.diags);
    assert_true(test_diags_contain(p.diags, QG_WARNING, "the nearest of its family"));
    qg_translator_free(t);
    free_pair(&p);
}

/* neither: refused, listed in one error; lossy: a wall or floor, things
 * left out, warned */
static void refused_unless_lossy(void **state)
{
    (void)state;
    pair p;
    load_pair(&p);
    qg_translator *t = qg_translator_new(p.band, NULL, p.crawl, 0);
    int32_t index;
    assert_null(feature(t, 114, NULL, &index));
    assert_null(feature(t, 120, NULL, &index));
    int ok;
    thing(t, QG_SLOT_MONSTER, QG_THING_INDEX, 6, NULL, &ok);
    assert_false(ok);
    assert_int_equal(qg_translator_refused(t), 3);
    assert_int_equal(qg_translator_report(t, p.diags), 3);
    assert_true(test_diags_contain(p.diags, QG_ERROR, "3 things have nothing of their class in "
                                                      "crawlish; nothing is written"));
    assert_true(test_diags_contain(p.diags, QG_ERROR, "feature 'fountain' (feature 114) (fountain)"));
    assert_true(test_diags_contain(p.diags, QG_ERROR, "monster 'Grey mold' (monster 6) (plant)"));
    qg_translator_free(t);
    qg_diags_clear(p.diags);
    t = qg_translator_new(p.band, NULL, p.crawl, 1);
    assert_string_equal(feature(t, 114, NULL, &index), "rock_wall");
    thing(t, QG_SLOT_MONSTER, QG_THING_INDEX, 6, NULL, &ok);
    assert_false(ok);
    assert_int_equal(qg_translator_report(t, p.diags), 0);
    assert_int_equal(qg_diags_count_severity(p.diags, QG_ERROR), 0);
    assert_true(test_diags_contain(p.diags, QG_WARNING, "left out (--lossy)"));
    qg_translator_free(t);
    free_pair(&p);
}

/* an artifact becomes an object of its class in a game without artifacts */
static void artifact_becomes_object(void **state)
{
    (void)state;
    pair p;
    load_pair(&p);
    qg_translator *t = qg_translator_new(p.band, NULL, p.crawl, 0);
    int ok;
    qg_thing a = thing(t, QG_SLOT_ARTIFACT, QG_THING_INDEX, 1, NULL, &ok);
    assert_true(ok);
    assert_string_equal(a.name, "long sword");
    qg_translator_free(t);
    free_pair(&p);
}

/* the vocabulary of the file's own edit directory names the indices: a
 * thing the tables number otherwise is found by name, one they lack by
 * the character it is drawn with */
static void vocabulary_names_indices(void **state)
{
    (void)state;
    pair p;
    load_pair(&p);
    qg_vocab *v = qg_vocab_new();
    qg_vocab_add(v, QG_VOCAB_MONSTER, 9, "Small kobold", NULL);
    qg_vocab_add(v, QG_VOCAB_MONSTER, 10, "Kobold archer", NULL);
    qg_vocab_set_look(v, QG_VOCAB_MONSTER, 10, 'k', 'g');
    qg_translator *t = qg_translator_new(p.band, v, p.crawl, 0);
    int ok;
    assert_string_equal(thing(t, QG_SLOT_MONSTER, QG_THING_INDEX, 9, NULL, &ok).name, "kobold");
    assert_true(ok);
    thing(t, QG_SLOT_MONSTER, QG_THING_INDEX, 10, NULL, &ok);
    assert_true(ok);
    qg_translator_free(t);
    qg_vocab_free(v);
    free_pair(&p);
}

/* names as room templates and Crawl specs give them */
static void names_of_specs(void **state)
{
    (void)state;
    pair p;
    load_pair(&p);
    qg_translator *t = qg_translator_new(p.band, NULL, p.crawl, 0);
    int ok;
    /* MON(^small kobold$): the first whose framed name holds it */
    assert_string_equal(thing(t, QG_SLOT_MONSTER, QG_THING_NAME, 0, "^small kobold$", &ok).name,
                        "kobold");
    /* MON(stray dog, NO_GROUP) */
    assert_string_equal(thing(t, QG_SLOT_MONSTER, QG_THING_NAME, 0, "stray dog, NO_GROUP", &ok).name,
                        "jackal");
    /* MON(*, DEPTH+5 | NO_GROUP): random, five levels out of depth */
    qg_thing r = thing(t, QG_SLOT_MONSTER, QG_THING_NAME, 0, "*, DEPTH+5 | NO_GROUP", &ok);
    assert_int_equal(r.kind, QG_THING_RANDOM);
    assert_int_equal(r.index, 5);
    /* a FORMATION room's digit: random, said so */
    r = thing(t, QG_SLOT_MONSTER, QG_THING_NAME, 0, "formation monster 2", &ok);
    assert_int_equal(r.kind, QG_THING_RANDOM);
    /* OBJ(SWORD, DEPTH+3): a sword */
    assert_string_equal(thing(t, QG_SLOT_OBJECT, QG_THING_NAME, 0, "SWORD, DEPTH+3", &ok).name,
                        "long sword");
    qg_translator_report(t, p.diags);
    assert_true(test_diags_contain(p.diags, QG_WARNING, "'formation monster 2' stands for"));
    qg_translator_free(t);
    qg_diags_clear(p.diags);
    /* Crawl specs: flags, equipment and alternatives aside */
    t = qg_translator_new(p.crawl, NULL, p.band, 0);
    assert_int_equal(thing(t, QG_SLOT_MONSTER, QG_THING_NAME, 0,
                           "generate_awake kobold ; dagger / big kobold", &ok).index, 2);
    assert_int_equal(thing(t, QG_SLOT_OBJECT, QG_THING_NAME, 0, "long sword q:2", &ok).index, 2);
    assert_int_equal(thing(t, QG_SLOT_OBJECT, QG_THING_NAME, 0, "any", &ok).kind,
                     QG_THING_RANDOM);
    qg_translator_free(t);
    free_pair(&p);
}

/* how a game draws a thing, for pictures */
static void looks(void **state)
{
    (void)state;
    pair p;
    load_pair(&p);
    const char *glyph, *colour;
    assert_true(qg_game_look(p.crawl, QG_VOCAB_MONSTER, -1, "big kobold w:5", &glyph, &colour));
    assert_string_equal(glyph, "K");
    assert_string_equal(colour, "red");
    assert_true(qg_game_look(p.band, QG_VOCAB_OBJECT, 3, NULL, &glyph, &colour));
    assert_string_equal(glyph, "!");
    assert_string_equal(colour, "b");
    assert_false(qg_game_look(p.band, QG_VOCAB_OBJECT, 99, NULL, &glyph, &colour));
    free_pair(&p);
}

static void unknown_game_is_an_error(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_game *g = NULL;
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", test_src_path("tests/data/games"));
    assert_int_equal(qg_game_load(copy, "klingon", &g, d), QG_ERR_NOTFOUND);
    assert_null(g);
    assert_true(test_diags_contain(d, QG_ERROR, "no tables of the game 'klingon'"));
    qg_diags_free(d);
}

/* the bundled tables on issue 27's cases */
static void bundled_tables(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_game *crawl = NULL, *zang = NULL, *pos = NULL;
    assert_int_equal(qg_game_load(NULL, "crawl-0.28", &crawl, d), QG_OK);
    assert_int_equal(qg_game_load(NULL, "zangband235", &zang, d), QG_OK);
    assert_int_equal(qg_game_load(NULL, "poschengband", &pos, d), QG_OK);
    /* a wall stays a wall, a fountain a fountain, a bush a plant */
    qg_translator *t = qg_translator_new(crawl, NULL, zang, 0);
    int32_t index;
    feature(t, -1, "clear_rock_wall", &index);
    assert_true(index >= 50 && index <= 63);
    assert_string_equal(feature(t, -1, "dry_fountain", &index), "fountain");
    int ok;
    qg_thing bush = thing(t, QG_SLOT_MONSTER, QG_THING_NAME, 0, "bush", &ok);
    assert_true(ok);
    assert_int_equal(bush.kind, QG_THING_INDEX);
    assert_true(bush.index > 0);
    qg_translator_free(t);
    /* PosChengband's own tags; it has no fountain */
    t = qg_translator_new(crawl, NULL, pos, 0);
    assert_string_equal(feature(t, -1, "floor", &index), "FLOOR");
    assert_string_equal(feature(t, -1, "closed_door", &index), "CLOSED_DOOR");
    assert_null(feature(t, -1, "dry_fountain", &index));
    qg_translator_free(t);
    /* 0.28 has no "big kobold" */
    t = qg_translator_new(zang, NULL, crawl, 0);
    qg_thing big = thing(t, QG_SLOT_MONSTER, QG_THING_INDEX, 102, NULL, &ok);
    assert_true(ok);
    assert_string_not_equal(big.name, "big kobold");
    qg_translator_free(t);
    qg_game_free(crawl);
    qg_game_free(zang);
    qg_game_free(pos);
    qg_diags_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_name_is_exact),     cmocka_unit_test(same_line_is_exact),
        cmocka_unit_test(nearest_of_class_by_depth), cmocka_unit_test(nearest_of_family),
        cmocka_unit_test(refused_unless_lossy),   cmocka_unit_test(artifact_becomes_object),
        cmocka_unit_test(vocabulary_names_indices), cmocka_unit_test(names_of_specs),
        cmocka_unit_test(looks),                  cmocka_unit_test(unknown_game_is_an_error),
        cmocka_unit_test(bundled_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* F:/D: writer: every map of the Angband corpus read, written and read
 * again resolves to the same level under several variable sets; dialect
 * conversion on small fixtures. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Map files: F: and D: lines, not one of the *_info.txt databases. */
static int is_map_file(const char *path, const char *name)
{
    if (ends_with(name, "_info.txt") && strcmp(name, "q_info.txt") != 0 &&
        strcmp(name, "t_info.txt") != 0)
        return 0;
    if (!ends_with(name, ".txt") && !ends_with(name, ".map"))
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char line[4096];
    int has_f = 0, has_d = 0, has_inc = 0;
    while (fgets(line, sizeof line, f)) {
        has_f |= line[0] == 'F' && line[1] == ':';
        has_d |= line[0] == 'D' && line[1] == ':';
        has_inc |= line[0] == '%' && line[1] == ':';
    }
    fclose(f);
    return (has_f && has_d) || has_inc;
}

static qg_vars *variable_set(int which)
{
    qg_vars *vars = qg_vars_new();
    if (which == 0)
        return vars;
    char name[32];
    for (int q = 0; q < 100; q++) {
        snprintf(name, sizeof name, "QUEST%d", q);
        qg_vars_set_int(vars, name, which == 1 ? 3 : 1);
    }
    qg_vars_set(vars, "LEVEL", which == 1 ? "30" : "5");
    qg_vars_set(vars, "CLASS", which == 1 ? "Warrior" : "Mage");
    qg_vars_set(vars, "RACE", "Human");
    qg_vars_set(vars, "TOWN", which == 1 ? "1" : "2");
    qg_vars_set(vars, "DAYTIME", which == 1 ? "1" : "0");
    qg_vars_set(vars, "WILDERNESS", "NORMAL");
    qg_vars_set(vars, "QUEST_NUMBER", which == 1 ? "1" : "6");
    return vars;
}

typedef struct tally {
    int maps, same, identical, unreadable;
} tally;

static int same_under(const qg_mapdef *a, const qg_mapdef *b, const qg_fd_options *opt,
                      const char *path)
{
    for (int v = 0; v < 3; v++) {
        qg_vars *vars = variable_set(v);
        qg_level *la = NULL, *lb = NULL;
        qg_diags *da = qg_diags_new(), *db = qg_diags_new();
        qg_status sa = qg_fd_resolve(a, opt, vars, &la, da);
        qg_status sb = qg_fd_resolve(b, opt, vars, &lb, db);
        char what[128] = "";
        int same = sa == sb && (!la) == (!lb) &&
                   qg_diags_count_severity(da, QG_ERROR) == qg_diags_count_severity(db, QG_ERROR) &&
                   (!la || qg_level_equal(la, lb, what, sizeof what));
        if (!same)
            fprintf(stderr, "# %s (variables %d): %s\n", path, v, what[0] ? what : "status");
        qg_level_free(la);
        qg_level_free(lb);
        qg_diags_free(da);
        qg_diags_free(db);
        qg_vars_free(vars);
        if (!same)
            return 0;
    }
    return 1;
}

static void round_trip_file(const char *dir, const char *path, const qg_vocab *vocab, tally *t)
{
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.edit_dir = dir;
    opt.vocab = vocab;
    qg_mapdef *def = NULL;
    qg_diags *diags = qg_diags_new();
    qg_fd_read(path, &opt, &def, diags);
    t->maps++;
    if (!def) {
        t->unreadable++;
        qg_diags_free(diags);
        return;
    }
    opt.dialect = qg_fd_mapdef_dialect(def);
    qg_write_options wo = {.vocab = vocab};
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(qg_fd_write(def, &wo, &text, &len, diags), QG_OK);
    qg_mapdef *again = NULL;
    qg_fd_parse(path, text, len, &opt, &again, diags);
    assert_non_null(again);
    if (same_under(def, again, &opt, path))
        t->same++;
    FILE *f = fopen(path, "rb");
    char *orig = calloc(1, len + 2);
    size_t got = f && orig ? fread(orig, 1, len + 1, f) : 0;
    if (f)
        fclose(f);
    if (got == len && memcmp(orig, text, len) == 0)
        t->identical++;
    free(orig);
    free(text);
    qg_mapdef_free(again);
    qg_mapdef_free(def);
    qg_diags_free(diags);
}

static void corpus_round_trip(const char *variant)
{
    char rel[256];
    snprintf(rel, sizeof rel, "angband/%s/lib/edit", variant);
    const char *found = test_corpus_path_or_skip(rel);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", found);
    qg_vocab *vocab = qg_vocab_new();
    qg_vocab_load_dir(vocab, dir, NULL);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    tally t = {0, 0, 0, 0};
    while ((e = readdir(d))) {
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (is_map_file(path, e->d_name))
            round_trip_file(dir, path, vocab, &t);
    }
    closedir(d);
    qg_vocab_free(vocab);
    printf("# F:/D: round trip, %s: %d maps, %d the same level under 3 variable sets, "
           "%d byte-identical, %d unreadable\n",
           variant, t.maps, t.same, t.identical, t.unreadable);
    assert_true(t.maps > 0);
    assert_int_equal(t.same + t.unreadable, t.maps);
}

/* A cell outside the map with cells of the map left and right of it in its
 * row: F:/D: has no letter that leaves a cell alone (ToME's undefined
 * letters aside), so the writer makes it floor. */
static int hole(const qg_level *l, int x, int y)
{
    int left = 0, right = 0;
    qg_cell c;
    for (int i = 0; i < x && !left; i++)
        left = qg_level_cell(l, i, y, &c) == QG_OK && c.in_map;
    for (int i = x + 1; i < qg_level_width(l) && !right; i++)
        right = qg_level_cell(l, i, y, &c) == QG_OK && c.in_map;
    return left && right;
}

static int same_cells(const qg_level *a, const qg_level *b, char *what, size_t size)
{
    if (qg_level_width(a) != qg_level_width(b) || qg_level_height(a) != qg_level_height(b)) {
        snprintf(what, size, "size");
        return 0;
    }
    for (int y = 0; y < qg_level_height(a); y++)
        for (int x = 0; x < qg_level_width(a); x++) {
            qg_cell ca, cb;
            qg_level_cell(a, x, y, &ca);
            qg_level_cell(b, x, y, &cb);
            if (!ca.in_map && cb.in_map && hole(a, x, y))
                continue;
            int same = ca.in_map == cb.in_map && ca.glyph == cb.glyph &&
                       ca.feature == cb.feature && ca.cave_info == cb.cave_info &&
                       ca.special == cb.special && ca.mimic == cb.mimic && ca.mflag == cb.mflag;
            for (int s = 0; s < QG_SLOTS; s++)
                same &= ca.things[s].kind == cb.things[s].kind &&
                        ca.things[s].index == cb.things[s].index;
            if (!same) {
                snprintf(what, size, "cell (%d,%d): glyph %c/%c feature %d/%d info %u/%u "
                         "monster %d/%d special %d/%d", x, y, ca.glyph, cb.glyph, (int)ca.feature,
                         (int)cb.feature, (unsigned)ca.cave_info, (unsigned)cb.cave_info,
                         (int)ca.things[0].index, (int)cb.things[0].index, (int)ca.special,
                         (int)cb.special);
                return 0;
            }
        }
    int ax = -1, ay = -1, bx = -1, by = -1;
    qg_level_player_start(a, &ax, &ay);
    qg_level_player_start(b, &bx, &by);
    if (ax != bx || ay != by) {
        snprintf(what, size, "player start");
        return 0;
    }
    return 1;
}

static int count_cells(void *user, int x, int y, const qg_cell *cell)
{
    (*(int *)user)++;
    return 0;
}

/* Resolved level -> F:/D: -> resolved level: the same cells. */
static void level_round_trip(const char *path, qg_level *level, qg_fd_options *opt,
                             const qg_vars *vars, tally *t)
{
    qg_diags *diags = qg_diags_new();
    qg_write_options wo = {.vocab = opt->vocab};
    char *text = NULL;
    size_t len = 0;
    qg_status st = qg_fd_write_level(level, &wo, &text, &len, diags);
    qg_mapdef *def = NULL;
    qg_level *back = NULL;
    if (st == QG_OK) {
        opt->dialect = (qg_fd_dialect)qg_fd_dialect_from_name(
            qg_level_get_property(level, "dialect"));
        qg_fd_parse(path, text, len, opt, &def, diags);
    }
    if (def)
        qg_fd_resolve(def, opt, vars, &back, diags);
    char what[128] = "write failed";
    t->maps++;
    if (back && same_cells(level, back, what, sizeof what))
        t->same++;
    else
        fprintf(stderr, "# level round trip %s (quest %s): %s\n", path,
                qg_level_get_property(level, "quest"), what);
    free(text);
    qg_mapdef_free(def);
    qg_level_free(back);
    qg_diags_free(diags);
}

/* Quests through the hub (their letters come from q_pref.txt), and for
 * ToME every .map file on its own. */
static void corpus_level_round_trip(const char *variant)
{
    char rel[256];
    snprintf(rel, sizeof rel, "angband/%s/lib/edit", variant);
    const char *found = test_corpus_path_or_skip(rel);
    char dir[4096], path[4400];
    snprintf(dir, sizeof dir, "%s", found);
    qg_vocab *vocab = qg_vocab_new();
    qg_vocab_load_dir(vocab, dir, NULL);
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.edit_dir = dir;
    opt.vocab = vocab;
    qg_vars *vars = variable_set(1);
    tally t = {0, 0, 0, 0};
    snprintf(path, sizeof path, "%s/q_info.txt", dir);
    for (int quest = 0; quest < 100; quest++) {
        qg_level *level = NULL;
        qg_fd_options o = opt;
        qg_fd_load_quest(path, quest, &o, vars, &level, NULL);
        int cells = 0;
        if (level)
            qg_level_foreach(level, count_cells, &cells);
        if (cells)
            level_round_trip(path, level, &o, vars, &t);
        qg_level_free(level);
    }
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (!ends_with(e->d_name, ".map"))
            continue;
        qg_level *level = NULL;
        qg_fd_options o = opt;
        qg_fd_load_file(path, &o, vars, &level, NULL);
        if (level)
            level_round_trip(path, level, &o, vars, &t);
        qg_level_free(level);
    }
    closedir(d);
    qg_vars_free(vars);
    qg_vocab_free(vocab);
    printf("# level -> F:/D: -> level, %s: %d levels, %d the same cells\n", variant,
           t.maps, t.same);
    assert_true(t.maps > 0);
    assert_int_equal(t.same, t.maps);
}

static void corpus_levels_round_trip(void **state)
{
    (void)state;
    corpus_level_round_trip("zangband-2.3.0");
    corpus_level_round_trip("hengband-2.2.1");
    corpus_level_round_trip("tome-2.4");
}

static void zangband_corpus_round_trips(void **state)
{
    (void)state;
    corpus_round_trip("zangband-2.3.0");
}

static void hengband_corpus_round_trips(void **state)
{
    (void)state;
    corpus_round_trip("hengband-2.2.1");
}

static void tome_corpus_round_trips(void **state)
{
    (void)state;
    corpus_round_trip("tome-2.4");
}

static qg_mapdef *parse_text(const char *text, qg_fd_dialect dialect, const qg_vocab *vocab)
{
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.dialect = dialect;
    opt.vocab = vocab;
    qg_mapdef *def = NULL;
    qg_diags *diags = qg_diags_new();
    qg_fd_parse("fixture.txt", text, strlen(text), &opt, &def, diags);
    if (qg_diags_count_severity(diags, QG_ERROR))
        qg_diags_print(diags, stderr);
    assert_int_equal(qg_diags_count_severity(diags, QG_ERROR), 0);
    qg_diags_free(diags);
    return def;
}

static char *write_as(const qg_mapdef *def, qg_fd_dialect dialect, const qg_vocab *vocab,
                      qg_diags *diags)
{
    qg_write_options wo = {.vocab = vocab, .fd_dialect = dialect};
    char *text = NULL;
    size_t len;
    assert_int_equal(qg_fd_write(def, &wo, &text, &len, diags), QG_OK);
    return text;
}

static qg_vocab *tagged_vocab(void)
{
    qg_vocab *v = qg_vocab_new();
    qg_vocab_add(v, QG_VOCAB_FEATURE, 0, "NONE", "nothing");
    qg_vocab_add(v, QG_VOCAB_FEATURE, 1, "FLOOR", "open floor");
    qg_vocab_add(v, QG_VOCAB_FEATURE, 63, "PERMANENT", "permanent wall");
    qg_vocab_add(v, QG_VOCAB_FEATURE, 16, "TRAP_PIT", "pit");
    return v;
}

static void zangband_to_hengband_keeps_cells(void **state)
{
    (void)state;
    qg_vocab *vocab = tagged_vocab();
    const char *zangband =
        "Q:1:N:Fixture\n"
        "Q:1:Q:6:0:0:0:5:0:0:0:6\n"
        "?:[EQU $CLASS Warrior]\n"
        "F:a:1:8:44\n"
        "?:1\n"
        "F:#:63:8\n"
        "F:.:1:8\n"
        "F:^:1:8:0:0:0:0:*\n"
        "D:#####\n"
        "D:#.a^#\n"
        "D:#####\n"
        "P:1:1\n";
    qg_mapdef *z = parse_text(zangband, QG_FD_ZANGBAND, vocab);
    qg_diags *diags = qg_diags_new();
    char *text = write_as(z, QG_FD_HENGBAND, vocab, diags);
    assert_non_null(strstr(text, "F:#:PERMANENT:8\n"));
    assert_non_null(strstr(text, "F:^:FLOOR:8:0:0:0:0:*\n"));
    assert_non_null(strstr(text, "Q:1:Q:6:0:0:0:5:0:0:0:0:6\n"));
    assert_non_null(strstr(text, "?:[EQU $CLASS Warrior]\n"));
    qg_mapdef *h = parse_text(text, QG_FD_HENGBAND, vocab);
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.vocab = vocab;
    qg_vars *vars = qg_vars_new();
    qg_vars_set(vars, "CLASS", "Warrior");
    qg_level *lz, *lh;
    opt.dialect = QG_FD_ZANGBAND;
    assert_int_equal(qg_fd_resolve(z, &opt, vars, &lz, NULL), QG_OK);
    opt.dialect = QG_FD_HENGBAND;
    assert_int_equal(qg_fd_resolve(h, &opt, vars, &lh, NULL), QG_OK);
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 5; x++) {
            qg_cell a, b;
            qg_level_cell(lz, x, y, &a);
            qg_level_cell(lh, x, y, &b);
            assert_int_equal(a.glyph, b.glyph);
            assert_int_equal(a.feature, b.feature);
            assert_int_equal(a.cave_info, b.cave_info);
            assert_int_equal(a.things[QG_SLOT_MONSTER].index, b.things[QG_SLOT_MONSTER].index);
            assert_int_equal(a.things[QG_SLOT_TRAP].kind, b.things[QG_SLOT_TRAP].kind);
        }
    free(text);
    qg_level_free(lz);
    qg_level_free(lh);
    qg_vars_free(vars);
    qg_mapdef_free(z);
    qg_mapdef_free(h);
    qg_diags_free(diags);
    qg_vocab_free(vocab);
}

static void hengband_to_zangband_says_what_is_lost(void **state)
{
    (void)state;
    qg_vocab *vocab = tagged_vocab();
    const char *hengband =
        "Q:$1:N:Fixture\n"
        "Q:1:N:Japanese name\n"
        "Q:$1:Q:6:0:0:0:5:0:0:3:6\n"
        "F:a:FLOOR:8:c44\n"
        "F:!:FLOOR:8:0:!\n"
        "F:^:FLOOR:8:0:0:0:0:TRAP_PIT\n"
        "D:a!^\n";
    qg_mapdef *h = parse_text(hengband, QG_FD_HENGBAND, vocab);
    qg_diags *diags = qg_diags_new();
    char *text = write_as(h, QG_FD_ZANGBAND, vocab, diags);
    assert_non_null(strstr(text, "F:a:1:8:44\n"));
    assert_non_null(strstr(text, "Q:1:Q:6:0:0:0:5:0:0:6\n"));
    assert_null(strstr(text, "Japanese"));
    assert_true(test_diags_contain(diags, QG_WARNING, "zangband has no clones"));
    assert_true(test_diags_contain(diags, QG_WARNING, "no quest reward '!'"));
    assert_true(test_diags_contain(diags, QG_WARNING, "places only random traps"));
    assert_true(test_diags_contain(diags, QG_WARNING, "no quest dungeon field (dungeon 3"));
    assert_true(test_diags_contain(diags, QG_WARNING, "other language's Q: line"));
    const qg_diag *first = qg_diags_get(diags, 0);
    assert_string_equal(first->file, "fixture.txt");
    assert_true(first->line > 0);
    free(text);
    qg_mapdef_free(h);
    qg_diags_free(diags);
    qg_vocab_free(vocab);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zangband_corpus_round_trips),
        cmocka_unit_test(hengband_corpus_round_trips),
        cmocka_unit_test(tome_corpus_round_trips),
        cmocka_unit_test(corpus_levels_round_trip),
        cmocka_unit_test(zangband_to_hengband_keeps_cells),
        cmocka_unit_test(hengband_to_zangband_says_what_is_lost),
    };
    return cmocka_run_group_tests_name("fd_write", tests, NULL, NULL);
}

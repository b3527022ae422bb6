/* .des writer: levels written as .des and resolved again by the .des front
 * end and the Lua runtime keep their cells; F:/D: levels keep theirs in
 * Crawl's names through the mapping; the header order is the reviewers'. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"
#include "core/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Resolves a parsed map with seed at D:5 for a character of level xl. */
static qg_level *resolve_des_xl(qg_runtime *rt, qg_mapdef *def, unsigned long long seed,
                                int xl, qg_diags *diags)
{
    qg_level *level = NULL;
    if (qg_runtime_compile_map(rt, def, diags) != QG_OK)
        return NULL;
    qg_context context = {"D:5", xl, NULL};
    qg_runtime_resolve(rt, def, seed, &context, &level, diags);
    return level;
}

static qg_level *resolve_des(qg_runtime *rt, qg_mapdef *def, unsigned long long seed,
                             qg_diags *diags)
{
    return resolve_des_xl(rt, def, seed, 10, diags);
}

static qg_level *resolve_text_xl(const char *text, size_t len, unsigned long long seed,
                                 int xl, qg_diags *diags)
{
    qg_des_file *file = NULL;
    qg_des_options options = {0};
    qg_des_parse("written.des", text, len, &options, NULL, &file, diags);
    qg_level *level = NULL;
    qg_runtime *rt = file && qg_des_map_count(file) == 1 ? qg_runtime_new(NULL, diags) : NULL;
    if (rt && qg_runtime_add_file(rt, file, diags) == QG_OK)
        level = resolve_des_xl(rt, qg_runtime_map(rt, 0), seed, xl, diags);
    else
        qg_des_file_free(file);
    qg_runtime_free(rt);
    return level;
}

static qg_level *resolve_text(const char *text, size_t len, unsigned long long seed,
                              qg_diags *diags)
{
    return resolve_text_xl(text, len, seed, 10, diags);
}

/* Names compare as specs: whitespace runs (line breaks of continued lines
 * included) count as one space, and ends are trimmed as the parser does. */
static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int same_name(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    while (is_blank(*a))
        a++;
    while (is_blank(*b))
        b++;
    for (;;) {
        int ga = 0, gb = 0;
        while (is_blank(*a))
            a++, ga = 1;
        while (is_blank(*b))
            b++, gb = 1;
        if (!*a || !*b)
            return !*a && !*b;
        if (ga != gb || *a != *b)
            return 0;
        a++;
        b++;
    }
}

static int same_things(const qg_cell *a, const qg_cell *b)
{
    for (int s = 0; s < QG_SLOTS; s++) {
        const qg_thing *ta = &a->things[s], *tb = &b->things[s];
        if (ta->kind != tb->kind || ta->index != tb->index || !same_name(ta->name, tb->name))
            return 0;
    }
    return 1;
}

/* The same extent, features, things and masks; glyphs may differ. */
static int same_des_cells(const qg_level *a, const qg_level *b, char *what, size_t size)
{
    if (qg_level_width(a) != qg_level_width(b) || qg_level_height(a) != qg_level_height(b)) {
        snprintf(what, size, "size %dx%d / %dx%d", qg_level_width(a), qg_level_height(a),
                 qg_level_width(b), qg_level_height(b));
        return 0;
    }
    for (int y = 0; y < qg_level_height(a); y++)
        for (int x = 0; x < qg_level_width(a); x++) {
            qg_cell ca, cb;
            qg_level_cell(a, x, y, &ca);
            qg_level_cell(b, x, y, &cb);
            int same = ca.in_map == cb.in_map && ca.vault_mask == cb.vault_mask &&
                       same_name(ca.feature_name ? ca.feature_name : "",
                                 cb.feature_name ? cb.feature_name : "") &&
                       same_things(&ca, &cb);
            if (!same) {
                snprintf(what, size, "cell (%d,%d) '%c'/'%c': %s/%s mask %x/%x mons %s/%s item %s/%s",
                         x, y, ca.glyph, cb.glyph, ca.feature_name ? ca.feature_name : "-",
                         cb.feature_name ? cb.feature_name : "-", (unsigned)ca.vault_mask,
                         (unsigned)cb.vault_mask,
                         ca.things[0].name ? ca.things[0].name : "-",
                         cb.things[0].name ? cb.things[0].name : "-",
                         ca.things[1].name ? ca.things[1].name : "-",
                         cb.things[1].name ? cb.things[1].name : "-");
                return 0;
            }
        }
    return 1;
}

typedef struct tally {
    int maps, resolved, same, inexpressible, restated;
} tally;

/* Shop and item-list specs with weights inside ("a | w:4 b") that the
 * runtime's spec parser restates differently when they are read again. */
static int weighted_spec(const char *what)
{
    return strstr(what, " w:") && (strchr(what, ';') || strchr(what, '|'));
}

static void level_round_trip(const qg_level *level, unsigned long long seed, tally *t,
                             const char *name)
{
    char *text = NULL;
    size_t len = 0;
    qg_diags *diags = qg_diags_new();
    qg_level *back = NULL;
    if (qg_des_write_level(level, NULL, &text, &len, diags) == QG_OK)
        back = resolve_text(text, len, seed, diags);
    char what[300] = "not resolved";
    if (!back && qg_diags_count(diags))
        snprintf(what, sizeof what, "not resolved: %s",
                 qg_diags_get(diags, qg_diags_count(diags) - 1)->message);
    /* cells .des cannot hold: empty rows and columns, too many kinds */
    int inexpressible = test_diags_contain(diags, QG_WARNING, "are left out") ||
                        test_diags_contain(diags, QG_ERROR, "empty MAP line") ||
                        test_diags_contain(diags, QG_WARNING, "has no cell of the map") ||
                        test_diags_contain(diags, QG_ERROR, "more distinct cells");
    if (back && same_des_cells(level, back, what, sizeof what))
        t->same++;
    else if (inexpressible)
        t->inexpressible++;
    else if (back && weighted_spec(what))
        t->restated++;
    else
        fprintf(stderr, "# %s: %s\n", name, what);
    free(text);
    qg_level_free(back);
    qg_diags_free(diags);
}

static void corpus_file(const char *path, tally *t)
{
    qg_des_file *file = NULL;
    qg_des_options options = {0};
    qg_diags *diags = qg_diags_new();
    qg_des_load(path, &options, NULL, &file, diags);
    t->maps += file ? (int)qg_des_map_count(file) : 0;
    qg_runtime *rt = file ? qg_runtime_new(NULL, diags) : NULL;
    if (rt && qg_runtime_add_file(rt, file, diags) != QG_OK) {
        qg_runtime_free(rt);
        rt = NULL;
    } else if (!rt) {
        qg_des_file_free(file);
    }
    for (size_t i = 0; rt && i < qg_runtime_map_count(rt); i++) {
        qg_mapdef *def = qg_runtime_map(rt, i);
        qg_diags *map_diags = qg_diags_new();
        qg_level *level = resolve_des(rt, def, 1, map_diags);
        if (level) {
            t->resolved++;
            level_round_trip(level, 1, t, qg_mapdef_name(def));
        }
        qg_level_free(level);
        qg_diags_free(map_diags);
    }
    qg_runtime_free(rt);
    qg_diags_free(diags);
}

static void level_file(const char *path, void *t)
{
    corpus_file(path, t);
}

/* Every Crawl map that resolves (seed 1, D:5) and is written as .des
 * resolves again to the same cells. */
static void crawl_corpus_levels_round_trip(void **state)
{
    (void)state;
    const char *found = test_corpus_path_or_skip("crawl/des");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", found);
    tally t = {0, 0, 0, 0, 0};
    clock_t start = clock();
    test_walk_files(dir, ".des", level_file, &t);
    printf("# .des -> level -> .des -> level, crawl corpus: %d maps, %d resolve (seed 1, "
           "D:5), %d the same cells, %d with cells .des cannot hold, %d with weighted "
           "specs restated (%.1f s)\n",
           t.maps, t.resolved, t.same, t.inexpressible, t.restated,
           (double)(clock() - start) / CLOCKS_PER_SEC);
    assert_true(t.resolved > 0);
    assert_int_equal(t.same + t.inexpressible + t.restated, t.resolved);
}

/* The game's own maps with its Lua library (crawl-common's dat/dlua):
 * each resolved level written as .des resolves again to the same cells. */
static void installed_crawl_levels_round_trip(void **state)
{
    (void)state;
    const char *env = getenv("QG_CRAWL_DAT");
    const char *dat = env && *env ? env : "/usr/share/crawl/dat";
    char *dlua = qg_path_join(dat, "dlua");
    char *loadmaps = qg_path_join(dat, "dlua/loadmaps.lua");
    FILE *probe = fopen(loadmaps, "r");
    free(loadmaps);
    if (!probe) {
        free(dlua);
        test_skip("Crawl's Lua library %s/dlua is not installed (tools/test-deps)", dat);
        return;
    }
    fclose(probe);
    const char *paths[1] = {dlua};
    qg_runtime_options options = {paths, 1, 0, 0, NULL};
    qg_diags *diags = qg_diags_new();
    qg_runtime *rt = qg_runtime_new(&options, diags);
    qg_runtime *again = qg_runtime_new(&options, diags);
    assert_non_null(rt);
    assert_non_null(again);
    char **files;
    size_t n;
    assert_int_equal(qg_runtime_library_des_files(rt, &files, &n, diags), QG_OK);
    for (size_t i = 0; i < n; i++) {
        char *path = qg_path_join(dat, files[i]);
        qg_des_file *file = NULL;
        qg_des_load(path, NULL, NULL, &file, diags);
        if (file)
            qg_runtime_add_file(rt, file, diags);
        free(path);
        free(files[i]);
    }
    free(files);
    tally t = {0, 0, 0, 0, 0};
    clock_t start = clock();
    for (size_t i = 0; i < qg_runtime_map_count(rt); i++) {
        qg_mapdef *def = qg_runtime_map(rt, i);
        qg_diags_clear(diags);
        t.maps++;
        qg_level *level = resolve_des(rt, def, 1, diags);
        if (!level)
            continue;
        t.resolved++;
        char *text = NULL;
        size_t len = 0;
        qg_diags *wd = qg_diags_new();
        qg_level *back = NULL;
        qg_des_file *file = NULL;
        if (qg_des_write_level(level, NULL, &text, &len, wd) == QG_OK &&
            qg_des_parse("written.des", text, len, NULL, NULL, &file, wd) == QG_OK) {
            size_t at = qg_runtime_map_count(again);
            if (qg_runtime_add_file(again, file, wd) == QG_OK && qg_runtime_map_count(again) > at)
                back = resolve_des(again, qg_runtime_map(again, at), 1, wd);
        } else {
            qg_des_file_free(file);
        }
        char what[300] = "not resolved";
        int inexpressible = test_diags_contain(wd, QG_WARNING, "are left out") ||
                            test_diags_contain(wd, QG_ERROR, "empty MAP line") ||
                            test_diags_contain(wd, QG_ERROR, "more distinct cells");
        if (back && same_des_cells(level, back, what, sizeof what))
            t.same++;
        else if (inexpressible)
            t.inexpressible++;
        else if (back && weighted_spec(what))
            t.restated++;
        else
            fprintf(stderr, "# %s: %s\n", qg_mapdef_name(def), what);
        free(text);
        qg_level_free(back);
        qg_level_free(level);
        qg_diags_free(wd);
    }
    printf("# .des -> level -> .des -> level, crawl-common with dlua: %d maps, %d resolve "
           "(seed 1, D:5), %d the same cells, %d with cells .des cannot hold, %d with "
           "weighted specs restated (%.1f s)\n",
           t.maps, t.resolved, t.same, t.inexpressible, t.restated,
           (double)(clock() - start) / CLOCKS_PER_SEC);
    assert_true(t.resolved > 0);
    assert_true((t.same + t.inexpressible + t.restated) * 1000 >= t.resolved * 999);
    qg_runtime_free(rt);
    qg_runtime_free(again);
    qg_diags_free(diags);
    free(dlua);
}

/* ---- .des maps extracted as written ---------------------------------- */

typedef struct extract_tally {
    int maps, same;
} extract_tally;

static int same_chunks(const qg_mapdef *a, const qg_mapdef *b)
{
    for (int k = 0; k < QG_CHUNK_KINDS; k++) {
        const qg_des_chunk *ca = qg_des_map_chunk(a, (qg_chunk_kind)k);
        const qg_des_chunk *cb = qg_des_map_chunk(b, (qg_chunk_kind)k);
        if (!ca != !cb || (ca && (ca->len != cb->len || memcmp(ca->code, cb->code, ca->len))))
            return 0;
    }
    return 1;
}

static void extract_file(const char *path, extract_tally *t)
{
    char *data = NULL;
    size_t len = 0;
    if (qg_read_file(path, QG_MAX_TEXT_FILE, &data, &len, NULL) != QG_OK)
        return;
    qg_des_file *file = NULL;
    qg_des_parse(path, data, len, NULL, NULL, &file, NULL);
    for (size_t i = 0; file && i < qg_des_map_count(file); i++) {
        char *text = NULL;
        size_t n = 0;
        t->maps++;
        assert_int_equal(qg_des_extract_map(data, len, file, i, &text, &n), QG_OK);
        qg_des_file *one = NULL;
        qg_des_parse(path, text, n, NULL, NULL, &one, NULL);
        if (one && qg_des_map_count(one) >= 1 &&
            !strcmp(qg_mapdef_name(qg_des_map(one, 0)), qg_mapdef_name(qg_des_map(file, i))) &&
            same_chunks(qg_des_map(file, i), qg_des_map(one, 0)))
            t->same++;
        else
            fprintf(stderr, "# extract %s: %s differs\n", path,
                    qg_mapdef_name(qg_des_map(file, i)));
        qg_des_file_free(one);
        free(text);
    }
    qg_des_file_free(file);
    free(data);
}

static void extract_one(const char *path, void *t)
{
    extract_file(path, t);
}

/* .des -> .des without resolving: every corpus map, extracted on its own,
 * lowers to the same Lua chunks. */
static void crawl_corpus_maps_extract(void **state)
{
    (void)state;
    const char *found = test_corpus_path_or_skip("crawl/des");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", found);
    extract_tally t = {0, 0};
    test_walk_files(dir, ".des", extract_one, &t);
    printf("# .des -> .des (one map, as written), crawl corpus: %d maps, %d the same "
           "Lua chunks\n", t.maps, t.same);
    assert_true(t.maps > 0);
    assert_int_equal(t.same, t.maps);
}

/* ---- F:/D: levels as .des ---------------------------------------------- */

static int leading_empty_rows(const qg_level *level)
{
    for (int y = 0; y < qg_level_height(level); y++)
        for (int x = 0; x < qg_level_width(level); x++) {
            qg_cell c;
            qg_level_cell(level, x, y, &c);
            if (c.in_map)
                return y;
        }
    return 0;
}

static const char *crawl_name(const qg_mapping *m, qg_vocab_kind kind, int32_t index)
{
    const qg_mapping_entry *e = qg_mapping_by_index(m, kind, index);
    return e && e->crawl_name[0] ? e->crawl_name : NULL;
}

/* Random in Crawl: the runtime keeps KMONS 0/8/9 and KITEM any/star_item
 * as the spec's text. */
static int random_thing(const qg_thing *t, const char *const *specs)
{
    if (t->kind == QG_THING_RANDOM)
        return 1;
    for (int i = 0; t->kind == QG_THING_NAME && specs[i]; i++)
        if (strcmp(t->name, specs[i]) == 0)
            return 1;
    return 0;
}

/* A cell of the F:/D: level and the same cell of its .des resolution
 * mean the same in Crawl's terms (the mapping's names). */
static int same_meaning(const qg_mapping *m, const qg_cell *f, const qg_cell *d)
{
    if (f->in_map != d->in_map)
        return 0;
    if (!f->in_map)
        return 1;
    const char *feature = crawl_name(m, QG_VOCAB_FEATURE, f->feature);
    if (strcmp(feature ? feature : "floor", d->feature_name ? d->feature_name : ""))
        return 0;
    const qg_thing *fm = &f->things[QG_SLOT_MONSTER], *dm = &d->things[QG_SLOT_MONSTER];
    if (fm->kind == QG_THING_INDEX && crawl_name(m, QG_VOCAB_MONSTER, fm->index) &&
        (dm->kind != QG_THING_NAME ||
         strcmp(dm->name, crawl_name(m, QG_VOCAB_MONSTER, fm->index))))
        return 0;
    static const char *const random_monsters[] = {"0", "8", "9", NULL};
    static const char *const random_items[] = {"any", "star_item", NULL};
    if (fm->kind == QG_THING_RANDOM && !random_thing(dm, random_monsters))
        return 0;
    const qg_thing *fo = &f->things[QG_SLOT_OBJECT], *doj = &d->things[QG_SLOT_OBJECT];
    if (fo->kind == QG_THING_RANDOM && !random_thing(doj, random_items))
        return 0;
    if (fo->kind == QG_THING_INDEX && crawl_name(m, QG_VOCAB_OBJECT, fo->index) &&
        f->things[QG_SLOT_ARTIFACT].kind == QG_THING_NONE &&
        (doj->kind != QG_THING_NAME || strcmp(doj->name, crawl_name(m, QG_VOCAB_OBJECT, fo->index))))
        return 0;
    return 1;
}

typedef struct fd_tally {
    int levels, same, too_big;
} fd_tally;

static void fd_level_as_des(const qg_level *level, const qg_mapping *mapping, fd_tally *t,
                            const char *what)
{
    qg_write_options wo = {.mapping = mapping};
    char *text = NULL;
    size_t len = 0;
    qg_diags *diags = qg_diags_new();
    t->levels++;
    qg_status st = qg_des_write_level(level, &wo, &text, &len, diags);
    /* Crawl's maps are at most 80 columns by 70 rows: a larger level is
     * refused, saying so, unless written for questgrid (des_oversize) */
    if (st == QG_ERR_LIMIT && (qg_level_width(level) > 80 || qg_level_height(level) > 70)) {
        assert_true(test_diags_contain(diags, QG_ERROR, "larger than Crawl's 80 x 70"));
        t->too_big++;
        qg_diags_free(diags);
        return;
    }
    assert_int_equal(st, QG_OK);
    qg_level *back = resolve_text(text, len, 1, diags);
    if (!back) {
        /* Crawl's maps are at most 80 columns by 70 rows */
        if (test_diags_contain(diags, QG_ERROR, "80") || qg_level_width(level) > 80 ||
            qg_level_height(level) > 70)
            t->too_big++;
        else {
            qg_diags_print(diags, stderr);
            fprintf(stderr, "# %s: not resolved\n", what);
        }
    } else {
        int top = leading_empty_rows(level), same = 1;
        for (int y = top; y < qg_level_height(level) && same; y++)
            for (int x = 0; x < qg_level_width(level) && same; x++) {
                qg_cell f, d;
                qg_level_cell(level, x, y, &f);
                if (qg_level_cell(back, x, y - top, &d) != QG_OK)
                    same = !f.in_map;
                else
                    same = same_meaning(mapping, &f, &d);
                if (!same)
                    fprintf(stderr, "# %s: cell (%d,%d) '%c' feature %d -> %s; monster %d:%d -> "
                            "%d:%s; object %d:%d -> %d:%s\n", what, x, y, f.glyph, (int)f.feature,
                            d.feature_name ? d.feature_name : "-", f.things[0].kind,
                            (int)f.things[0].index, d.things[0].kind,
                            d.things[0].name ? d.things[0].name : "-", f.things[1].kind,
                            (int)f.things[1].index, d.things[1].kind,
                            d.things[1].name ? d.things[1].name : "-");
            }
        t->same += same;
    }
    free(text);
    qg_level_free(back);
    qg_diags_free(diags);
}

static void fd_quests_as_des(const char *dir, const char *label)
{
    qg_mapping *mapping = qg_mapping_new();
    qg_diags *diags = qg_diags_new();
    char path[4400];
    snprintf(path, sizeof path, "%s/lib/edit/mapping.txt", test_srcdir());
    assert_int_equal(qg_mapping_load_file(mapping, path, diags), QG_OK);
    qg_vocab *vocab = qg_vocab_new();
    qg_vocab_load_dir(vocab, dir, NULL);
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.edit_dir = dir;
    opt.vocab = vocab;
    qg_vars *vars = qg_vars_new();
    fd_tally t = {0, 0, 0};
    snprintf(path, sizeof path, "%s/q_info.txt", dir);
    for (int quest = 1; quest < 100; quest++) {
        qg_level *level = NULL;
        qg_fd_load_quest(path, quest, &opt, vars, &level, NULL);
        if (level && qg_level_width(level) > 1) {
            char what[64];
            snprintf(what, sizeof what, "%s quest %d", label, quest);
            fd_level_as_des(level, mapping, &t, what);
        }
        qg_level_free(level);
    }
    printf("# F:/D: -> .des -> level, %s: %d quest levels, %d the same cells in Crawl's "
           "names, %d larger than Crawl's 80x70\n", label, t.levels, t.same, t.too_big);
    assert_true(t.levels > 0);
    assert_int_equal(t.same + t.too_big, t.levels);
    qg_vars_free(vars);
    qg_vocab_free(vocab);
    qg_mapping_free(mapping);
    qg_diags_free(diags);
}

static void bundled_quests_as_des(void **state)
{
    (void)state;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/lib/edit", test_srcdir());
    fd_quests_as_des(dir, "bundled");
}

static void zangband_quests_as_des(void **state)
{
    (void)state;
    const char *found = test_corpus_path_or_skip("angband/zangband-2.3.0/lib/edit");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", found);
    fd_quests_as_des(dir, "zangband-2.3.0");
}

/* The header in the order reviewers ask for, and every directive kind. */
static void header_follows_review_order(void **state)
{
    (void)state;
    qg_level *l = qg_level_new(12, 3);
    const char *row = "xx.......@xx";
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 12; x++) {
            qg_level_set_glyph(l, x, y, (unsigned char)row[x]);
            qg_level_set_feature(l, x, y, -1, row[x] == 'x' ? "rock_wall" : "floor");
            qg_level_set_vault_mask(l, x, y, QG_MASK_VAULT | QG_MASK_OPAQUE |
                                                 (row[x] == '@' ? QG_MASK_EXIT : 0));
        }
    static const char *const monsters[] = {"orc", "goblin", "kobold", "rat", "bat",
                                           "jackal", "hobgoblin", "ogre"};
    for (int i = 0; i < 8; i++)
        qg_level_set_thing(l, 2 + i % 7, 1 + i / 7, QG_SLOT_MONSTER, QG_THING_NAME, 0,
                           monsters[i]);
    qg_level_set_thing(l, 2, 0, QG_SLOT_OBJECT, QG_THING_NAME, 0, "potion of curing");
    qg_level_set_thing(l, 3, 0, QG_SLOT_OBJECT, QG_THING_NAME, 0, "scroll of fog");
    qg_level_set_thing(l, 3, 0, QG_SLOT_MONSTER, QG_THING_NAME, 0, "orc priest");
    qg_level_set_feature(l, 4, 0, -1, "fountain_sparkling");
    qg_level_set_feature(l, 5, 0, -1, "lava");
    qg_level_set_thing(l, 5, 0, QG_SLOT_MONSTER, QG_THING_NAME, 0, "fire elemental");
    qg_level_set_vault_mask(l, 6, 0, QG_MASK_VAULT | QG_MASK_OPAQUE | QG_MASK_NO_MONSTER_GEN);
    qg_level_add_marker(l, 7, 0, "lua:fog_machine { }");
    qg_level_set_name(l, "review order");
    qg_level_add_property(l, "tags", "transparent_not uniq_test");
    qg_level_add_property(l, "depth", "D:2-5");
    qg_level_add_property(l, "orient", "float");
    char *text;
    size_t len;
    qg_diags *diags = qg_diags_new();
    assert_int_equal(qg_des_write_level(l, NULL, &text, &len, diags), QG_OK);
    static const char *const order[] = {"NAME: review_order", "TAGS:", "DEPTH: D:2-5",
                                        "ORIENT: float", "MONS: ", "KMONS:", "ITEM: ",
                                        "KITEM:", "KFEAT:", "KMASK:", "MARKER:", "\nMAP\n",
                                        "ENDMAP"};
    const char *at = text;
    for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
        const char *found = strstr(at, order[i]);
        if (!found)
            fail_msg("'%s' missing or out of order in:\n%s", order[i], text);
        at = found;
    }
    assert_non_null(strstr(text, "KFEAT: "));
    assert_non_null(strstr(text, " = lava\n"));
    assert_non_null(strstr(text, "= no_monster_gen\n"));
    qg_level *back = resolve_text(text, len, 3, diags);
    char what[200] = "";
    if (!back)
        qg_diags_print(diags, stderr);
    assert_non_null(back);
    int same = same_des_cells(l, back, what, sizeof what);
    if (!same)
        fprintf(stderr, "# %s\n%s", what, text);
    assert_true(same);
    free(text);
    qg_level_free(back);
    qg_level_free(l);
    qg_diags_free(diags);
}

/* ?: conditions become Lua over the same variables: the F:/D: file and its
 * .des resolve to the same cells for every value of $LEVEL (you.xl()). */
static void fd_conditions_become_lua(void **state)
{
    (void)state;
    char path[4400];
    snprintf(path, sizeof path, "%s/lib/edit/mapping.txt", test_srcdir());
    qg_mapping *mapping = qg_mapping_new();
    assert_int_equal(qg_mapping_load_file(mapping, path, NULL), QG_OK);
    snprintf(path, sizeof path, "%s/tests/convert/levels.txt", test_srcdir());
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.dialect = QG_FD_ZANGBAND;
    qg_mapdef *def = NULL;
    qg_diags *diags = qg_diags_new();
    assert_int_equal(qg_fd_read(path, &opt, &def, diags), QG_OK);
    qg_write_options wo = {.mapping = mapping};
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(qg_des_write_fd(def, &wo, &text, &len, diags), QG_OK);
    assert_non_null(strstr(text, ": if (qg_fd_call(\"LEQ\", qg_fd_var(\"LEVEL\"), \"10\")) ~= \"0\" then\n"));
    static const int levels[] = {1, 5, 9, 10, 11, 20, 25};
    for (size_t i = 0; i < sizeof levels / sizeof *levels; i++) {
        qg_vars *vars = qg_vars_new();
        qg_vars_set_int(vars, "LEVEL", levels[i]);
        qg_level *fd = NULL;
        assert_int_equal(qg_fd_resolve(def, &opt, vars, &fd, diags), QG_OK);
        qg_level *des = resolve_text_xl(text, len, 1, levels[i], diags);
        if (!des)
            qg_diags_print(diags, stderr);
        assert_non_null(des);
        for (int y = 0; y < qg_level_height(fd); y++)
            for (int x = 0; x < qg_level_width(fd); x++) {
                qg_cell f, d;
                qg_level_cell(fd, x, y, &f);
                assert_int_equal(qg_level_cell(des, x, y, &d), QG_OK);
                if (!same_meaning(mapping, &f, &d))
                    fail_msg("level %d: cell (%d,%d) differs", levels[i], x, y);
            }
        qg_level_free(fd);
        qg_level_free(des);
        qg_vars_free(vars);
    }
    free(text);
    qg_mapdef_free(def);
    qg_mapping_free(mapping);
    qg_diags_free(diags);
}

/* Each dialect's ?: functions and comparisons (from its table) mean the
 * same in the .des prelude's Lua as in questgrid's evaluator. */
static void fd_conditions_follow_the_dialect(void **state)
{
    (void)state;
    static const char classic[] =
        "F:.:1:8\nF:a:1:8\nF:b:1:8\n"
        "?:[EQU [MOD $LEVEL 3] 0]\nF:a:1:8:44\n"
        "?:[OR [LEQ $LEVEL 5] [GEQ $LEVEL 20]]\nF:b:1:8:46\n"
        "?:[EQU $LEVEL 9 10]\nF:.:6:8\n"
        "?:1\nD:.a.\nD:.b.\n";
    /* FrogComposband's room templates: L: letters, M: rows, NEQ */
    static const char frog[] =
        "L:.:1\nL:a:1\nL:b:1\n"
        "?:[EQU [MOD $LEVEL 3] 0]\nL:a:1:MON(44)\n"
        "?:[NEQ $LEVEL 5 20]\nL:b:1:MON(46)\n"
        "?:[EQU $LEVEL 9 10]\nL:.:6\n"
        "?:1\nM:.a.\nM:.b.\n";
    static const qg_fd_dialect dialects[] = {QG_FD_ZANGBAND, QG_FD_HENGBAND, QG_FD_TOME,
                                             QG_FD_POSCHENGBAND, QG_FD_FROGCOMPOSBAND};
    static const int levels[] = {1, 3, 5, 9, 10, 20, 21};
    qg_diags *diags = qg_diags_new();
    char path[4400];
    snprintf(path, sizeof path, "%s/lib/edit/mapping.txt", test_srcdir());
    qg_mapping *mapping = qg_mapping_new();
    assert_int_equal(qg_mapping_load_file(mapping, path, NULL), QG_OK);
    qg_write_options wo = {.mapping = mapping};
    for (size_t k = 0; k < sizeof dialects / sizeof *dialects; k++) {
        qg_fd_options opt;
        qg_fd_options_init(&opt);
        opt.dialect = dialects[k];
        qg_mapdef *def = NULL;
        const char *text = dialects[k] == QG_FD_FROGCOMPOSBAND ? frog : classic;
        qg_fd_parse("conditions.txt", text, strlen(text), &opt, &def, diags);
        assert_non_null(def);
        char *des_text = NULL;
        size_t len = 0;
        assert_int_equal(qg_des_write_fd(def, &wo, &des_text, &len, diags), QG_OK);
        for (size_t i = 0; i < sizeof levels / sizeof *levels; i++) {
            qg_vars *vars = qg_vars_new();
            qg_vars_set_int(vars, "LEVEL", levels[i]);
            qg_level *fd = NULL;
            assert_int_equal(qg_fd_resolve(def, &opt, vars, &fd, diags), QG_OK);
            qg_level *des = resolve_text_xl(des_text, len, 1, levels[i], diags);
            assert_non_null(des);
            for (int y = 0; y < 2; y++)
                for (int x = 0; x < 3; x++) {
                    qg_cell f, d;
                    qg_level_cell(fd, x, y, &f);
                    qg_level_cell(des, x, y, &d);
                    int f_monster = f.things[QG_SLOT_MONSTER].kind != QG_THING_NONE;
                    int d_monster = d.things[QG_SLOT_MONSTER].kind != QG_THING_NONE;
                    if (f_monster != d_monster || (f.feature == 6) != (d.feature_name &&
                                                                        strstr(d.feature_name, "stair")))
                        fail_msg("%s, level %d: cell (%d,%d) differs",
                                 qg_fd_dialect_name(dialects[k]), levels[i], x, y);
                }
            qg_level_free(fd);
            qg_level_free(des);
            qg_vars_free(vars);
        }
        free(des_text);
        qg_mapdef_free(def);
    }
    qg_mapping_free(mapping);
    qg_diags_free(diags);
}

/* What one .des MAP cannot hold is refused with the line, not guessed. */
static void fd_conditional_rows_are_refused(void **state)
{
    (void)state;
    const char *text = "F:a:1:8\n?:[EQU $CLASS Mage]\nD:aaa\n?:1\nD:aa\n";
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.dialect = QG_FD_ZANGBAND;
    qg_mapdef *def = NULL;
    qg_diags *diags = qg_diags_new();
    qg_fd_parse("rows.txt", text, strlen(text), &opt, &def, diags);
    char *out = NULL;
    size_t len;
    assert_int_equal(qg_des_write_fd(def, NULL, &out, &len, diags), QG_ERR_INVALID);
    assert_null(out);
    assert_true(test_diags_contain(diags, QG_ERROR, "D: rows under a ?: condition"));
    assert_int_equal(qg_diags_get(diags, qg_diags_count(diags) - 1)->line, 3);
    qg_mapdef_free(def);
    qg_diags_free(diags);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(crawl_corpus_levels_round_trip),
        cmocka_unit_test(installed_crawl_levels_round_trip),
        cmocka_unit_test(crawl_corpus_maps_extract),
        cmocka_unit_test(bundled_quests_as_des),
        cmocka_unit_test(zangband_quests_as_des),
        cmocka_unit_test(header_follows_review_order),
        cmocka_unit_test(fd_conditions_become_lua),
        cmocka_unit_test(fd_conditions_follow_the_dialect),
        cmocka_unit_test(fd_conditional_rows_are_refused),
    };
    return cmocka_run_group_tests_name("des_write", tests, NULL, NULL);
}

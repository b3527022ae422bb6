/* .des writer: levels written as .des and resolved again by the .des front
 * end and the Lua runtime keep their cells; F:/D: levels keep theirs in
 * Crawl's names through the mapping; the header order is the reviewers'. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"
#include "lua/run.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Resolves map index of a parsed .des text with seed in the given runtime. */
static qg_level *resolve_des(qg_runtime *rt, qg_mapdef *def, unsigned long long seed,
                             qg_diags *diags)
{
    lrt_chunks chunks;
    for (int k = 0; k < QG_CHUNK_KINDS; k++)
        chunks.chunk[k] = qg_des_map_chunk(def, (qg_chunk_kind)k);
    qg_level *level = NULL;
    if (lrt_compile_chunks(rt, def, &chunks, NULL, diags) != QG_OK)
        return NULL;
    qg_context context = {"D:5", 10, NULL};
    lrt_resolve_chunks(rt, def, &chunks, seed, &context, &level, diags);
    return level;
}

static qg_level *resolve_text(const char *text, size_t len, unsigned long long seed,
                              qg_diags *diags)
{
    qg_des_file *file = NULL;
    qg_des_options options = {0};
    qg_des_parse("written.des", text, len, &options, NULL, &file, diags);
    qg_level *level = NULL;
    qg_runtime *rt = file && qg_des_map_count(file) == 1 ? qg_runtime_new(NULL, diags) : NULL;
    if (rt)
        level = resolve_des(rt, qg_des_map(file, 0), seed, diags);
    qg_runtime_free(rt);
    qg_des_file_free(file);
    return level;
}

static int same_things(const qg_cell *a, const qg_cell *b)
{
    for (int s = 0; s < QG_SLOTS; s++) {
        const qg_thing *ta = &a->things[s], *tb = &b->things[s];
        if (ta->kind != tb->kind || ta->index != tb->index ||
            !(ta->name == tb->name || (ta->name && tb->name && !strcmp(ta->name, tb->name))))
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
                       !strcmp(ca.feature_name ? ca.feature_name : "",
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
    int maps, resolved, same, inexpressible;
} tally;

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
                        test_diags_contain(diags, QG_ERROR, "more distinct cells");
    if (back && same_des_cells(level, back, what, sizeof what))
        t->same++;
    else if (inexpressible)
        t->inexpressible++;
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
    qg_runtime *rt = file ? qg_runtime_new(NULL, diags) : NULL;
    for (size_t i = 0; rt && i < qg_des_map_count(file); i++) {
        qg_mapdef *def = qg_des_map(file, i);
        t->maps++;
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
    qg_des_file_free(file);
    qg_diags_free(diags);
}

static void walk(const char *dir, tally *t)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n = strlen(e->d_name);
        if (n > 4 && strcmp(e->d_name + n - 4, ".des") == 0)
            corpus_file(path, t);
        else if (!strchr(e->d_name, '.'))
            walk(path, t);
    }
    closedir(d);
}

/* Every Crawl map that resolves (seed 1, D:5) and is written as .des
 * resolves again to the same cells. */
static void crawl_corpus_levels_round_trip(void **state)
{
    (void)state;
    const char *found = test_corpus_path_or_skip("crawl/des");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", found);
    tally t = {0, 0, 0, 0};
    clock_t start = clock();
    walk(dir, &t);
    printf("# .des -> level -> .des -> level, crawl corpus: %d maps, %d resolve (seed 1, "
           "D:5), %d the same cells, %d with cells .des cannot hold (%.1f s)\n",
           t.maps, t.resolved, t.same, t.inexpressible,
           (double)(clock() - start) / CLOCKS_PER_SEC);
    assert_true(t.resolved > 0);
    assert_int_equal(t.same + t.inexpressible, t.resolved);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(crawl_corpus_levels_round_trip),
    };
    return cmocka_run_group_tests_name("des_write", tests, NULL, NULL);
}

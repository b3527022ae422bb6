/* Conformance: every map of Crawl's .des corpus lowers to exactly the
 * chunks Crawl's own level compiler dumps (-dump-maps), map for map. The
 * files are read in sorted order as one session, as Crawl loads them. */
#define _GNU_SOURCE
#include "testutil.h"
#include "core/buf.h"
#include "core/file.h"
#include "des/scan.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAP_SEPARATOR "\n----------------------------------------\nMap: "

typedef struct paths {
    char **items;
    size_t count, cap;
} paths;

static int cmp_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Relative paths of the .des files (every file when every_name) under
 * root/rel, recursively. */
static void collect_all(const char *root, const char *rel, int every_name, paths *out)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", root, rel);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char sub[4096], full[8192];
        snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
        snprintf(full, sizeof full, "%s/%s", root, sub);
        struct stat st;
        assert_int_equal(stat(full, &st), 0);
        size_t n = strlen(sub);
        if (S_ISDIR(st.st_mode)) {
            collect_all(root, sub, every_name, out);
        } else if (every_name || (n > 4 && strcmp(sub + n - 4, ".des") == 0)) {
            char **slot = QG_PUSH(out->items, out->count, out->cap);
            assert_non_null(slot);
            *slot = qg_strdup(sub);
        }
    }
    closedir(d);
}

static void collect(const char *root, const char *rel, paths *out)
{
    collect_all(root, rel, 0, out);
}

/* The expected dump of one file, split into its maps' texts. */
static size_t split_maps(char *text, char ***maps)
{
    size_t count = 0, cap = 0;
    *maps = NULL;
    char *p = text;
    while ((p = strstr(p, MAP_SEPARATOR)) != NULL) {
        char **slot = QG_PUSH(*maps, count, cap);
        assert_non_null(slot);
        *slot = p;
        p += 1;
    }
    return count;
}

static char *dump_one(const qg_mapdef *def)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    assert_int_equal(qg_des_dump_map(def, out), QG_OK);
    fclose(out);
    return text;
}

static void corpus_maps_match_crawl_dump(void **state)
{
    (void)state;
    const char *root = test_corpus_path_or_skip("crawl/des");
    char des_root[4096], dump_root[4200];
    snprintf(des_root, sizeof des_root, "%s", root);
    snprintf(dump_root, sizeof dump_root, "%s/../dump", des_root);
    paths files = {0};
    collect(des_root, "", &files);
    qsort(files.items, files.count, sizeof *files.items, cmp_path);
    assert_int_equal(files.count, 144);

    qg_des_names *names = qg_des_names_new();
    qg_diags *diags = qg_diags_new();
    size_t maps = 0, identical = 0;
    for (size_t i = 0; i < files.count; i++) {
        char path[8192], expect_path[8400];
        snprintf(path, sizeof path, "%s/%s", des_root, files.items[i]);
        snprintf(expect_path, sizeof expect_path, "%s/%.*s.dump", dump_root,
                 (int)strlen(files.items[i]) - 4, files.items[i]);
        qg_des_file *file;
        assert_int_equal(qg_des_load(path, NULL, names, &file, diags), QG_OK);
        char *expect;
        size_t expect_len;
        assert_int_equal(qg_read_file(expect_path, QG_MAX_TEXT_FILE, &expect, &expect_len,
                                      NULL), QG_OK);
        char **want;
        size_t want_count = split_maps(expect, &want);
        if (want_count != qg_des_map_count(file))
            fprintf(stderr, "%s: %zu maps, expected %zu\n", files.items[i],
                    qg_des_map_count(file), want_count);
        for (size_t m = 0; m < qg_des_map_count(file); m++) {
            char *got = dump_one(qg_des_map(file, m));
            size_t want_len = m < want_count
                                  ? (m + 1 < want_count ? (size_t)(want[m + 1] - want[m])
                                                        : strlen(want[m]))
                                  : 0;
            maps++;
            if (m < want_count && strlen(got) == want_len &&
                memcmp(got, want[m], want_len) == 0)
                identical++;
            else
                fprintf(stderr, "%s: map %s differs\n", files.items[i],
                        qg_mapdef_name(qg_des_map(file, m)));
            free(got);
        }
        free(want);
        free(expect);
        qg_des_file_free(file);
        free(files.items[i]);
    }
    printf("# %zu of %zu corpus maps identical to Crawl's dump\n", identical, maps);
    assert_int_equal(maps, 6264);
    assert_int_equal(identical, maps);
    assert_int_equal(qg_diags_count_severity(diags, QG_ERROR), 0);
    free(files.items);
    qg_diags_free(diags);
    qg_des_names_free(names);
}

/* The global prelude and the scanner state a file leaves, read by a
 * parse and by a skim from the same state. */
static void skim_matches_parse(const char *path, const char *text, size_t len, int state,
                               size_t *files)
{
    qg_des_names *a = qg_des_names_new(), *b = qg_des_names_new();
    des_names_set_state(a, state);
    des_names_set_state(b, state);
    qg_diags *ignored = qg_diags_new();
    qg_des_file *parsed = NULL, *skimmed = NULL;
    qg_des_parse(path, text, len, NULL, a, &parsed, ignored);
    des_skim(path, text, len, b, &skimmed);
    assert_non_null(parsed);
    assert_non_null(skimmed);
    static const qg_des_chunk none = {"", 0, 0, NULL};
    const qg_des_chunk *x = qg_des_global_prelude(parsed), *y = qg_des_global_prelude(skimmed);
    x = x ? x : &none;
    y = y ? y : &none;
    if (des_names_state(a) != des_names_state(b) || x->len != y->len ||
        (x->len && (x->first_line != y->first_line || memcmp(x->code, y->code, x->len))))
        fail_msg("%s from state %d: the skim differs from the parse", path, state);
    assert_int_equal(qg_des_map_count(skimmed), 0);
    qg_des_file_free(parsed);
    qg_des_file_free(skimmed);
    qg_diags_free(ignored);
    qg_des_names_free(a);
    qg_des_names_free(b);
    (*files)++;
}

/* Every file of a directory tree from every scanner state. */
static void skim_tree(const char *root, int every_name, size_t *files)
{
    paths found = {0};
    collect_all(root, "", every_name, &found);
    for (size_t i = 0; i < found.count; i++) {
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", root, found.items[i]);
        char *text;
        size_t len;
        assert_int_equal(qg_read_file(path, QG_MAX_TEXT_FILE, &text, &len, NULL), QG_OK);
        for (int state = 0; state < 8; state++)
            skim_matches_parse(path, text, len, state, files);
        free(text);
        free(found.items[i]);
    }
    free(found.items);
}

/* A compile skims every .des file for what the files after it need (its
 * prelude, the scanner state it leaves): the skim must read them as the
 * parse does, in hostile files (the fuzzer's corpus), the tests' own and
 * both Crawls' corpora, from whatever state the file before left. */
static void a_skim_reads_what_a_parse_reads(void **state)
{
    (void)state;
    size_t files = 0;
    char root[4096];
    snprintf(root, sizeof root, "%s/tools/fuzz/corpus/des", test_srcdir());
    skim_tree(root, 1, &files);
    snprintf(root, sizeof root, "%s/tests/data", test_srcdir());
    skim_tree(root, 0, &files);
    struct stat sb;
    if (stat("/usr/share/crawl/dat/des", &sb) == 0)
        skim_tree("/usr/share/crawl/dat/des", 0, &files);
    const char *corpus = test_corpus_dir();
    snprintf(root, sizeof root, "%s/crawl/des", corpus ? corpus : "");
    if (corpus && stat(root, &sb) == 0)
        skim_tree(root, 0, &files);
    printf("# %zu files and states skimmed as parsed\n", files);
    assert_true(files > 300 * 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus_maps_match_crawl_dump),
        cmocka_unit_test(a_skim_reads_what_a_parse_reads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Conformance: every map of Crawl's .des corpus lowers to exactly the
 * chunks Crawl's own level compiler dumps (-dump-maps), map for map. The
 * files are read in sorted order as one session, as Crawl loads them. */
#define _GNU_SOURCE
#include "testutil.h"
#include "core/buf.h"
#include "core/file.h"

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

/* Relative paths of the .des files under root/rel, recursively. */
static void collect(const char *root, const char *rel, paths *out)
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
            collect(root, sub, out);
        } else if (n > 4 && strcmp(sub + n - 4, ".des") == 0) {
            char **slot = QG_PUSH(out->items, out->count, out->cap);
            assert_non_null(slot);
            *slot = qg_strdup(sub);
        }
    }
    closedir(d);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus_maps_match_crawl_dump),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

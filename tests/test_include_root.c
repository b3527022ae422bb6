/* %: includes stay inside the data root (the edit directory and the top
 * file's own directory) unless allow_include_outside is set: every way a
 * hostile file could name a file elsewhere is refused with an error on
 * the including line, and nothing of the file outside reaches a
 * diagnostic. Layout, under the test's temporary directory:
 *   outside/secret.txt          a file no include may read
 *   root/edit/                  the edit directory
 *     common.txt, sub/walls.txt, sub/child.txt (includes ../common.txt)
 *     in_link.txt -> sub/walls.txt, out_link.txt -> ../../outside/secret.txt
 *     out_dir -> ../../outside
 *   root/edit2/x.txt            a sibling whose name extends "edit"
 *   root/quests/                a top file's directory apart from edit/ */
#define _GNU_SOURCE
#include "testutil.h"
#include "questgrid/fd.h"
#include "core/path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SECRET "SECRET-LINE-4711"

static char base[512], edit[600];

static void put(const char *relative, const char *text)
{
    char path[800];
    snprintf(path, sizeof path, "%s/%s", base, relative);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void link_to(const char *target, const char *relative)
{
    char path[800];
    snprintf(path, sizeof path, "%s/%s", base, relative);
    unlink(path);
    assert_int_equal(symlink(target, path), 0);
}

static void dir(const char *relative)
{
    char path[800];
    snprintf(path, sizeof path, "%s/%s", base, relative);
    mkdir(path, 0700);
}

static int make_tree(void **state)
{
    (void)state;
    snprintf(base, sizeof base, "%s", test_temp_dir());
    snprintf(edit, sizeof edit, "%s/root/edit", base);
    dir("outside");
    dir("root");
    dir("root/edit");
    dir("root/edit/sub");
    dir("root/edit2");
    dir("root/quests");
    put("outside/secret.txt", SECRET " is no record\nF:s:9:8\n");
    put("root/edit/common.txt", "F:c:2:8\n");
    put("root/edit/sub/walls.txt", "F:#:3:8\n");
    put("root/edit/sub/child.txt", "%:../common.txt\nF:.:1:8\nD:.c\n");
    put("root/edit2/x.txt", SECRET "\n");
    link_to("sub/walls.txt", "root/edit/in_link.txt");
    link_to("../../outside/secret.txt", "root/edit/out_link.txt");
    link_to("../../outside", "root/edit/out_dir");
    return 0;
}

static qg_status read_top(const char *where, const char *text, int anywhere, qg_mapdef **def,
                          qg_diags *diags, char *top, size_t size)
{
    snprintf(top, size, "%s/%s", base, where);
    FILE *f = fopen(top, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.edit_dir = edit;
    opt.allow_include_outside = anywhere;
    return qg_fd_read(top, &opt, def, diags);
}

/* No diagnostic shows a line of a file outside the root: each is on the
 * top file, and no text of the secret file is in any. */
static void assert_nothing_echoed(const qg_diags *diags, const char *top)
{
    for (size_t i = 0; i < qg_diags_count(diags); i++) {
        const qg_diag *d = qg_diags_get(diags, i);
        assert_string_equal(d->file, top);
        assert_null(strstr(d->message, SECRET));
        assert_null(strstr(d->message, "root:x:"));
        if (d->source_line) {
            assert_null(memmem(d->source_line, d->source_len, SECRET, strlen(SECRET)));
            assert_null(memmem(d->source_line, d->source_len, "root:x:", 7));
        }
    }
}

static void assert_refused(const char *name)
{
    char text[600], top[800], want[700];
    snprintf(text, sizeof text, "%%:%s\nF:.:1:8\nD:.\n", name);
    qg_diags *diags = qg_diags_new();
    qg_mapdef *def = NULL;
    assert_int_equal(read_top("root/edit/top.txt", text, 0, &def, diags, top, sizeof top),
                     QG_ERR_PARSE);
    assert_non_null(def);
    assert_int_equal(qg_fd_file_count(def), 1);
    snprintf(want, sizeof want, "include '%s' is outside the data root: it names /", name);
    assert_true(test_diags_contain(diags, QG_ERROR, want));
    const qg_diag *d = qg_diags_get(diags, 0);
    assert_int_equal(d->line, 1);
    assert_int_equal(d->col, 3);
    assert_int_equal(d->source_len, strlen(name) + 2);
    assert_memory_equal(d->source_line + 2, name, strlen(name));
    assert_nothing_echoed(diags, top);
    qg_mapdef_free(def);
    qg_diags_free(diags);
}

static void parent_paths_are_refused(void **state)
{
    (void)state;
    assert_refused("../../outside/secret.txt");
    assert_refused("../../../../../../../../etc/passwd");
    assert_refused("sub/../../../outside/secret.txt");
    /* through a directory that does not exist: no file is looked at */
    assert_refused("nowhere/../../../outside/secret.txt");
    /* "edit2" starts with "edit": the comparison is by whole components */
    assert_refused("../edit2/x.txt");
}

static void absolute_paths_are_refused(void **state)
{
    (void)state;
    assert_refused("/etc/passwd");
    assert_refused("/etc/shadow");
    assert_refused("/proc/self/environ");
    char secret[800];
    snprintf(secret, sizeof secret, "%s/outside/secret.txt", base);
    assert_refused(secret);
}

static void links_out_of_the_tree_are_refused(void **state)
{
    (void)state;
    assert_refused("out_link.txt");
    assert_refused("out_dir/secret.txt");
    char through[800];
    snprintf(through, sizeof through, "%s/out_link.txt", edit);
    assert_refused(through);
}

/* The error names where the include leads, with the roots. */
static void refusal_names_the_file(void **state)
{
    (void)state;
    char top[800], want[900];
    qg_diags *diags = qg_diags_new();
    qg_mapdef *def = NULL;
    read_top("root/edit/top.txt", "%:out_link.txt\n", 0, &def, diags, top, sizeof top);
    char *secret = qg_path_canonical(base);
    char *root = qg_path_canonical(edit);
    snprintf(want, sizeof want, "it names %s/outside/secret.txt, which is not below %s (", secret,
             root);
    assert_true(test_diags_contain(diags, QG_ERROR, want));
    free(secret);
    free(root);
    qg_mapdef_free(def);
    qg_diags_free(diags);
}

static qg_level *load(const char *where, const char *text, int anywhere, qg_status want,
                      qg_diags *diags)
{
    char top[800];
    qg_mapdef *def = NULL;
    assert_int_equal(read_top(where, text, anywhere, &def, diags, top, sizeof top), want);
    qg_level *level = NULL;
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    assert_int_equal(qg_fd_resolve(def, &opt, NULL, &level, diags) == QG_OK, want == QG_OK);
    assert_non_null(level);
    qg_mapdef_free(def);
    return level;
}

/* Same directory, a subdirectory, a link inside the tree, an include going
 * up within the edit directory, and the edit directory from a top file
 * kept elsewhere under the root: all read. */
static void includes_inside_the_root_are_read(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    qg_level *level = load("root/edit/top.txt",
                           "%:common.txt\n%:sub/walls.txt\n%:in_link.txt\n%:sub/child.txt\n"
                           "F:.:1:8\nD:.c#\n",
                           0, QG_OK, diags);
    assert_int_equal(qg_diags_count_severity(diags, QG_ERROR), 0);
    assert_int_equal(qg_level_width(level), 3);
    assert_int_equal(qg_level_features(level)[1], 2);
    assert_int_equal(qg_level_features(level)[2], 3);
    qg_level_free(level);

    qg_diags_clear(diags);
    level = load("root/quests/q.txt", "%:common.txt\n%:sub/child.txt\nF:.:1:8\nD:c.\n", 0,
                 QG_OK, diags);
    assert_int_equal(qg_diags_count_severity(diags, QG_ERROR), 0);
    assert_int_equal(qg_level_width(level), 2);
    qg_level_free(level);
    qg_diags_free(diags);
}

/* allow_include_outside reads what the root would refuse. */
static void the_option_allows_outside(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    qg_level *level = load("root/edit/top.txt",
                           "%:../../outside/secret.txt\n%:out_link.txt\nF:.:1:8\nD:.s\n", 1,
                           QG_ERR_PARSE, diags);
    assert_false(test_diags_contain(diags, QG_ERROR, "outside the data root"));
    assert_true(test_diags_contain(diags, QG_ERROR, "expected a record"));
    assert_int_equal(qg_level_width(level), 2);
    assert_int_equal(qg_level_features(level)[1], 9);
    qg_level_free(level);
    qg_diags_free(diags);
}

/* Files a host serves from memory are compared by their names. */
static int serve(void *user, const char *path, const char **data, size_t *len)
{
    (void)user;
    static const char text[] = "F:x:1:8\n";
    if (strstr(path, "secret"))
        fail_msg("a file outside the root was asked for: %s", path);
    *data = text;
    *len = sizeof text - 1;
    return 1;
}

static void served_names_are_confined(void **state)
{
    (void)state;
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.source = serve;
    static const char text[] = "%:a/../b.txt\n%:../secret.txt\n%:/secret.txt\nD:x\n";
    qg_diags *diags = qg_diags_new();
    qg_mapdef *def = NULL;
    assert_int_equal(qg_fd_parse("pack/top.txt", text, sizeof text - 1, &opt, &def, diags),
                     QG_ERR_PARSE);
    assert_int_equal(qg_diags_count_severity(diags, QG_ERROR), 2);
    assert_true(test_diags_contain(diags, QG_ERROR, "include '../secret.txt' is outside"));
    assert_true(test_diags_contain(diags, QG_ERROR, "include '/secret.txt' is outside"));
    assert_int_equal(qg_fd_file_count(def), 2);
    qg_mapdef_free(def);
    qg_diags_free(diags);
}

static void path_forms(void **state)
{
    (void)state;
    static const char *const lexical[][2] = {
        {"a/./b/../c", "a/c"}, {"", "."}, {"a/..", "."}, {"../a/../..", "../.."},
        {"/../a//b/", "/a/b"}, {"./", "."}, {"/", "/"},
    };
    for (size_t i = 0; i < sizeof lexical / sizeof *lexical; i++) {
        char *got = qg_path_lexical(lexical[i][0]);
        assert_string_equal(got, lexical[i][1]);
        free(got);
    }
    assert_true(qg_path_within("/a/b", "/a/b"));
    assert_true(qg_path_within("/a/b/", "/a/b/c"));
    assert_false(qg_path_within("/a/b", "/a/bc"));
    assert_false(qg_path_within("/a/b", "/a"));
    assert_true(qg_path_within("/", "/etc"));
    assert_true(qg_path_within(".", "a/b"));
    assert_false(qg_path_within(".", "../a"));
    assert_false(qg_path_within(".", "/a"));
    char *canonical = qg_path_canonical("/proc/self/../self/missing/../x");
    char want[64];
    snprintf(want, sizeof want, "/proc/%ld/x", (long)getpid());
    assert_string_equal(canonical, want);
    free(canonical);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parent_paths_are_refused),
        cmocka_unit_test(absolute_paths_are_refused),
        cmocka_unit_test(links_out_of_the_tree_are_refused),
        cmocka_unit_test(refusal_names_the_file),
        cmocka_unit_test(includes_inside_the_root_are_read),
        cmocka_unit_test(the_option_allows_outside),
        cmocka_unit_test(served_names_are_confined),
        cmocka_unit_test(path_forms),
    };
    return cmocka_run_group_tests(tests, make_tree, NULL);
}

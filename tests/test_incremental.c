/* A compile over a cache it wrote before: the files whose text and key
 * are unchanged are reused, the rest compiled, and the cache is the one a
 * compile of every file makes, byte for byte; also when the cache is
 * compiled again by qg_cache_open's stale policy. */
#define _GNU_SOURCE
#include "testutil.h"
#include "cache/format.h"
#include "cache/reader.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char dir[512];

static const char *in_dir(const char *name)
{
    static char paths[4][600];
    static int next;
    char *path = paths[next++ % 4];
    snprintf(path, 600, "%s/%s", dir, name);
    return path;
}

static void spit(const char *name, const char *text)
{
    test_write_file(in_dir(name), text, strlen(text));
}

/* A later mtime: a touched file, whatever the clock's resolution. */
static void touch(const char *name)
{
    struct stat sb;
    assert_int_equal(stat(in_dir(name), &sb), 0);
    struct timespec times[2] = {{sb.st_mtim.tv_sec + 5, 0}, {sb.st_mtim.tv_sec + 5, 0}};
    assert_int_equal(utimensat(AT_FDCWD, in_dir(name), times, 0), 0);
}

/* Compiles the directory over out (jobs threads), then from nothing
 * into a cache of its own: the two are the same bytes. The stats of
 * the compile over out. */
static qg_compile_stats compile_both(const char *out, int jobs, qg_diags *d)
{
    const char *inputs[1] = {dir};
    qg_compile_options opt = {.jobs = jobs};
    qg_compile_stats stats;
    qg_status st = qg_cache_compile(inputs, 1, out, &opt, &stats, d);
    if (st != QG_OK)
        qg_diags_print(d, stderr);
    assert_int_equal(st, QG_OK);
    const char *cold = test_temp_path("cold.qgc");
    unlink(cold);
    qg_diags *cold_diags = qg_diags_new();
    assert_int_equal(qg_cache_compile(inputs, 1, cold, &opt, NULL, cold_diags), QG_OK);
    qg_diags_free(cold_diags);
    test_same_files(out, cold);
    return stats;
}

/* The four files, in a directory of the test's own. */
static void setup_corpus(const char *name)
{
    snprintf(dir, sizeof dir, "%s/%s", test_temp_dir(), name);
    assert_int_equal(mkdir(dir, 0755), 0);
    spit("a.des", "{{\nfunction shared_tag() return 'first' end\n}}\n"
                  "NAME: a_map\nTAGS: a\nMAP\nx.x\nENDMAP\n");
    spit("b.des", "NAME: b_map\n: tags(shared_tag())\nMAP\n...\nENDMAP\n"
                  "NAME: b_other\nKMASK: . = no_secret_doors\nMAP\n.\nENDMAP\n");
    spit("c.des", "NAME: c_map\nTAGS: c\nMAP\nxx\nENDMAP\n");
    spit("d.des", "NAME: d_map\n: tags(shared_tag() .. '_d')\nMAP\n.x.\nENDMAP\n");
}

/* Unchanged, touched, changed, added and removed files, and a prelude
 * the files after it use changed: each time the cache a compile of every
 * file makes, with every file reused whose text and key are the same. */
static void reused_and_compiled(void **state)
{
    (void)state;
    setup_corpus("changes");
    const char *out = test_temp_path("inc.qgc");
    unlink(out);
    qg_diags *d = qg_diags_new();
    qg_compile_stats s = compile_both(out, 2, d);
    assert_int_equal(s.reused, 0);
    assert_true(test_diags_contain(d, QG_WARNING, "no_secret_doors"));

    qg_diags_clear(d);
    s = compile_both(out, 2, d);
    assert_int_equal(s.files, 4);
    assert_int_equal(s.reused, 4);
    assert_false(test_diags_contain(d, QG_WARNING, "no_secret_doors"));

    touch("c.des");
    s = compile_both(out, 1, d);
    assert_int_equal(s.reused, 4);

    spit("c.des", "NAME: c_map\nTAGS: c changed\nMAP\nxx\nENDMAP\n");
    s = compile_both(out, 2, d);
    assert_int_equal(s.reused, 3);

    spit("bb.des", "NAME: bb_map\n: tags(shared_tag())\nMAP\n.\nENDMAP\n");
    s = compile_both(out, 4, d);
    assert_int_equal(s.files, 5);
    assert_int_equal(s.reused, 4);

    unlink(in_dir("c.des"));
    s = compile_both(out, 2, d);
    assert_int_equal(s.files, 4);
    assert_int_equal(s.reused, 4);

    /* a's prelude is before every other file: all of them compile again
     * and see the new function */
    spit("a.des", "{{\nfunction shared_tag() return 'second' end\n}}\n"
                  "NAME: a_map\nTAGS: a\nMAP\nx.x\nENDMAP\n");
    s = compile_both(out, 2, d);
    assert_int_equal(s.reused, 0);
    qg_cache *c;
    assert_int_equal(qg_cache_open(out, NULL, &c, d), QG_OK);
    assert_string_equal(qg_cache_entry_at(c, qg_cache_find(c, "d_map"))->tags, "minivault second_d");
    qg_cache_close(c);
    qg_diags_free(d);
}

/* A file whose map failed is left out and compiled again every time, so
 * its error is reported again, never hidden by a reuse. */
static void failures_are_compiled_again(void **state)
{
    (void)state;
    setup_corpus("failures");
    spit("e.des", "NAME: e_map\n: error('deliberate')\nMAP\n.\nENDMAP\n"
                  "NAME: e_fine\nMAP\n.\nENDMAP\n");
    const char *inputs[1] = {dir};
    const char *out = test_temp_path("fail.qgc");
    unlink(out);
    qg_compile_options keep = {.keep_going = 1, .jobs = 2};
    qg_compile_stats s;
    qg_diags *d = qg_diags_new();
    for (int round = 0; round < 2; round++) {
        qg_diags_clear(d);
        assert_int_equal(qg_cache_compile(inputs, 1, out, &keep, &s, d), QG_ERR_LUA);
        assert_true(test_diags_contain(d, QG_ERROR, "deliberate"));
        assert_int_equal(s.failed, 1);
        assert_int_equal(s.reused, round ? 4 : 0);
    }
    qg_diags_free(d);
}

/* What the cache at the output cannot give: a version 2 cache records
 * nothing to reuse files by, and one compiled with another Lua library
 * was compiled with other functions; a note says so and every file is
 * compiled. */
static void nothing_reused_from_another_compile(void **state)
{
    (void)state;
    setup_corpus("other");
    const char *inputs[1] = {dir};
    const char *out = test_temp_path("other.qgc");
    unlink(out);
    qg_diags *d = qg_diags_new();
    qg_compile_stats s;
    assert_int_equal(qg_cache_compile(inputs, 1, out, NULL, &s, d), QG_OK);
    size_t len;
    unsigned char *image = test_read_file(out, &len);
    image[8] = 2;                       /* the version, its header CRC made good */
    qgc_store_u32(image + 60, qgc_crc32(image, 60));
    test_write_file(out, image, len);
    qg_diags_clear(d);
    assert_int_equal(qg_cache_compile(inputs, 1, out, NULL, &s, d), QG_OK);
    assert_int_equal(s.reused, 0);
    assert_true(test_diags_contain(d, QG_NOTE, "every file is compiled"));

    char lib[600];
    snprintf(lib, sizeof lib, "%s/tests/data/dlua/minimal/dlua", test_srcdir());
    const char *paths[1] = {lib};
    qg_compile_options with_lib = {.lua_paths = paths, .lua_path_count = 1};
    qg_diags_clear(d);
    assert_int_equal(qg_cache_compile(inputs, 1, out, &with_lib, &s, d), QG_OK);
    assert_int_equal(s.reused, 0);
    assert_true(test_diags_contain(d, QG_NOTE, "another Lua library"));
    qg_diags_clear(d);
    assert_int_equal(qg_cache_compile(inputs, 1, out, &with_lib, &s, d), QG_OK);
    assert_int_equal(s.reused, 4);
    free(image);
    qg_diags_free(d);
}

/* QG_STALE_RECOMPILE compiles only what changed: the unchanged file's
 * warning is not given again, and the cache is the one a compile of
 * every file makes. */
static void stale_policy_reuses(void **state)
{
    (void)state;
    setup_corpus("stale");
    const char *out = test_temp_path("stale.qgc");
    unlink(out);
    const char *inputs[4] = {"a.des", "b.des", "c.des", "d.des"};
    qg_compile_options co = {.base_dir = dir, .jobs = 2};
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_cache_compile(inputs, 4, out, &co, NULL, d), QG_OK);
    spit("d.des", "NAME: d_map\n: tags(shared_tag() .. '_again')\nMAP\n.x.\nENDMAP\n");
    qg_diags_clear(d);
    qg_cache_open_options again = {.stale = QG_STALE_RECOMPILE, .source_dir = dir,
                                   .compile = &co};
    qg_cache *c;
    assert_int_equal(qg_cache_open(out, &again, &c, d), QG_OK);
    assert_string_equal(qg_cache_entry_at(c, qg_cache_find(c, "d_map"))->tags,
                        "first_again minivault");
    assert_false(test_diags_contain(d, QG_WARNING, "no_secret_doors"));
    qg_cache_close(c);
    const char *cold = test_temp_path("stale_cold.qgc");
    unlink(cold);
    assert_int_equal(qg_cache_compile(inputs, 4, cold, &co, NULL, d), QG_OK);
    test_same_files(out, cold);
    qg_diags_free(d);
}

/* The cache's preset dictionary (freed by the caller). */
static qg_buf dictionary_of(const char *path)
{
    qg_cache *c;
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_cache_open(path, NULL, &c, d), QG_OK);
    qg_buf dict;
    qg_buf_init(&dict);
    qg_buf_append(&dict, c->dict, c->dict_len);
    qg_cache_close(c);
    qg_diags_free(d);
    return dict;
}

static int same_buf(const qg_buf *a, const qg_buf *b)
{
    return a->len == b->len && (!a->len || memcmp(a->data, b->data, a->len) == 0);
}

/* The reused files' blob texts are cut out of their sources (a name not
 * at the end of its line, a map with no name line, a default-depth line
 * ending a slice, a file with no newline at its end): with the
 * dictionary the same, their blobs are copied; when a changed file
 * takes a line to the count that puts it in the dictionary, every blob
 * is compressed again from those texts. Each time the cold compile's
 * bytes. */
static void dictionary_kept_and_changed(void **state)
{
    (void)state;
    setup_corpus("dictionary");
    unlink(in_dir("b.des"));
    unlink(in_dir("d.des"));
    spit("a.des", "NAME: a_map\nTAGS: shared_line_here\nMAP\nx.x\nENDMAP\n");
    spit("b.des", "# leading comment\nNAME:   b_map   \nTAGS: shared_line_here\nMAP\n...\n"
                  "ENDMAP\n\n# between maps\nNAME: b_two\nMAP\n.\nENDMAP\n");
    spit("d.des", "default-depth: D:2-5\n\nNAME: d_map\nMAP\n.x.\nENDMAP\n"
                  "default-depth: D:3\nNAME: d_two\nWEIGHT: 5\nMAP\nx\nENDMAP\n# no newline");
    const char *out = test_temp_path("dict.qgc");
    unlink(out);
    qg_diags *d = qg_diags_new();
    qg_compile_stats s = compile_both(out, 2, d);
    assert_int_equal(s.reused, 0);
    qg_buf before = dictionary_of(out);

    /* a line found in one blob only: the dictionary stays */
    spit("c.des", "NAME: c_map\nTAGS: c\n# a line of its own\nMAP\nxx\nENDMAP\n");
    s = compile_both(out, 2, d);
    assert_int_equal(s.reused, 3);
    qg_buf kept = dictionary_of(out);
    assert_true(same_buf(&before, &kept));

    /* the tags line in a third blob: now in the dictionary */
    spit("c.des", "NAME: c_map\nTAGS: shared_line_here\nMAP\nxx\nENDMAP\n");
    s = compile_both(out, 1, d);
    assert_int_equal(s.reused, 3);
    qg_buf changed = dictionary_of(out);
    assert_false(same_buf(&kept, &changed));
    assert_non_null(memmem(changed.data, changed.len, "TAGS: shared_line_here\n", 23));
    assert_null(memmem(kept.data, kept.len, "TAGS: shared_line_here\n", 23));

    /* and out of it again when the file goes */
    unlink(in_dir("c.des"));
    s = compile_both(out, 2, d);
    assert_int_equal(s.files, 3);
    assert_int_equal(s.reused, 3);
    qg_buf removed = dictionary_of(out);
    assert_null(memmem(removed.data, removed.len, "TAGS: shared_line_here\n", 23));
    qg_buf_free(&before);
    qg_buf_free(&kept);
    qg_buf_free(&changed);
    qg_buf_free(&removed);
    qg_diags_free(d);
}

static void copy_tree(const char *from, const char *to)
{
    char command[2048];
    snprintf(command, sizeof command, "cp -R '%s' '%s'", from, to);
    assert_int_equal(system(command), 0);
}

/* Crawl 0.28 (Debian's crawl-common): one map of a level builder's file
 * changed and another file touched, the compile over the cache reuses
 * the other 139 files and writes what a compile of every file does; then
 * with one file touched only. */
static void crawl_corpus(void **state)
{
    (void)state;
    char des[600], dlua[600];
    test_crawl_dat_or_skip(des, dlua, sizeof des);
    snprintf(dir, sizeof dir, "%s/crawl", test_temp_dir());
    copy_tree(des, dir);
    const char *inputs[1] = {dir}, *paths[1] = {dlua};
    qg_compile_options opt = {.lua_paths = paths, .lua_path_count = 1, .jobs = 2};
    const char *out = test_temp_path("crawl.qgc");
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_cache_compile(inputs, 1, out, &opt, NULL, d), QG_OK);
    size_t len;
    char *text = (char *)test_read_file(in_dir("builder/layout_caves.des"), &len);
    text[len] = '\0';
    char *tags = strstr(text, "TAGS:");
    assert_non_null(tags);
    FILE *f = fopen(in_dir("builder/layout_caves.des"), "wb");
    assert_non_null(f);
    fwrite(text, 1, (size_t)(tags - text) + 5, f);
    fputs(" edited_here", f);
    fputs(tags + 5, f);
    fclose(f);
    free(text);
    touch("variable/float.des");
    qg_compile_stats s;
    assert_int_equal(qg_cache_compile(inputs, 1, out, &opt, &s, d), QG_OK);
    assert_int_equal(s.files, 140);
    assert_int_equal(s.reused, 139);
    const char *cold = test_temp_path("crawl_cold.qgc");
    assert_int_equal(qg_cache_compile(inputs, 1, cold, &opt, NULL, d), QG_OK);
    test_same_files(out, cold);
    /* every file reused in its place: the cache written again from its
     * own blobs and index, the index's pieces past the files' records
     * copied */
    touch("variable/float.des");
    assert_int_equal(qg_cache_compile(inputs, 1, out, &opt, &s, d), QG_OK);
    assert_int_equal(s.reused, 140);
    unlink(cold);
    assert_int_equal(qg_cache_compile(inputs, 1, cold, &opt, NULL, d), QG_OK);
    test_same_files(out, cold);
    qg_diags_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reused_and_compiled),
        cmocka_unit_test(failures_are_compiled_again),
        cmocka_unit_test(nothing_reused_from_another_compile),
        cmocka_unit_test(stale_policy_reuses),
        cmocka_unit_test(dictionary_kept_and_changed),
        cmocka_unit_test(crawl_corpus),
    };
    return cmocka_run_group_tests_name("incremental", tests, NULL, NULL);
}

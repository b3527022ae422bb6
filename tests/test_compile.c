/* questgrid compile: the bundled data and Crawl's corpus compiled, the
 * compile-time Lua's index fields, file order, threads, failures. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void spit(const char *path, const char *text)
{
    test_write_file(path, text, strlen(text));
}

static qg_cache *open_ok(const char *path)
{
    qg_diags *d = qg_diags_new();
    qg_cache *c;
    assert_int_equal(qg_cache_open(path, NULL, &c, d), QG_OK);
    assert_int_equal(qg_cache_verify(c, d), QG_OK);
    qg_diags_free(d);
    return c;
}

static void bundled_data(void **state)
{
    (void)state;
    char edit[4096], des[4096];
    snprintf(edit, sizeof edit, "%s/lib/edit", test_srcdir());
    snprintf(des, sizeof des, "%s/lib/des", test_srcdir());
    const char *inputs[2] = {edit, des};
    const char *out = test_temp_path("bundled.qgc");
    qg_diags *d = qg_diags_new();
    qg_compile_stats stats;
    qg_status st = qg_cache_compile(inputs, 2, out, NULL, &stats, d);
    qg_diags_print(d, stderr);
    assert_int_equal(st, QG_OK);
    assert_int_equal(stats.failed, 0);
    qg_cache *c = open_ok(out);
    assert_int_equal(qg_cache_map_count(c), stats.maps);
    for (int quest = 1; quest <= 3; quest++) {
        size_t at = qg_cache_find_quest(c, quest);
        assert_int_not_equal(at, QG_CACHE_NONE);
        assert_int_equal(qg_cache_entry_at(c, at)->kind, QG_KIND_QUEST);
        qg_mapdef *def;
        assert_int_equal(qg_cache_load_map(c, at, &def, d), QG_OK);
        assert_true(qg_mapdef_row_count(def) > 0);
        qg_mapdef_free(def);
    }
    qg_cache_query vaults = {"questgrid", "D:6", NULL, QG_KIND_UNKNOWN};
    size_t hits = 0;
    for (size_t i = qg_cache_next(c, &vaults, 0); i != QG_CACHE_NONE;
         i = qg_cache_next(c, &vaults, i + 1)) {
        assert_int_equal(qg_cache_entry_at(c, i)->format, QG_FORMAT_DES);
        hits++;
    }
    assert_true(hits >= 3);
    /* Levels come back through the front ends from the cached text. */
    qg_cache_resolve_options ro = {.seed = 7};
    for (size_t i = 0; i < qg_cache_map_count(c); i++) {
        const qg_cache_entry *e = qg_cache_entry_at(c, i);
        qg_level *level = NULL;
        qg_status rs = qg_cache_resolve(c, i, &ro, &level, d);
        if (rs != QG_OK)
            qg_diags_print(d, stderr);
        assert_int_equal(rs, QG_OK);
        assert_true(qg_level_width(level) > 0);
        if (e->format == QG_FORMAT_DES)
            assert_string_equal(qg_level_name(level), e->name);
        qg_level_free(level);
    }
    qg_cache_close(c);
    qg_diags_free(d);
}

static const char *tags_of(const char *cache, const char *map)
{
    static char tags[256];
    qg_cache *c = open_ok(cache);
    const qg_cache_entry *e = qg_cache_entry_at(c, qg_cache_find(c, map));
    assert_non_null(e);
    snprintf(tags, sizeof tags, "%s", e->tags);
    qg_cache_close(c);
    return tags;
}

/* As Crawl's compiler does, a file's global Lua runs before its maps and
 * after the files before it: b.des may use a function a.des defines when
 * a.des comes first, not when it comes after; and c.des, later, defining
 * the function again changes nothing for b.des (Crawl 0.28's zot.des and
 * float.des both define zot_entry_setup). */
/* A map keep_going left out is an entry of kind QG_KIND_SKIPPED, which
 * qg_cache_next passes over. */
static int skipped_kind(const qg_cache *cache, const char *name)
{
    size_t i = qg_cache_find(cache, name);
    assert_int_not_equal(i, QG_CACHE_NONE);
    qg_cache_query any = {NULL, NULL, NULL, QG_KIND_UNKNOWN};
    for (size_t k = qg_cache_next(cache, &any, 0); k != QG_CACHE_NONE;
         k = qg_cache_next(cache, &any, k + 1))
        assert_int_not_equal(k, i);
    return (int)qg_cache_entry_at(cache, i)->kind;
}

static void globals_in_file_order(void **state)
{
    (void)state;
    const char *a = test_temp_path("a.des"), *b = test_temp_path("b.des");
    const char *c = test_temp_path("c.des");
    spit(a, "{{\nfunction shared_tag() return \"from_a\" end\n}}\n"
            "NAME: a_map\nTAGS: plain\nMAP\n.\nENDMAP\n");
    spit(b, "NAME: b_map\n: tags(shared_tag())\nDEPTH: D:3\nMAP\nx.x\nENDMAP\n");
    spit(c, "{{\nfunction shared_tag() return \"from_c\" end\n}}\n"
            "NAME: c_map\n: tags(shared_tag())\nMAP\n.\nENDMAP\n");
    const char *out = test_temp_path("cross.qgc");
    const char *in_order[3] = {a, b, c};
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_cache_compile(in_order, 3, out, NULL, NULL, d), QG_OK);
    assert_string_equal(tags_of(out, "b_map"), "from_a minivault");
    assert_string_equal(tags_of(out, "c_map"), "from_c minivault");

    const char *b_first[2] = {b, a};
    qg_compile_options keep = {.keep_going = 1};
    qg_compile_stats stats;
    assert_int_equal(qg_cache_compile(b_first, 2, out, &keep, &stats, d), QG_ERR_LUA);
    assert_true(test_diags_contain(d, QG_ERROR, "function 'shared_tag' is not provided"));
    assert_int_equal(stats.failed, 1);
    qg_cache *cache = open_ok(out);
    assert_int_equal(skipped_kind(cache, "b_map"), QG_KIND_SKIPPED);
    assert_int_not_equal(qg_cache_find(cache, "a_map"), QG_CACHE_NONE);
    qg_cache_close(cache);
    qg_diags_free(d);
}

/* Compiles inputs with 1, 2 and 4 threads: the same bytes each time. */
static void compile_with_threads(const char *const *inputs, size_t count,
                                 const qg_compile_options *base, const char *name)
{
    char first[300];
    snprintf(first, sizeof first, "%s", test_temp_path(name));
    qg_diags *d = qg_diags_new();
    static const int jobs[3] = {1, 2, 4};
    for (int k = 0; k < 3; k++) {
        qg_compile_options opt = *base;
        opt.jobs = jobs[k];
        const char *out = k ? test_temp_path("threads.qgc") : first;
        qg_status st = qg_cache_compile(inputs, count, out, &opt, NULL, d);
        if (st != QG_OK)
            qg_diags_print(d, stderr);
        assert_int_equal(st, QG_OK);
        if (k)
            test_same_files(first, out);
    }
    qg_diags_free(d);
}

static void threads_change_nothing(void **state)
{
    (void)state;
    char des[4096], edit[4096];
    snprintf(des, sizeof des, "%s/lib/des", test_srcdir());
    snprintf(edit, sizeof edit, "%s/lib/edit", test_srcdir());
    const char *inputs[2] = {edit, des};
    qg_compile_options none = {0};
    compile_with_threads(inputs, 2, &none, "bundled_1.qgc");
}

/* What a file's maps change in what an earlier file's prelude made stays
 * in that file: the next file's maps see the prelude's own work, as when
 * Crawl loads the files before from its cache, with any number of
 * threads; a prelude that runs out of its budget defines nothing for the
 * files after it. */
static void files_start_from_the_library(void **state)
{
    (void)state;
    char dir[300];
    snprintf(dir, sizeof dir, "%s/isolated", test_temp_dir());
    mkdir(dir, 0755);
    char a[400], b[400], c[400], d_[400];
    snprintf(a, sizeof a, "%s/a.des", dir);
    snprintf(b, sizeof b, "%s/b.des", dir);
    snprintf(c, sizeof c, "%s/c.des", dir);
    snprintf(d_, sizeof d_, "%s/d.des", dir);
    spit(a, "{{\ncounter = {n = 0}\n"
            "function bump() counter.n = counter.n + 1 return 'n' .. counter.n end\n}}\n"
            "NAME: a_one\n: tags(bump())\nMAP\n.\nENDMAP\n"
            "NAME: a_two\n: tags(bump())\nMAP\n.\nENDMAP\n");
    spit(b, "NAME: b_one\n: tags(bump())\nMAP\n.\nENDMAP\n");
    spit(c, "{{\nspent = true\nwhile true do end\n}}\n"
            "NAME: c_one\nMAP\n.\nENDMAP\n");
    spit(d_, "NAME: d_one\n: tags(bump() .. tostring(spent))\nMAP\n.\nENDMAP\n");
    const char *inputs[1] = {dir};
    qg_compile_options keep = {.keep_going = 1};
    qg_diags *d = qg_diags_new();
    const char *out = test_temp_path("isolated.qgc");
    for (int jobs = 1; jobs <= 3; jobs += 2) {
        keep.jobs = jobs;
        qg_diags_clear(d);
        assert_int_equal(qg_cache_compile(inputs, 1, out, &keep, NULL, d), QG_ERR_LIMIT);
        assert_true(test_diags_contain(d, QG_ERROR, "c.des"));
        assert_string_equal(tags_of(out, "a_one"), "minivault n1");
        assert_string_equal(tags_of(out, "a_two"), "minivault n2");
        assert_string_equal(tags_of(out, "b_one"), "minivault n1");
        assert_string_equal(tags_of(out, "d_one"), "minivault n1nil");
    }
    qg_diags_free(d);
}

/* What a compile reports is what a parse in file order reports, whatever
 * the number of jobs: a name defined again names the earlier file, and a
 * file ending inside MAP leaves the next file in its rows. */
static qg_diags *compile_reports(const char *const *inputs, size_t count, int jobs)
{
    qg_diags *d = qg_diags_new();
    qg_compile_options opt = {.jobs = jobs};
    assert_int_not_equal(qg_cache_compile(inputs, count, test_temp_path("order.qgc"), &opt, NULL, d),
                         QG_OK);
    return d;
}

static void parse_in_file_order(void **state)
{
    (void)state;
    char a[256], b[256], c[256], e[256], want[600];
    snprintf(a, sizeof a, "%s", test_temp_path("order_a.des"));
    snprintf(b, sizeof b, "%s", test_temp_path("order_b.des"));
    snprintf(c, sizeof c, "%s", test_temp_path("order_c.des"));
    snprintf(e, sizeof e, "%s", test_temp_path("order_e.des"));
    spit(a, "NAME: one\nMAP\nx\nENDMAP\nNAME: two\nMAP\nx\nENDMAP\n");
    spit(b, "# x\nNAME:  two\nMAP\ny\nENDMAP\n");
    spit(c, "NAME: open\nMAP\nx\n");
    spit(e, "x\nENDMAP\n");
    const char *inputs[4] = {a, b, c, e};
    qg_diags *one = compile_reports(inputs, 4, 1), *three = compile_reports(inputs, 4, 3);
    snprintf(want, sizeof want, "map 'two' already defined at %s:5", a);
    assert_true(test_diags_contain(one, QG_ERROR, want));
    assert_true(test_diags_contain(one, QG_ERROR, "a map row is not expected here"));
    assert_int_equal(qg_diags_count(one), qg_diags_count(three));
    for (size_t i = 0; i < qg_diags_count(one); i++) {
        const qg_diag *x = qg_diags_get(one, i), *y = qg_diags_get(three, i);
        assert_string_equal(x->file, y->file);
        assert_int_equal(x->line, y->line);
        assert_int_equal(x->col, y->col);
        assert_string_equal(x->message, y->message);
    }
    const qg_diag *dup = NULL;
    for (size_t i = 0; i < qg_diags_count(three); i++)
        if (strcmp(qg_diags_get(three, i)->message, want) == 0)
            dup = qg_diags_get(three, i);
    assert_non_null(dup);
    assert_string_equal(dup->file, b);
    assert_int_equal(dup->line, 2);
    assert_int_equal(dup->col, 8);
    qg_diags_free(one);
    qg_diags_free(three);
}

static size_t temp_files(void)
{
    DIR *dp = opendir(test_temp_dir());
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(dp)))
        n += strstr(e->d_name, ".tmp") != NULL;
    closedir(dp);
    return n;
}

static void progress(void *user, size_t done, size_t total)
{
    size_t *calls = user;
    assert_true(done <= total);
    (*calls)++;
}

/* A map whose Lua fails stops the write (the previous cache stays) unless
 * keep_going, which writes the others; a cancelled compile writes nothing. */
static void failures_and_cancel(void **state)
{
    (void)state;
    const char *good = test_temp_path("good.des"), *bad = test_temp_path("bad.des");
    spit(good, "NAME: good_map\nTAGS: fine\nMAP\n.\nENDMAP\n");
    spit(bad, "NAME: bad_map\n: error(\"deliberate\")\nMAP\n.\nENDMAP\n");
    const char *out = test_temp_path("keep.qgc");
    qg_diags *d = qg_diags_new();
    const char *only_good[1] = {good};
    assert_int_equal(qg_cache_compile(only_good, 1, out, NULL, NULL, d), QG_OK);
    size_t before_len;
    unsigned char *before = test_read_file(out, &before_len);
    const char *both[2] = {good, bad};
    assert_int_not_equal(qg_cache_compile(both, 2, out, NULL, NULL, d), QG_OK);
    assert_true(test_diags_contain(d, QG_ERROR, "deliberate"));
    volatile sig_atomic_t cancel = 1;
    qg_compile_options opt = {.jobs = 2, .cancel = &cancel};
    assert_int_not_equal(qg_cache_compile(only_good, 1, out, &opt, NULL, d), QG_OK);
    size_t after_len;
    unsigned char *after = test_read_file(out, &after_len);
    assert_int_equal(before_len, after_len);
    assert_memory_equal(before, after, before_len);
    assert_int_equal(temp_files(), 0);
    size_t calls = 0;
    qg_compile_options keep = {.jobs = 2, .keep_going = 1, .progress = progress,
                               .user = &calls};
    qg_compile_stats stats;
    assert_int_not_equal(qg_cache_compile(both, 2, out, &keep, &stats, d), QG_OK);
    assert_int_equal(stats.maps, 1);
    assert_int_equal(stats.failed, 1);
    assert_int_equal(calls, 2);
    qg_cache *c = open_ok(out);
    assert_int_not_equal(qg_cache_find(c, "good_map"), QG_CACHE_NONE);
    assert_int_equal(skipped_kind(c, "bad_map"), QG_KIND_SKIPPED);
    qg_cache_close(c);
    free(before);
    free(after);
    qg_diags_free(d);
}

static void first_row(qg_cache *c, const char *name, const char *want)
{
    qg_diags *d = qg_diags_new();
    qg_mapdef *def;
    assert_int_equal(qg_cache_load_map(c, qg_cache_find(c, name), &def, d), QG_OK);
    size_t len;
    const char *row = qg_mapdef_row(def, 0, &len, NULL);
    assert_int_equal(len, strlen(want));
    assert_memory_equal(row, want, len);
    qg_mapdef_free(def);
    qg_diags_free(d);
}

/* A changed source is read from its text or compiled again, as asked;
 * sources are found relative to the directory given. */
static void stale_sources(void **state)
{
    (void)state;
    char dir[300];
    snprintf(dir, sizeof dir, "%s/stale", test_temp_dir());
    mkdir(dir, 0755);
    char src[400];
    snprintf(src, sizeof src, "%s/x.des", dir);
    spit(src, "NAME: stale_map\nTAGS: one\nMAP\n.\nENDMAP\n");
    const char *out = test_temp_path("stale.qgc");
    const char *inputs[1] = {"x.des"};
    qg_compile_options co = {.base_dir = dir};
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_cache_compile(inputs, 1, out, &co, NULL, d), QG_OK);
    qg_cache *c = open_ok(out);
    assert_string_equal(qg_cache_file_at(c, 0)->path, "x.des");
    qg_cache_close(c);
    spit(src, "NAME: stale_map\nTAGS: two\nMAP\n..\nENDMAP\n");

    qg_cache_open_options text = {.stale = QG_STALE_READ_TEXT, .source_dir = dir};
    assert_int_equal(qg_cache_open(out, &text, &c, d), QG_OK);
    assert_int_equal(qg_cache_source_state(c, 0), QG_SOURCE_CHANGED);
    first_row(c, "stale_map", "..");
    assert_string_equal(qg_cache_entry_at(c, 0)->tags, "minivault one");
    qg_cache_close(c);

    qg_cache_open_options again = {.stale = QG_STALE_RECOMPILE, .source_dir = dir,
                                   .compile = &co};
    assert_int_equal(qg_cache_open(out, &again, &c, d), QG_OK);
    assert_int_equal(qg_cache_source_state(c, 0), QG_SOURCE_FRESH);
    assert_string_equal(qg_cache_entry_at(c, 0)->tags, "minivault two");
    first_row(c, "stale_map", "..");
    qg_cache_close(c);

    /* Without its source the cache is the only copy: it is used as it is. */
    unlink(src);
    assert_int_equal(qg_cache_open(out, &again, &c, d), QG_OK);
    assert_int_equal(qg_cache_source_state(c, 0), QG_SOURCE_MISSING);
    first_row(c, "stale_map", "..");
    qg_cache_close(c);
    qg_diags_free(d);
}

/* Debian's crawl-common (Crawl 0.28, installed by the test set-up,
 * tools/test-deps): every one of its 5,283 maps compiles with its own
 * dlua, no map left out. */
static void crawl_corpus(void **state)
{
    (void)state;
    char des[4096], dlua[4096];
    test_crawl_dat_or_skip(des, dlua, sizeof des);
    const char *inputs[1] = {des}, *lua_paths[1] = {dlua};
    const char *out = test_temp_path("crawl.qgc");
    qg_diags *d = qg_diags_new();
    qg_compile_options opt = {.lua_paths = lua_paths, .lua_path_count = 1, .jobs = 2};
    compile_with_threads(inputs, 1, &opt, "crawl.qgc");
    qg_compile_stats stats;
    qg_status st = qg_cache_compile(inputs, 1, out, &opt, &stats, d);
    if (st != QG_OK)
        qg_diags_print(d, stderr);
    assert_int_equal(st, QG_OK);
    assert_int_equal(stats.failed, 0);
    assert_int_equal(stats.maps, 5283);
    qg_cache *c = open_ok(out);
    assert_int_equal(qg_cache_map_count(c), 5283);
    qg_cache_info info;
    qg_cache_get_info(c, &info);
    assert_true(info.file_size < 2u * 1024 * 1024);
    qg_cache_query minis = {"minivault", "D:5", NULL, QG_KIND_UNKNOWN};
    assert_int_not_equal(qg_cache_next(c, &minis, 0), QG_CACHE_NONE);
    /* the layouts built by the builders issue 14 added are in */
    static const char *const layouts[] = {
        "layout_caves", "layout_geoelf_grid", "layout_twisted_circle", "layout_irregular_city",
        "layout_onion_city", "layout_rooms", "swamp_pool1", "bazaar_kb_twisted_cavern",
        "layout_jigsaw"};
    for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++)
        assert_int_not_equal(qg_cache_find(c, layouts[i]), QG_CACHE_NONE);
    qg_cache_close(c);
    qg_diags_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bundled_data),
        cmocka_unit_test(globals_in_file_order),
        cmocka_unit_test(threads_change_nothing),
        cmocka_unit_test(files_start_from_the_library),
        cmocka_unit_test(parse_in_file_order),
        cmocka_unit_test(failures_and_cancel),
        cmocka_unit_test(stale_sources),
        cmocka_unit_test(crawl_corpus),
    };
    return cmocka_run_group_tests_name("compile", tests, NULL, NULL);
}

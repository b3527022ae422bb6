/* Allocation failure injection: each scenario runs once to count its
 * allocations, then once per allocation with exactly that one failing.
 * Every run must end in QG_ERR_NOMEM (or, for a call that reports through
 * its result, a NULL), never in a crash, a leak (run under ASan or
 * valgrind) or a result that differs from the full run's. malloc, calloc
 * and realloc are wrapped at link time (-Wl,--wrap=...), the library
 * linked statically so its own calls are wrapped too. */
#define _GNU_SOURCE
#include "testutil.h"
#include "questgrid/cache.h"
#include "questgrid/fd.h"
#include "questgrid/mapping.h"
#include "questgrid/render.h"
#include "core/file.h"
#include "core/output.h"

#include <dirent.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);

/* Test-only state: the count of allocations since arming, and which one
 * fails (-1: none). */
static long allocations;
static long fail_at = -1;
static int armed;

static int should_fail(void)
{
    return armed && allocations++ == fail_at;
}

void *__wrap_malloc(size_t size)
{
    return should_fail() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t count, size_t size)
{
    return should_fail() ? NULL : __real_calloc(count, size);
}

void *__wrap_realloc(void *p, size_t size)
{
    return should_fail() ? NULL : __real_realloc(p, size);
}

/* What one run produced: its status and a text rendering of its result
 * (compared with the full run's when the status is QG_OK). */
typedef struct outcome {
    qg_status status;
    char *text;
} outcome;

typedef outcome (*scenario)(void);

static char *render(const qg_level *level)
{
    char *text = NULL;
    size_t len;
    armed = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    if (level)
        qg_render_text(level, NULL, out);
    fclose(out);
    armed = 1;
    return text;
}

static void run_failing_each(scenario run, long *count)
{
    allocations = 0;
    fail_at = -1;
    armed = 1;
    outcome full = run();
    armed = 0;
    long total = allocations;
    assert_int_equal(full.status, QG_OK);
    if (total == 0) {
        free(full.text);
        test_skip("the library is not linked statically: no allocation to inject a failure into");
    }
    for (long n = 0; n < total; n++) {
        allocations = 0;
        fail_at = n;
        armed = 1;
        outcome got = run();
        armed = 0;
        if (got.status == QG_OK) {
            if (!got.text || strcmp(got.text, full.text) != 0)
                fail_msg("allocation %ld of %ld failing gave a different result:\n%s", n,
                         total, got.text ? got.text : "(none)");
        } else if (got.status != QG_ERR_NOMEM) {
            fail_msg("allocation %ld of %ld failing gave %s, not out of memory", n, total,
                     qg_status_string(got.status));
        }
        free(got.text);
    }
    free(full.text);
    *count = total;
}

static const char top_text[] =
    "# top\nQ:5:N:Rat Cellar\nQ:5:Q:6:0:0:0:3:0:0:0\n%:feat.txt\n"
    "?:[GEQ $LEVEL 5]\nF:g:1:8:9\n?:1\nD:#######\nD:#<..r.#\nD:#..g.t#\nD:#######\nP:1:1\n";
static const char feat_text[] = "F:#:2:8\nF:.:1:8\nF:<:3:8\nF:r:1:8:7\nF:t:1:12:0:5\n";

static int serve(void *user, const char *path, const char **data, size_t *len)
{
    (void)user;
    if (strcmp(path, "mem/feat.txt") != 0)
        return 0;
    *data = feat_text;
    *len = sizeof feat_text - 1;
    return 1;
}

static outcome fd_from_memory(void)
{
    outcome o = {QG_ERR_NOMEM, NULL};
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.source = serve;
    qg_diags *diags = qg_diags_new();
    qg_vars *vars = qg_vars_new();
    if (vars && qg_vars_set_int(vars, "LEVEL", 7) != QG_OK) {
        qg_vars_free(vars);
        vars = NULL;
    }
    qg_mapdef *def = NULL;
    qg_level *level = NULL;
    if (vars) {
        o.status = qg_fd_parse("mem/top.txt", top_text, sizeof top_text - 1, &opt, &def, diags);
        if (o.status == QG_OK)
            o.status = qg_fd_resolve(def, &opt, vars, &level, diags);
        else
            assert_null(def);
    }
    if (o.status == QG_OK)
        o.text = render(level);
    else
        assert_null(level);
    qg_level_free(level);
    qg_mapdef_free(def);
    qg_vars_free(vars);
    qg_diags_free(diags);
    return o;
}

static const char *disk_top;

static outcome fd_from_disk(void)
{
    outcome o = {QG_ERR_NOMEM, NULL};
    qg_diags *diags = qg_diags_new();
    qg_level *level = NULL;
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    o.status = qg_fd_load_file(disk_top, &opt, NULL, &level, diags);
    if (o.status == QG_OK)
        o.text = render(level);
    qg_level_free(level);
    qg_diags_free(diags);
    return o;
}

static outcome quest_through_hub(void)
{
    outcome o = {QG_ERR_NOMEM, NULL};
    qg_diags *diags = qg_diags_new();
    qg_level *level = NULL;
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    char edit[4096], hub[4096];
    snprintf(edit, sizeof edit, "%s", test_src_path("lib/edit"));
    snprintf(hub, sizeof hub, "%s", test_src_path("lib/edit/q_info.txt"));
    opt.edit_dir = edit;
    o.status = qg_fd_load_quest(hub, 1, &opt, NULL, &level, diags);
    if (o.status == QG_OK)
        o.text = render(level);
    qg_level_free(level);
    qg_diags_free(diags);
    return o;
}

static outcome vocabulary(void)
{
    outcome o = {QG_ERR_NOMEM, NULL};
    qg_vocab *vocab = qg_vocab_new();
    qg_diags *diags = qg_diags_new();
    if (vocab)
        o.status = qg_vocab_load_dir(vocab, test_src_path("lib/edit"), diags);
    if (o.status == QG_OK) {
        armed = 0;
        const char *name = qg_vocab_name(vocab, QG_VOCAB_MONSTER, 7);
        if (asprintf(&o.text, "%zu %zu %s", qg_vocab_size(vocab, QG_VOCAB_FEATURE),
                     qg_vocab_size(vocab, QG_VOCAB_MONSTER), name ? name : "-") < 0)
            o.text = NULL;
        armed = 1;
    }
    qg_diags_free(diags);
    qg_vocab_free(vocab);
    return o;
}

static outcome mapping(void)
{
    outcome o = {QG_ERR_NOMEM, NULL};
    qg_mapping *m = qg_mapping_new();
    qg_diags *diags = qg_diags_new();
    if (m)
        o.status = qg_mapping_load_file(m, test_src_path("lib/edit/mapping.txt"), diags);
    if (o.status == QG_OK) {
        armed = 0;
        if (asprintf(&o.text, "%zu", qg_mapping_count(m)) < 0)
            o.text = NULL;
        armed = 1;
    }
    qg_diags_free(diags);
    qg_mapping_free(m);
    return o;
}

static qg_level *rendered_level;

/* Rendering: out of memory, or exactly the full run's text. */
static outcome rendering(void)
{
    outcome o = {QG_ERR_NOMEM, NULL};
    size_t len;
    FILE *out = open_memstream(&o.text, &len);
    assert_non_null(out);
    o.status = qg_render_text(rendered_level, NULL, out);
    armed = 0;
    fclose(out);
    armed = 1;
    if (o.status != QG_OK) {
        free(o.text);
        o.text = NULL;
    }
    return o;
}

static const char *atomic_path;

static int temporaries_beside(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    DIR *d = opendir(dir);
    assert_non_null(d);
    int found = 0;
    for (struct dirent *e; (e = readdir(d));)
        found += strncmp(e->d_name, slash + 1, strlen(slash + 1)) == 0 &&
                 strstr(e->d_name, ".tmp") != NULL;
    closedir(d);
    return found;
}

static void write_old_contents(void)
{
    atomic_path = test_write_temp("atomic.txt", "old contents\n", 13);
}

/* A failed write leaves the old file as it was and no temporary behind. */
static outcome atomic_write(void)
{
    outcome o = {QG_ERR_NOMEM, NULL};
    qg_diags *diags = qg_diags_new();
    o.status = qg_output_write_bytes(atomic_path, NULL, "new contents\n", 13, diags);
    armed = 0;
    FILE *f = fopen(atomic_path, "rb");
    char text[64] = "";
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[n] = '\0';
    if (f)
        fclose(f);
    if (o.status != QG_OK)
        assert_string_equal(text, "old contents\n");
    else
        o.text = strdup(text);
    assert_int_equal(temporaries_beside(atomic_path), 0);
    if (o.status == QG_OK)
        write_old_contents();
    armed = 1;
    qg_diags_free(diags);
    return o;
}

static qg_mapdef *cached_def;
static const char *cache_path;

/* A cache written from one level: the writer's scratch files, its index
 * made column by column, its compression and its check of what it wrote. */
static outcome cache_writing(void)
{
    outcome o = {QG_ERR_NOMEM, NULL};
    qg_diags *diags = qg_diags_new();
    qg_cache_writer *w = qg_cache_writer_new();
    if (diags && w) {
        qg_cache_source src = {"mem/top.txt", QG_FORMAT_FD, top_text, sizeof top_text - 1, 0, 0};
        const qg_mapdef *defs[1] = {cached_def};
        o.status = qg_cache_writer_add_file(w, &src, defs, 1, diags);
        if (o.status == QG_OK)
            o.status = qg_cache_writer_write(w, cache_path, NULL, diags);
    }
    if (o.status == QG_OK)
        o.text = strdup("written");
    qg_cache_writer_free(w);
    qg_diags_free(diags);
    return o;
}

static void fd_reader_from_memory(void **state)
{
    (void)state;
    long n;
    run_failing_each(fd_from_memory, &n);
    print_message("# %ld allocations failed one at a time\n", n);
}

static void fd_reader_from_disk(void **state)
{
    (void)state;
    test_write_temp("feat.txt", feat_text, sizeof feat_text - 1);
    char top[sizeof top_text];
    memcpy(top, top_text, sizeof top_text);
    disk_top = test_write_temp("top.txt", top, sizeof top_text - 1);
    long n;
    run_failing_each(fd_from_disk, &n);
    print_message("# %ld allocations failed one at a time\n", n);
}

static void fd_quest_hub(void **state)
{
    (void)state;
    long n;
    run_failing_each(quest_through_hub, &n);
    print_message("# %ld allocations failed one at a time\n", n);
}

static void vocabulary_loading(void **state)
{
    (void)state;
    long n;
    run_failing_each(vocabulary, &n);
    print_message("# %ld allocations failed one at a time\n", n);
}

static void mapping_loading(void **state)
{
    (void)state;
    long n;
    run_failing_each(mapping, &n);
    print_message("# %ld allocations failed one at a time\n", n);
}

static void text_rendering(void **state)
{
    (void)state;
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.source = serve;
    qg_diags *diags = qg_diags_new();
    qg_mapdef *def = NULL;
    assert_int_equal(qg_fd_parse("mem/top.txt", top_text, sizeof top_text - 1, &opt, &def, diags),
                     QG_OK);
    assert_int_equal(qg_fd_resolve(def, &opt, NULL, &rendered_level, diags), QG_OK);
    long n;
    run_failing_each(rendering, &n);
    print_message("# %ld allocations failed one at a time\n", n);
    qg_level_free(rendered_level);
    qg_mapdef_free(def);
    qg_diags_free(diags);
}

static void atomic_writes(void **state)
{
    (void)state;
    write_old_contents();
    long n;
    run_failing_each(atomic_write, &n);
    print_message("# %ld allocations failed one at a time\n", n);
}

static void cache_writes(void **state)
{
    (void)state;
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.source = serve;
    qg_diags *diags = qg_diags_new();
    assert_int_equal(qg_fd_parse("mem/top.txt", top_text, sizeof top_text - 1, &opt, &cached_def,
                                 diags),
                     QG_OK);
    cache_path = test_write_temp("nomem.qgc", "", 0);
    long n;
    run_failing_each(cache_writing, &n);
    print_message("# %ld allocations failed one at a time\n", n);
    qg_mapdef_free(cached_def);
    qg_diags_free(diags);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fd_reader_from_memory),
        cmocka_unit_test(fd_reader_from_disk),
        cmocka_unit_test(fd_quest_hub),
        cmocka_unit_test(vocabulary_loading),
        cmocka_unit_test(mapping_loading),
        cmocka_unit_test(text_rendering),
        cmocka_unit_test(atomic_writes),
        cmocka_unit_test(cache_writes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The seed documents' sample maps (../shared/seeds): the .des samples and
 * the F:/D: "Thieves Hideout" example go through every converter and keep
 * their cells. Skipped when the seeds are absent. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"
#include "core/buf.h"
#include "core/file.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *seeds_dir_or_skip(void)
{
    static char dir[4096];
    snprintf(dir, sizeof dir, "%s/../shared/seeds", test_srcdir());
    DIR *d = opendir(dir);
    if (!d)
        test_skip("the seed documents %s are not beside the source tree", dir);
    else
        closedir(d);
    return dir;
}

static char *read_seed(const char *name)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", seeds_dir_or_skip(), name);
    char *data = NULL;
    size_t len;
    return qg_read_file(path, QG_MAX_TEXT_FILE, &data, &len, NULL) == QG_OK ? data : NULL;
}

/* Lines of text that start with one of the prefixes, from the first line
 * starting with start on. */
static char *lines_starting(const char *text, const char *start, const char *const *prefixes)
{
    qg_buf out;
    qg_buf_init(&out);
    const char *p = strstr(text, start);
    while (p && *p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        for (int i = 0; prefixes[i]; i++)
            if (strncmp(p, prefixes[i], strlen(prefixes[i])) == 0) {
                qg_buf_append(&out, p, len);
                qg_buf_putc(&out, '\n');
                break;
            }
        p = nl ? nl + 1 : NULL;
    }
    return qg_buf_take(&out);
}

static void round_trip_level(const qg_level *level, const char *what)
{
    char *text;
    size_t len;
    qg_level *back = NULL;
    char diff[128] = "";
    assert_int_equal(qg_tmx_write(level, NULL, &text, &len, NULL), QG_OK);
    assert_int_equal(qg_tmx_read("seed.tmx", text, len, &back, NULL), QG_OK);
    if (!qg_level_equal(level, back, diff, sizeof diff))
        fail_msg("%s: TMX round trip differs: %s", what, diff);
    free(text);
    qg_level_free(back);
    unsigned char *xp;
    assert_int_equal(qg_xp_write(level, NULL, &xp, &len, NULL), QG_OK);
    assert_int_equal(qg_xp_read("seed.xp", xp, len, &back, NULL), QG_OK);
    for (int y = 0; y < qg_level_height(level); y++)
        for (int x = 0; x < qg_level_width(level); x++) {
            qg_cell a, b;
            qg_level_cell(level, x, y, &a);
            qg_level_cell(back, x, y, &b);
            if (a.in_map != b.in_map || a.glyph != b.glyph)
                fail_msg("%s: .xp glyph at (%d,%d) differs", what, x, y);
        }
    free(xp);
    qg_level_free(back);
}

/* Seed 004's Thieves Hideout: F:/D: -> F:/D: (same level), -> TMX, -> .xp,
 * -> .des (resolves). */
static void thieves_hideout_example(void **state)
{
    (void)state;
    char *doc = read_seed("004_d228cf16a03d9249.txt");
    assert_non_null(doc);
    static const char *const prefixes[] = {"F:", "D:", "# ", NULL};
    char *text = lines_starting(doc, "Example from", prefixes);
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.dialect = QG_FD_ZANGBAND;
    qg_mapdef *def = NULL;
    qg_diags *diags = qg_diags_new();
    assert_int_equal(qg_fd_parse("seed004.txt", text, strlen(text), &opt, &def, diags), QG_OK);
    qg_level *level = NULL;
    assert_int_equal(qg_fd_resolve(def, &opt, NULL, &level, diags), QG_OK);
    assert_int_equal(qg_level_width(level), 15);
    assert_int_equal(qg_level_height(level), 10);
    char *written;
    size_t len;
    assert_int_equal(qg_fd_write(def, NULL, &written, &len, diags), QG_OK);
    assert_string_equal(written, text);
    round_trip_level(level, "seed 004");
    char *des;
    qg_write_options wo = {0};
    assert_int_equal(qg_des_write_fd(def, &wo, &des, &len, diags), QG_OK);
    qg_des_file *file = NULL;
    assert_int_equal(qg_des_parse("seed004.des", des, len, NULL, NULL, &file, diags), QG_OK);
    assert_int_equal(qg_des_map_count(file), 1);
    qg_des_file_free(file);
    free(des);
    free(written);
    qg_level_free(level);
    qg_mapdef_free(def);
    qg_diags_free(diags);
    free(text);
    free(doc);
}

/* Each "NAME:" block of a seed (up to the blank line that ends it). */
static int des_samples(const char *name, int *resolved)
{
    char *doc = read_seed(name);
    assert_non_null(doc);
    int maps = 0;
    for (const char *p = strstr(doc, "\nNAME:"); p; p = strstr(p + 1, "\nNAME:")) {
        const char *end = strstr(p + 1, "\n\n");
        size_t len = end ? (size_t)(end - p) : strlen(p);
        qg_des_file *file = NULL;
        qg_diags *diags = qg_diags_new();
        qg_des_parse(name, p + 1, len, NULL, NULL, &file, diags);
        qg_runtime *rt = qg_runtime_new(NULL, diags);
        if (file && !qg_diags_count_severity(diags, QG_ERROR) && qg_des_map_count(file) == 1 &&
            qg_runtime_add_file(rt, file, diags) == QG_OK) {
            qg_mapdef *def = qg_runtime_map(rt, 0);
            qg_level *level = NULL;
            qg_context ctx = {"D:3", 5, NULL};
            maps++;
            if (qg_runtime_compile_map(rt, def, diags) == QG_OK &&
                qg_runtime_resolve(rt, def, 7, &ctx, &level, diags) == QG_OK) {
                (*resolved)++;
                round_trip_level(level, qg_mapdef_name(def));
                char *text;
                size_t n;
                assert_int_equal(qg_des_write_level(level, NULL, &text, &n, NULL), QG_OK);
                qg_des_file *again = NULL;
                assert_int_equal(qg_des_parse("again.des", text, n, NULL, NULL, &again, NULL),
                                 QG_OK);
                qg_des_file_free(again);
                free(text);
            }
            qg_level_free(level);
        } else {
            qg_des_file_free(file);
        }
        qg_runtime_free(rt);
        qg_diags_free(diags);
    }
    free(doc);
    return maps;
}

static void des_sample_maps(void **state)
{
    (void)state;
    int resolved = 0;
    int maps = des_samples("001_9111389328ff3c2e.txt", &resolved) +
               des_samples("003_80389d8de0b06e44.txt", &resolved);
    printf("# seed .des samples: %d maps read, %d resolved and converted\n", maps, resolved);
    assert_true(resolved >= 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(thieves_hideout_example),
        cmocka_unit_test(des_sample_maps),
    };
    return cmocka_run_group_tests_name("seeds", tests, NULL, NULL);
}

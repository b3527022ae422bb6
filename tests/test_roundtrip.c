/* Lossless round trips over the whole Angband corpus: every quest of
 * every dialect (Zangband 2.3.0, Hengband 2.2.1, ToME 2.4's maps, every
 * vault and room template of Angband 4.2.5), and every town, goes
 * F:/D: → .des → F:/D: and F:/D: → TMX → F:/D: and comes back the same
 * level (cells, flags, things, specials, markers, player start, name,
 * properties, and `show` output). Every file a writer emits on the way,
 * .xp included, is read back by questgrid's own reader without an error,
 * and a .des map within Crawl's 80 x 70 also resolves through the Lua
 * runtime. Skipped, saying why, when ../shared/corpus is absent. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct source {
    const char *dir;       /* under the corpus */
    qg_fd_dialect dialect;
    const char *file;      /* the hub or map file; NULL: every .map file */
    int first, last;       /* quest or map numbers to try (0, 0: the file) */
    const char *town_var;  /* set TOWN to the number instead of QUEST_NUMBER */
} source;

static const source sources[] = {
    {"angband/zangband-2.3.0/lib/edit", QG_FD_ZANGBAND, "q_info.txt", 1, 99, NULL},
    {"angband/zangband-2.3.0/lib/edit", QG_FD_ZANGBAND, "t_info.txt", 1, 5, "TOWN"},
    {"angband/hengband-2.2.1/lib/edit", QG_FD_HENGBAND, "q_info.txt", 1, 99, NULL},
    {"angband/hengband-2.2.1/lib/edit", QG_FD_HENGBAND, "t_info.txt", 1, 6, "TOWN"},
    {"angband/tome-2.4/lib/edit", QG_FD_TOME, NULL, 0, 0, NULL},
    {"angband/angband-4.2.5/lib/gamedata", QG_FD_ANGBAND4, "vault.txt", 1, 162, NULL},
    {"angband/angband-4.2.5/lib/gamedata", QG_FD_ANGBAND4_ROOMS, "room_template.txt", 1, 500,
     NULL},
};

typedef struct tally {
    int levels, des_exact, tmx_exact, des_lua;
} tally;

typedef struct env {
    char dir[4096];
    qg_vocab *vocab;
    qg_fd_options opt;
    qg_runtime *rt;
    tally t;
} env;

static int open_env(const source *s, env *e)
{
    const char *path = test_corpus_path_or_skip(s->dir);
    if (!path)
        return 0;
    snprintf(e->dir, sizeof e->dir, "%s", path);
    e->vocab = qg_vocab_new();
    assert_int_equal(qg_fd_load_vocab(e->vocab, s->dialect, e->dir, NULL), QG_OK);
    qg_fd_options_init(&e->opt);
    e->opt.dialect = s->dialect;
    e->opt.edit_dir = e->dir;
    e->opt.vocab = e->vocab;
    memset(&e->t, 0, sizeof e->t);
    return 1;
}

static char *render(const qg_level *l, const qg_vocab *vocab)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    qg_render_text(l, vocab, f);
    fclose(f);
    return text;
}

/* The levels are the same, to the byte of their text. */
static void assert_same(const qg_level *a, const qg_level *b, const qg_vocab *vocab,
                        const char *what)
{
    char diff[256] = "";
    int equal = qg_level_equal(a, b, diff, sizeof diff);
    if (!equal)
        fprintf(stderr, "# %s: %s\n", what, diff);
    assert_true(equal);
    char *ra = render(a, vocab), *rb = render(b, vocab);
    assert_string_equal(ra, rb);
    free(ra);
    free(rb);
}

static void assert_ok(qg_status st, const qg_diags *d, const char *what)
{
    if (st != QG_OK) {
        fprintf(stderr, "# %s: %s\n", what, qg_status_string(st));
        qg_diags_print(d, stderr);
    }
    assert_int_equal(st, QG_OK);
}

static void assert_no_errors(const qg_diags *d, const char *what)
{
    if (qg_diags_count_severity(d, QG_ERROR)) {
        fprintf(stderr, "# %s:\n", what);
        qg_diags_print(d, stderr);
    }
    assert_int_equal(qg_diags_count_severity(d, QG_ERROR), 0);
}

/* F:/D: written from a level and read back under the source's file name
 * (which names a ToME map and tells a town from a quest). */
static qg_level *through_fd(env *e, const qg_level *l, const char *path, const char *what)
{
    qg_write_options wo;
    memset(&wo, 0, sizeof wo);
    wo.vocab = e->vocab;
    qg_diags *d = qg_diags_new();
    char *text = NULL;
    size_t len = 0;
    assert_ok(qg_fd_write_level(l, &wo, &text, &len, d), d, what);
    qg_fd_options opt = e->opt;
    opt.no_includes = 1;
    qg_mapdef *def = NULL;
    qg_fd_parse(path, text, len, &opt, &def, d);
    assert_non_null(def);
    qg_level *back = NULL;
    qg_fd_resolve(def, &opt, NULL, &back, d);
    if (!back)
        fprintf(stderr, "# %s: the written F:/D: does not resolve\n%s", what, text);
    assert_non_null(back);
    qg_mapdef_free(def);
    qg_diags_free(d);
    free(text);
    return back;
}

/* Crawl's side of a .des map: it resolves through the Lua runtime. */
static void assert_des_resolves(env *e, const char *text, size_t len, const char *what)
{
    qg_diags *d = qg_diags_new();
    qg_des_file *file = NULL;
    qg_des_parse("written.des", text, len, NULL, NULL, &file, d);
    assert_no_errors(d, what);
    assert_non_null(file);
    if (!e->rt)
        e->rt = qg_runtime_new(NULL, d);
    qg_level *resolved = NULL;
    qg_mapdef *def = qg_des_map(file, 0);
    assert_ok(qg_runtime_run_prelude(e->rt, file, d), d, what);
    assert_ok(qg_runtime_resolve(e->rt, def, 0, NULL, &resolved, d), d, what);
    e->t.des_lua++;
    qg_level_free(resolved);
    qg_des_file_free(file);
    qg_diags_free(d);
}

static void des_round_trip(env *e, const qg_level *l, const char *path, const char *what)
{
    qg_write_options wo;
    memset(&wo, 0, sizeof wo);
    wo.vocab = e->vocab;
    wo.des_oversize = 1;
    qg_diags *d = qg_diags_new();
    char *text = NULL;
    size_t len = 0;
    assert_ok(qg_des_write_level(l, &wo, &text, &len, d), d, what);
    qg_des_file *file = NULL;
    qg_des_parse("written.des", text, len, NULL, NULL, &file, d);
    assert_no_errors(d, what);
    qg_des_file_free(file);
    if (qg_level_width(l) <= 80 && qg_level_height(l) <= 70)
        assert_des_resolves(e, text, len, what);
    qg_level *read = NULL;
    assert_ok(qg_des_read_level("written.des", text, len, NULL, &read, d), d, what);
    assert_same(l, read, e->vocab, what);
    qg_level *back = through_fd(e, read, path, what);
    assert_same(l, back, e->vocab, what);
    e->t.des_exact++;
    qg_level_free(back);
    qg_level_free(read);
    qg_diags_free(d);
    free(text);
}

static void tmx_round_trip(env *e, const qg_level *l, const char *path, const char *what)
{
    qg_diags *d = qg_diags_new();
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(qg_tmx_write(l, NULL, &text, &len, d), QG_OK);
    qg_level *read = NULL;
    assert_int_equal(qg_tmx_read("written.tmx", text, len, &read, d), QG_OK);
    assert_no_errors(d, what);
    qg_level *back = through_fd(e, read, path, what);
    assert_same(l, back, e->vocab, what);
    e->t.tmx_exact++;
    unsigned char *xp = NULL;
    size_t xp_len = 0;
    qg_level *xp_level = NULL;
    assert_int_equal(qg_xp_write(l, NULL, &xp, &xp_len, d), QG_OK);
    assert_int_equal(qg_xp_read("written.xp", xp, xp_len, &xp_level, d), QG_OK);
    assert_no_errors(d, what);
    qg_level_free(xp_level);
    free(xp);
    qg_level_free(back);
    qg_level_free(read);
    qg_diags_free(d);
    free(text);
}

static void round_trips(env *e, const qg_level *l, const char *path, const char *what)
{
    e->t.levels++;
    des_round_trip(e, l, path, what);
    tmx_round_trip(e, l, path, what);
}

/* A quest (or town, or map) of a hub; NULL when the hub has none. */
static qg_level *load_numbered(env *e, const source *s, const char *path, int n)
{
    qg_vars *vars = qg_vars_new();
    qg_vars_set_int(vars, s->town_var ? s->town_var : "QUEST_NUMBER", n);
    qg_vars_set(vars, "WILDERNESS", "NONE");
    qg_diags *d = qg_diags_new();
    qg_level *l = NULL;
    qg_fd_load_file(path, &e->opt, vars, &l, d);
    int defined = l && (qg_level_get_property(l, "quest") || qg_level_width(l) > 1 ||
                        qg_level_height(l) > 1);
    if (!defined) {
        qg_level_free(l);
        l = NULL;
    }
    qg_diags_free(d);
    qg_vars_free(vars);
    return l;
}

static void run_source(const source *s)
{
    env e;
    memset(&e, 0, sizeof e);
    if (!open_env(s, &e))
        return;
    char path[8192], what[8300];
    if (s->file) {
        snprintf(path, sizeof path, "%s/%s", e.dir, s->file);
        for (int n = s->first; n <= s->last; n++) {
            qg_level *l = load_numbered(&e, s, path, n);
            if (!l)
                continue;
            snprintf(what, sizeof what, "%s #%d", path, n);
            round_trips(&e, l, path, what);
            qg_level_free(l);
        }
    } else {
        DIR *dir = opendir(e.dir);
        assert_non_null(dir);
        struct dirent *ent;
        while ((ent = readdir(dir))) {
            size_t n = strlen(ent->d_name);
            if (n < 5 || strcmp(ent->d_name + n - 4, ".map") != 0)
                continue;
            snprintf(path, sizeof path, "%s/%s", e.dir, ent->d_name);
            qg_level *l = NULL;
            qg_diags *d = qg_diags_new();
            qg_fd_load_file(path, &e.opt, NULL, &l, d);
            qg_diags_free(d);
            assert_non_null(l);
            round_trips(&e, l, path, path);
            qg_level_free(l);
        }
        closedir(dir);
    }
    printf("# %s%s%s: %d levels, .des round trips exact %d/%d, TMX %d/%d, resolved by the Lua "
           "runtime %d\n", s->dir, s->file ? "/" : "", s->file ? s->file : "", e.t.levels,
           e.t.des_exact, e.t.levels, e.t.tmx_exact, e.t.levels, e.t.des_lua);
    assert_true(e.t.levels > 0);
    qg_runtime_free(e.rt);
    qg_vocab_free(e.vocab);
}

static void zangband_quests(void **state) { (void)state; run_source(&sources[0]); }
static void zangband_towns(void **state) { (void)state; run_source(&sources[1]); }
static void hengband_quests(void **state) { (void)state; run_source(&sources[2]); }
static void hengband_towns(void **state) { (void)state; run_source(&sources[3]); }
static void tome_maps(void **state) { (void)state; run_source(&sources[4]); }
static void angband4_vaults(void **state) { (void)state; run_source(&sources[5]); }
static void angband4_rooms(void **state) { (void)state; run_source(&sources[6]); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zangband_quests), cmocka_unit_test(zangband_towns),
        cmocka_unit_test(hengband_quests), cmocka_unit_test(hengband_towns),
        cmocka_unit_test(tome_maps),       cmocka_unit_test(angband4_vaults),
        cmocka_unit_test(angband4_rooms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

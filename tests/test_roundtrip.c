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
#include "roundtrip_util.h"

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

static void round_trips(env *e, const qg_level *l, const char *path, const char *what)
{
    e->t.levels++;
    rt_counts c = {0, 0, 0};
    rt_level_round_trips(&e->rt, l, &e->opt, path, what, &c);
    e->t.des_exact += c.des_exact;
    e->t.tmx_exact += c.tmx_exact;
    e->t.des_lua += c.des_lua;
}

/* A quest (or town, or map) of a hub; NULL when the hub has none. */
static qg_level *load_numbered(env *e, const source *s, const char *path, int n)
{
    qg_vars *vars = qg_vars_new();
    qg_vars_set_int(vars, s->town_var ? s->town_var : "QUEST_NUMBER", n);
    qg_vars_set(vars, "WILDERNESS", "NONE");
    qg_vars_set(vars, "QUEST17", "1"); /* Zangband's town 5 needs it */
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

/* Conversions over Debian crawl 0.28's whole corpus (issue 27): every map
 * that resolves (seed 0, at its own place) goes
 *   .des -> F:/D: for Zangband 2.3.5 -> .des for Crawl 0.28
 * and no cell changes feature class on the way; each file written is read
 * back by its reader (the F:/D: with Zangband 2.3.5's own indices, the
 * .des with 0.28's names); what is refused is counted by its reason.
 * Then the same maps are written for every Angband-family dialect and
 * `questgrid check --dialect D` reads each file: what that game would
 * refuse (a tag it lacks, a record it cannot read) it reports.
 * Skipped, saying why, without /usr/share/crawl/dat (or QG_CRAWL_DAT). */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"
#include "core/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct corpus {
    const char *dat;
    qg_branches *branches;
    qg_runtime *rt;
    qg_diags *diags;
} corpus;

static qg_runtime *load(corpus *c)
{
    char *vocab_dir = NULL;
    if (qg_data_find("des/vocab", &vocab_dir, c->diags) != QG_OK ||
        qg_branches_load(vocab_dir, "crawl-0.28", &c->branches, c->diags) != QG_OK) {
        free(vocab_dir);
        return NULL;
    }
    free(vocab_dir);
    char *dlua = qg_path_join(c->dat, "dlua");
    const char *paths[1] = {dlua};
    qg_runtime_options opts = {paths, 1, 0, 0, c->branches};
    qg_runtime *rt = qg_runtime_new(&opts, c->diags);
    char **files = NULL;
    size_t count = 0;
    if (rt && qg_runtime_library_des_files(rt, &files, &count, c->diags) == QG_OK) {
        qg_des_names *names = qg_des_names_new();
        for (size_t i = 0; i < count; i++) {
            char *path = qg_path_join(c->dat, files[i]);
            qg_des_file *file = NULL;
            if (qg_des_load(path, NULL, names, &file, c->diags) == QG_OK && file)
                qg_runtime_add_file(rt, file, c->diags);
            else
                qg_des_file_free(file);
            free(path);
            free(files[i]);
        }
        qg_des_names_free(names);
    }
    free(files);
    free(dlua);
    return rt;
}

static int setup(void **state)
{
    static corpus c;
    const char *dat = getenv("QG_CRAWL_DAT");
    c.dat = dat && *dat ? dat : "/usr/share/crawl/dat";
    *state = &c;
    char *loadmaps = qg_path_join(c.dat, "dlua/loadmaps.lua");
    FILE *probe = loadmaps ? fopen(loadmaps, "r") : NULL;
    free(loadmaps);
    if (!probe)
        return 0;
    fclose(probe);
    c.diags = qg_diags_new();
    c.rt = load(&c);
    return 0;
}

static int teardown(void **state)
{
    corpus *c = *state;
    qg_runtime_free(c->rt);
    qg_branches_free(c->branches);
    qg_diags_free(c->diags);
    return 0;
}

/* The map resolved at the first place its DEPTH (or PLACE) names, else at
 * D:1; NULL when it resolves at neither. */
static qg_level *resolve(corpus *c, qg_mapdef *def)
{
    qg_diags_clear(c->diags);
    qg_runtime_compile_map(c->rt, def, c->diags);
    char place[64] = "D:1";
    const char *depth = qg_mapdef_get_property(def, "depth");
    if (!depth || !*depth)
        depth = qg_mapdef_get_property(def, "place");
    if (depth && *depth && depth[0] != '!') {
        size_t n = strcspn(depth, ", ");
        snprintf(place, sizeof place, "%.*s", (int)n, depth);
        char *dash = strchr(place, '-');
        if (dash)
            *dash = '\0';
        qg_diags *quiet = qg_diags_new();
        if (qg_branches_check_place(c->branches, place, quiet) != QG_OK)
            snprintf(place, sizeof place, "D:1");
        qg_diags_free(quiet);
    }
    const char *places[2] = {place, "D:1"};
    for (int i = 0; i < 2; i++) {
        qg_context ctx = {places[i], 10, NULL};
        qg_level *level = NULL;
        qg_diags_clear(c->diags);
        if (qg_runtime_resolve(c->rt, def, 0, &ctx, &level, c->diags) == QG_OK)
            return level;
        qg_level_free(level);
    }
    return NULL;
}

/* ---- refusals, by reason ------------------------------------------------ */

#define MAX_REASONS 256

typedef struct reasons {
    char *text[MAX_REASONS];
    int maps[MAX_REASONS];
    int count;
} reasons;

/* The error's reason without the map's own words: its first line, or
 * for a translator's refusal the classes refused ("altar, statue"). */
static void add_reason(reasons *r, const qg_diags *d)
{
    char key[256] = "(no error)";
    for (size_t i = 0; i < qg_diags_count(d); i++) {
        const qg_diag *g = qg_diags_get(d, i);
        if (g->severity != QG_ERROR)
            continue;
        const char *list = strchr(g->message, '\n');
        snprintf(key, sizeof key, "%.*s", (int)strcspn(g->message, "0123456789\n"),
                 g->message);
        if (list) {
            char classes[16][48];
            int n = 0;
            for (const char *p = list; (p = strchr(p, '\n')) && n < 16; p++) {
                const char *end = strchr(p + 1, '\n');
                end = end ? end : p + strlen(p);
                const char *open = end;
                while (open > p && *open != '(')
                    open--;
                char cls[48];
                snprintf(cls, sizeof cls, "%.*s", (int)(end - open), open);
                if (strstr(cls, "no class")) {
                    /* what questgrid does not know: its kind and name */
                    const char *quote = strchr(p + 1, '\'');
                    const char *close = quote ? strchr(quote + 1, '\'') : NULL;
                    snprintf(cls, sizeof cls, "%.*s", close && close < end ?
                             (int)(close - p) : 20, p + 3);
                }
                int seen = 0;
                for (int k = 0; k < n; k++)
                    seen |= strcmp(classes[k], cls) == 0;
                if (!seen)
                    strcpy(classes[n++], cls);
            }
            /* sorted, so that maps refusing the same classes meet */
            for (int a = 0; a < n; a++)
                for (int b = a + 1; b < n; b++)
                    if (strcmp(classes[a], classes[b]) > 0) {
                        char t[48];
                        strcpy(t, classes[a]);
                        strcpy(classes[a], classes[b]);
                        strcpy(classes[b], t);
                    }
            size_t at = 0;
            at += (size_t)snprintf(key, sizeof key, "nothing of the class");
            for (int k = 0; k < n && at < sizeof key; k++)
                at += (size_t)snprintf(key + at, sizeof key - at, " %s", classes[k]);
        }
        break;
    }
    int i = 0;
    while (i < r->count && strcmp(r->text[i], key) != 0)
        i++;
    if (i == r->count && r->count < MAX_REASONS)
        r->text[r->count++] = strdup(key);
    if (i < r->count)
        r->maps[i]++;
}

static void print_reasons(reasons *r, const char *what)
{
    for (int i = 0; i < r->count; i++) {
        print_message("# %s: %5d maps:%s\n", what, r->maps[i], r->text[i]);
        free(r->text[i]);
    }
}

/* ---- .des -> F:/D: -> .des ---------------------------------------------- */

typedef struct trip {
    qg_game *crawl, *zang;
    qg_vocab *zang_vocab;
    qg_des_vocab *names;
    int maps, resolved, written, back, changed_cells, changed_maps, des_rejected, fd_rejected;
    reasons refused;
} trip;

static const char *cell_class(const qg_game *g, const qg_cell *cell)
{
    return qg_game_class(g, QG_VOCAB_FEATURE, cell->feature, cell->feature_name);
}

/* Every cell's feature class: the Crawl map's, the Zangband level's and
 * the .des written from it, the same. */
static int classes_kept(trip *t, const qg_level *crawl, const qg_level *zang,
                        qg_translator *back)
{
    int changed = 0;
    for (int y = 0; y < qg_level_height(crawl); y++)
        for (int x = 0; x < qg_level_width(crawl); x++) {
            qg_cell a, b;
            qg_level_cell(crawl, x, y, &a);
            qg_level_cell(zang, x, y, &b);
            if (!a.in_map)
                continue;
            int32_t index;
            const char *name = NULL;
            const char *ca = cell_class(t->crawl, &a), *cb = cell_class(t->zang, &b);
            const char *cc = qg_translate_feature(back, b.feature, NULL, &index, &name)
                                 ? qg_game_class(t->crawl, QG_VOCAB_FEATURE, -1, name)
                                 : NULL;
            if (!ca || !cb || !cc || strcmp(ca, cb) != 0 || strcmp(cb, cc) != 0) {
                if (!changed++)
                    print_message("# class changed: %s at (%d,%d): %s '%s' -> %s -> %s '%s'\n",
                                  qg_level_name(crawl), x, y, ca ? ca : "?",
                                  a.feature_name ? a.feature_name : "", cb ? cb : "?",
                                  cc ? cc : "?", name ? name : "");
            }
        }
    return changed;
}

static void round_trip(trip *t, const qg_level *level)
{
    qg_diags *d = qg_diags_new();
    qg_translator *there = qg_translator_new(t->crawl, NULL, t->zang, 0);
    qg_write_options wo = {.vocab = t->zang_vocab, .fd_dialect = QG_FD_ZANGBAND235,
                           .translator = there};
    char *fd = NULL;
    size_t fd_len = 0;
    qg_status st = qg_fd_write_level(level, &wo, &fd, &fd_len, d);
    qg_translator_report(there, d);
    if (st != QG_OK || qg_diags_count_severity(d, QG_ERROR)) {
        add_reason(&t->refused, d);
        goto done;
    }
    t->written++;
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.dialect = QG_FD_ZANGBAND235;
    opt.vocab = t->zang_vocab;
    opt.no_includes = 1;
    qg_mapdef *def = NULL;
    qg_level *zang = NULL;
    if (qg_fd_parse("written.txt", fd, fd_len, &opt, &def, d) == QG_OK)
        qg_fd_resolve(def, &opt, NULL, &zang, d);
    qg_mapdef_free(def);
    if (!zang || qg_diags_count_severity(d, QG_ERROR)) {
        t->fd_rejected++;
        qg_diags_print(d, stderr);
        qg_level_free(zang);
        goto done;
    }
    qg_translator *back = qg_translator_new(t->zang, NULL, t->crawl, 0);
    qg_write_options bo = {.translator = back};
    char *des = NULL;
    size_t des_len = 0;
    st = qg_des_write_level(zang, &bo, &des, &des_len, d);
    qg_translator_report(back, d);
    qg_read_back rb = {QG_FD_AUTO, NULL, t->names, 0};
    if (st != QG_OK || qg_diags_count_severity(d, QG_ERROR) ||
        qg_read_written(QG_FORMAT_DES, des, des_len, &rb, d) != QG_OK) {
        t->des_rejected++;
        qg_diags_print(d, stderr);
    } else {
        t->back++;
        int changed = classes_kept(t, level, zang, back);
        t->changed_cells += changed;
        t->changed_maps += changed > 0;
    }
    free(des);
    qg_translator_free(back);
    qg_level_free(zang);
done:
    free(fd);
    qg_translator_free(there);
    qg_diags_free(d);
}

static void trip_open(trip *t, qg_diags *diags)
{
    memset(t, 0, sizeof *t);
    assert_int_equal(qg_game_load(NULL, "crawl-0.28", &t->crawl, diags), QG_OK);
    assert_int_equal(qg_game_load(NULL, "zangband235", &t->zang, diags), QG_OK);
    t->zang_vocab = qg_game_vocab(t->zang);
    char *dir = NULL;
    assert_int_equal(qg_data_find("des/vocab", &dir, diags), QG_OK);
    assert_int_equal(qg_des_vocab_load(dir, "crawl-0.28", &t->names, diags), QG_OK);
    free(dir);
}

static void trip_close(trip *t)
{
    print_message("# crawl 0.28 -> zangband235 -> crawl 0.28: %d maps, %d resolve, %d written "
                  "as F:/D:, %d back as .des; refused %d; F:/D: rejected by its reader %d, "
                  ".des by 0.28's names %d; cells of another class %d (in %d maps)\n",
                  t->maps, t->resolved, t->written, t->back, t->resolved - t->written,
                  t->fd_rejected, t->des_rejected, t->changed_cells, t->changed_maps);
    print_reasons(&t->refused, "refused");
    assert_true(t->resolved > 4000);
    assert_true(t->written > t->resolved / 2);
    assert_int_equal(t->fd_rejected, 0);
    assert_int_equal(t->des_rejected, 0);
    assert_int_equal(t->changed_cells, 0);
    assert_int_equal(t->back, t->written);
    qg_des_vocab_free(t->names);
    qg_vocab_free(t->zang_vocab);
    qg_game_free(t->crawl);
    qg_game_free(t->zang);
}

/* ---- .des -> every dialect, read by check --dialect ----------------------- */

static const qg_fd_dialect dialects[] = {
    QG_FD_ZANGBAND, QG_FD_ZANGBAND235, QG_FD_HENGBAND, QG_FD_HENGBAND3, QG_FD_POSCHENGBAND,
    QG_FD_FROGCOMPOSBAND, QG_FD_POSCHENGBAND7, QG_FD_TOME, QG_FD_ANGBAND4};
#define DIALECTS (sizeof dialects / sizeof *dialects)
#define BATCH 1000

typedef struct per_dialect {
    qg_game *game;
    qg_vocab *vocab;
    int written, in_batch, checked_bad;
    reasons refused;
} per_dialect;

static const char *game_name(qg_fd_dialect d)
{
    return qg_fd_dialect_name(d);
}

/* `questgrid check --dialect D` over the batch's files of one dialect;
 * the number of files it reports errors in. */
static int check_batch(qg_fd_dialect d, int files)
{
    if (!files)
        return 0;
    const char *build = getenv("QG_BUILDDIR");
    char here[4096] = ".";
    if (!build || !*build)
        build = getcwd(here, sizeof here) ? here : ".";
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && '%s/questgrid' check --dialect %s --max-errors=0 %s-*.txt 2>&1 | "
             "grep -c ': error: '", test_temp_dir(), build, game_name(d), game_name(d));
    FILE *p = popen(cmd, "r");
    int errors = 0;
    if (p) {
        if (fscanf(p, "%d", &errors) != 1)
            errors = -1;
        pclose(p);
    }
    snprintf(cmd, sizeof cmd, "rm -f '%s'/%s-*.txt", test_temp_dir(), game_name(d));
    if (system(cmd) != 0)
        errors = -1;
    return errors;
}

static void write_for(per_dialect *p, qg_fd_dialect d, const qg_game *crawl,
                      const qg_level *level, int n)
{
    qg_diags *diag = qg_diags_new();
    qg_translator *tr = qg_translator_new(crawl, NULL, p->game, 0);
    qg_write_options wo = {.vocab = p->vocab, .fd_dialect = d, .translator = tr};
    char *text = NULL;
    size_t len = 0;
    qg_status st = qg_fd_write_level(level, &wo, &text, &len, diag);
    qg_translator_report(tr, diag);
    if (st == QG_OK && !qg_diags_count_severity(diag, QG_ERROR)) {
        char name[64];
        snprintf(name, sizeof name, "%s-%05d.txt", game_name(d), n);
        test_write_temp(name, text, len);
        p->written++;
        p->in_batch++;
    } else {
        add_reason(&p->refused, diag);
    }
    free(text);
    qg_translator_free(tr);
    qg_diags_free(diag);
}

/* One pass over the corpus (each map resolved once) for both. */
static void corpus_conversions(void **state)
{
    corpus *c = *state;
    if (!c->rt)
        test_skip("Crawl's data %s is not installed (tools/test-deps)", c->dat);
    trip t;
    trip_open(&t, c->diags);
    qg_game *crawl = NULL;
    assert_int_equal(qg_game_load(NULL, "crawl-0.28", &crawl, c->diags), QG_OK);
    per_dialect p[DIALECTS];
    memset(p, 0, sizeof p);
    for (size_t k = 0; k < DIALECTS; k++) {
        assert_int_equal(qg_game_load(NULL, game_name(dialects[k]), &p[k].game, c->diags), QG_OK);
        p[k].vocab = qg_game_vocab(p[k].game);
    }
    /* check reports what a game refuses: a file it must refuse */
    static const char canary[] = "F:.:floor\nD:...\n";
    test_write_temp("poschengband-canary.txt", canary, sizeof canary - 1);
    assert_true(check_batch(QG_FD_POSCHENGBAND, 1) >= 1);
    size_t n = qg_runtime_map_count(c->rt);
    int resolved = 0, in_batch = 0;
    for (size_t i = 0; i < n; i++) {
        t.maps++;
        qg_level *level = resolve(c, qg_runtime_map(c->rt, i));
        if (!level)
            continue;
        resolved++;
        t.resolved++;
        round_trip(&t, level);
        for (size_t k = 0; k < DIALECTS; k++)
            write_for(&p[k], dialects[k], crawl, level, (int)i);
        qg_level_free(level);
        if (++in_batch == BATCH || i + 1 == n) {
            for (size_t k = 0; k < DIALECTS; k++) {
                p[k].checked_bad += check_batch(dialects[k], p[k].in_batch);
                p[k].in_batch = 0;
            }
            in_batch = 0;
        }
    }
    trip_close(&t);
    for (size_t k = 0; k < DIALECTS; k++) {
        print_message("# crawl 0.28 -> %s: %d of %d maps written, check --dialect %s: %d "
                      "errors\n", game_name(dialects[k]), p[k].written, resolved,
                      game_name(dialects[k]), p[k].checked_bad);
        print_reasons(&p[k].refused, game_name(dialects[k]));
    }
    for (size_t k = 0; k < DIALECTS; k++) {
        /* Angband 4.2's vaults say no more than their legend's glyphs */
        if (dialects[k] != QG_FD_ANGBAND4)
            assert_true(p[k].written > 0);
        assert_int_equal(p[k].checked_bad, 0);
        qg_vocab_free(p[k].vocab);
        qg_game_free(p[k].game);
    }
    qg_game_free(crawl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus_conversions),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

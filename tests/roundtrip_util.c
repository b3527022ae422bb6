/* Round trips of one level through .des and TMX back to F:/D:, shared by
 * the corpus and the dialect fixture tests. */
#define _POSIX_C_SOURCE 200809L
#include "roundtrip_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rt_env {
    qg_runtime **rt;
    const qg_fd_options *opt;
    rt_counts *counts;
} rt_env;

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

/* A cell outside the map between cells of the map in its row: F:/D: has
 * no letter that leaves a cell alone (save ToME's), so it comes back as
 * floor. */
static int hole(const qg_level *l, int x, int y)
{
    int left = 0, right = 0;
    qg_cell c;
    for (int i = 0; i < x && !left; i++)
        left = qg_level_cell(l, i, y, &c) == QG_OK && c.in_map;
    for (int i = x + 1; i < qg_level_width(l) && !right; i++)
        right = qg_level_cell(l, i, y, &c) == QG_OK && c.in_map;
    return left && right;
}

/* 1 when a level's holes came back as cells of the map (not in ToME and
 * Angband 4.2, whose maps leave a cell alone); then every other cell of
 * back is a's. */
static int holes_now_floor(const qg_level *a, const qg_level *back, const char *what)
{
    int holes = 0;
    for (int y = 0; y < qg_level_height(a); y++)
        for (int x = 0; x < qg_level_width(a); x++) {
            qg_cell ca, cb;
            qg_level_cell(a, x, y, &ca);
            if (!ca.in_map && hole(a, x, y) && qg_level_cell(back, x, y, &cb) == QG_OK &&
                cb.in_map)
                holes++;
        }
    for (int y = 0; holes && y < qg_level_height(a); y++)
        for (int x = 0; x < qg_level_width(a); x++) {
            qg_cell ca, cb;
            qg_level_cell(a, x, y, &ca);
            qg_level_cell(back, x, y, &cb);
            if (!ca.in_map && hole(a, x, y))
                continue;
            if (!qg_cell_same(&ca, &cb))
                fprintf(stderr, "# %s: cell (%d,%d) differs\n", what, x, y);
            assert_true(qg_cell_same(&ca, &cb));
        }
    return holes > 0;
}

/* F:/D: written from a level and read back under the source's file name
 * (which names a ToME map and tells a town from a quest). */
static qg_level *through_fd(rt_env *e, const qg_level *l, const char *path, const char *what)
{
    qg_write_options wo;
    memset(&wo, 0, sizeof wo);
    wo.vocab = e->opt->vocab;
    qg_diags *d = qg_diags_new();
    char *text = NULL;
    size_t len = 0;
    assert_ok(qg_fd_write_level(l, &wo, &text, &len, d), d, what);
    qg_fd_options opt = *e->opt;
    opt.no_includes = 1;
    /* the level is built already: read back, it is not turned again */
    opt.seeded = 0;
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
static void assert_des_resolves(rt_env *e, const char *text, size_t len, const char *what)
{
    qg_diags *d = qg_diags_new();
    qg_des_file *file = NULL;
    qg_des_parse("written.des", text, len, NULL, NULL, &file, d);
    assert_no_errors(d, what);
    assert_non_null(file);
    if (!*e->rt)
        *e->rt = qg_runtime_new(NULL, d);
    qg_level *resolved = NULL;
    qg_mapdef *def = qg_des_map(file, 0);
    assert_ok(qg_runtime_run_prelude(*e->rt, file, d), d, what);
    assert_ok(qg_runtime_resolve(*e->rt, def, 0, NULL, &resolved, d), d, what);
    e->counts->des_lua++;
    qg_level_free(resolved);
    qg_des_file_free(file);
    qg_diags_free(d);
}

static void des_round_trip(rt_env *e, const qg_level *l, const char *path, const char *what)
{
    qg_write_options wo;
    memset(&wo, 0, sizeof wo);
    wo.vocab = e->opt->vocab;
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
    assert_same(l, read, e->opt->vocab, what);
    qg_level *back = through_fd(e, read, path, what);
    if (!holes_now_floor(l, back, what))
        assert_same(l, back, e->opt->vocab, what);
    e->counts->des_exact++;
    qg_level_free(back);
    qg_level_free(read);
    qg_diags_free(d);
    free(text);
}

static void tmx_round_trip(rt_env *e, const qg_level *l, const char *path, const char *what)
{
    qg_diags *d = qg_diags_new();
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(qg_tmx_write(l, NULL, &text, &len, d), QG_OK);
    qg_level *read = NULL;
    assert_int_equal(qg_tmx_read("written.tmx", text, len, &read, d), QG_OK);
    assert_no_errors(d, what);
    qg_level *back = through_fd(e, read, path, what);
    if (!holes_now_floor(l, back, what))
        assert_same(l, back, e->opt->vocab, what);
    e->counts->tmx_exact++;
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

void rt_level_round_trips(qg_runtime **rt, const qg_level *l, const qg_fd_options *opt,
                          const char *path, const char *what, rt_counts *counts)
{
    rt_env e = {rt, opt, counts};
    des_round_trip(&e, l, path, what);
    tmx_round_trip(&e, l, path, what);
}

/* A dialect's fixture: see fd_fixture.h. */
#define _POSIX_C_SOURCE 200809L
#include "fd_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void open_fixture(fixture *f, const char *name)
{
    memset(f, 0, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "%s", test_src_path("tests/data/fd/dialects"));
    size_t n = strlen(f->dir);
    snprintf(f->dir + n, sizeof f->dir - n, "/%s", name);
    f->dialect = qg_fd_detect_edit_dir(f->dir, NULL);
    f->vocab = qg_vocab_new();
    f->diags = qg_diags_new();
    assert_int_equal(qg_fd_load_vocab(f->vocab, f->dialect, f->dir, f->diags), QG_OK);
    qg_fd_options_init(&f->opt);
    f->opt.dialect = f->dialect;
    f->opt.edit_dir = f->dir;
    f->opt.vocab = f->vocab;
    f->opt.check_vocab = 1;
}

void close_fixture(fixture *f)
{
    qg_runtime_free(f->rt);
    qg_vocab_free(f->vocab);
    qg_diags_free(f->diags);
}

const char *file_of(const fixture *f, const char *name)
{
    static char path[8192];
    snprintf(path, sizeof path, "%s/%s", f->dir, name);
    return path;
}

qg_level *quest(fixture *f, const char *hub, int number, qg_vars *vars)
{
    qg_level *l = NULL;
    const char *path = file_of(f, hub);
    qg_fd_load_quest(path, number, &f->opt, vars, &l, f->diags);
    if (qg_diags_count_severity(f->diags, QG_ERROR))
        qg_diags_print(f->diags, stderr);
    assert_int_equal(qg_diags_count_severity(f->diags, QG_ERROR), 0);
    assert_non_null(l);
    rt_counts counts = {0, 0, 0};
    rt_level_round_trips(&f->rt, l, &f->opt, path, hub, &counts);
    assert_int_equal(counts.des_exact, 1);
    assert_int_equal(counts.tmx_exact, 1);
    return l;
}

void no_map(fixture *f, const char *hub, int number, const char *text)
{
    qg_level *l = NULL;
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_fd_load_quest(file_of(f, hub), number, &f->opt, NULL, &l, d),
                     QG_ERR_NOTFOUND);
    assert_null(l);
    assert_int_equal(qg_diags_count_severity(d, QG_ERROR), 0);
    assert_true(test_diags_contain(d, QG_NOTE, text));
    qg_diags_free(d);
}

qg_cell cell_at(const qg_level *l, int x, int y)
{
    qg_cell c;
    assert_int_equal(qg_level_cell(l, x, y, &c), QG_OK);
    return c;
}


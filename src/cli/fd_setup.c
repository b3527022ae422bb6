/* What the F:/D: subcommands share: dialect, edit directory and the
 * vocabulary that names indices. */
#define _XOPEN_SOURCE 700
#include "cli/cli.h"
#include "core/buf.h"
#include "core/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* qg_fd_detect_edit_dir, asked once a run for each directory and the
 * files no signature names. */
static qg_fd_dialect detect(cli_vocabs *vocabs, const char *dir, const char *file)
{
    const char *slash = file ? strrchr(file, '/') : NULL;
    const char *named = qg_fd_edit_dir_names(file) ? (slash ? slash + 1 : file) : "";
    for (size_t i = 0; i < vocabs->detected_count; i++) {
        const cli_detected *d = &vocabs->detected[i];
        if (strcmp(d->dir, dir) == 0 && strcmp(d->named, named) == 0)
            return d->dialect;
    }
    qg_fd_dialect dialect = qg_fd_detect_edit_dir(dir, named[0] ? file : NULL);
    char *dir_copy = qg_strdup(dir), *named_copy = qg_strdup(named);
    cli_detected *d = dir_copy && named_copy ? QG_PUSH(vocabs->detected, vocabs->detected_count,
                                                       vocabs->detected_cap)
                                             : NULL;
    if (d) {
        *d = (cli_detected){dir_copy, named_copy, dialect};
    } else {
        free(dir_copy);
        free(named_copy);
    }
    return dialect;
}

/* The edit directory of a file and the dialect it says: --edit-dir, else
 * the file's own directory when it is a known variant's, or the one above
 * a quest or town folder (Hengband 3's lib/edit/quests/, towns/), else
 * the bundled vocabulary (which says no dialect). */
static char *edit_dir_of(const cli_opts *opts, const char *file, cli_vocabs *vocabs,
                         qg_fd_dialect *detected, int *guessed, qg_diags *diags)
{
    *detected = QG_FD_AUTO;
    *guessed = 0;
    if (opts->edit_dir) {
        *detected = detect(vocabs, opts->edit_dir, file);
        return qg_strdup(opts->edit_dir);
    }
    char *own = file ? qg_path_dirname(file) : NULL;
    for (int up = 0; own && up < 2; up++) {
        if ((*detected = detect(vocabs, own, file)) != QG_FD_AUTO) {
            *guessed = 1;
            return own;
        }
        if (!qg_fd_is_quest_folder(own))
            break;
        char *parent = qg_path_dirname(own);
        free(own);
        own = parent;
    }
    free(own);
    return cli_edit_dir(opts, diags);
}

/* The edit directories whose dialect a note of this run named: one note
 * a directory, whichever command and file read it first. */
static struct {
    char *dirs[16];
    size_t count;
} noted;

/* "q_info.txt, f_info.txt (N:1:FLOOR...)" of a signature; a file named
 * again with the text a line of it starts with is named once. */
static void describe_signature(qg_buf *out, const char *signature)
{
    for (const char *p = signature; *p;) {
        size_t n = strcspn(p, " ");
        const char *tilde = memchr(p, '~', n);
        size_t name = tilde ? (size_t)(tilde - p) : n;
        char again[64];
        snprintf(again, sizeof again, " %.*s~", (int)name, p);
        if (tilde || !strstr(p + n, again)) {
            qg_buf_printf(out, "%s%.*s", out->len ? ", " : "", (int)name, p);
            if (tilde)
                qg_buf_printf(out, " (%.*s...)", (int)(n - name - 1), tilde + 1);
        }
        p += n + (p[n] == ' ');
    }
}

/* Whether dir is questgrid's own data, which no game's dialect names. */
static int is_own_data(const char *dir)
{
    char *own = NULL;
    qg_data_find("edit", &own, NULL);
    char *a = own ? realpath(own, NULL) : NULL, *b = realpath(dir, NULL);
    int same = a && b && strcmp(a, b) == 0;
    free(a);
    free(b);
    free(own);
    return same;
}

/* The one note of a run saying which game's edit directory a file's own
 * directory was read as, and how to say otherwise. */
static void note_dialect(const char *dir, qg_fd_dialect dialect, qg_diags *diags)
{
    for (size_t i = 0; i < noted.count; i++)
        if (strcmp(noted.dirs[i], dir) == 0)
            return;
    if (noted.count == sizeof noted.dirs / sizeof *noted.dirs || is_own_data(dir) ||
        !(noted.dirs[noted.count] = qg_strdup(dir)))
        return;
    noted.count++;
    qg_buf said;
    qg_buf_init(&said);
    describe_signature(&said, qg_fd_dialect_signature(dialect));
    qg_diags_add(diags, QG_NOTE, dir, 0, 0, NULL, 0,
                 "read as %s's edit directory (it holds %s); --dialect and --edit-dir choose "
                 "otherwise", qg_fd_dialect_title(dialect), said.data ? said.data : "");
    qg_buf_free(&said);
}

/* Reads the vocabulary of dir in a dialect into a new entry; NULL when
 * memory ran out. */
static cli_vocab_entry *read_vocab(cli_vocabs *vocabs, const char *dir, qg_fd_dialect dialect)
{
    cli_vocab_entry *e = QG_PUSH(vocabs->items, vocabs->count, vocabs->cap);
    if (!e)
        return NULL;
    *e = (cli_vocab_entry){qg_strdup(dir), dialect, qg_vocab_new(), qg_diags_new(), QG_OK};
    if (!e->dir || !e->vocab || !e->load) {
        vocabs->count--;
        free(e->dir);
        qg_vocab_free(e->vocab);
        qg_diags_free(e->load);
        return NULL;
    }
    e->status = qg_fd_load_vocab(e->vocab, dialect, dir, e->load);
    return e;
}

const char *cli_dialect_game(qg_fd_dialect dialect)
{
    return dialect == QG_FD_ANGBAND4_ROOMS ? qg_fd_dialect_name(QG_FD_ANGBAND4)
                                           : qg_fd_dialect_name(dialect);
}

const char *cli_crawl_game(const cli_opts *opts)
{
    return opts->branches ? qg_branches_game(opts->branches) : "crawl-master";
}

qg_game *cli_game_tables(const char *name)
{
    qg_diags *quiet = qg_diags_new();
    qg_game *game = NULL;
    if (quiet && name)
        qg_game_load(NULL, name, &game, quiet);
    qg_diags_free(quiet);
    return game;
}

/* The vocabulary of a dialect's game from questgrid's tables of it
 * (lib/games), or NULL when it has none. */
static cli_vocab_entry *read_game_vocab(cli_vocabs *vocabs, const char *key,
                                        qg_fd_dialect dialect)
{
    qg_game *game = cli_game_tables(cli_dialect_game(dialect));
    qg_vocab *vocab = game ? qg_game_vocab(game) : NULL;
    qg_game_free(game);
    cli_vocab_entry *e = vocab ? QG_PUSH(vocabs->items, vocabs->count, vocabs->cap) : NULL;
    if (!e) {
        qg_vocab_free(vocab);
        return NULL;
    }
    *e = (cli_vocab_entry){qg_strdup(key), dialect, vocab, qg_diags_new(), QG_OK};
    return e;
}

static cli_vocab_entry *find_vocab(const cli_vocabs *vocabs, const char *dir,
                                   qg_fd_dialect dialect)
{
    for (size_t i = 0; i < vocabs->count; i++)
        if (vocabs->items[i].dialect == dialect && strcmp(vocabs->items[i].dir, dir) == 0)
            return &vocabs->items[i];
    return NULL;
}

void cli_vocabs_free(cli_vocabs *vocabs)
{
    for (size_t i = 0; i < vocabs->count; i++) {
        free(vocabs->items[i].dir);
        qg_vocab_free(vocabs->items[i].vocab);
        qg_diags_free(vocabs->items[i].load);
    }
    for (size_t i = 0; i < vocabs->detected_count; i++) {
        free(vocabs->detected[i].dir);
        free(vocabs->detected[i].named);
    }
    free(vocabs->items);
    free(vocabs->detected);
    qg_fd_hubs_free(vocabs->hubs);
    memset(vocabs, 0, sizeof *vocabs);
}

int cli_fd_setup_shared(const cli_opts *opts, const char *file, cli_vocabs *vocabs,
                        cli_fd *out, qg_diags *diags)
{
    qg_fd_options_init(&out->options);
    out->vocab = NULL;
    out->dir = NULL;
    out->shared = 1;
    if (opts->dialect) {
        int d = qg_fd_dialect_from_name(opts->dialect);
        if (d < 0) {
            fprintf(stderr, "questgrid: unknown dialect '%s' (%s)\n", opts->dialect,
                    qg_fd_dialect_names());
            return -1;
        }
        out->options.dialect = (qg_fd_dialect)d;
    }
    qg_fd_dialect detected;
    int guessed;
    out->dir = edit_dir_of(opts, file, vocabs, &detected, &guessed, diags);
    if (!out->dir)
        return -1;
    if (out->options.dialect == QG_FD_AUTO)
        out->options.dialect = detected;
    if (guessed && !opts->dialect)
        note_dialect(out->dir, detected, diags);
    out->own_vocab = opts->edit_dir || detected != QG_FD_AUTO;
    /* includes are looked for in the variant's own edit directory only:
     * the bundled one would lend another game's files to the load */
    out->options.edit_dir = out->own_vocab ? out->dir : NULL;
    out->options.kind = opts->kind;
    out->options.allow_include_outside = opts->allow_include_outside;
    /* a dialect given without the variant's edit directory: the indices
     * and tags of its game, from questgrid's tables of it, so that what
     * the game would refuse is refused */
    char key[64];
    snprintf(key, sizeof key, "games/%s", qg_fd_dialect_name(out->options.dialect));
    cli_vocab_entry *e = NULL;
    if (!out->own_vocab && opts->dialect &&
        !(e = find_vocab(vocabs, key, out->options.dialect)))
        e = read_game_vocab(vocabs, key, out->options.dialect);
    if (!e && !(e = find_vocab(vocabs, out->dir, out->options.dialect)) &&
        !(e = read_vocab(vocabs, out->dir, out->options.dialect)))
        return -1;
    if (e->status != QG_OK && !guessed)
        for (size_t i = 0; i < qg_diags_count(e->load); i++) {
            const qg_diag *d = qg_diags_get(e->load, i);
            qg_diags_add(diags, d->severity, d->file, d->line, d->col, d->source_line,
                         d->source_len, "%s", d->message);
        }
    out->vocab = e->vocab;
    out->options.vocab = out->vocab;
    if (!vocabs->hubs && !(vocabs->hubs = qg_fd_hubs_new()))
        return -1;
    out->options.hubs = vocabs->hubs;
    return 0;
}

/* A vocabulary of the setup's own: a cache of one, its entry moved out. */
int cli_fd_setup(const cli_opts *opts, const char *file, cli_fd *out, qg_diags *diags)
{
    cli_vocabs own = {0};
    int r = cli_fd_setup_shared(opts, file, &own, out, diags);
    if (own.count) {
        out->vocab = own.items[0].vocab;
        own.items[0].vocab = NULL;
    }
    out->shared = 0;
    out->options.hubs = NULL;
    cli_vocabs_free(&own);
    return r;
}

void cli_fd_free(cli_fd *fd)
{
    if (!fd->shared)
        qg_vocab_free(fd->vocab);
    free(fd->dir);
    fd->vocab = NULL;
    fd->dir = NULL;
}

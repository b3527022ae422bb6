/* What the F:/D: subcommands share: dialect, edit directory and the
 * vocabulary that names indices. */
#include "cli/cli.h"
#include "core/buf.h"
#include "core/file.h"

#include <stdio.h>
#include <stdlib.h>

/* The edit directory of a file and the dialect it says: --edit-dir, else
 * the file's own directory when it is a known variant's, or the one above
 * a quest folder (Hengband 3's lib/edit/quests/), else the bundled
 * vocabulary (which says no dialect). */
static char *edit_dir_of(const cli_opts *opts, const char *file, qg_fd_dialect *detected,
                         int *guessed, qg_diags *diags)
{
    *detected = QG_FD_AUTO;
    *guessed = 0;
    if (opts->edit_dir) {
        *detected = qg_fd_detect_edit_dir(opts->edit_dir, file);
        return qg_strdup(opts->edit_dir);
    }
    char *own = file ? qg_path_dirname(file) : NULL;
    for (int up = 0; own && up < 2; up++) {
        if ((*detected = qg_fd_detect_edit_dir(own, file)) != QG_FD_AUTO) {
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

int cli_fd_setup(const cli_opts *opts, const char *file, cli_fd *out, qg_diags *diags)
{
    qg_fd_options_init(&out->options);
    out->vocab = NULL;
    out->dir = NULL;
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
    out->dir = edit_dir_of(opts, file, &detected, &guessed, diags);
    if (!out->dir)
        return -1;
    if (out->options.dialect == QG_FD_AUTO)
        out->options.dialect = detected;
    out->own_vocab = opts->edit_dir || detected != QG_FD_AUTO;
    /* includes are looked for in the variant's own edit directory only:
     * the bundled one would lend another game's files to the load */
    out->options.edit_dir = out->own_vocab ? out->dir : NULL;
    out->options.kind = opts->kind;
    out->options.allow_include_outside = opts->allow_include_outside;
    out->vocab = qg_vocab_new();
    if (!out->vocab)
        return -1;
    qg_diags *vocab_diags = qg_diags_new();
    if (qg_fd_load_vocab(out->vocab, out->options.dialect, out->dir, vocab_diags) != QG_OK &&
        !guessed)
        for (size_t i = 0; i < qg_diags_count(vocab_diags); i++) {
            const qg_diag *d = qg_diags_get(vocab_diags, i);
            qg_diags_add(diags, d->severity, d->file, d->line, d->col, d->source_line,
                         d->source_len, "%s", d->message);
        }
    qg_diags_free(vocab_diags);
    out->options.vocab = out->vocab;
    return 0;
}

void cli_fd_free(cli_fd *fd)
{
    qg_vocab_free(fd->vocab);
    free(fd->dir);
    fd->vocab = NULL;
    fd->dir = NULL;
}

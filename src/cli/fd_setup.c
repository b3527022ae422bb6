/* What the F:/D: subcommands share: dialect, edit directory and the
 * vocabulary that names indices. */
#include "cli/cli.h"
#include "core/buf.h"
#include "core/file.h"

#include <stdio.h>
#include <stdlib.h>

static int has_f_info(const char *dir)
{
    char *path = qg_path_join(dir, "f_info.txt");
    FILE *f = path ? fopen(path, "rb") : NULL;
    free(path);
    if (!f)
        return 0;
    fclose(f);
    return 1;
}

int cli_fd_setup(const cli_opts *opts, const char *file, cli_fd *out, qg_diags *diags)
{
    qg_fd_options_init(&out->options);
    out->vocab = NULL;
    out->dir = NULL;
    if (opts->dialect) {
        int d = qg_fd_dialect_from_name(opts->dialect);
        if (d < 0) {
            fprintf(stderr, "questgrid: unknown dialect '%s' (auto, zangband, hengband, tome)\n",
                    opts->dialect);
            return -1;
        }
        out->options.dialect = (qg_fd_dialect)d;
    }
    /* A variant's map files sit beside its f_info.txt in lib/edit. */
    char *own = file && !opts->edit_dir ? qg_path_dirname(file) : NULL;
    int guessed = own && has_f_info(own);
    if (guessed)
        out->dir = own, own = NULL;
    else
        out->dir = cli_edit_dir(opts, diags);
    free(own);
    if (!out->dir)
        return -1;
    out->options.edit_dir = out->dir;
    out->vocab = qg_vocab_new();
    if (!out->vocab)
        return -1;
    qg_diags *vocab_diags = qg_diags_new();
    if (qg_vocab_load_dir(out->vocab, out->dir, vocab_diags) != QG_OK && !guessed)
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

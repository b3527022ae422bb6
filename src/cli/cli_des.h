/* The .des side of `questgrid check` and `questgrid show`, called by their
 * per-format dispatch. */
#ifndef QG_CLI_DES_H
#define QG_CLI_DES_H

#include "cli/cli.h"

/* Reads path as a .des file and adds its diagnostics to diags (names
 * carries map names across the files of one run; vocab, when given, is
 * what the names of its maps are checked against; batch, the run's .des
 * files in one runtime, resolves its maps). Prints a one-line
 * summary unless --quiet. Returns 0 when the file has no error, 1 when it
 * has (the caller prints diags). */
struct cli_batch;
int cli_check_des(cli_opts *opts, const char *path, qg_des_names *names,
                  const qg_des_vocab *vocab, struct cli_batch *batch, qg_diags *diags);

/* Prints one map of a .des file (--map NAME, else the first): its header
 * properties, rows and legend. Diagnostics are printed to stderr.
 * Returns 0 on success, 1 on errors or when the map does not exist. */
int cli_show_des(cli_opts *opts, const char *path);

#endif

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
/* The notes check keeps for --verbose, counted by kind: true of the
 * games' own data and no fault of it, told in one line at the end. */
typedef struct cli_hidden {
    size_t no_map;         /* a map with no MAP, which Crawl 0.28 loads */
    size_t unknown_stairs; /* an encompass map on no level of the branch
                              table: how many stairs it needs is not known */
} cli_hidden;
/* hidden counts the notes left out; NULL or --verbose prints them all. */
int cli_check_des(cli_opts *opts, const char *path, qg_des_names *names,
                  const qg_des_vocab *vocab, struct cli_batch *batch, cli_hidden *hidden,
                  qg_diags *diags);
/* The line that says what hidden left out, when it left out any. */
void cli_hidden_print(const cli_hidden *hidden);

/* Prints one map of a .des file (--map NAME, else the first): its header
 * properties, rows and legend. Diagnostics are printed to stderr.
 * Returns 0 on success, 1 on errors or when the map does not exist. */
int cli_show_des(cli_opts *opts, const char *path);

#endif

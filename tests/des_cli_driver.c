/* Runs the .des handlers of `questgrid check` and `questgrid show`
 * (src/cli/check_des.c, show_des.c) on their own, so tests/cli_des.sh can
 * exercise them before the per-format dispatch calls them:
 *   des_cli_driver check [OPTIONS] FILE...
 *   des_cli_driver show [--map NAME] FILE */
#include "cli/cli_des.h"

#include <stdio.h>
#include <string.h>

static int check(int argc, char **argv)
{
    cli_opts opts;
    if (cli_parse(argc, argv, OPT_LEGACY | OPT_QUIET, "usage: check FILE...\n", &opts))
        return 2;
    qg_des_names *names = qg_des_names_new();
    qg_diags *diags = qg_diags_new();
    int status = 0;
    for (int i = 0; i < opts.file_count; i++)
        status |= cli_check_des(&opts, opts.files[i], names, diags);
    cli_report(diags);
    qg_diags_free(diags);
    qg_des_names_free(names);
    cli_opts_free(&opts);
    return status;
}

static int show(int argc, char **argv)
{
    cli_opts opts;
    if (cli_parse(argc, argv, OPT_LEGACY | OPT_MAP, "usage: show FILE\n", &opts))
        return 2;
    int status = opts.file_count == 1 ? cli_show_des(&opts, opts.files[0]) : 2;
    cli_opts_free(&opts);
    return status;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "check") == 0)
        return check(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "show") == 0)
        return show(argc - 1, argv + 1);
    fputs("usage: des_cli_driver check|show ...\n", stderr);
    return 2;
}

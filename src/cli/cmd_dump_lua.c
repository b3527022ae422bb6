/* questgrid dump-lua FILE...: each map's Lua chunks in the format of
 * Crawl's -dump-maps, the files read in order as one session (map names
 * must be unique across them). */
#include "cli/cli.h"

#include <limits.h>
#include <stdio.h>

static const char usage[] =
    "usage: questgrid dump-lua [--legacy] [-q] [--max-errors N] FILE.des...\n"
    "Prints every map's Lua chunks exactly as Crawl's -dump-maps does.\n"
    "  -q, --quiet     errors only\n"
    "  --max-errors N  report N errors at most (default 50; 0: no limit)\n";

/* Each map as it is read, then freed: memory holds one at a time. */
static void dump_map(void *user, qg_mapdef *def)
{
    int *status = user;
    if (qg_des_dump_map(def, stdout) != QG_OK)
        *status = 1;
    qg_mapdef_free(def);
}

int cmd_dump_lua(int argc, char **argv)
{
    cli_opts opts;
    int r = cli_parse_files(argc, argv, OPT_LEGACY | OPT_QUIET | OPT_MAX_ERRORS, 1, INT_MAX,
                            usage, &opts);
    if (r)
        return r > 0 ? 0 : 2;
    qg_des_options options = {opts.legacy};
    qg_des_names *names = qg_des_names_new();
    qg_diags *diags = cli_diags_new(&opts, 1);
    int status = names && diags ? 0 : 1;
    for (int i = 0; !status && !cli_stopped() && i < opts.file_count; i++) {
        qg_des_file *file;
        qg_status st = qg_des_load_each(opts.files[i], &options, names, dump_map, &status,
                                        &file, diags);
        qg_des_file_free(file);
        cli_report(diags);
        if (st != QG_OK)
            status = 1;
    }
    if (cli_report(diags))
        status = 1;
    if (fflush(stdout) != 0)
        status = 1;
    qg_diags_free(diags);
    qg_des_names_free(names);
    cli_opts_free(&opts);
    return status;
}

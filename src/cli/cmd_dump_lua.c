/* questgrid dump-lua FILE|DIR...: each map's Lua chunks in the format of
 * Crawl's -dump-maps, the files read in order as one session (map names
 * must be unique across them). */
#include "cli/cli.h"

#include <limits.h>
#include <stdio.h>

static const char usage[] =
    "usage: questgrid dump-lua [--legacy] [-q] [--max-errors N] FILE.des|DIR...\n"
    "Prints every map's Lua chunks exactly as Crawl's -dump-maps does\n"
    "(directories are searched recursively for .des files).\n"
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

static int dump_file(const cli_opts *opts, const char *path, qg_des_names *names,
                     qg_diags *diags)
{
    qg_des_options options = {opts->legacy};
    qg_des_file *file;
    int status = 0;
    if (qg_des_load_each(path, &options, names, dump_map, &status, &file, diags) != QG_OK)
        status = 1;
    qg_des_file_free(file);
    return status;
}

int cmd_dump_lua(int argc, char **argv)
{
    cli_opts opts;
    int r = cli_parse_files(argc, argv, OPT_LEGACY | OPT_QUIET | OPT_MAX_ERRORS, 1, INT_MAX,
                            usage, &opts);
    if (r)
        return r > 0 ? 0 : 2;
    qg_des_names *names = qg_des_names_new();
    qg_diags *diags = cli_diags_new(&opts, 1);
    cli_inputs in = {NULL, 0};
    int status = !names || !diags ? 1 : cli_inputs_find(&opts, &in, diags) != 0 ? 2 : 0;
    for (size_t i = 0; !status && !cli_stopped() && i < in.count; i++) {
        if (in.items[i].kind == QG_FILE_DES)
            status = dump_file(&opts, in.items[i].path, names, diags);
        else if (in.items[i].named)
            cli_input_refuse("dump-lua", ".des files", &in.items[i], diags);
        cli_report(diags);
    }
    if (cli_report(diags))
        status = 1;
    if (fflush(stdout) != 0)
        status = 1;
    cli_inputs_free(&in);
    qg_diags_free(diags);
    qg_des_names_free(names);
    cli_opts_free(&opts);
    return status;
}

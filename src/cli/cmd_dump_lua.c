/* questgrid dump-lua FILE...: each map's Lua chunks in the format of
 * Crawl's -dump-maps, the files read in order as one session (map names
 * must be unique across them). */
#include "cli/cli.h"

#include <stdio.h>

static const char usage[] =
    "usage: questgrid dump-lua [--legacy] FILE.des...\n"
    "Prints every map's Lua chunks exactly as Crawl's -dump-maps does.\n";

int cmd_dump_lua(int argc, char **argv)
{
    cli_opts opts;
    int r = cli_parse(argc, argv, OPT_LEGACY, usage, &opts);
    if (r)
        return r > 0 ? 0 : 2;
    if (opts.file_count < 1) {
        fputs(usage, stderr);
        cli_opts_free(&opts);
        return 2;
    }
    qg_des_options options = {opts.legacy};
    qg_des_names *names = qg_des_names_new();
    qg_diags *diags = qg_diags_new();
    int status = names && diags ? 0 : 1;
    for (int i = 0; !status && i < opts.file_count; i++) {
        qg_des_file *file;
        qg_status st = qg_des_load(opts.files[i], &options, names, &file, diags);
        for (size_t m = 0; file && m < qg_des_map_count(file); m++)
            if (qg_des_dump_map(qg_des_map(file, m), stdout) != QG_OK)
                status = 1;
        qg_des_file_free(file);
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

/* questgrid list FILE...: one line per map: name, orient, size, tags,
 * depth (as declared, before any Lua runs). */
#include "cli/cli.h"

#include <stdio.h>

static const char usage[] =
    "usage: questgrid list [--legacy] FILE.des...\n"
    "Lists the maps of .des files: name, orient, size (WxH), tags, depth.\n";

static const char *or_dash(const char *s)
{
    return s && *s ? s : "-";
}

static void list_map(const qg_mapdef *def)
{
    printf("%s\t%s\t%dx%zu\t%s\t%s\n", qg_mapdef_name(def),
           or_dash(qg_mapdef_get_property(def, "orient")), qg_mapdef_width(def),
           qg_mapdef_row_count(def), or_dash(qg_mapdef_get_property(def, "tags")),
           or_dash(qg_mapdef_get_property(def, "depth")));
}

int cmd_list(int argc, char **argv)
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
            list_map(qg_des_map(file, m));
        qg_des_file_free(file);
        if (st != QG_OK)
            status = 1;
    }
    if (cli_report(diags))
        status = 1;
    qg_diags_free(diags);
    qg_des_names_free(names);
    cli_opts_free(&opts);
    return status;
}

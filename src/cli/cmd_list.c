/* questgrid list FILE...: one line per map: name, orient, size, tags,
 * depth (as declared, before any Lua runs). */
#include "cli/cli.h"

#include <limits.h>
#include <stdio.h>

static const char usage[] =
    "usage: questgrid list [--legacy] [-q] [--max-errors N] FILE.des...\n"
    "Lists the maps of .des files: name, orient, size (WxH), tags, depth.\n"
    "  -q, --quiet     errors only\n"
    "  --max-errors N  report N errors at most (default 50; 0: no limit)\n";

static const char *or_dash(const char *s)
{
    return s && *s ? s : "-";
}

/* Each map as it is read, then freed: memory holds one at a time. */
static void list_map(void *user, qg_mapdef *def)
{
    (void)user;
    printf("%s\t%s\t%dx%zu\t%s\t%s\n", qg_mapdef_name(def),
           or_dash(qg_mapdef_get_property(def, "orient")), qg_mapdef_width(def),
           qg_mapdef_row_count(def), or_dash(qg_mapdef_get_property(def, "tags")),
           or_dash(qg_mapdef_get_property(def, "depth")));
    qg_mapdef_free(def);
}

int cmd_list(int argc, char **argv)
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
        qg_status st = qg_des_load_each(opts.files[i], &options, names, list_map, NULL, &file,
                                        diags);
        qg_des_file_free(file);
        cli_report(diags);
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

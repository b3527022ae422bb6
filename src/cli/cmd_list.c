/* questgrid list FILE|DIR...: one line per map: name, orient, size, tags,
 * depth (as declared, before any Lua runs) for .des files; a hub's quests;
 * one line for each other level file. */
#include "cli/cli.h"

#include <limits.h>
#include <stdio.h>

static const char usage[] =
    "usage: questgrid list [--legacy] [--dialect D] [--edit-dir DIR] [-q] [--max-errors N]\n"
    "                      FILE|DIR...\n"
    "Lists what the files hold (directories are searched recursively):\n"
    "  a .des file   one line per map: name, orient, size (WxH), tags, depth\n"
    "  a quest hub   one line per quest: the hub, the quest's number, name and file\n"
    "  an F:/D: level, .tmx or .xp   the file, its format and kind\n"
    "Game data that is not a level (a lib/edit vocabulary, misc.txt, ...) is\n"
    "skipped with a note.\n"
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

static int list_des(const cli_opts *opts, const char *path, qg_des_names *names,
                    qg_diags *diags)
{
    qg_des_options options = {opts->legacy};
    qg_des_file *file;
    qg_status st = qg_des_load_each(path, &options, names, list_map, NULL, &file, diags);
    qg_des_file_free(file);
    return st == QG_OK ? 0 : 1;
}

static int list_one(const cli_opts *opts, const qg_input *input, qg_des_names *names,
                    qg_diags *diags)
{
    cli_fd fd = {.vocab = NULL, .dir = NULL};
    int status = 0;
    switch (input->kind) {
    case QG_FILE_DES:
        return list_des(opts, input->path, names, diags);
    case QG_FILE_HUB:
        if (cli_fd_setup(opts, input->path, &fd, diags) != 0 ||
            cli_hub_list(input->path, &fd.options, diags) != 0)
            status = 1;
        cli_fd_free(&fd);
        return status;
    case QG_FILE_LEVEL: case QG_FILE_PART: case QG_FILE_TMX: case QG_FILE_XP:
        printf("%s\t%s\n", input->path, qg_file_kind_name(input->kind));
        return 0;
    default:
        cli_input_refuse("list", ".des files, F:/D: files and hubs, .tmx and .xp files "
                         "(questgrid cache list lists a cache)", input, diags);
        return 1;
    }
}

int cmd_list(int argc, char **argv)
{
    cli_opts opts;
    int r = cli_parse_files(argc, argv, OPT_LEGACY | OPT_DIALECT | OPT_EDIT_DIR | OPT_QUIET |
                            OPT_MAX_ERRORS, 1, INT_MAX, usage, &opts);
    if (r)
        return r > 0 ? 0 : 2;
    qg_des_names *names = qg_des_names_new();
    qg_diags *diags = cli_diags_new(&opts, 1);
    cli_inputs in = {NULL, 0};
    int status = !names || !diags ? 1 : cli_inputs_find(&opts, &in, diags) != 0 ? 2 : 0;
    for (size_t i = 0; status != 2 && !cli_stopped() && i < in.count; i++) {
        int failed = list_one(&opts, &in.items[i], names, diags);
        cli_report(diags);
        if (failed)
            status = 1;
    }
    if (cli_report(diags) && !status)
        status = 1;
    cli_inputs_free(&in);
    qg_diags_free(diags);
    qg_des_names_free(names);
    cli_opts_free(&opts);
    return status;
}

/* questgrid check FILE...: every diagnostic of every file; exit status 1
 * when any file has errors. One checker per format. */
#include "cli/cli.h"

#include <stdio.h>

static const char usage[] =
    "usage: questgrid check [--dialect D] [--edit-dir DIR] FILE...\n"
    "\n"
    "Reads each file (F:/D: quest, town and wilderness files with every\n"
    "file they include) and prints every diagnostic as file:line:col.\n"
    "Exit status: 0 when no file has errors, 1 otherwise, 2 on bad usage.\n"
    "\n"
    "  --dialect D     zangband, hengband, tome or auto (default: auto)\n"
    "  --edit-dir DIR  the lib/edit directory for includes and f_info tags\n"
    "                  (default: the file's directory when it has f_info.txt)\n";

typedef int (*checker)(const char *path, const cli_opts *opts, qg_diags *diags);

static int check_fd(const char *path, const cli_opts *opts, qg_diags *diags)
{
    cli_fd fd = {.vocab = NULL, .dir = NULL};
    if (cli_fd_setup(opts, path, &fd, diags) != 0) {
        cli_fd_free(&fd);
        return -1;
    }
    qg_mapdef *def;
    qg_status st = qg_fd_read(path, &fd.options, &def, diags);
    if (def)
        qg_fd_check_letters(def, diags);
    qg_mapdef_free(def);
    cli_fd_free(&fd);
    return st == QG_ERR_NOMEM ? -1 : 0;
}

static const struct {
    qg_format format;
    checker check;
} checkers[] = {
    {QG_FORMAT_FD, check_fd},
};

static checker checker_for(const char *path)
{
    qg_format format = qg_format_from_path(path);
    for (size_t i = 0; i < sizeof checkers / sizeof *checkers; i++)
        if (checkers[i].format == format)
            return checkers[i].check;
    return NULL;
}

int cmd_check(int argc, char **argv)
{
    cli_opts opts;
    int r = cli_parse(argc, argv, OPT_DIALECT | OPT_EDIT_DIR, usage, &opts);
    if (r)
        return r > 0 ? 0 : 2;
    if (opts.file_count == 0) {
        fputs(usage, stderr);
        cli_opts_free(&opts);
        return 2;
    }
    size_t errors = 0;
    int status = 0;
    for (int i = 0; i < opts.file_count && status == 0; i++) {
        const char *path = opts.files[i];
        qg_diags *diags = qg_diags_new();
        checker check = checker_for(path);
        if (!diags) {
            status = 2;
        } else if (!check) {
            qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0,
                         "unknown file format (expected .txt, .map or .fd for F:/D: files)");
        } else if (check(path, &opts, diags) != 0) {
            status = 2;
        }
        errors += cli_report(diags);
        qg_diags_free(diags);
    }
    cli_opts_free(&opts);
    if (status)
        return status;
    return errors ? 1 : 0;
}

/* questgrid check FILE...: every diagnostic of every file; exit status 1
 * when any file has errors. One checker per format. */
#include "cli/cli.h"
#include "cli/cli_des.h"

#include <limits.h>
#include <stdio.h>

static const char usage[] =
    "usage: questgrid check [--dialect D] [--edit-dir DIR] [--game G] FILE...\n"
    "\n"
    "Reads each file (F:/D: quest, town and wilderness files with every\n"
    "file they include; Crawl .des files) and prints every diagnostic as\n"
    "file:line:col. A map name defined twice across the files is an error.\n"
    "Each .des map is also resolved once and checked as placement sees it:\n"
    "unreachable stairs or exits, edge maps without wall padding, maps over\n"
    "their ORIENT's size limit, encompass maps without every stair.\n"
    "Exit status: 0 when no file has errors, 1 otherwise, 2 on bad usage.\n"
    "\n"
    "  --dialect D     zangband, hengband, tome or auto (default: auto)\n"
    "  --edit-dir DIR  the lib/edit directory for includes and f_info tags\n"
    "                  (default: the file's directory when it has f_info.txt)\n"
    "  --game G        the game whose monster, item and feature names .des maps\n"
    "                  may use: crawl-0.28, crawl-master, ... (default: the newest)\n"
    "  --legacy        read .des files in the Crawl 0.3-0.4 syntax\n"
    "                  (default: detected per file)\n"
    "  --lua-path DIR  a game's Lua library (Crawl: dat/dlua), so that .des maps\n"
    "                  that use it resolve and get their placement checked\n"
    "                  (repeatable)\n"
    "  -q, --quiet     no per-file summary line\n";

/* What the checks of one run share: the options, and the map names seen
 * so far (a name is unique across every file of the run). */
typedef struct check_run {
    cli_opts *opts;
    qg_des_names *des_names;
    qg_des_vocab *vocab;     /* loaded for the first .des file */
    int vocab_tried;
} check_run;

typedef int (*checker)(const char *path, check_run *run, qg_diags *diags);

static int check_fd(const char *path, check_run *run, qg_diags *diags)
{
    cli_fd fd = {.vocab = NULL, .dir = NULL};
    if (cli_fd_setup(run->opts, path, &fd, diags) != 0) {
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

/* The vocabulary of --game (else the newest). Without --game, a missing
 * data directory is a note (names are then not checked); an unknown
 * --game stops the run. */
static int load_vocab(check_run *run, qg_diags *diags)
{
    if (run->vocab_tried)
        return 0;
    run->vocab_tried = 1;
    qg_diags *load = qg_diags_new();
    if (!load)
        return -1;
    qg_status st = qg_des_vocab_load(qg_des_vocab_dir(), run->opts->game, &run->vocab, load);
    if (st != QG_OK && !run->opts->game) {
        const qg_diag *why = qg_diags_get(load, 0);
        qg_diags_add(diags, QG_NOTE, qg_des_vocab_dir(), 0, 0, NULL, 0,
                     "monster, item and feature names are not checked: %s",
                     why ? why->message : "no vocabulary");
    } else if (st != QG_OK) {
        cli_report(load);
    }
    qg_diags_free(load);
    return st != QG_OK && run->opts->game ? -1 : 0;
}

static int check_des(const char *path, check_run *run, qg_diags *diags)
{
    if (load_vocab(run, diags) != 0)
        return -1;
    cli_check_des(run->opts, path, run->des_names, run->vocab, diags);
    return 0;
}

static const struct {
    qg_format format;
    checker check;
} checkers[] = {
    {QG_FORMAT_FD, check_fd},
    {QG_FORMAT_DES, check_des},
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
    int r = cli_parse_files(argc, argv, OPT_DIALECT | OPT_EDIT_DIR | OPT_LEGACY | OPT_QUIET |
                            OPT_LUA_PATH | OPT_GAME,
                            1, INT_MAX, usage, &opts);
    if (r)
        return r > 0 ? 0 : 2;
    check_run run = {&opts, qg_des_names_new(), NULL, 0};
    size_t errors = 0;
    int status = run.des_names ? 0 : 2;
    for (int i = 0; i < opts.file_count && status == 0; i++) {
        const char *path = opts.files[i];
        qg_diags *diags = qg_diags_new();
        checker check = checker_for(path);
        if (!diags) {
            status = 2;
        } else if (!check) {
            qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0,
                         "unknown file format (expected .des, or .txt, .map or .fd for F:/D: files)");
        } else if (check(path, &run, diags) != 0) {
            status = 2;
        }
        errors += cli_report(diags);
        qg_diags_free(diags);
    }
    qg_des_names_free(run.des_names);
    qg_des_vocab_free(run.vocab);
    cli_opts_free(&opts);
    if (status)
        return status;
    return errors ? 1 : 0;
}

/* questgrid check FILE...: every diagnostic of every file; exit status 1
 * when any file has errors. One checker per format. */
#include "cli/cli.h"
#include "cli/cli_des.h"
#include "cli/json.h"
#include "cli/source.h"
#include "core/file.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

static const char usage[] =
    "usage: questgrid check [--dialect D] [--edit-dir DIR] [--game G] FILE...\n"
    "\n"
    "Reads each file (F:/D: quest, town and wilderness files with every\n"
    "file they include; Crawl .des files; Tiled .tmx and REXPaint .xp files)\n"
    "and prints every diagnostic as file:line:col; a file that is not a level\n"
    "(a lib/edit vocabulary such as a_info.txt) is said to be one. A map name\n"
    "defined twice across the files is an error.\n"
    "Each .des map is also resolved once and checked as the game places it:\n"
    "its size for its ORIENT, its cells on the level's border, the exit Crawl\n"
    "asks for, an encompass map's stairs (seed-era maps: the seed documents'\n"
    "rules, wall padding and reachable stairs).\n"
    "Exit status: 0 when no file has errors, 1 otherwise, 2 on bad usage.\n"
    "\n"
    "  --dialect D     auto (default: from the edit directory, else the file),\n"
    "                  zangband, zangband235, hengband, hengband3, tome,\n"
    "                  poschengband, poschengband7, frogcomposband, angband4,\n"
    "                  angband4-rooms\n"
    "  --edit-dir DIR  the lib/edit directory for includes and f_info tags\n"
    "                  (default: the file's directory when it has f_info.txt)\n"
    "  --allow-include-outside  follow %: includes outside the edit directory\n"
    "                  and the file's own directory (refused by default)\n"
    "  --game G        the game whose monster, item and feature names .des maps\n"
    "                  may use: crawl-0.28, crawl-master, ... (default: the newest)\n"
    "  --legacy        read .des files in the Crawl 0.3-0.4 syntax\n"
    "                  (default: detected per file)\n"
    "  --lua-path DIR  a game's Lua library (Crawl: dat/dlua), so that .des maps\n"
    "                  that use it resolve and get their placement checked\n"
    "                  (repeatable)\n"
    "  -q, --quiet     errors only: no warnings, notes or per-file summary line\n"
    "  --max-errors N  stop after N errors (default 50; 0: no limit)\n"
    "  --format F      text (default) or json: the files and every diagnostic\n"
    "                  as one JSON document on standard output\n";

/* What the checks of one run share: the options, and the map names seen
 * so far (a name is unique across every file of the run). */
typedef struct check_run {
    cli_opts *opts;
    qg_des_names *des_names;
    qg_des_vocab *vocab;     /* loaded for the first .des file */
    cli_vocabs fd_vocabs;    /* each F:/D: vocabulary read once a run */
} check_run;

typedef int (*checker)(const char *path, check_run *run, qg_diags *diags);

static int check_fd(const char *path, check_run *run, qg_diags *diags)
{
    cli_fd fd = {.vocab = NULL, .dir = NULL};
    if (cli_fd_setup_shared(run->opts, path, &run->fd_vocabs, &fd, diags) != 0) {
        cli_fd_free(&fd);
        return -1;
    }
    /* indices and tags the variant's own vocabulary lacks are errors */
    fd.options.check_vocab = fd.own_vocab;
    qg_mapdef *def;
    qg_status st = qg_fd_read(path, &fd.options, &def, diags);
    if (def) {
        qg_fd_check_includes(def, diags);
        qg_fd_check_letters(def, diags);
    }
    qg_mapdef_free(def);
    cli_fd_free(&fd);
    return st == QG_ERR_NOMEM ? -1 : 0;
}

/* The vocabulary of --game (else the newest), found where questgrid's
 * other data is; a missing one or an unknown game stops the run with the
 * reason, as names would otherwise go unchecked. */
static int load_vocab(check_run *run)
{
    if (run->vocab)
        return 0;
    qg_diags *load = qg_diags_new();
    char *dir = NULL;
    qg_status st = load ? qg_data_find("des/vocab", &dir, load) : QG_ERR_NOMEM;
    if (st == QG_OK)
        st = qg_des_vocab_load(dir, run->opts->game, &run->vocab, load);
    if (load)
        cli_report(load);
    free(dir);
    qg_diags_free(load);
    return st == QG_OK ? 0 : -1;
}

static int check_des(const char *path, check_run *run, qg_diags *diags)
{
    if (load_vocab(run) != 0)
        return -1;
    cli_check_des(run->opts, path, run->des_names, run->vocab, diags);
    return 0;
}

/* A Tiled or REXPaint file: read as a level, so every problem of the file
 * is reported. */
static int check_picture(const char *path, check_run *run, qg_diags *diags)
{
    (void)run;
    char *data;
    size_t len;
    if (qg_read_file(path, QG_MAX_TEXT_FILE, &data, &len, diags) != QG_OK)
        return 0;
    qg_level *level = NULL;
    qg_level_read(path, data, len, qg_format_detect(path, data, len), &level, diags);
    qg_level_free(level);
    free(data);
    return 0;
}

static const struct {
    qg_format format;
    checker check;
} checkers[] = {
    {QG_FORMAT_FD, check_fd},
    {QG_FORMAT_DES, check_des},
    {QG_FORMAT_TMX, check_picture},
    {QG_FORMAT_XP, check_picture},
};

/* The format by the file's content; NULL (and why in diags) when it is
 * not a level questgrid reads. */
static checker checker_for(const char *path, qg_format *format, qg_diags *diags)
{
    char *data;
    size_t len;
    *format = QG_FORMAT_UNKNOWN;
    if (qg_read_file(path, QG_MAX_TEXT_FILE, &data, &len, diags) != QG_OK)
        return NULL;
    *format = cli_detect(path, data, len, diags);
    free(data);
    for (size_t i = 0; i < sizeof checkers / sizeof *checkers; i++)
        if (checkers[i].format == *format)
            return checkers[i].check;
    return NULL;
}

static json_t *file_summary(const char *path, qg_format format, const qg_diags *diags)
{
    json_t *f = json_object();
    json_object_set_new(f, "path", cli_json_text(path));
    json_object_set_new(f, "format", format ? json_string(qg_format_name(format)) : json_null());
    json_object_set_new(f, "errors", json_integer((json_int_t)qg_diags_count_severity(diags, QG_ERROR)));
    json_object_set_new(f, "warnings",
                        json_integer((json_int_t)qg_diags_count_severity(diags, QG_WARNING)));
    json_object_set_new(f, "notes", json_integer((json_int_t)qg_diags_count_severity(diags, QG_NOTE)));
    return f;
}

int cmd_check(int argc, char **argv)
{
    cli_opts opts;
    int r = cli_parse_files(argc, argv, OPT_DIALECT | OPT_EDIT_DIR | OPT_LEGACY | OPT_QUIET |
                            OPT_LUA_PATH | OPT_FORMAT | OPT_GAME | OPT_MAX_ERRORS,
                            1, INT_MAX, usage, &opts);
    if (r)
        return r > 0 ? 0 : 2;
    opts.quiet |= opts.json;
    check_run run = {&opts, qg_des_names_new(), NULL, {0}};
    size_t errors = 0;
    int status = run.des_names ? 0 : 2;
    json_t *doc = opts.json ? cli_json_document("questgrid-check/1") : NULL;
    json_t *files = json_array(), *all = json_array();
    for (int i = 0; i < opts.file_count && status == 0 && !cli_stopped(); i++) {
        const char *path = opts.files[i];
        qg_diags *diags = cli_diags_new(&opts, !doc);
        qg_format format = QG_FORMAT_UNKNOWN;
        checker check = diags ? checker_for(path, &format, diags) : NULL;
        if (!diags)
            status = 2;
        else if (check && check(path, &run, diags) != 0)
            status = 2;
        if (doc && diags) {
            errors += qg_diags_count_severity(diags, QG_ERROR);
            json_array_append_new(files, file_summary(path, format, diags));
            cli_json_add_diags(all, diags);
        } else {
            errors += cli_report(diags);
        }
        qg_diags_free(diags);
    }
    if (doc) {
        json_object_set_new(doc, "files", files);
        json_object_set_new(doc, "diagnostics", all);
        json_object_set_new(doc, "errors", json_integer((json_int_t)errors));
        if (!cli_json_print(doc) && !status)
            status = 1;
    } else {
        json_decref(files);
        json_decref(all);
    }
    qg_des_names_free(run.des_names);
    qg_des_vocab_free(run.vocab);
    cli_vocabs_free(&run.fd_vocabs);
    cli_opts_free(&opts);
    if (status)
        return status;
    return errors ? 1 : 0;
}

/* questgrid check FILE...: every diagnostic of every file; exit status 1
 * when any file has errors. One checker per format. */
#include "cli/batch.h"
#include "cli/cli.h"
#include "cli/cli_des.h"
#include "cli/json.h"
#include "cli/source.h"
#include "core/file.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

static const char usage[] =
    "usage: questgrid check [--dialect D] [--edit-dir DIR] [--game G] FILE|DIR...\n"
    "\n"
    "Reads each file, and each file below each directory (F:/D: quest, town\n"
    "and wilderness files with every file they include; Crawl .des files;\n"
    "Tiled .tmx and REXPaint .xp files; compiled .qgc caches, verified) and\n"
    "prints every diagnostic as file:line:col. Game data that is not a level\n"
    "(a lib/edit vocabulary such as a_info.txt, misc.txt, ...) is skipped with\n"
    "a note. A map name defined twice across the files is an error.\n"
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
    "                  may use: crawl-0.28, crawl-master (default: the game of\n"
    "                  the files' Crawl data tree, told from its files, else\n"
    "                  the newest)\n"
    "  --legacy        read .des files in the Crawl 0.3-0.4 syntax\n"
    "                  (default: detected per file)\n"
    "  --lua-path DIR  a game's Lua library (Crawl: dat/dlua), so that .des maps\n"
    "                  that use it resolve and get their placement checked\n"
    "                  (repeatable; default: the data tree's dlua)\n"
    "  -q, --quiet     errors only: no warnings, notes or per-file summary line\n"
    "  --verbose       also the notes true of the games' own .des data (a map\n"
    "                  with no MAP, an encompass map on no level the game\n"
    "                  has), which a line at the end otherwise counts, and\n"
    "                  the work the .des maps' resolution took (map runs,\n"
    "                  each map's and each subvault's every try)\n"
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
    cli_batch batch;         /* the .des files' maps, resolved together */
    cli_hidden hidden;       /* the notes kept for --verbose */
} check_run;

typedef int (*checker)(const char *path, check_run *run, qg_diags *diags);

/* What the level's resolution refuses at a line (rows past the games'
 * map, ...), as show and convert refuse it; the rest the read said. A
 * file with no rows under the default variables (a hub, a file of
 * includes, rows under a quest's condition) is no error of the file. */
static void resolve_errors(const qg_mapdef *def, const qg_fd_options *options,
                           const cli_opts *opts, qg_diags *diags)
{
    qg_diags *run = qg_diags_new();
    qg_level *level = NULL;
    if (run)
        qg_fd_resolve(def, options, opts->vars, &level, run);
    for (size_t i = 0; run && i < qg_diags_count(run); i++) {
        const qg_diag *d = qg_diags_get(run, i);
        if (d->severity == QG_ERROR && d->line > 0)
            qg_diags_add(diags, d->severity, d->file, d->line, d->col, d->source_line,
                         d->source_len, "%s", d->message);
    }
    qg_level_free(level);
    qg_diags_free(run);
}

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
    if (st == QG_OK && def)
        resolve_errors(def, &fd.options, run->opts, diags);
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
    /* JSON holds every diagnostic */
    int all = run->opts->verbose || run->opts->json;
    cli_check_des(run->opts, path, run->des_names, run->vocab, &run->batch,
                  all ? NULL : &run->hidden, diags);
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

/* A compiled cache: every offset, size and CRC, and every blob. */
static int check_cache(const char *path, check_run *run, qg_diags *diags)
{
    (void)run;
    qg_cache *cache = NULL;
    if (qg_cache_open(path, NULL, &cache, diags) == QG_OK)
        qg_cache_verify(cache, diags);
    qg_cache_close(cache);
    return 0;
}

static const struct {
    qg_file_kind kind;
    checker check;
} checkers[] = {
    {QG_FILE_LEVEL, check_fd},
    {QG_FILE_PART, check_fd},
    {QG_FILE_HUB, check_fd},
    {QG_FILE_DES, check_des},
    {QG_FILE_TMX, check_picture},
    {QG_FILE_XP, check_picture},
    {QG_FILE_CACHE, check_cache},
};

static checker checker_for(qg_file_kind kind)
{
    for (size_t i = 0; i < sizeof checkers / sizeof *checkers; i++)
        if (checkers[i].kind == kind)
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

/* Checks one file of the run; its diagnostics are reported or kept for
 * the JSON document. Returns the errors, or -1 when the run must stop. */
static long check_one(check_run *run, const qg_input *input, json_t *files, json_t *all)
{
    qg_diags *diags = cli_diags_new(run->opts, !files);
    if (!diags)
        return -1;
    checker check = checker_for(input->kind);
    int stop = check && check(input->path, run, diags) != 0;
    long errors;
    if (files) {
        errors = (long)qg_diags_count_severity(diags, QG_ERROR);
        json_array_append_new(files, file_summary(input->path, cli_kind_format(input->kind),
                                                  diags));
        cli_json_add_diags(all, diags);
    } else {
        errors = (long)cli_report(diags);
    }
    qg_diags_free(diags);
    return stop ? -1 : errors;
}

/* The inputs' walk: its notes (game data skipped, the game detected) and
 * errors (a named file questgrid does not read) are the run's. */
static int find_inputs(cli_opts *opts, cli_inputs *in, json_t *all, size_t *errors)
{
    qg_diags *diags = cli_diags_new(opts, !all);
    if (!diags)
        return -1;
    int r = cli_inputs_find(opts, in, diags);
    *errors += qg_diags_count_severity(diags, QG_ERROR);
    if (all)
        cli_json_add_diags(all, diags);
    else
        cli_report(diags);
    qg_diags_free(diags);
    return r;
}

int cmd_check(int argc, char **argv)
{
    cli_opts opts;
    int r = cli_parse_files(argc, argv, OPT_DIALECT | OPT_EDIT_DIR | OPT_LEGACY | OPT_QUIET |
                            OPT_LUA_PATH | OPT_FORMAT | OPT_GAME | OPT_MAX_ERRORS | OPT_VERBOSE,
                            1, INT_MAX, usage, &opts);
    if (r)
        return r > 0 ? 0 : 2;
    opts.quiet |= opts.json;
    check_run run = {&opts, qg_des_names_new(), NULL, {0}, {0}, {0, 0}};
    size_t errors = 0;
    json_t *doc = opts.json ? cli_json_document("questgrid-check/1") : NULL;
    json_t *files = doc ? json_array() : NULL, *all = doc ? json_array() : NULL;
    cli_inputs in = {NULL, 0};
    qg_diags *batch_diags = cli_diags_new(&opts, !all);
    int status = run.des_names && batch_diags ? 0 : 2;
    if (!status && find_inputs(&opts, &in, all, &errors) != 0)
        status = 2;
    cli_batch_init(&run.batch, &opts, "check", batch_diags, NULL, NULL);
    run.batch.parse_told = 1;
    for (size_t i = 0; i < in.count; i++)
        cli_batch_add(&run.batch, &in.items[i]);
    for (size_t i = 0; i < in.count && status == 0 && !cli_stopped(); i++) {
        long e = check_one(&run, &in.items[i], files, all);
        if (e < 0)
            status = 2;
        else
            errors += (size_t)e;
    }
    cli_batch_tell_work(&run.batch);
    if (batch_diags) {
        errors += qg_diags_count_severity(batch_diags, QG_ERROR);
        if (all)
            cli_json_add_diags(all, batch_diags);
        else
            cli_report(batch_diags);
    }
    if (!opts.quiet)
        cli_hidden_print(&run.hidden);
    cli_batch_free(&run.batch);
    qg_diags_free(batch_diags);
    if (doc) {
        json_object_set_new(doc, "files", files);
        json_object_set_new(doc, "diagnostics", all);
        json_object_set_new(doc, "errors", json_integer((json_int_t)errors));
        if (!cli_json_print(doc) && !status)
            status = 1;
    }
    cli_inputs_free(&in);
    qg_des_names_free(run.des_names);
    qg_des_vocab_free(run.vocab);
    cli_vocabs_free(&run.fd_vocabs);
    cli_opts_free(&opts);
    if (status)
        return status;
    return errors ? 1 : 0;
}

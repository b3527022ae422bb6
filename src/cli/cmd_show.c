/* questgrid show FILE: resolves a level of any format (an F:/D: file or a
 * quest through its hub, a .des map with its Lua, a .tmx or .xp file) and
 * prints it with its legend, in colour on a terminal, or as JSON; a .des
 * map without --seed is printed as declared. */
#include "cli/batch.h"
#include "cli/cli.h"
#include "cli/cli_des.h"
#include "cli/json.h"
#include "cli/source.h"
#include "cli/style.h"

#include <limits.h>
#include <stdio.h>

static const char usage[] =
    "usage: questgrid show FILE [--quest N] [--var NAME=VALUE]... [--dialect D] [--edit-dir DIR]\n"
    "                      [--seed N]\n"
    "       questgrid show FILE.des [--map NAME] [--legacy]\n"
    "       questgrid show FILE.des [--map NAME] --seed N [--place D:5] [--lua-path DIR]...\n"
    "       questgrid show FILE.tmx|FILE.xp\n"
    "       questgrid show FILE|DIR... --map NAME | --quest N\n"
    "\n"
    "Resolves FILE as the games do (?: conditions with the variables given,\n"
    "%: includes, F: letters, D: rows, P: start) and prints the level: the\n"
    "glyph grid in the game's colours and a legend naming features, monsters\n"
    "and objects. Tiled (.tmx) and REXPaint (.xp) files are shown as read.\n"
    "Among several files (directories are searched), --map picks the .des\n"
    "file that defines the map and --quest the hub. A .des map is resolved\n"
    "where it belongs (its own DEPTH or PLACE unless --place is given, inside\n"
    "a map whose SUBVAULT uses it; a map of a .qgc cache with its file's\n"
    "maps); a map with no level of its own (a dummy) is said to be one.\n"
    "\n"
    "  --quest N          FILE is a hub such as q_info.txt: load quest N\n"
    "                     ($QUEST_NUMBER = N; without it, the hub's quests are\n"
    "                     listed)\n"
    "  --var NAME=VALUE   set $NAME for ?: conditions (repeatable)\n"
    "  --dialect D        auto (default: from the edit directory, else the file),\n"
    "                     zangband, zangband235, hengband, hengband3, tome,\n"
    "                     poschengband, poschengband7, frogcomposband, angband4,\n"
    "                     angband4-rooms\n"
    "  --edit-dir DIR     the lib/edit directory for includes and names\n"
    "  --allow-include-outside  follow %: includes outside the edit directory\n"
    "                     and FILE's own directory (refused by default)\n"
    "  --map NAME         the .des map to show (default: the first)\n"
    "  --legacy           read the .des file in the Crawl 0.3-0.4 syntax\n"
    "  --seed N           resolve the .des map with its Lua, seeded by N, and\n"
    "                     print the level (also with --place or --lua-path);\n"
    "                     for an F:/D: map the game builds at random (a room\n"
    "                     template, an Angband 4.2 vault), draw its SCRAMBLE\n"
    "                     letters and its turn with N; without it the map is\n"
    "                     shown unturned and the turns it may take are listed\n"
    "  --place P          where the map is resolved, e.g. D:5 (default D:1)\n"
    "  --game G           the game whose branches --place and the map's Lua know:\n"
    "                     crawl-0.28, crawl-master (default: the game of the\n"
    "                     file's Crawl data tree, else the newest)\n"
    "  --lua-path DIR     a game's Lua library, e.g. Crawl's dat/dlua (repeatable;\n"
    "                     default: the data tree's dlua)\n"
    "  --verbose          a line for every marker's cell, not one a kind\n"
    "  --color WHEN       auto (default: on a terminal, unless NO_COLOR is set),\n"
    "                     always or never\n"
    "  --format F         text (default) or json (the level's cells, things,\n"
    "                     markers; a .des map is resolved, seed 0 by default)\n"
    "  --max-errors N     report N errors at most (default 50; 0: no limit)\n"
    "Exit status: 0 when the level has no errors, 1 otherwise, 2 on bad usage.\n";

/* The ways the game may turn the level (qg_level_turns), when it may. */
static void print_turns(const qg_level *level)
{
    int applied;
    unsigned turns = qg_level_turns(level, &applied);
    if (!(turns & ~QG_TURNS_NONE))
        return;
    fputs("turns: the game turns it by one of transforms", stdout);
    for (int t = 0; t < 8; t++)
        if (turns & 1u << t)
            printf(" %d", t);
    if (applied >= 0)
        printf("; shown turned by %d (--seed)\n", applied);
    else
        fputs(" (t & 3 quarter turns clockwise, then mirrored when t & 4); shown unturned\n",
              stdout);
}

/* What show does with the one entry of its batch: prints the level, or
 * what a map with no level of its own is (a failure the batch has said). */
typedef struct showing {
    const cli_opts *opts;
    const cli_style *style;
    const qg_input *input;
    int errors;
} showing;

static void print_json(showing *s, const cli_entry *e)
{
    qg_format format = cli_kind_format(s->input->kind);
    json_t *doc = cli_json_document("questgrid-level/1");
    json_object_set_new(doc, "file", cli_json_text(e->file ? e->file : s->input->path));
    json_object_set_new(doc, "format",
                        json_string(qg_format_name(format != QG_FORMAT_UNKNOWN ? format
                                                   : e->def ? QG_FORMAT_DES
                                                            : QG_FORMAT_FD)));
    json_t *body = e->level ? cli_json_level(e->level, s->style->options.vocab)
                            : cli_json_no_level(e->name, e->what);
    json_object_update(doc, body);
    json_decref(body);
    s->errors += !cli_json_print(doc);
}

/* Where a .des map was resolved when the command did not say: at the
 * level its DEPTH or PLACE names, inside the map whose SUBVAULT uses it. */
static void print_home(const cli_opts *opts, const cli_entry *e)
{
    if (e->inside)
        printf("resolved inside %s, whose SUBVAULT places it\n", e->inside);
    if (e->place && !opts->place)
        printf("resolved at %s (--place chooses another)\n", e->place);
}

static int show_entry(void *user, cli_entry *e)
{
    showing *s = user;
    if (!e->level && !e->what)
        return 0;
    if (s->opts->json) {
        print_json(s, e);
    } else if (e->level) {
        s->errors += qg_render_text_with(e->level, &s->style->options, stdout) != QG_OK;
        print_turns(e->level);
        print_home(s->opts, e);
    } else {
        printf("%s: no level of its own: %s\n", e->name, e->what);
    }
    return 0;
}

/* A hub without --quest: the error that lists its quests. */
static int list_quests(cli_opts *opts, const qg_input *input, qg_diags *diags)
{
    cli_source source;
    cli_source_open(&source, opts, "show", input, 0, diags);
    cli_source_close(&source);
    return 1;
}

/* The level of the input as every batch gets it (batch.h): a .des map
 * where it belongs, a dummy said to be one. */
static int show_level(cli_opts *opts, const qg_input *input, qg_diags *diags)
{
    if (input->kind == QG_FILE_HUB && opts->quest < 0)
        return list_quests(opts, input, diags);
    cli_style style;
    cli_style_open(&style, opts, "show", input, opts->color);
    showing s = {opts, &style, input, 0};
    cli_batch b;
    cli_batch_init(&b, opts, "show", diags, show_entry, &s);
    b.one = 1;
    cli_batch_add(&b, input);
    cli_batch_input(&b, input);
    cli_batch_free(&b);
    int failed = cli_batch_finish(&b, "shown");
    cli_style_close(&style);
    return failed || s.errors || !(b.resolved + b.described) ? 1 : 0;
}

int cmd_show(int argc, char **argv)
{
    cli_opts opts;
    int r = cli_parse_files(argc, argv, OPT_QUEST | OPT_VAR | OPT_DIALECT | OPT_EDIT_DIR |
                            OPT_MAP | OPT_LEGACY | OPT_SEED | OPT_PLACE | OPT_LUA_PATH |
                            OPT_COLOR | OPT_FORMAT | OPT_GAME | OPT_MAX_ERRORS | OPT_VERBOSE,
                            1, INT_MAX, usage, &opts);
    if (r)
        return r > 0 ? 0 : 2;
    qg_diags *diags = cli_diags_new(&opts, 1);
    cli_inputs in = {NULL, 0};
    int status = !diags || cli_inputs_find(&opts, &in, diags) != 0 ? 2 : 1;
    const qg_input *input = status == 1 ? cli_inputs_one(&opts, &in, diags) : NULL;
    /* a Lua library the user names asks for the map resolved; one
     * detected beside the files does not */
    int resolve = opts.has_seed || opts.place || opts.json ||
                  (opts.lua_path_count && !opts.detected_lua);
    if (input && input->kind == QG_FILE_DES && !resolve) {
        cli_report(diags);
        status = cli_show_des(&opts, input->path);
    } else if (input) {
        status = show_level(&opts, input, diags);
    }
    if (diags && cli_report(diags) && status == 0)
        status = 1;
    cli_inputs_free(&in);
    qg_diags_free(diags);
    cli_opts_free(&opts);
    return status;
}

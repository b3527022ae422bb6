/* questgrid show FILE: resolves an F:/D: file (or a quest through its
 * hub) and prints the level with its legend; for a .des file, prints a
 * map as declared. */
#include "cli/cli.h"
#include "cli/cli_des.h"
#include "cli/cli_lua.h"

#include <stdio.h>

static const char usage[] =
    "usage: questgrid show FILE [--quest N] [--var NAME=VALUE]... [--dialect D] [--edit-dir DIR]\n"
    "       questgrid show FILE.des [--map NAME] [--legacy]\n"
    "       questgrid show FILE.des [--map NAME] --seed N [--place D:5] [--lua-path DIR]...\n"
    "\n"
    "Resolves FILE as the games do (?: conditions with the variables given,\n"
    "%: includes, F: letters, D: rows, P: start) and prints the level: the\n"
    "glyph grid and a legend naming features, monsters and objects.\n"
    "\n"
    "  --quest N          FILE is a hub such as q_info.txt: load quest N\n"
    "                     ($QUEST_NUMBER = N)\n"
    "  --var NAME=VALUE   set $NAME for ?: conditions (repeatable)\n"
    "  --dialect D        zangband, hengband, tome or auto (default: auto)\n"
    "  --edit-dir DIR     the lib/edit directory for includes and names\n"
    "  --map NAME         the .des map to show (default: the first)\n"
    "  --legacy           read the .des file in the Crawl 0.3-0.4 syntax\n"
    "  --seed N           resolve the .des map with its Lua, seeded by N, and\n"
    "                     print the level (also with --place or --lua-path)\n"
    "  --place P          where the map is resolved, e.g. D:5 (default D:1)\n"
    "  --lua-path DIR     a game's Lua library, e.g. Crawl's dat/dlua (repeatable)\n"
    "Exit status: 0 when the level has no errors, 1 otherwise, 2 on bad usage.\n";

static int show_fd(cli_opts *opts, const char *path);

int cmd_show(int argc, char **argv)
{
    cli_opts opts;
    int r = cli_parse_files(argc, argv, OPT_QUEST | OPT_VAR | OPT_DIALECT | OPT_EDIT_DIR |
                            OPT_MAP | OPT_LEGACY | OPT_SEED | OPT_PLACE | OPT_LUA_PATH,
                            1, 1, usage, &opts);
    if (r)
        return r > 0 ? 0 : 2;
    const char *path = opts.files[0];
    int resolve = opts.has_seed || opts.place || opts.lua_path_count;
    int status;
    if (qg_format_from_path(path) != QG_FORMAT_DES)
        status = show_fd(&opts, path);
    else if (resolve)
        status = cli_show_des_resolved(&opts, path);
    else
        status = cli_show_des(&opts, path);
    cli_opts_free(&opts);
    return status;
}

static int show_fd(cli_opts *opts, const char *path)
{
    qg_diags *diags = qg_diags_new();
    cli_fd fd = {.vocab = NULL, .dir = NULL};
    int status = 2;
    if (diags && cli_fd_setup(opts, path, &fd, diags) == 0) {
        qg_level *level = NULL;
        if (opts->quest >= 0)
            qg_fd_load_quest(path, (int)opts->quest, &fd.options, opts->vars, &level, diags);
        else
            qg_fd_load_file(path, &fd.options, opts->vars, &level, diags);
        size_t errors = cli_report(diags);
        if (level && qg_render_text(level, fd.vocab, stdout) != QG_OK)
            errors++;
        status = errors || !level ? 1 : 0;
        qg_level_free(level);
    } else if (diags) {
        cli_report(diags);
    }
    cli_fd_free(&fd);
    qg_diags_free(diags);
    return status;
}

/* Levels from a file in any format questgrid reads, for the commands that
 * show, count, place, check and draw them: F:/D: files (quest N of a hub
 * with --quest), .des maps resolved with their Lua (--map, --place,
 * --lua-path), Tiled .tmx and REXPaint .xp. The kind of file comes from
 * the inputs' walk (cli_inputs_find). */
#ifndef QG_CLI_SOURCE_H
#define QG_CLI_SOURCE_H

#include "cli/cli.h"
#include "cli/cli_lua.h"

typedef struct cli_source {
    const cli_opts *opts;
    const char *path;
    qg_format format;
    cli_fd fd;             /* the vocabulary (and F:/D: options) */
    cli_lua lua;           /* .des: the runtime and the map */
    char *data;            /* .tmx, .xp: the file's bytes */
    size_t len;
    qg_palette *palette;   /* Crawl feature colours, when asked for */
    qg_game *game;         /* the tables that draw what the level names,
                              with the colours */
} cli_source;

/* What the commands that read one level read (usage texts, refusals). */
#define CLI_SOURCE_READS "levels: .des maps, F:/D: levels and hubs, Tiled .tmx, REXPaint .xp"

enum {
    CLI_SOURCE_COLOURS = 1,   /* load the Crawl feature colours too */
    CLI_SOURCE_EVERY_MAP = 2, /* every map of a .des file is wanted: one
                                 without maps is no error */
    CLI_SOURCE_NO_LEVELS = 4  /* only what draws the levels (vocabulary,
                                 colours, game): no quest, variable or Lua */
};

/* Reads an input of the command (named command) and prepares its levels:
 * a hub's --quest is checked against its quests, --var against the
 * dialect's variables. 0 on success; otherwise -1 and why in diags. */
int cli_source_open(cli_source *s, const cli_opts *opts, const char *command,
                    const qg_input *input, unsigned flags, qg_diags *diags);
/* The level for seed: a .des map's Lua, a room template's turn and
 * SCRAMBLE (F:/D: levels without --seed make none of these choices). */
qg_status cli_source_level(cli_source *s, unsigned long long seed, qg_level **out,
                           qg_diags *diags);
/* The rendering options for the source's levels. */
qg_render_options cli_source_style(const cli_source *s, int colour);
void cli_source_close(cli_source *s);

/* The format a kind of file is read in; QG_FORMAT_UNKNOWN for a kind that
 * holds no level. */
qg_format cli_kind_format(qg_file_kind kind);

#endif

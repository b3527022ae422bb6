/* Levels from a file in any format questgrid reads, for the commands that
 * show, count, place, check and draw them: F:/D: files (quest N of a hub
 * with --quest), .des maps resolved with their Lua (--map, --place,
 * --lua-path), Tiled .tmx and REXPaint .xp. The format comes from the
 * file's content; a lib/edit vocabulary or a file with no F:/D: record is
 * said not to be a level. */
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
} cli_source;

/* Reads path, tells its format and prepares its levels; with colours, the
 * Crawl feature colours are loaded too. 0 on success; otherwise -1 and
 * why in diags. */
int cli_source_open(cli_source *s, const cli_opts *opts, const char *path, int colours,
                    qg_diags *diags);
/* The level for seed: a .des map's Lua, a room template's turn and
 * SCRAMBLE (F:/D: levels without --seed make none of these choices). */
qg_status cli_source_level(cli_source *s, unsigned long long seed, qg_level **out,
                           qg_diags *diags);
/* The rendering options for the source's levels. */
qg_render_options cli_source_style(const cli_source *s, int colour);
void cli_source_close(cli_source *s);

/* The format of the file's bytes; for F:/D: files, an error in diags
 * (and QG_FORMAT_UNKNOWN) when it holds a vocabulary or no level. */
qg_format cli_detect(const char *path, const char *data, size_t len, qg_diags *diags);

#endif

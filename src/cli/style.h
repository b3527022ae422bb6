/* What the levels of a command are drawn with, for the commands that
 * draw (render, show): the vocabulary, palette and game of one input
 * (an F:/D: file's vocabulary draws more than a .des file's), else the
 * bundled vocabulary and palette and the Crawl of --game (a cache). */
#ifndef QG_CLI_STYLE_H
#define QG_CLI_STYLE_H

#include "cli/source.h"

typedef struct cli_style {
    cli_source first;
    int has_first;
    qg_vocab *bundled;
    qg_palette *palette;
    qg_game *game;
    qg_render_options options;
} cli_style;

/* The style of pick (NULL: the bundled one), in colour when colour is
 * set; what opening pick says, each map's own reading says again. */
void cli_style_open(cli_style *st, const cli_opts *opts, const char *command,
                    const qg_input *pick, int colour);
void cli_style_close(cli_style *st);

#endif

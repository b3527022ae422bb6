/* What levels are drawn with: see style.h. */
#include "cli/style.h"

#include <string.h>

void cli_style_open(cli_style *st, const cli_opts *opts, const char *command,
                    const qg_input *pick, int colour)
{
    memset(st, 0, sizeof *st);
    qg_diags *quiet = qg_diags_new();
    if (pick && quiet && cli_kind_format(pick->kind) != QG_FORMAT_UNKNOWN &&
        cli_source_open(&st->first, opts, command, pick,
                        CLI_SOURCE_COLOURS | CLI_SOURCE_NO_LEVELS, quiet) == 0) {
        st->has_first = 1;
        st->options = cli_source_style(&st->first, colour);
    } else {
        if (pick)
            cli_source_close(&st->first);
        st->bundled = cli_load_vocab(opts, quiet);
        st->palette = qg_palette_new();
        if (st->palette)
            qg_palette_load_bundled(st->palette, quiet);
        st->game = cli_game_tables(cli_crawl_game(opts));
        st->options = (qg_render_options){st->bundled, st->palette, colour, st->game,
                                          opts->cell, opts->verbose};
    }
    qg_diags_free(quiet);
}

void cli_style_close(cli_style *st)
{
    if (st->has_first)
        cli_source_close(&st->first);
    qg_vocab_free(st->bundled);
    qg_palette_free(st->palette);
    qg_game_free(st->game);
}

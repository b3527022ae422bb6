/* Levels from any format: see source.h. */
#include "cli/source.h"
#include "core/file.h"

#include <stdlib.h>
#include <string.h>

qg_format cli_kind_format(qg_file_kind kind)
{
    switch (kind) {
    case QG_FILE_DES: return QG_FORMAT_DES;
    case QG_FILE_LEVEL: case QG_FILE_PART: case QG_FILE_HUB: return QG_FORMAT_FD;
    case QG_FILE_TMX: return QG_FORMAT_TMX;
    case QG_FILE_XP: return QG_FORMAT_XP;
    default: return QG_FORMAT_UNKNOWN;
    }
}

/* The game whose tables draw what the source's levels name: a Crawl
 * version for .des (--game's, else the newest), the variant of an F:/D:
 * file; NULL (nothing said) when questgrid has none. */
static qg_game *source_game(const cli_source *s)
{
    if (s->format != QG_FORMAT_FD)
        return cli_game_tables(cli_crawl_game(s->opts));
    return cli_game_tables(s->fd.own_vocab || s->opts->dialect
                               ? cli_dialect_game(s->fd.options.dialect)
                               : "questgrid");
}

/* F:/D: files: a hub's --quest, and --var, checked against what the game
 * has. */
static int check_fd_names(cli_source *s, const qg_input *input, qg_diags *diags)
{
    qg_fd_dialect dialect = s->fd.options.dialect;
    if (dialect == QG_FD_AUTO)
        dialect = qg_fd_detect_dialect(s->path, s->data, s->len);
    cli_check_vars(s->opts, dialect, diags);
    if (input->kind != QG_FILE_HUB)
        return 0;
    return cli_hub_check(s->opts, s->path, &s->fd.options, diags);
}

int cli_source_open(cli_source *s, const cli_opts *opts, const char *command,
                    const qg_input *input, unsigned flags, qg_diags *diags)
{
    memset(s, 0, sizeof *s);
    s->opts = opts;
    s->path = input->path;
    s->format = cli_kind_format(input->kind);
    if (s->format == QG_FORMAT_UNKNOWN) {
        cli_input_refuse(command, CLI_SOURCE_READS, input, diags);
        return -1;
    }
    if (qg_read_file(s->path, QG_MAX_TEXT_FILE, &s->data, &s->len, diags) != QG_OK ||
        cli_fd_setup(opts, s->path, &s->fd, diags) != 0)
        return -1;
    if (s->format == QG_FORMAT_FD && !(flags & CLI_SOURCE_NO_LEVELS) &&
        check_fd_names(s, input, diags) != 0)
        return -1;
    if (flags & CLI_SOURCE_COLOURS) {
        s->palette = qg_palette_new();
        if (!s->palette || qg_palette_load_bundled(s->palette, diags) != QG_OK)
            return -1;
        s->game = source_game(s);
    }
    if (s->format == QG_FORMAT_DES && !(flags & CLI_SOURCE_NO_LEVELS) &&
        cli_lua_setup(opts, s->path, !(flags & CLI_SOURCE_EVERY_MAP), &s->lua, diags) != 0)
        return -1;
    return 0;
}

qg_status cli_source_level(cli_source *s, unsigned long long seed, qg_level **out,
                           qg_diags *diags)
{
    *out = NULL;
    const cli_opts *o = s->opts;
    switch (s->format) {
    case QG_FORMAT_FD:
        /* --seed makes the game's random choices (a room template's turn
           and SCRAMBLE) */
        s->fd.options.seeded = o->has_seed;
        s->fd.options.seed = seed;
        if (o->quest >= 0)
            return qg_fd_load_quest(s->path, (int)o->quest, &s->fd.options, o->vars, out, diags);
        return qg_fd_load_file(s->path, &s->fd.options, o->vars, out, diags);
    case QG_FORMAT_DES: {
        qg_context context = {o->place, 0, o->vars};
        return qg_runtime_resolve(s->lua.rt, s->lua.def, seed, &context, out, diags);
    }
    case QG_FORMAT_TMX:
    case QG_FORMAT_XP:
        return qg_level_read(s->path, s->data, s->len, s->format, out, diags);
    default:
        return QG_ERR_INVALID;
    }
}

qg_render_options cli_source_style(const cli_source *s, int colour)
{
    qg_render_options options = {s->fd.vocab, s->palette, colour, s->game,
                                 s->opts ? s->opts->cell : 0,
                                 s->opts ? s->opts->verbose : 0};
    return options;
}

void cli_source_close(cli_source *s)
{
    cli_fd_free(&s->fd);
    cli_lua_free(&s->lua);
    qg_palette_free(s->palette);
    qg_game_free(s->game);
    free(s->data);
    memset(s, 0, sizeof *s);
}

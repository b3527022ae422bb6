/* Levels from any format: see source.h. */
#include "cli/source.h"
#include "core/file.h"

#include <stdlib.h>
#include <string.h>

qg_format cli_detect(const char *path, const char *data, size_t len, qg_diags *diags)
{
    qg_format format = qg_format_detect(path, data, len);
    if (format == QG_FORMAT_UNKNOWN) {
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0,
                     "cannot tell the format of this file (F:/D: .txt/.map, .des, .tmx and .xp "
                     "can be read)");
        return format;
    }
    if (format != QG_FORMAT_FD)
        return format;
    size_t entries;
    switch (qg_fd_sniff(data, len, &entries)) {
    case QG_FD_CONTENT_VOCABULARY:
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0,
                     "not a level: a lib/edit vocabulary file (%zu N:index:name entries, as "
                     "f_info.txt, r_info.txt, k_info.txt or a_info.txt have); levels are "
                     "quest, town and wilderness files of F: and D: lines",
                     entries);
        return QG_FORMAT_UNKNOWN;
    case QG_FD_CONTENT_NONE:
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0,
                     "not a level: no F:, D:, Q:, P:, %%: or ?: record in the file");
        return QG_FORMAT_UNKNOWN;
    case QG_FD_CONTENT_LEVEL:
        break;
    }
    return format;
}

int cli_source_open(cli_source *s, const cli_opts *opts, const char *path, int colours,
                    qg_diags *diags)
{
    memset(s, 0, sizeof *s);
    s->opts = opts;
    s->path = path;
    if (qg_read_file(path, QG_MAX_TEXT_FILE, &s->data, &s->len, diags) != QG_OK)
        return -1;
    s->format = cli_detect(path, s->data, s->len, diags);
    if (s->format == QG_FORMAT_UNKNOWN || cli_fd_setup(opts, path, &s->fd, diags) != 0)
        return -1;
    if (colours) {
        s->palette = qg_palette_new();
        if (!s->palette || qg_palette_load_bundled(s->palette, diags) != QG_OK)
            return -1;
    }
    if (s->format == QG_FORMAT_DES && cli_lua_setup(opts, path, &s->lua, diags) != 0)
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
    qg_render_options options = {s->fd.vocab, s->palette, colour};
    return options;
}

void cli_source_close(cli_source *s)
{
    cli_fd_free(&s->fd);
    cli_lua_free(&s->lua);
    qg_palette_free(s->palette);
    free(s->data);
    memset(s, 0, sizeof *s);
}

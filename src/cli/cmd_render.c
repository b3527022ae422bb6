/* questgrid render FILE -o OUT: a level as a picture (SVG, PNG) or a
 * self-contained HTML gallery of every map of a .des file or a compiled
 * cache, in the game's colours. */
#include "cli/source.h"
#include "core/buf.h"
#include "core/file.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: questgrid render FILE|DIR... -o OUT.svg|OUT.html|OUT.png [--to svg|html|png]\n"
    "                        [--cell N] [--map NAME] [--seed N] [--place D:5] [--lua-path DIR]...\n"
    "                        [--quest N] [--var NAME=VALUE]... [--dialect D] [--edit-dir DIR]\n"
    "\n"
    "Draws levels as their game draws them: each monster, object and feature\n"
    "with its game's character and colour (F:/D: levels from the variant's\n"
    "f_info.txt, r_info.txt and k_info.txt G: lines, Crawl maps from Crawl's\n"
    "tables, lib/games, and feature colours, des/colours.txt), with a legend.\n"
    "FILE is an F:/D: file, a .des file (its maps resolved with --seed, default\n"
    "0), a .tmx or .xp file, or a compiled cache (.qgc); a directory gives\n"
    "every such file below it (a hub only with --quest, as its quests are\n"
    "files of their own). A level larger than the games build (198 x 70) is\n"
    "refused, not drawn.\n"
    "\n"
    "  -o, --output OUT   the file to write; - for standard output (with --to)\n"
    "  --follow-symlinks  replace the file a symbolic link at OUT names, not the link\n"
    "  --to FORMAT        svg (one level), html (a gallery page of every map of\n"
    "                     the files and caches, each with its name, size, tags\n"
    "                     and legend; one with --map) or png (one level, with\n"
    "                     libpng)\n"
    "  --map NAME         the map to draw (default: the file's first; html: all)\n"
    "  --cell N           png: pixels a cell is square, 8 to 64 (default 16)\n"
    "  --seed N, --place P, --game G, --lua-path DIR, --quest N, --var NAME=VALUE,\n"
    "  --dialect D, --edit-dir DIR, --allow-include-outside, --legacy\n"
    "                     as for show\n"
    "  --max-errors N     report N errors at most (default 50; 0: no limit)\n"
    "Exit status: 0 written, 1 errors (nothing written), 2 bad usage.\n";

enum { TO_SVG, TO_HTML, TO_PNG };
static const char *const formats[] = {"svg", "html", "png", NULL};

typedef struct gallery {
    qg_level **levels;
    size_t count, cap;
} gallery;

static int keep(gallery *g, qg_level *level)
{
    if (!level)
        return 0;
    qg_level **slot = QG_PUSH(g->levels, g->count, g->cap);
    if (!slot) {
        qg_level_free(level);
        return 0;
    }
    *slot = level;
    return 1;
}

static void gallery_free(gallery *g)
{
    for (size_t i = 0; i < g->count; i++)
        qg_level_free(g->levels[i]);
    free(g->levels);
}

/* Every map of the .des file, each compiled and resolved with the seed. */
static void every_des_map(cli_source *s, gallery *g, qg_diags *diags)
{
    qg_context context = {s->opts->place, 0, s->opts->vars};
    for (size_t i = 0; i < qg_runtime_map_count(s->lua.rt); i++) {
        qg_mapdef *def = qg_runtime_map(s->lua.rt, i);
        qg_level *level = NULL;
        if (qg_runtime_compile_map(s->lua.rt, def, diags) == QG_OK)
            qg_runtime_resolve(s->lua.rt, def, s->opts->seed, &context, &level, diags);
        keep(g, level);
    }
}

/* Every map of a cache (or the one --map names). */
static int from_cache(const cli_opts *opts, const char *path, gallery *g, qg_diags *diags)
{
    qg_cache *cache = NULL;
    if (qg_cache_open(path, NULL, &cache, diags) != QG_OK)
        return -1;
    qg_runtime_options runtime = {opts->lua_paths, opts->lua_path_count, 0, 0,
                                  opts->branches};
    qg_context context = {opts->place, 0, opts->vars};
    qg_cache_resolve_options ro = {opts->seed, &runtime, &context, NULL, opts->vars};
    size_t before = g->count;
    for (size_t i = 0; i < qg_cache_map_count(cache); i++) {
        if (opts->map && strcmp(qg_cache_entry_at(cache, i)->name, opts->map) != 0)
            continue;
        qg_level *level = NULL;
        qg_cache_resolve(cache, i, &ro, &level, diags);
        keep(g, level);
    }
    if (opts->map && g->count == before)
        cli_unknown_cache_map(path, opts->map, cache, diags);
    qg_cache_close(cache);
    return 0;
}

/* What the pictures are drawn with: the vocabulary, palette and game of
 * the first F:/D: file, else of the first level file (else the bundled vocabulary and palette, and the
 * Crawl of --game, for caches). */
typedef struct style_source {
    cli_source first;
    int has_first;
    qg_vocab *bundled;
    qg_palette *palette;
    qg_game *game;
} style_source;

/* The game whose tables draw the maps of caches: --game's (or the one
 * detected), else the newest Crawl; NULL when its tables cannot be read. */
static qg_game *cache_game(const cli_opts *opts)
{
    const char *name = opts->branches ? qg_branches_game(opts->branches) : "crawl-master";
    qg_diags *quiet = qg_diags_new();
    qg_game *game = NULL;
    if (quiet)
        qg_game_load(NULL, name, &game, quiet);
    qg_diags_free(quiet);
    return game;
}

/* The levels of one input: every map of a .des file or a cache when all
 * is set, else the one --map names (or the first); an F:/D:, .tmx or .xp
 * file's level. */
static void add_levels(const cli_opts *opts, const qg_input *input, int all, gallery *g,
                       style_source *style, qg_diags *diags)
{
    if (input->kind == QG_FILE_CACHE) {
        from_cache(opts, input->path, g, diags);
        return;
    }
    cli_source source;
    unsigned flags = CLI_SOURCE_COLOURS | (all ? CLI_SOURCE_EVERY_MAP : 0);
    if (cli_source_open(&source, opts, "render", input, flags, diags) != 0) {
        cli_source_close(&source);
        return;
    }
    qg_level *level = NULL;
    if (source.format == QG_FORMAT_DES && all)
        every_des_map(&source, g, diags);
    else if (cli_source_level(&source, opts->seed, &level, diags) == QG_OK)
        keep(g, level);
    else
        qg_level_free(level);
    /* an F:/D: file's vocabulary draws more than a .des file's */
    if (!style->has_first ||
        (style->first.format != QG_FORMAT_FD && source.format == QG_FORMAT_FD)) {
        if (style->has_first)
            cli_source_close(&style->first);
        style->first = source;
        style->has_first = 1;
    } else {
        cli_source_close(&source);
    }
}

/* The files of a gallery: a hub only when it is all there is or --quest
 * picks its quest (its quests' own files are levels of the directory);
 * lines that levels include never. */
static int in_gallery(const cli_opts *opts, const cli_inputs *in, const qg_input *input)
{
    if (input->kind == QG_FILE_HUB)
        return in->count == 1 || opts->quest >= 0;
    return input->kind != QG_FILE_PART || input->named;
}

/* A note for each feature no table gives a colour: drawn light grey. */
static void unknown_colours(const gallery *g, const qg_render_options *style, qg_diags *diags)
{
    qg_buf seen;
    qg_buf_init(&seen);
    qg_buf_putc(&seen, '\n');
    for (size_t i = 0; i < g->count; i++) {
        const qg_level *level = g->levels[i];
        qg_cell cell;
        for (int y = 0; y < qg_level_height(level); y++)
            for (int x = 0; x < qg_level_width(level); x++) {
                if (qg_level_cell(level, x, y, &cell) != QG_OK || !cell.in_map ||
                    (!cell.feature_name && cell.feature < 0) ||
                    qg_render_knows_colour(&cell, style))
                    continue;
                char key[80];
                snprintf(key, sizeof key, "\n%s#%ld\n", cell.feature_name ? cell.feature_name : "",
                         (long)cell.feature);
                if (seen.data && strstr(seen.data, key))
                    continue;
                qg_buf_puts(&seen, key + 1);
                qg_diags_add(diags, QG_NOTE, "", 0, 0, NULL, 0,
                             "no colour known for feature %s%s%ld (des/colours.txt, f_info.txt G: "
                             "lines): drawn light grey",
                             cell.feature_name ? cell.feature_name : "",
                             cell.feature_name ? " " : "", (long)cell.feature);
            }
    }
    qg_buf_free(&seen);
}

static qg_status draw(int to, const gallery *g, const char *title,
                      const qg_render_options *style, char **out, size_t *len, qg_diags *diags)
{
    if (to == TO_HTML)
        return qg_render_html((const qg_level *const *)g->levels, g->count, title, style, out,
                              len);
    if (to == TO_SVG)
        return qg_render_svg(g->levels[0], style, out, len);
    return qg_render_png(g->levels[0], style, (unsigned char **)out, len, diags);
}

static int write_out(const cli_opts *opts, const char *data, size_t len, qg_diags *diags)
{
    if (strcmp(opts->output, "-") == 0)
        return fwrite(data, 1, len, stdout) == len;
    return cli_write_output(opts, opts->output, data, len, diags);
}

static int render(cli_opts *opts, int to, qg_diags *diags)
{
    cli_inputs in = {NULL, 0};
    if (cli_inputs_find(opts, &in, diags) != 0)
        return 2;
    gallery g = {NULL, 0, 0};
    style_source from = {.has_first = 0, .bundled = NULL, .palette = NULL, .game = NULL};
    int all = to == TO_HTML && !opts->map;
    const qg_input *one = NULL;
    if (!all && !(one = in.count == 1 ? &in.items[0] : cli_inputs_one(opts, &in, diags)))
        in.count = 0;
    for (size_t i = 0; i < in.count; i++)
        if (one ? &in.items[i] == one : in_gallery(opts, &in, &in.items[i]))
            add_levels(opts, &in.items[i], all, &g, &from, diags);
    qg_render_options style = {NULL, NULL, 0, NULL, opts->cell, 0};
    if (from.has_first) {
        style = cli_source_style(&from.first, 0);
    } else {
        from.bundled = cli_load_vocab(opts, diags);
        from.palette = qg_palette_new();
        if (from.palette)
            qg_palette_load_bundled(from.palette, diags);
        from.game = cache_game(opts);
        style = (qg_render_options){from.bundled, from.palette, 0, from.game, opts->cell, 0};
    }
    char *text = NULL;
    size_t len = 0;
    /* a level larger than the games build is refused, not drawn */
    for (size_t i = 0; i < g.count; i++)
        qg_render_check_size(g.levels[i], diags);
    int ok = g.count && !qg_diags_count_severity(diags, QG_ERROR);
    if (ok) {
        unknown_colours(&g, &style, diags);
        const char *title = opts->file_count == 1 ? opts->files[0] : "questgrid";
        ok = draw(to, &g, title, &style, &text, &len, diags) == QG_OK &&
             write_out(opts, text, len, diags);
    } else if (!g.count && !qg_diags_count_severity(diags, QG_ERROR)) {
        qg_diags_add(diags, QG_ERROR, opts->files[0], 0, 0, NULL, 0, "no level to draw");
    }
    free(text);
    gallery_free(&g);
    if (from.has_first)
        cli_source_close(&from.first);
    qg_vocab_free(from.bundled);
    qg_palette_free(from.palette);
    qg_game_free(from.game);
    cli_inputs_free(&in);
    return ok ? 0 : 1;
}

static int format_of(const cli_opts *opts)
{
    if (opts->to)
        return cli_choice("render", "--to", opts->to, formats);
    const char *dot = strrchr(opts->output, '.');
    if (dot && strcmp(dot, ".htm") == 0)
        return TO_HTML;
    for (int i = 0; dot && formats[i]; i++)
        if (strcmp(dot + 1, formats[i]) == 0)
            return i;
    cli_usage_error("render", usage, "cannot tell the picture format of '%s' (use --to svg, "
                    "html or png)", opts->output);
    return -1;
}

int cmd_render(int argc, char **argv)
{
    cli_opts opts;
    int r = cli_parse_files(argc, argv, OPT_OUTPUT | OPT_TO | OPT_MAP | OPT_SEED | OPT_PLACE |
                            OPT_LUA_PATH | OPT_QUEST | OPT_VAR | OPT_DIALECT | OPT_EDIT_DIR |
                            OPT_LEGACY | OPT_GAME | OPT_CELL | OPT_MAX_ERRORS, 1, INT_MAX, usage,
                            &opts);
    if (r)
        return r > 0 ? 0 : 2;
    int status = 2, to = -1;
    if (!opts.output)
        cli_usage_error("render", usage, "no -o OUT given (- for standard output)");
    else if ((to = format_of(&opts)) >= 0) {
        qg_diags *diags = cli_diags_new(&opts, 0);
        status = diags ? render(&opts, to, diags) : 2;
        if (diags && cli_report(diags) && !status)
            status = 1;
        qg_diags_free(diags);
    }
    cli_opts_free(&opts);
    return status;
}

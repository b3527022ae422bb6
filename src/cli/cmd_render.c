/* questgrid render FILE -o OUT: a level as a picture (SVG, PNG) or a
 * self-contained HTML gallery of every map of a .des file or a compiled
 * cache, in the game's colours. */
#include "cli/source.h"
#include "core/buf.h"
#include "core/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: questgrid render FILE -o OUT.svg|OUT.html|OUT.png [--to svg|html|png]\n"
    "                        [--map NAME] [--seed N] [--place D:5] [--lua-path DIR]...\n"
    "                        [--quest N] [--var NAME=VALUE]... [--dialect D] [--edit-dir DIR]\n"
    "\n"
    "Draws levels in the colours their game gives them: F:/D: levels with the\n"
    "variant's f_info.txt, r_info.txt and k_info.txt G: colours, Crawl maps with\n"
    "Crawl's feature colours (des/colours.txt). FILE is an F:/D: file, a .des\n"
    "file (its maps resolved with --seed, default 0), a .tmx or .xp file, or a\n"
    "compiled cache (.qgc).\n"
    "\n"
    "  -o, --output OUT   the file to write; - for standard output (with --to)\n"
    "  --follow-symlinks  replace the file a symbolic link at OUT names, not the link\n"
    "  --to FORMAT        svg (one level), html (a gallery page of every map of\n"
    "                     the file or cache, each with its name, size, tags and\n"
    "                     legend; one with --map) or png (one level, with libpng)\n"
    "  --map NAME         the map to draw (default: the file's first; html: all)\n"
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
    for (size_t i = 0; i < qg_cache_map_count(cache); i++) {
        if (opts->map && strcmp(qg_cache_entry_at(cache, i)->name, opts->map) != 0)
            continue;
        qg_level *level = NULL;
        qg_cache_resolve(cache, i, &ro, &level, diags);
        keep(g, level);
    }
    if (opts->map && !g->count)
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "no map named '%s' in the cache",
                     opts->map);
    qg_cache_close(cache);
    return 0;
}

static int is_cache(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && strcmp(path + n - 4, ".qgc") == 0;
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

static int render(const cli_opts *opts, int to, qg_diags *diags)
{
    const char *path = opts->files[0];
    gallery g = {NULL, 0, 0};
    cli_source source;
    memset(&source, 0, sizeof source);
    qg_render_options style = {NULL, NULL, 0};
    int all = to == TO_HTML && !opts->map;
    if (is_cache(path)) {
        qg_vocab *vocab = cli_load_vocab(opts, diags);
        source.fd.vocab = vocab;
        source.palette = qg_palette_new();
        if (vocab && source.palette && qg_palette_load_bundled(source.palette, diags) == QG_OK)
            from_cache(opts, path, &g, diags);
    } else if (cli_source_open(&source, opts, path, 1, diags) == 0) {
        qg_level *level = NULL;
        if (source.format == QG_FORMAT_DES && all)
            every_des_map(&source, &g, diags);
        else if (cli_source_level(&source, opts->seed, &level, diags) == QG_OK)
            keep(&g, level);
        else
            qg_level_free(level);
    }
    style = cli_source_style(&source, 0);
    char *text = NULL;
    size_t len = 0;
    int ok = g.count && !qg_diags_count_severity(diags, QG_ERROR);
    if (ok) {
        unknown_colours(&g, &style, diags);
        ok = draw(to, &g, path, &style, &text, &len, diags) == QG_OK &&
             write_out(opts, text, len, diags);
    }
    free(text);
    gallery_free(&g);
    cli_source_close(&source);
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
                            OPT_LEGACY | OPT_GAME | OPT_MAX_ERRORS, 1, 1, usage, &opts);
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

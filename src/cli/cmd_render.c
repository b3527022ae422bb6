/* questgrid render FILE -o OUT: a level as a picture (SVG, PNG) or a
 * self-contained HTML gallery of every map of a .des file or a compiled
 * cache, in the game's colours. */
#include "cli/batch.h"
#include "cli/source.h"
#include "cli/style.h"
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
    "  --verbose          also the work the .des maps' resolution took, as a note\n"
    "Each map is resolved where it belongs (a .des map at its own DEPTH or\n"
    "PLACE unless --place is given, a subvault inside a map that uses it); a\n"
    "map that fails is a card of the page saying why, and the rest is drawn.\n"
    "Exit status: 0 every map written, 1 a map failed (the others written) or\n"
    "nothing could be written, 2 bad usage.\n";

enum { TO_SVG, TO_HTML, TO_PNG };
static const char *const formats[] = {"svg", "html", "png", NULL};

/* The files of a gallery: a hub only when it is all there is or --quest
 * picks its quest (its quests' own files are levels of the directory);
 * lines that levels include never. */
static int in_gallery(const cli_opts *opts, const cli_inputs *in, const qg_input *input)
{
    if (input->kind == QG_FILE_HUB)
        return in->count == 1 || opts->quest >= 0;
    return input->kind != QG_FILE_PART || input->named;
}

/* The input the pictures are styled by: the first F:/D: file drawn, else
 * the first level file (none for caches). */
static const qg_input *style_pick(const cli_opts *opts, const cli_inputs *in)
{
    const qg_input *pick = NULL;
    for (size_t i = 0; i < in->count; i++) {
        qg_format format = cli_kind_format(in->items[i].kind);
        if (!in_gallery(opts, in, &in->items[i]) || format == QG_FORMAT_UNKNOWN)
            continue;
        if (format == QG_FORMAT_FD)
            return &in->items[i];
        pick = pick ? pick : &in->items[i];
    }
    return pick;
}

/* What the batch's maps become: cards of a gallery page, or the one
 * level of a picture. */
typedef struct drawing {
    int to;
    const qg_render_options *style;
    qg_gallery *gallery;
    qg_level *one;
    qg_buf seen;           /* features told to have no colour, "\nname#n\n" */
    qg_diags *diags;
    qg_status st;
} drawing;

/* A note for each feature no table gives a colour: drawn light grey. */
static void unknown_colours(drawing *d, const qg_level *level)
{
    qg_cell cell;
    for (int y = 0; y < qg_level_height(level); y++)
        for (int x = 0; x < qg_level_width(level); x++) {
            if (qg_level_cell(level, x, y, &cell) != QG_OK || !cell.in_map ||
                (!cell.feature_name && cell.feature < 0) ||
                qg_render_knows_colour(&cell, d->style))
                continue;
            char key[80];
            snprintf(key, sizeof key, "\n%s#%ld\n", cell.feature_name ? cell.feature_name : "",
                     (long)cell.feature);
            if (d->seen.data && strstr(d->seen.data, key))
                continue;
            qg_buf_puts(&d->seen, key + 1);
            qg_diags_add(d->diags, QG_NOTE, "", 0, 0, NULL, 0,
                         "no colour known for feature %s%s%ld (des/colours.txt, f_info.txt G: "
                         "lines): drawn light grey",
                         cell.feature_name ? cell.feature_name : "",
                         cell.feature_name ? " " : "", (long)cell.feature);
        }
}

/* Where an entry is defined, for its card. */
static void where_of(const cli_entry *e, char *out, size_t size)
{
    if (e->line)
        snprintf(out, size, "%s:%d", e->file, e->line);
    else
        snprintf(out, size, "%s", e->file);
}

static int draw_entry(void *user, cli_entry *e)
{
    drawing *d = user;
    char where[1200];
    where_of(e, where, sizeof where);
    /* a level larger than the games build is refused, not drawn */
    if (e->level && qg_render_check_size(e->level, d->diags) != QG_OK) {
        char why[160];
        snprintf(why, sizeof why, "%d x %d, larger than any level the games build (%d x %d)",
                 qg_level_width(e->level), qg_level_height(e->level), QG_RENDER_MAX_WIDTH,
                 QG_RENDER_MAX_HEIGHT);
        if (d->gallery && d->st == QG_OK)
            d->st = qg_gallery_add_card(d->gallery, e->name, where, why, 1);
        return 1;
    }
    if (e->level)
        unknown_colours(d, e->level);
    if (!d->gallery) {
        if (e->level && !d->one) {
            d->one = e->level;
            e->level = NULL;
        }
        return 0;
    }
    if (d->st != QG_OK)
        return 0;
    if (e->level) {
        if (e->place)
            qg_level_add_property(e->level, "resolved at", e->place);
        d->st = qg_gallery_add_level(d->gallery, e->level);
    } else {
        d->st = qg_gallery_add_card(d->gallery, e->name, where, e->why ? e->why : e->what,
                                    e->why != NULL);
    }
    return 0;
}

static int write_out(const cli_opts *opts, const char *data, size_t len, qg_diags *diags)
{
    if (strcmp(opts->output, "-") == 0)
        return fwrite(data, 1, len, stdout) == len;
    return cli_write_output(opts, opts->output, data, len, diags);
}

/* The page or picture, once the batch is done: a page of every card, a
 * picture of the one level; 0 when written. */
static int finish(const cli_opts *opts, drawing *d, const cli_batch *b, qg_diags *diags)
{
    char *text = NULL;
    size_t len = 0;
    qg_status st = d->st;
    if (st == QG_OK && d->gallery && b->resolved + b->described + b->failed)
        st = qg_gallery_finish(d->gallery, b->failed, &text, &len);
    else if (st == QG_OK && d->to == TO_SVG && d->one)
        st = qg_render_svg(d->one, d->style, &text, &len);
    else if (st == QG_OK && d->to == TO_PNG && d->one)
        st = qg_render_png(d->one, d->style, (unsigned char **)&text, &len, diags);
    else if (st == QG_OK)
        st = QG_ERR_NOTFOUND;
    if (st == QG_ERR_NOTFOUND && !qg_diags_count_severity(diags, QG_ERROR))
        qg_diags_add(diags, QG_ERROR, opts->files[0], 0, 0, NULL, 0, "no level to draw");
    else if (st == QG_ERR_NOMEM)
        qg_diags_add(diags, QG_ERROR, opts->output, 0, 0, NULL, 0, "out of memory");
    int ok = st == QG_OK && write_out(opts, text, len, diags);
    free(text);
    return ok ? 0 : -1;
}

static int render(cli_opts *opts, int to, qg_diags *diags)
{
    cli_inputs in = {NULL, 0};
    if (cli_inputs_find(opts, &in, diags) != 0) {
        cli_report(diags);
        return 2;
    }
    const qg_input *one = NULL;
    if (to != TO_HTML && !(one = in.count == 1 ? &in.items[0] : cli_inputs_one(opts, &in, diags)))
        in.count = 0;
    cli_style style;
    cli_style_open(&style, opts, "render", style_pick(opts, &in), 0);
    style.options.cell = opts->cell;
    drawing d = {to, &style.options, NULL, NULL, {0}, diags, QG_OK};
    qg_buf_init(&d.seen);
    const char *title = opts->file_count == 1 ? opts->files[0] : "questgrid";
    if (to == TO_HTML && !(d.gallery = qg_gallery_new(title, &style.options)))
        d.st = QG_ERR_NOMEM;
    cli_batch b;
    cli_batch_init(&b, opts, "render", diags, draw_entry, &d);
    b.one = to != TO_HTML;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < in.count; i++)
            if (one ? &in.items[i] == one : in_gallery(opts, &in, &in.items[i])) {
                if (pass)
                    cli_batch_input(&b, &in.items[i]);
                else
                    cli_batch_add(&b, &in.items[i]);
            }
    cli_batch_tell_work(&b);
    cli_batch_free(&b);
    int written = finish(opts, &d, &b, diags) == 0;
    qg_gallery_free(d.gallery);
    qg_level_free(d.one);
    qg_buf_free(&d.seen);
    cli_style_close(&style);
    cli_inputs_free(&in);
    cli_report(diags);
    int failed = cli_batch_finish(&b, "drawn");
    return written && !failed && !qg_diags_count_severity(diags, QG_ERROR) ? 0 : 1;
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
                            OPT_LEGACY | OPT_GAME | OPT_CELL | OPT_MAX_ERRORS | OPT_VERBOSE, 1, INT_MAX, usage,
                            &opts);
    if (r)
        return r > 0 ? 0 : 2;
    int status = 2, to = -1;
    if (!opts.output)
        cli_usage_error("render", usage, "no -o OUT given (- for standard output)");
    else if ((to = format_of(&opts)) >= 0) {
        qg_diags *diags = cli_diags_new(&opts, 0);
        status = diags ? render(&opts, to, diags) : 2;
        qg_diags_free(diags);
    }
    cli_opts_free(&opts);
    return status;
}

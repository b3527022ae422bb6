/* questgrid stats FILE --map NAME -n N: resolves a map N times (seeds
 * SEED .. SEED+N-1) and prints how often each glyph and, per cell, each
 * outcome came up — what Crawl's -mapstat tells designers, without a debug
 * build of the game. Levels of the other formats have no randomness of
 * their own: every run gives the same level, and the figures say so. */
#include "cli/json.h"
#include "cli/source.h"
#include "core/buf.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: questgrid stats FILE.des|DIR [--map NAME] [-n N] [--seed N] [--place P]\n"
    "                       [--lua-path DIR]... [--var NAME=VALUE]... [--format json]\n"
    "       questgrid stats FILE.txt|FILE.tmx|FILE.xp [--quest N] [--var NAME=VALUE]...\n"
    "\n"
    "Resolves the map N times (default 1000) with seeds SEED, SEED+1, ...\n"
    "(default 1) and prints, per resolved glyph, in how many levels it came up\n"
    "and how many cells it takes on average, then for every cell with more\n"
    "than one outcome the share of each.\n"
    "\n"
    "  --map NAME      the map (default: the file's first; among several files,\n"
    "                  the .des file that defines it)\n"
    "  --place P       where the map is resolved, e.g. D:5 (default D:1)\n"
    "  --game G        the game whose branches --place and the map's Lua know:\n"
    "                  crawl-0.28, crawl-master (default: told from the file's\n"
    "                  Crawl data tree, else the newest)\n"
    "  --lua-path DIR  the game's Lua library, e.g. /usr/share/crawl/dat/dlua\n"
    "                  (default: the dlua of the file's Crawl data tree)\n"
    "  --quest N       FILE is a hub such as q_info.txt: quest N\n"
    "  --format F      text (default) or json\n"
    "  --max-errors N  report N errors at most (default 50; 0: no limit)\n"
    "Exit status: 0 when every resolution succeeded, 1 otherwise, 2 on bad usage.\n";

#define MAX_W 80
#define MAX_H 70

typedef struct tally {
    char *flags[2];          /* the level's LFLAGS and BFLAGS, first run */
    long cell[MAX_H][MAX_W][256];
    long levels_with[256];
    long cells_of[256];
    int width, height;
    long runs, failed;
} tally;

static const char *const flag_keys[2] = {"lflags", "bflags"};

static void count_level(tally *t, const qg_level *level)
{
    for (int i = 0; i < 2; i++) {
        const char *value = qg_level_get_property(level, flag_keys[i]);
        if (value && !t->flags[i])
            t->flags[i] = qg_strdup(value);
    }
    int w = qg_level_width(level), h = qg_level_height(level);
    const unsigned char *g = qg_level_glyphs(level);
    unsigned char seen[256] = {0};
    if (w > t->width)
        t->width = w > MAX_W ? MAX_W : w;
    if (h > t->height)
        t->height = h > MAX_H ? MAX_H : h;
    for (int y = 0; y < h && y < MAX_H; y++)
        for (int x = 0; x < w && x < MAX_W; x++) {
            unsigned char c = g[(size_t)y * w + x];
            t->cell[y][x][c]++;
            t->cells_of[c]++;
            seen[c] = 1;
        }
    for (int c = 0; c < 256; c++)
        t->levels_with[c] += seen[c];
}

static void print_glyph(int c)
{
    if (c > 0x20 && c < 0x7f)
        printf("'%c'", c);
    else
        printf("\\x%02x", c);
}

static void print_tally(const tally *t)
{
    long ok = t->runs - t->failed;
    for (int i = 0; i < 2; i++)
        if (t->flags[i])
            printf("%s: %s\n", flag_keys[i], t->flags[i]);
    printf("runs: %ld (%ld failed)\n\nglyphs (share of levels, mean cells per level):\n",
           t->runs, t->failed);
    for (int c = 0x21; c < 256 && ok; c++) {
        if (!t->levels_with[c])
            continue;
        printf("  ");
        print_glyph(c);
        printf("  %6.2f%%  %8.2f\n", 100.0 * (double)t->levels_with[c] / (double)ok,
               (double)t->cells_of[c] / (double)ok);
    }
    printf("\ncells with more than one outcome (x,y: glyph share ...):\n");
    for (int y = 0; y < t->height; y++)
        for (int x = 0; x < t->width; x++) {
            int outcomes = 0;
            for (int c = 0; c < 256; c++)
                outcomes += t->cell[y][x][c] > 0;
            if (outcomes < 2)
                continue;
            printf("  %d,%d:", x, y);
            for (int c = 0; c < 256; c++) {
                if (!t->cell[y][x][c])
                    continue;
                putchar(' ');
                print_glyph(c == 0 ? ' ' : c);
                printf(" %.1f%%", 100.0 * (double)t->cell[y][x][c] / (double)ok);
            }
            putchar('\n');
        }
}

static json_t *json_cell(const tally *t, int x, int y, long ok)
{
    json_t *outcomes = json_array();
    for (int c = 0; c < 256; c++)
        if (t->cell[y][x][c])
            json_array_append_new(outcomes, json_pack("{s:o, s:f}", "glyph",
                                                      cli_json_glyph((unsigned char)(c ? c : ' ')),
                                                      "share", (double)t->cell[y][x][c] / (double)ok));
    return json_pack("{s:i, s:i, s:o}", "x", x, "y", y, "outcomes", outcomes);
}

static int print_json(const tally *t, const cli_opts *opts, const char *path)
{
    long ok = t->runs - t->failed;
    json_t *doc = cli_json_document("questgrid-stats/1");
    json_object_set_new(doc, "file", cli_json_text(path));
    json_object_set_new(doc, "map", cli_json_text(opts->map));
    for (int i = 0; i < 2; i++)
        if (t->flags[i])
            json_object_set_new(doc, flag_keys[i], cli_json_text(t->flags[i]));
    json_object_set_new(doc, "runs", json_integer(t->runs));
    json_object_set_new(doc, "failed", json_integer(t->failed));
    json_t *glyphs = json_array(), *cells = json_array();
    for (int c = 0x21; c < 256 && ok; c++)
        if (t->levels_with[c])
            json_array_append_new(glyphs, json_pack(
                "{s:o, s:f, s:f}", "glyph", cli_json_glyph((unsigned char)c), "levels",
                (double)t->levels_with[c] / (double)ok, "mean_cells",
                (double)t->cells_of[c] / (double)ok));
    for (int y = 0; y < t->height && ok; y++)
        for (int x = 0; x < t->width; x++) {
            int outcomes = 0;
            for (int c = 0; c < 256; c++)
                outcomes += t->cell[y][x][c] > 0;
            if (outcomes > 1)
                json_array_append_new(cells, json_cell(t, x, y, ok));
        }
    json_object_set_new(doc, "glyphs", glyphs);
    json_object_set_new(doc, "cells", cells);
    return cli_json_print(doc);
}

int cmd_stats(int argc, char **argv)
{
    cli_opts opts;
    int r = cli_parse_files(argc, argv, OPT_MAP | OPT_COUNT | OPT_SEED | OPT_PLACE | OPT_LUA_PATH |
                      OPT_VAR | OPT_LEGACY | OPT_QUEST | OPT_DIALECT | OPT_EDIT_DIR |
                      OPT_FORMAT | OPT_GAME | OPT_MAX_ERRORS, 1, INT_MAX, usage, &opts);
    if (r)
        return r > 0 ? 0 : 2;
    qg_diags *diags = cli_diags_new(&opts, 0);
    tally *t = calloc(1, sizeof *t);
    cli_source source;
    memset(&source, 0, sizeof source);
    cli_inputs in = {NULL, 0};
    int status = !diags || !t ? 1 : cli_inputs_find(&opts, &in, diags) != 0 ? 2 : 1;
    const qg_input *input = status == 1 ? cli_inputs_one(&opts, &in, diags) : NULL;
    if (input && cli_source_open(&source, &opts, "stats", input, 0, diags) == 0) {
        unsigned long long seed = opts.has_seed ? opts.seed : 1;
        for (long i = 0; i < opts.count; i++) {
            qg_level *level = NULL;
            t->runs++;
            if (cli_source_level(&source, seed + (unsigned long long)i, &level, diags) == QG_OK &&
                level)
                count_level(t, level);
            else
                t->failed++;
            qg_level_free(level);
        }
        int printed = opts.json ? print_json(t, &opts, input->path) : (print_tally(t), 1);
        status = t->failed || !printed ? 1 : 0;
    }
    if (diags)
        cli_report(diags);
    cli_source_close(&source);
    cli_inputs_free(&in);
    if (t)
        for (int i = 0; i < 2; i++)
            free(t->flags[i]);
    free(t);
    qg_diags_free(diags);
    cli_opts_free(&opts);
    return status;
}

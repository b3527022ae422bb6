/* questgrid place: places vaults and quest levels into a seeded host
 * dungeon of rooms and corridors and prints the result. */
#include "cli/cli.h"
#include "cli/place_load.h"
#include "core/buf.h"
#include "core/groups.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: questgrid place --seed N [--size WxH] [--lua-path DIR]... FILE[:MAP]|DIR...\n"
    "\n"
    "Builds a dungeon of rooms and corridors from the seed, places every\n"
    "level given into it with the placement engine, and prints the dungeon,\n"
    "a legend and what each placement did. The same seed gives the same\n"
    "output.\n"
    "\n"
    "  FILE.des[:MAP]     Crawl maps (all the file's maps, or MAP), with\n"
    "                     their ORIENT, transforms, exits and corridors\n"
    "  FILE[:N]           an F:/D: level (N: quest N of a hub such as\n"
    "                     q_info.txt), placed at 0,0 as the games do\n"
    "  DIR                every level of the files below it\n"
    "  --seed N           the dungeon's and the placements' seed (default 0)\n"
    "  --size WxH         the dungeon's size (default 80x70)\n"
    "  --lua-path DIR     Crawl's dat/dlua (repeatable; default: the dlua of the\n"
    "                     Crawl data tree the .des files are in)\n"
    "  --place D:5        where the maps are resolved (you.depth() …)\n"
    "  --game G           the game whose branches --place and the maps' Lua know:\n"
    "                     crawl-0.28, crawl-master (default: told from the data\n"
    "                     tree's files, else the newest)\n"
    "  --var NAME=VALUE   variables for ?: conditions and you.*\n"
    "  --dialect D, --edit-dir DIR, --allow-include-outside   as for show\n"
    "  --color WHEN       auto (default: on a terminal, unless NO_COLOR is set),\n"
    "                     always or never\n"
    "  FILE.tmx, FILE.xp  Tiled and REXPaint levels, placed as F:/D: levels\n"
    "  --verbose          a line for every marker's cell, not one a kind\n"
    "  --max-errors N     report N errors at most (default 50; 0: no limit)\n"
    "Exit status: 0 when everything was placed, 1 otherwise, 2 on bad usage.\n";

typedef struct run {
    qg_host *host;
    unsigned long long seed;
    int index;
    qg_diags *diags;
    int verbose;    /* every marker on a line of its own */
} run;

static const char *const request_names[] = {
    "monster", "object", "ego", "artifact", "trap", "special", "marker"};

static void print_thing(const qg_request *r)
{
    switch (r->thing.kind) {
    case QG_THING_NAME: case QG_THING_TAG:
        printf(" '%s'", r->thing.name ? r->thing.name : "");
        break;
    case QG_THING_RANDOM:
        printf(" random%+d", (int)r->thing.index);
        break;
    case QG_THING_INDEX: case QG_THING_CLONE: case QG_THING_REWARD:
        printf(" #%d", (int)r->thing.index);
        break;
    case QG_THING_FORMATION:
        printf(" formation member %d", (int)r->thing.index);
        break;
    case QG_THING_NONE:
        break;
    }
    if (r->thing.chance)
        printf(" (%d%%)", (int)r->thing.chance);
}

static void print_request(const qg_request *r)
{
    printf("  %s at %d,%d", request_names[r->kind], r->x, r->y);
    print_thing(r);
    if (r->kind == QG_REQ_SPECIAL)
        printf(" special %d mimic %d mflag %u", (int)r->special, (int)r->mimic, r->mflag);
    if (r->marker)
        printf(" %s", r->marker);
    putchar('\n');
}

/* The markers one line a kind (with --verbose, one a cell). */
static void print_markers(const qg_placement *p, int verbose)
{
    const char **specs = malloc((p->request_count + 1) * sizeof *specs);
    const qg_request **of = malloc((p->request_count + 1) * sizeof *of);
    size_t n = 0, count = 0;
    for (size_t i = 0; specs && of && i < p->request_count; i++)
        if (p->requests[i].kind == QG_REQ_MARKER) {
            of[n] = &p->requests[i];
            specs[n++] = p->requests[i].marker;
        }
    qg_text_group *groups = NULL;
    if (verbose || !specs || !of || qg_text_groups(specs, n, &groups, &count) != QG_OK)
        for (size_t i = 0; i < n; i++)
            print_request(of[i]);
    for (size_t g = 0; !verbose && g < count; g++) {
        const qg_request *r = of[groups[g].first];
        if (groups[g].count == 1)
            print_request(r);
        else
            printf("  marker %s: %zu cells, the first at %d,%d\n", r->marker ? r->marker : "",
                   groups[g].count, r->x, r->y);
    }
    free(groups);
    free(of);
    free(specs);
}

static void report(const qg_level *level, const qg_placement *p, int verbose)
{
    size_t connected = 0;
    for (size_t i = 0; i < p->exit_count; i++)
        connected += (size_t)p->exits[i].connected;
    printf("%s: %s at %d,%d, %dx%d", qg_level_name(level) ? qg_level_name(level) : "(unnamed)",
           p->orient, p->x, p->y, p->width, p->height);
    if (p->transform)
        printf(", %s%s%s%s", p->transform & QG_XFORM_HMIRROR ? "hmirror " : "",
               p->transform & QG_XFORM_VMIRROR ? "vmirror " : "",
               p->transform & QG_XFORM_ROTATE_CW ? "rotated clockwise " : "",
               p->transform & QG_XFORM_ROTATE_CCW ? "rotated anticlockwise " : "");
    if (p->exit_count)
        printf(", %zu/%zu exits joined", connected, p->exit_count);
    if (p->has_player_start)
        printf(", player at %d,%d", p->player_x, p->player_y);
    putchar('\n');
    for (size_t i = 0; i < p->request_count; i++)
        if (p->requests[i].kind != QG_REQ_MARKER)
            print_request(&p->requests[i]);
    print_markers(p, verbose);
}

static int place_one(void *user, const qg_level *level, qg_subvault_fn subvault,
                     void *subvault_user)
{
    run *ctx = user;
    qg_place_options o = {.seed = ctx->seed * 1000003u + (unsigned long long)ctx->index++,
                          .subvault = subvault, .subvault_user = subvault_user};
    qg_placement p = {0};
    qg_status st = qg_place(qg_host_cave(ctx->host), level, &o, &p, ctx->diags);
    if (st == QG_OK)
        report(level, &p, ctx->verbose);
    else
        printf("%s: not placed (%s)\n", qg_level_name(level) ? qg_level_name(level) : "(unnamed)",
               st == QG_ERR_NOTFOUND ? "no place found" : qg_status_string(st));
    qg_placement_clear(&p);
    return st != QG_OK;
}

/* The FILE[:MAP] arguments, each FILE expanded (a directory to its
 * files). */
typedef struct arg {
    char *file;
    const char *map;
    qg_input *items;
    size_t count;
} arg;

static int find_args(cli_opts *opts, arg *args, qg_diags *diags)
{
    const char **des = NULL;
    size_t n = 0, cap = 0;
    int r = 0;
    for (int i = 0; r == 0 && i < opts->file_count; i++) {
        place_split_arg(opts->files[i], &args[i].file, &args[i].map);
        const char *file = args[i].file;
        if (!file || qg_inputs_find(&file, 1, &args[i].items, &args[i].count, diags) ==
                         QG_ERR_NOMEM)
            r = -1;
        for (size_t k = 0; r == 0 && k < args[i].count; k++) {
            const char **slot = args[i].items[k].kind == QG_FILE_DES
                                    ? QG_PUSH(des, n, cap) : NULL;
            if (slot)
                *slot = args[i].items[k].path;
        }
    }
    if (r == 0)
        r = cli_settle_game(opts, des, n, diags);
    free(des);
    return r;
}

int cmd_place(int argc, char **argv)
{
    cli_opts opts;
    unsigned accepted = OPT_SEED | OPT_SIZE | OPT_LUA_PATH | OPT_PLACE | OPT_VAR |
                        OPT_DIALECT | OPT_EDIT_DIR | OPT_LEGACY | OPT_COLOR | OPT_GAME |
                        OPT_VERBOSE | OPT_MAX_ERRORS;
    int r = cli_parse_files(argc, argv, accepted, 1, INT_MAX, usage, &opts);
    if (r)
        return r > 0 ? 0 : 2;
    int width = opts.width ? opts.width : 80, height = opts.height ? opts.height : 70;
    run ctx = {qg_host_generate(width, height, opts.seed), opts.seed, 0, cli_diags_new(&opts, 0),
               opts.verbose};
    arg *args = calloc((size_t)opts.file_count, sizeof *args);
    place_loader loader;
    int status = !ctx.host || !ctx.diags || !args ? 2 : 0;
    if (!status && find_args(&opts, args, ctx.diags) != 0)
        status = 2;
    if (!status && place_loader_init(&loader, &opts, ctx.diags) != 0)
        status = 2;
    for (int i = 0; status != 2 && i < opts.file_count; i++)
        for (size_t k = 0; k < args[i].count; k++)
            if (place_load(&loader, &args[i].items[k], args[i].map, opts.seed, place_one,
                           &ctx) != 0)
                status = 1;
    if (status != 2) {
        putchar('\n');
        qg_host_print_with(ctx.host, opts.color, stdout);
        place_loader_free(&loader);
    }
    if (ctx.diags && cli_report(ctx.diags))
        status = status ? status : 1;
    for (int i = 0; args && i < opts.file_count; i++) {
        free(args[i].file);
        qg_inputs_free(args[i].items, args[i].count);
    }
    free(args);
    qg_diags_free(ctx.diags);
    qg_host_free(ctx.host);
    cli_opts_free(&opts);
    return status;
}

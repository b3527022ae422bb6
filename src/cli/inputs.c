/* The files a command reads: its arguments expanded and told their kind
 * by the library's walk (qg_inputs_find), the Crawl game of the .des
 * files among them settled, and the one rule for a file a command does
 * not read. */
#include "cli/cli.h"
#include "core/buf.h"

#include <stdlib.h>
#include <string.h>

/* The .des files whose Crawl data tree tells the game. */
typedef struct cli_paths {
    const char **paths;
    size_t count, cap;
    char **owned;
    size_t owned_count;
    int failed;
} cli_paths;

static void add_path(cli_paths *p, const char *path)
{
    const char **slot = QG_PUSH(p->paths, p->count, p->cap);
    if (slot)
        *slot = path;
    else
        p->failed = 1;
}

/* A cache's .des files, as it recorded them: where they came from tells
 * the game of its maps as the files themselves would. */
static void add_cache_sources(cli_paths *p, const char *path)
{
    qg_diags *quiet = qg_diags_new();
    qg_cache *cache = NULL;
    if (quiet && qg_cache_open(path, NULL, &cache, quiet) == QG_OK) {
        size_t n = qg_cache_file_count(cache);
        char **grown = realloc(p->owned, (p->owned_count + n + 1) * sizeof *grown);
        p->owned = grown ? grown : p->owned;
        for (size_t f = 0; grown && f < n; f++) {
            const qg_cache_file *file = qg_cache_file_at(cache, f);
            if (file->format != QG_FORMAT_DES)
                continue;
            char *copy = qg_strdup(file->path);
            if (copy) {
                p->owned[p->owned_count++] = copy;
                add_path(p, copy);
            }
        }
        p->failed |= !grown;
    }
    qg_cache_close(cache);
    qg_diags_free(quiet);
}

int cli_inputs_find(cli_opts *opts, cli_inputs *out, qg_diags *diags)
{
    memset(out, 0, sizeof *out);
    qg_status st = qg_inputs_find((const char *const *)opts->files, (size_t)opts->file_count,
                                  &out->items, &out->count, diags);
    if (st == QG_ERR_NOMEM)
        return -1;
    if (!(opts->accepted & (OPT_GAME | OPT_LUA_PATH)))
        return 0;   /* the command reads no game's names nor Lua */
    cli_paths des = {NULL, 0, 0, NULL, 0, 0};
    for (size_t i = 0; i < out->count; i++)
        if (out->items[i].kind == QG_FILE_DES)
            add_path(&des, out->items[i].path);
        else if (out->items[i].kind == QG_FILE_CACHE)
            add_cache_sources(&des, out->items[i].path);
    int r = des.failed ? -1 : cli_settle_game(opts, des.paths, des.count, diags);
    for (size_t i = 0; i < des.owned_count; i++)
        free(des.owned[i]);
    free(des.owned);
    free(des.paths);
    return r;
}

void cli_inputs_free(cli_inputs *in)
{
    qg_inputs_free(in->items, in->count);
    memset(in, 0, sizeof *in);
}

void cli_input_refuse(const char *command, const char *reads, const qg_input *input,
                      qg_diags *diags)
{
    qg_diags_add(diags, QG_ERROR, input->path, 0, 0, NULL, 0, "%s: questgrid %s reads %s",
                 qg_file_kind_name(input->kind), command, reads);
}

static int is_level_file(qg_file_kind kind)
{
    return kind == QG_FILE_DES || kind == QG_FILE_LEVEL || kind == QG_FILE_HUB ||
           kind == QG_FILE_TMX || kind == QG_FILE_XP;
}

/* The .des file of the inputs that defines map name; NULL after an error
 * naming the closest of all their maps. */
static const qg_input *holding_map(const cli_opts *opts, const cli_inputs *in,
                                   qg_diags *diags)
{
    qg_des_options options = {opts->legacy};
    qg_diags *quiet = qg_diags_new();
    const char **names = NULL;
    size_t count = 0, cap = 0;
    qg_des_file **files = calloc(in->count + 1, sizeof *files);
    const qg_input *found = NULL;
    for (size_t i = 0; quiet && files && !found && i < in->count; i++) {
        if (in->items[i].kind != QG_FILE_DES)
            continue;
        qg_des_load(in->items[i].path, &options, NULL, &files[i], quiet);
        for (size_t m = 0; files[i] && m < qg_des_map_count(files[i]); m++) {
            const char *name = qg_mapdef_name(qg_des_map(files[i], m));
            const char **slot = QG_PUSH(names, count, cap);
            if (slot)
                *slot = name;
            if (strcmp(name, opts->map) == 0)
                found = &in->items[i];
        }
    }
    if (!found)
        cli_unknown_map(count == 1 ? in->items[0].path : "the .des files given", opts->map,
                        names, count, diags);
    for (size_t i = 0; files && i < in->count; i++)
        qg_des_file_free(files[i]);
    free(files);
    free(names);
    qg_diags_free(quiet);
    return found;
}

const qg_input *cli_inputs_one(const cli_opts *opts, const cli_inputs *in, qg_diags *diags)
{
    const qg_input *only = NULL, *hub = NULL;
    size_t levels = 0, hubs = 0, des = 0;
    for (size_t i = 0; i < in->count; i++) {
        const qg_input *item = &in->items[i];
        if (!is_level_file(item->kind) && !item->named)
            continue;
        only = item;
        levels++;
        hubs += item->kind == QG_FILE_HUB;
        des += item->kind == QG_FILE_DES;
        if (item->kind == QG_FILE_HUB && !hub)
            hub = item;
    }
    if (levels == 1)
        return only;
    if (opts->map && des)
        return holding_map(opts, in, diags);
    if (opts->quest >= 0 && hubs == 1)
        return hub;
    if (!levels)
        qg_diags_add(diags, QG_ERROR, in->count ? in->items[0].path : "", 0, 0, NULL, 0,
                     "no level among the files given");
    else
        qg_diags_add(diags, QG_ERROR, only->path, 0, 0, NULL, 0,
                     "%zu files given hold levels; one is read at a time: name a file, or "
                     "pick it with --map NAME (a .des map) or --quest N (%s)",
                     levels, hubs ? "a hub's quest" : "through a hub");
    return NULL;
}

/* Levels for questgrid place: FILE[:MAP] arguments loaded by format — .des
 * maps through the Lua runtime, F:/D: files (FILE:N = quest N of a hub)
 * through the fd loader. */
#include "cli/place_load.h"
#include "cli/source.h"
#include "core/buf.h"
#include "core/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int place_loader_init(place_loader *l, const cli_opts *opts, qg_diags *diags)
{
    memset(l, 0, sizeof *l);
    l->opts = opts;
    l->diags = diags;
    l->context = (qg_context){opts->place, 0, opts->vars};
    l->names = qg_des_names_new();
    return l->names ? 0 : -1;
}

void place_loader_free(place_loader *l)
{
    qg_runtime_free(l->rt);
    qg_des_names_free(l->names);
    cli_fd_free(&l->fd);
    l->rt = NULL;
    l->names = NULL;
}

void place_split_arg(const char *arg, char **file, const char **map)
{
    const char *colon = strrchr(arg, ':');
    if (access(arg, F_OK) == 0 || !colon || colon == arg) {
        *file = qg_strdup(arg);
        *map = NULL;
        return;
    }
    *file = qg_strndup(arg, (size_t)(colon - arg));
    *map = colon + 1;
}

static qg_runtime *runtime(place_loader *l)
{
    if (!l->rt) {
        qg_runtime_options o = {l->opts->lua_paths, l->opts->lua_path_count, 0, 0,
                                l->opts->branches};
        l->rt = qg_runtime_new(&o, l->diags);
    }
    return l->rt;
}

static int has_tag(const char *tags, const char *tag)
{
    size_t n = strlen(tag);
    for (const char *p = tags ? strstr(tags, tag) : NULL; p; p = strstr(p + 1, tag))
        if ((p == tags || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

/* The subvault callback: a map carrying the tag, picked by the seed. */
static qg_level *subvault(void *user, const char *tag, int w, int h,
                          unsigned long long seed)
{
    (void)w;
    (void)h;
    place_loader *l = user;
    size_t count = qg_runtime_map_count(l->rt), matches = 0;
    for (size_t i = 0; i < count; i++)
        matches += has_tag(qg_mapdef_get_property(qg_runtime_map(l->rt, i), "tags"), tag);
    if (!matches)
        return NULL;
    size_t pick = (size_t)(seed % matches);
    for (size_t i = 0; i < count; i++) {
        const qg_mapdef *def = qg_runtime_map(l->rt, i);
        if (!has_tag(qg_mapdef_get_property(def, "tags"), tag) || pick--)
            continue;
        qg_level *level = NULL;
        qg_runtime_resolve(l->rt, def, seed, &l->context, &level, l->diags);
        return level;
    }
    return NULL;
}

static int load_des(place_loader *l, const char *path, const char *map,
                    unsigned long long seed, place_fn fn, void *user)
{
    qg_des_options options = {l->opts->legacy};
    qg_des_file *file = NULL;
    qg_runtime *rt = runtime(l);
    if (!rt || qg_des_load(path, &options, l->names, &file, l->diags) != QG_OK || !file) {
        qg_des_file_free(file);
        return -1;
    }
    size_t first = qg_runtime_map_count(rt);
    if (qg_runtime_add_file(rt, file, l->diags) != QG_OK)
        return -1;
    int failures = 0;
    for (size_t i = first; i < qg_runtime_map_count(rt); i++) {
        qg_mapdef *def = qg_runtime_map(rt, i);
        if (map && strcmp(qg_mapdef_name(def), map) != 0)
            continue;
        qg_level *level = NULL;
        if (qg_runtime_resolve(rt, def, seed + i, &l->context, &level, l->diags) != QG_OK ||
            !level) {
            qg_level_free(level);
            failures++;
            continue;
        }
        failures += fn(user, level, subvault, l) != 0;
        qg_level_free(level);
        if (map)
            return failures ? 1 : 0;
    }
    if (map && !failures) {
        cli_unknown_runtime_map(path, map, rt, first, l->diags);
        return -1;
    }
    return failures ? 1 : 0;
}

/* F:/D: files (FILE:N: quest N of a hub), Tiled and REXPaint files: one
 * level each, placed as the Angband loaders place theirs. */
static int load_level(place_loader *l, const qg_input *input, const char *quest,
                      place_fn fn, void *user)
{
    cli_fd_free(&l->fd);
    const char *path = input->path;
    qg_level *level = NULL;
    if (input->kind == QG_FILE_TMX || input->kind == QG_FILE_XP) {
        char *data;
        size_t len;
        if (qg_read_file(path, QG_MAX_TEXT_FILE, &data, &len, l->diags) != QG_OK)
            return -1;
        qg_level_read(path, data, len, cli_kind_format(input->kind), &level, l->diags);
        free(data);
    } else if (cli_fd_setup(l->opts, path, &l->fd, l->diags) == 0) {
        cli_opts picked = *l->opts;   /* FILE:N picks a hub's quest */
        picked.quest = quest ? atol(quest) : -1;
        if (input->kind == QG_FILE_HUB && cli_hub_check(&picked, path, &l->fd.options,
                                                         l->diags) != 0)
            return -1;
        if (quest)
            qg_fd_load_quest(path, atoi(quest), &l->fd.options, l->opts->vars, &level,
                             l->diags);
        else
            qg_fd_load_file(path, &l->fd.options, l->opts->vars, &level, l->diags);
    }
    if (!level)
        return -1;
    int r = fn(user, level, NULL, NULL);
    qg_level_free(level);
    return r;
}

int place_load(place_loader *l, const qg_input *input, const char *map,
               unsigned long long seed, place_fn fn, void *user)
{
    switch (input->kind) {
    case QG_FILE_DES:
        return load_des(l, input->path, map, seed, fn, user);
    case QG_FILE_LEVEL: case QG_FILE_HUB: case QG_FILE_PART: case QG_FILE_TMX: case QG_FILE_XP:
        return load_level(l, input, map, fn, user);
    default:
        cli_input_refuse("place", CLI_SOURCE_READS, input, l->diags);
        return -1;
    }
}

/* The Crawl game of a run's .des files, settled once a run: what --game
 * and --lua-path say, and what they leave open detected from the files'
 * data tree (qg_des_detect_game), said in one note. */
#define _XOPEN_SOURCE 700
#include "cli/cli.h"
#include "core/buf.h"
#include "core/file.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_TREES = 8 };

typedef struct trees {
    qg_des_game found[MAX_TREES];
    size_t count;
    char **dirs;          /* the directories whose files were looked at */
    size_t dir_count, dir_cap;
} trees;

static int below(const char *path, const char *dir)
{
    size_t n = dir ? strlen(dir) : 0;
    return n && strncmp(path, dir, n) == 0 && (path[n] == '/' || !path[n]);
}

/* Whether the file's directory was looked at, or lies in a tree already
 * detected, so that each tree (and each directory outside one) is
 * looked at once. Remembers the directory. */
static int known(trees *t, const char *path)
{
    char *dir = qg_path_dirname(path);
    char *real = dir ? realpath(dir, NULL) : NULL;
    free(dir);
    if (!real)
        return 0;
    int yes = 0;
    for (size_t i = 0; !yes && i < t->count; i++)
        yes = below(real, t->found[i].des_dir) || below(real, t->found[i].data_dir);
    for (size_t i = 0; !yes && i < t->dir_count; i++)
        yes = strcmp(real, t->dirs[i]) == 0;
    char **slot = yes ? NULL : QG_PUSH(t->dirs, t->dir_count, t->dir_cap);
    if (slot)
        *slot = real;
    else
        free(real);
    return yes;
}

/* A tree around the files, or a game told by the Lua library given. */
static int is_tree(const qg_des_game *g)
{
    return g->des_dir || g->data_dir || g->game;
}

/* The trees of the .des files; -1 when memory ran out. */
static int detect_all(const cli_opts *opts, const char *vocab, const char *const *paths,
                      size_t count, trees *t, qg_diags *diags)
{
    for (size_t i = 0; i < count && t->count < MAX_TREES; i++) {
        if (known(t, paths[i]))
            continue;
        qg_des_game *g = &t->found[t->count];
        if (qg_des_detect_game(vocab, paths[i], opts->lua_paths, opts->lua_path_count, g,
                               diags) != QG_OK)
            return -1;
        if (is_tree(g))
            t->count++;
        else
            qg_des_game_clear(g);
    }
    return 0;
}

static void known_games(const char *vocab, qg_buf *out)
{
    char *path = qg_path_join(vocab, "games.txt");
    char *text = NULL;
    size_t len;
    if (path && qg_read_file(path, QG_MAX_TEXT_FILE, &text, &len, NULL) == QG_OK)
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
            if (line[0] != '#' && line[0])
                qg_buf_printf(out, "%s%s", out->len ? ", " : "", line);
    free(text);
    free(path);
}

static const char *where(const qg_des_game *g)
{
    return g->data_dir ? g->data_dir : g->des_dir ? g->des_dir : g->lua_dir;
}

/* The one error when the game is not told: where, why, and the flag. */
static int untold(const char *vocab, const qg_des_game *g, qg_diags *diags)
{
    qg_buf games;
    qg_buf_init(&games);
    known_games(vocab, &games);
    qg_diags_add(diags, QG_ERROR, where(g), 0, 0, NULL, 0,
                 "cannot tell which Crawl this data is of: %s; give --game (%s)", g->why,
                 games.data ? games.data : "");
    qg_buf_free(&games);
    return -1;
}

/* Two trees of different games in one run: the names and the checks of
 * one game cannot serve both. */
static int mixed(const trees *t, qg_diags *diags)
{
    for (size_t i = 1; i < t->count; i++) {
        const char *a = t->found[0].game, *b = t->found[i].game;
        if (a && b && strcmp(a, b) != 0) {
            qg_diags_add(diags, QG_ERROR, where(&t->found[i]), 0, 0, NULL, 0,
                         "this data is of %s, and %s is of %s: read them in separate runs, or "
                         "give --game", b, where(&t->found[0]), a);
            return -1;
        }
    }
    return 0;
}

/* Sets what the options left open and says it. */
static int take(cli_opts *opts, const qg_des_game *g, qg_diags *diags)
{
    qg_buf said;
    qg_buf_init(&said);
    if (!opts->game_given) {
        if (!(opts->detected_game = qg_strdup(g->game)))
            return -1;
        opts->game = opts->detected_game;
        qg_buf_printf(&said, "Crawl data of %s (%s)", g->game, g->why);
    }
    if (!opts->lua_path_count && g->lua_dir) {
        const char **slot = QG_PUSH(opts->lua_paths, opts->lua_path_count, opts->lua_path_cap);
        if (!slot || !(opts->detected_lua = qg_strdup(g->lua_dir)))
            return -1;
        *slot = opts->detected_lua;
        qg_buf_printf(&said, "%sits Lua library %s is used", said.len ? "; " : "", g->lua_dir);
    } else if (!opts->lua_path_count) {
        qg_buf_printf(&said, "%sno Lua library beside it (dlua/): maps that call one need "
                      "--lua-path DIR", said.len ? "; " : "");
    }
    if (said.len)
        qg_diags_add(diags, QG_NOTE, where(g), 0, 0, NULL, 0, "%s; %s", said.data,
                     opts->game_given ? "--lua-path chooses another"
                     : opts->lua_path_count && !opts->detected_lua ? "--game chooses another"
                                                                   : "--game and --lua-path "
                                                                     "choose otherwise");
    qg_buf_free(&said);
    return opts->accepted & OPT_PLACE ? cli_load_branches(opts) : 0;
}

int cli_settle_game(cli_opts *opts, const char *const *paths, size_t count, qg_diags *diags)
{
    if (!count || (opts->game_given && opts->lua_path_count))
        return 0;
    char *vocab = NULL;
    if (qg_data_find("des/vocab", &vocab, diags) != QG_OK)
        return -1;
    trees t = {.count = 0, .dirs = NULL};
    int r = detect_all(opts, vocab, paths, count, &t, diags);
    const qg_des_game *g = t.count ? &t.found[0] : NULL;
    if (r == 0 && g && !g->game && !opts->game_given)
        r = untold(vocab, g, diags);
    if (r == 0 && g && !opts->game_given)
        r = mixed(&t, diags);
    if (r == 0 && g)
        r = take(opts, g, diags);
    for (size_t i = 0; i < t.count; i++)
        qg_des_game_clear(&t.found[i]);
    for (size_t i = 0; i < t.dir_count; i++)
        free(t.dirs[i]);
    free(t.dirs);
    free(vocab);
    return r;
}

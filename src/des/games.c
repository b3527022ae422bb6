/* Picking a game of lib/des/vocab: its games.txt lists them ('#'
 * comments), oldest first. */
#include "des/games.h"
#include "core/buf.h"
#include "core/file.h"
#include "core/suggest.h"

#include <stdlib.h>
#include <string.h>

/* The text is modified in place. */
qg_status des_games_read(const char *dir, des_games *g, qg_diags *diags)
{
    memset(g, 0, sizeof *g);
    char *path = qg_path_join(dir, "games.txt");
    if (!path)
        return QG_ERR_NOMEM;
    size_t len;
    qg_status st = qg_read_file(path, QG_MAX_TEXT_FILE, &g->text, &len, diags);
    free(path);
    for (char *line = st == QG_OK ? g->text : NULL; line && *line;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
            line[--n] = '\0';
        if (n && line[0] != '#' && g->count < sizeof g->names / sizeof *g->names)
            g->names[g->count++] = line;
        line = next;
    }
    return st;
}

void des_games_free(des_games *g)
{
    free(g->text);
    memset(g, 0, sizeof *g);
}

static void unknown_game(const char *dir, const char *game, const char *what, const des_games *g,
                         qg_diags *diags)
{
    qg_suggest s;
    qg_suggest_init(&s, game, strlen(game));
    char known[512] = "";
    for (size_t i = 0; i < g->count; i++) {
        qg_suggest_offer(&s, g->names[i], strlen(g->names[i]));
        if (strlen(known) + strlen(g->names[i]) + 3 < sizeof known) {
            if (i)
                strcat(known, ", ");
            strcat(known, g->names[i]);
        }
    }
    const char *best = qg_suggest_best(&s);
    if (best)
        qg_diags_add(diags, QG_ERROR, dir, 0, 0, NULL, 0,
                     "no %s for game '%s'; did you mean '%.*s'? (known: %s)", what, game,
                     (int)s.best_len, best, known);
    else
        qg_diags_add(diags, QG_ERROR, dir, 0, 0, NULL, 0, "no %s for game '%s' (known: %s)",
                     what, game, known);
}

qg_status des_game_pick(const char *dir, const char *game, const char *what, char **name,
                        char **game_dir, qg_diags *diags)
{
    *name = *game_dir = NULL;
    des_games g;
    qg_status st = des_games_read(dir, &g, diags);
    const char *chosen = NULL;
    for (size_t i = 0; st == QG_OK && i < g.count; i++)
        if (!game || strcmp(g.names[i], game) == 0)
            chosen = g.names[i];
    if (st == QG_OK && !chosen) {
        if (game)
            unknown_game(dir, game, what, &g, diags);
        else
            qg_diags_add(diags, QG_ERROR, dir, 0, 0, NULL, 0, "games.txt names no game");
        st = QG_ERR_NOTFOUND;
    }
    if (st == QG_OK && (!(*name = qg_strdup(chosen)) || !(*game_dir = qg_path_join(dir, chosen)))) {
        free(*name);
        *name = NULL;
        st = QG_ERR_NOMEM;
    }
    des_games_free(&g);
    return st;
}

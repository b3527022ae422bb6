/* The games of questgrid's per-game .des data (lib/des/vocab): games.txt
 * names them, oldest first, and each has a directory of its tables (the
 * vocabulary, the branch table). One pick of the game for all of them. */
#ifndef QG_DES_GAMES_H
#define QG_DES_GAMES_H

#include "questgrid/core.h"

/* games.txt's names, oldest first, pointing into its text. */
typedef struct des_games {
    char *text;
    const char *names[64];
    size_t count;
} des_games;

qg_status des_games_read(const char *dir, des_games *g, qg_diags *diags);
void des_games_free(des_games *g);

/* The name and directory of game under dir (NULL: the newest, the last
 * line of games.txt). An unknown game is an error "no <what> for game"
 * naming the games there, with the closest as a hint. Free both. */
qg_status des_game_pick(const char *dir, const char *game, const char *what, char **name,
                        char **game_dir, qg_diags *diags);

#endif

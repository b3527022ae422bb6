/* Loading the FILE[:MAP] arguments of questgrid place. */
#ifndef QG_CLI_PLACE_LOAD_H
#define QG_CLI_PLACE_LOAD_H

#include "cli/cli.h"

typedef struct place_loader {
    const cli_opts *opts;
    qg_diags *diags;
    qg_context context;
    qg_des_names *names;
    qg_runtime *rt;  /* made on the first .des file */
    cli_fd fd;
} place_loader;

/* Called for each level loaded, with the subvault resolver to use (NULL
 * for F:/D: levels); non-zero counts as a failure. */
typedef int (*place_fn)(void *user, const qg_level *level, qg_subvault_fn subvault,
                        void *subvault_user);

int place_loader_init(place_loader *l, const cli_opts *opts, qg_diags *diags);
void place_loader_free(place_loader *l);
/* An argument FILE[:MAP]: "FILE" when it exists, else split at the last
 * colon (MAP: a .des map's name, or a hub's quest number). *file is NULL
 * when memory ran out; free it. */
void place_split_arg(const char *arg, char **file, const char **map);
/* 0 when every level of the input (its map named map, when given) was
 * loaded and placed, 1 when some failed to place, -1 when it could not be
 * loaded. */
int place_load(place_loader *l, const qg_input *input, const char *map,
               unsigned long long seed, place_fn fn, void *user);

#endif

/* The Lua-resolved side of `questgrid show` for .des files, and the
 * runtime setup shared with `questgrid stats`. */
#ifndef QG_CLI_LUA_H
#define QG_CLI_LUA_H

#include "cli/cli.h"

/* A runtime (with --lua-path libraries) holding path's maps, and the map
 * named --map (else the file's first), compiled; a file without maps is
 * an error only when one is needed. */
typedef struct cli_lua {
    qg_runtime *rt;
    qg_mapdef *def;
} cli_lua;

/* Returns 0 on success; diagnostics go to diags. */
int cli_lua_setup(const cli_opts *opts, const char *path, int need_map, cli_lua *out,
                  qg_diags *diags);
void cli_lua_free(cli_lua *lua);

/* questgrid show FILE.des --map NAME --seed N [--place P] [--lua-path DIR]:
 * resolves the map with its Lua and prints the level. Returns the exit
 * status (0 ok, 1 errors). */
int cli_show_des_resolved(const cli_opts *opts, const char *path);

#endif

/* Runs the Lua-resolved .des handler of `questgrid show`
 * (src/cli/show_des_resolved.c) on its own, so tests/cli_lua.sh can
 * exercise it before show's per-format dispatch calls it:
 *   lua_cli_driver [--map NAME] [--seed N] [--place P] [--lua-path DIR] FILE */
#include "cli/cli_lua.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    cli_opts opts;
    if (cli_parse(argc, argv, OPT_MAP | OPT_SEED | OPT_PLACE | OPT_LUA_PATH | OPT_VAR,
                  "usage: lua_cli_driver [--map NAME] [--seed N] FILE\n", &opts))
        return 2;
    int status = opts.file_count == 1 ? cli_show_des_resolved(&opts, opts.files[0]) : 2;
    cli_opts_free(&opts);
    return status;
}

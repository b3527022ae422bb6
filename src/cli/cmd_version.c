#include "cli/cli.h"

#include <stdio.h>

int cmd_version(int argc, char **argv)
{
    cli_opts opts;
    int r = cli_parse(argc, argv, 0, "usage: questgrid version\n", &opts);
    if (r)
        return r > 0 ? 0 : 2;
    printf("questgrid %s\n", qg_version());
    cli_opts_free(&opts);
    return 0;
}

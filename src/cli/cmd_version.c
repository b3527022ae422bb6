#include "cli/cli.h"

#include <stdio.h>

#ifndef QG_BUGREPORT
#define QG_BUGREPORT "the address in README.md"
#endif

int cmd_version(int argc, char **argv)
{
    cli_opts opts;
    int r = cli_parse(argc, argv, 0, "usage: questgrid version\n", &opts);
    if (r)
        return r > 0 ? 0 : 2;
    printf("questgrid %s\nReport bugs at %s\n", qg_version(), QG_BUGREPORT);
    cli_opts_free(&opts);
    return 0;
}

/* questgrid check, for .des files. */
#include "cli/cli_des.h"

#include <stdio.h>

int cli_check_des(cli_opts *opts, const char *path, qg_des_names *names, qg_diags *diags)
{
    qg_des_options options = {opts->legacy};
    qg_des_file *file;
    size_t errors = qg_diags_count_severity(diags, QG_ERROR);
    qg_status st = qg_des_load(path, &options, names, &file, diags);
    errors = qg_diags_count_severity(diags, QG_ERROR) - errors;
    if (!opts->quiet && file)
        printf("%s: %zu map%s, %zu error%s\n", path, qg_des_map_count(file),
               qg_des_map_count(file) == 1 ? "" : "s", errors, errors == 1 ? "" : "s");
    qg_des_file_free(file);
    return st == QG_OK && errors == 0 ? 0 : 1;
}

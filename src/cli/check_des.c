/* questgrid check, for .des files: the file's syntax and directives, then
 * each map resolved once and checked as placement would see it. */
#include "cli/cli_des.h"

#include <stdio.h>
#include <string.h>

/* The first line of why's message (Lua errors carry a traceback). */
static const char *first_line(const qg_diag *why)
{
    return why ? why->message : "out of memory";
}

static int first_line_len(const qg_diag *why)
{
    return (int)strcspn(first_line(why), "\n");
}

/* A map that cannot be resolved here (a Lua library it needs was not
 * given with --lua-path) is said in a note: that is not an error of the
 * file. */
static void check_map_placement(qg_runtime *rt, qg_mapdef *def, qg_diags *diags)
{
    qg_diags *run = qg_diags_new();
    qg_level *level = NULL;
    qg_context context = {NULL, 0, NULL};
    if (run && qg_runtime_compile_map(rt, def, run) == QG_OK &&
        qg_runtime_resolve(rt, def, 1, &context, &level, run) == QG_OK && level) {
        qg_level_check_placement(level, diags);
    } else {
        const qg_diag *why = run ? qg_diags_get(run, 0) : NULL;
        qg_diags_add(diags, QG_NOTE, qg_mapdef_file(def), qg_mapdef_line(def), 0, NULL, 0,
                     "map '%s' not resolved, so its placement is not checked: %.*s",
                     qg_mapdef_name(def), first_line_len(why), first_line(why));
    }
    qg_level_free(level);
    qg_diags_free(run);
}

/* Takes the file over. */
static void check_placement(cli_opts *opts, const char *path, qg_des_file *file,
                            qg_diags *diags)
{
    qg_runtime_options options = {opts->lua_paths, opts->lua_path_count, 0, 0};
    qg_diags *run = qg_diags_new();
    qg_runtime *rt = run ? qg_runtime_new(&options, run) : NULL;
    if (!rt)
        qg_des_file_free(file);
    if (!rt || qg_runtime_add_file(rt, file, run) != QG_OK) {
        const qg_diag *why = run ? qg_diags_get(run, 0) : NULL;
        qg_diags_add(diags, QG_NOTE, path, 0, 0, NULL, 0,
                     "the file's Lua prelude did not run, so no placement is checked: %.*s",
                     first_line_len(why), first_line(why));
    } else {
        for (size_t i = 0; i < qg_runtime_map_count(rt); i++)
            check_map_placement(rt, qg_runtime_map(rt, i), diags);
    }
    qg_runtime_free(rt);
    qg_diags_free(run);
}

int cli_check_des(cli_opts *opts, const char *path, qg_des_names *names, qg_diags *diags)
{
    qg_des_options options = {opts->legacy};
    qg_des_file *file;
    size_t before = qg_diags_count_severity(diags, QG_ERROR);
    qg_status st = qg_des_load(path, &options, names, &file, diags);
    size_t maps = file ? qg_des_map_count(file) : 0;
    if (st == QG_OK && file)
        check_placement(opts, path, file, diags);
    else
        qg_des_file_free(file);
    size_t errors = qg_diags_count_severity(diags, QG_ERROR) - before;
    if (!opts->quiet && file)
        printf("%s: %zu map%s, %zu error%s\n", path, maps, maps == 1 ? "" : "s",
               errors, errors == 1 ? "" : "s");
    return st == QG_OK && errors == 0 ? 0 : 1;
}

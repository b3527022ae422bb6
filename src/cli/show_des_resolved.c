/* questgrid show for .des maps resolved with their Lua: one seeded level
 * printed with its legend. */
#include "cli/cli_lua.h"

#include <stdio.h>
#include <string.h>

int cli_lua_setup(const cli_opts *opts, const char *path, int need_map, cli_lua *out,
                  qg_diags *diags)
{
    memset(out, 0, sizeof *out);
    qg_runtime_options options = {opts->lua_paths, opts->lua_path_count, 0, 0,
                                  opts->branches};
    qg_des_options des_options = {opts->legacy};
    out->rt = qg_runtime_new(&options, diags);
    if (!out->rt)
        return 1;
    qg_des_file *file = NULL;
    qg_des_load(path, &des_options, NULL, &file, diags);
    if (!file || qg_runtime_add_file(out->rt, file, diags) != QG_OK)
        return 1;
    if (qg_runtime_map_count(out->rt) == 0) {
        if (!need_map)
            return 0;
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "no map in the file");
        return 1;
    }
    out->def = opts->map ? qg_runtime_find_map(out->rt, opts->map)
                         : qg_runtime_map(out->rt, 0);
    if (!out->def) {
        cli_unknown_runtime_map(path, opts->map, out->rt, 0, diags);
        return 1;
    }
    /* the file's other maps compiled too (their own errors are theirs):
     * SUBVAULT and dgn.map_by_tag find maps by compile-time tags */
    qg_diags *others = qg_diags_new();
    for (size_t i = 0; others && i < qg_runtime_map_count(out->rt); i++)
        if (qg_runtime_map(out->rt, i) != out->def)
            qg_runtime_compile_map(out->rt, qg_runtime_map(out->rt, i), others);
    qg_diags_free(others);
    return qg_runtime_compile_map(out->rt, out->def, diags) == QG_OK ? 0 : 1;
}

void cli_lua_free(cli_lua *lua)
{
    qg_runtime_free(lua->rt);
    memset(lua, 0, sizeof *lua);
}

int cli_show_des_resolved(const cli_opts *opts, const char *path)
{
    qg_diags *diags = qg_diags_new();
    if (!diags)
        return 1;
    cli_lua lua;
    qg_level *level = NULL;
    if (cli_lua_setup(opts, path, 1, &lua, diags) == 0) {
        qg_context ctx = {opts->place, 0, opts->vars};
        qg_runtime_resolve(lua.rt, lua.def, opts->seed, &ctx, &level, diags);
    }
    size_t errors = cli_report(diags);
    if (level && qg_render_text(level, NULL, stdout) != QG_OK)
        errors++;
    qg_level_free(level);
    cli_lua_free(&lua);
    qg_diags_free(diags);
    return errors || !level ? 1 : 0;
}

/* questgrid demo: loads quest 1 of the bundled data (or of --edit-dir)
 * through its q_info.txt and shows it. */
#include "cli/cli.h"
#include "core/file.h"

#include <stdio.h>
#include <stdlib.h>

static const char usage[] =
    "usage: questgrid demo [--edit-dir DIR] [--max-errors N]\n"
    "\n"
    "Loads quest 1 through DIR/q_info.txt (default: the bundled lib/edit)\n"
    "and prints which quest it loaded and the level with its legend.\n";

int cmd_demo(int argc, char **argv)
{
    cli_opts opts;
    int r = cli_parse(argc, argv, OPT_EDIT_DIR | OPT_MAX_ERRORS, usage, &opts);
    if (r)
        return r > 0 ? 0 : 2;
    if (opts.file_count) {
        cli_usage_error("demo", usage, "demo takes no file");
        cli_opts_free(&opts);
        return 2;
    }
    qg_diags *diags = cli_diags_new(&opts, 0);
    char *dir = diags ? cli_edit_dir(&opts, diags) : NULL;
    char *hub = dir ? qg_path_join(dir, "q_info.txt") : NULL;
    cli_fd fd = {.vocab = NULL, .dir = NULL};
    int status = 2;
    if (hub && diags && cli_fd_setup(&opts, hub, &fd, diags) == 0) {
        qg_level *level = NULL;
        qg_fd_load_quest(hub, 1, &fd.options, opts.vars, &level, diags);
        size_t errors = cli_report(diags);
        if (level) {
            const char *name = qg_level_get_property(level, "name");
            printf("questgrid demo: quest 1 \"%s\" loaded through %s\n\n",
                   name ? name : qg_level_name(level), hub);
            if (qg_render_text(level, fd.vocab, stdout) != QG_OK)
                errors++;
        }
        status = errors || !level ? 1 : 0;
        qg_level_free(level);
    } else if (diags) {
        cli_report(diags);
    }
    cli_fd_free(&fd);
    qg_diags_free(diags);
    free(hub);
    free(dir);
    cli_opts_free(&opts);
    return status;
}

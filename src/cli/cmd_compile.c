/* questgrid compile DIR|FILE... -o FILE.qgc: batch compilation into a
 * cache, with a progress bar on a terminal and one summary line otherwise.
 * SIGINT, SIGTERM or SIGHUP asks the compiler to stop; it removes its
 * temporary file and leaves any previous cache in place. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
    "usage: questgrid compile DIR|FILE... -o FILE.qgc [--jobs N] [--lua-path DIR]\n"
    "                         [--game G] [--keep-going] [-q]\n"
    "Compiles .des files and F:/D: quest and town files (directories are\n"
    "searched recursively; game data that is not a level is skipped with a\n"
    "note) into one cache, running each .des map's compile-time Lua for its\n"
    "index fields.\n"
    "  -o FILE         the cache to write (atomically)\n"
    "  --follow-symlinks  replace the file a symbolic link at FILE names, not the link\n"
    "  -j, --jobs N    compile on N threads (default: the cores available)\n"
    "  --lua-path DIR  game Lua libraries to load first (repeatable; default:\n"
    "                  the dlua of the Crawl data tree the .des files are in)\n"
    "  --game G        the game whose branches the maps' Lua knows: crawl-0.28,\n"
    "                  crawl-master (default: told from the data tree's files)\n"
    "  --keep-going    write the maps that compiled even when others fail, each\n"
    "                  failed map a skipped entry saying why (cache list)\n"
    "  -q, --quiet     errors only: no warnings, progress or summary\n"
    "  --max-errors N  report N errors at most (default 50; 0: no limit)\n";

typedef struct progress_bar {
    int last_percent;
} progress_bar;

static void show_progress(void *user, size_t done, size_t total)
{
    progress_bar *bar = user;
    int percent = total ? (int)(done * 100 / total) : 100;
    if (percent == bar->last_percent)
        return;
    bar->last_percent = percent;
    char cells[41];
    int filled = percent * 40 / 100;
    memset(cells, '#', (size_t)filled);
    memset(cells + filled, '.', (size_t)(40 - filled));
    cells[40] = '\0';
    fprintf(stderr, "\r[%s] %3d%% %zu/%zu files", cells, percent, done, total);
}

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

int cmd_compile(int argc, char **argv)
{
    cli_opts opts;
    int r = cli_parse(argc, argv, OPT_OUTPUT | OPT_JOBS | OPT_LUA_PATH | OPT_KEEP_GOING |
                      OPT_QUIET | OPT_MAX_ERRORS | OPT_GAME, usage, &opts);
    if (r)
        return r > 0 ? 0 : 2;
    if (!opts.output || opts.file_count < 1) {
        cli_usage_error("compile", usage, "%s", !opts.output ? "no -o FILE.qgc given"
                                                              : "no directory or file given");
        cli_opts_free(&opts);
        return 2;
    }
    qg_diags *diags = cli_diags_new(&opts, 1);
    /* the game of the .des files below the inputs, from their data tree:
     * the walk of the compile itself says the rest */
    if (!diags || cli_settle_game(&opts, (const char *const *)opts.files,
                                  (size_t)opts.file_count, diags) != 0) {
        cli_report(diags);
        qg_diags_free(diags);
        cli_opts_free(&opts);
        return 2;
    }
    qg_diags_free(diags);
    if (!opts.branches && opts.game && cli_load_branches(&opts) != 0) {
        cli_opts_free(&opts);
        return 2;
    }
    cli_catch_interrupts();
    progress_bar bar = {-1};
    int tty = !opts.quiet && isatty(STDERR_FILENO);
    qg_compile_options co = {.lua_paths = opts.lua_paths,
                             .lua_path_count = opts.lua_path_count,
                             .jobs = opts.jobs,
                             .keep_going = opts.keep_going,
                             .cancel = &cli_interrupted,
                             .progress = tty ? show_progress : NULL,
                             .user = &bar,
                             .branches = opts.branches,
                             .follow_symlinks = opts.follow_symlinks};
    qg_compile_stats stats;
    diags = cli_diags_new(&opts, !tty);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    qg_status st = diags ? qg_cache_compile((const char *const *)opts.files,
                                            (size_t)opts.file_count, opts.output, &co,
                                            &stats, diags)
                         : QG_ERR_NOMEM;
    if (tty && bar.last_percent >= 0)
        fputc('\n', stderr);
    cli_report(diags);
    int written = stats.cache_bytes > 0;
    if (!opts.quiet && written)
        fprintf(stderr, "questgrid: %zu maps from %zu files (%.1f KiB) into %s "
                "(%.1f KiB) in %.2f s\n", stats.maps, stats.files,
                (double)stats.source_bytes / 1024.0, opts.output,
                (double)stats.cache_bytes / 1024.0, seconds_since(&start));
    if (written && stats.failed)
        fprintf(stderr, "questgrid: %zu map%s did not compile: %s holds %s as a skipped "
                "entry saying why (questgrid cache list)\n", stats.failed,
                stats.failed == 1 ? "" : "s", opts.output, stats.failed == 1 ? "it" : "each");
    else if (!written)
        fprintf(stderr, "questgrid: %s: %s; %s\n", opts.output,
                cli_interrupted ? "interrupted" : qg_status_string(st),
                "no cache written, any previous one is unchanged");
    cli_restore_interrupts();
    qg_diags_free(diags);
    cli_opts_free(&opts);
    if (cli_interrupted)
        return 130;
    return st == QG_OK ? 0 : 1;
}

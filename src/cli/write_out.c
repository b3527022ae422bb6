/* Writing -o: the library's one rule for output files (core/output.h),
 * with --follow-symlinks, and SIGINT, SIGTERM and SIGHUP turned into a
 * cancel the writer looks at before it replaces anything, so that an
 * interrupted run leaves no temporary file and the old output in place. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "core/output.h"

#include <signal.h>

volatile sig_atomic_t cli_interrupted;

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction saved[sizeof caught / sizeof *caught];

static void on_interrupt(int sig)
{
    (void)sig;
    cli_interrupted = 1;
}

void cli_catch_interrupts(void)
{
    struct sigaction sa;
    sa.sa_handler = on_interrupt;
    sa.sa_flags = 0;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof caught / sizeof *caught; i++)
        sigaction(caught[i], &sa, &saved[i]);
}

void cli_restore_interrupts(void)
{
    for (size_t i = 0; i < sizeof caught / sizeof *caught; i++)
        sigaction(caught[i], &saved[i], NULL);
}

int cli_write_output(const cli_opts *opts, const char *path, const void *data, size_t len,
                     qg_diags *diags)
{
    qg_output how = {opts->follow_symlinks, 0, NULL, NULL, &cli_interrupted};
    cli_catch_interrupts();
    qg_status st = qg_output_write_bytes(path, &how, data, len, diags);
    cli_restore_interrupts();
    return st == QG_OK;
}

/* The diagnostics of a command run, as compilers give them: written as
 * they come through one buffer (not a write a piece), errors counted across
 * the run, and the run stopped with one line past --max-errors; warnings
 * and notes past OTHERS_PER_ERROR times that are counted, and one line at
 * the end of the run says how many. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"

#include <stdio.h>
#include <unistd.h>

enum { OTHERS_PER_ERROR = 20 };

static struct {
    long max_errors;
    size_t errors_shown;
    size_t others_shown, others_dropped;
    int over;       /* an error came past the limit */
    int stopped;    /* and the line saying so was written */
    FILE *out;      /* stderr's descriptor, fully buffered */
} run;

static FILE *diag_out(void)
{
    if (!run.out) {
        int fd = dup(STDERR_FILENO);
        run.out = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!run.out && fd >= 0)
            close(fd);
        if (run.out)
            setvbuf(run.out, NULL, _IOFBF, 1 << 16);
    }
    return run.out ? run.out : stderr;
}

static void show(void *user, const qg_diag *diag)
{
    (void)user;
    if (diag->severity == QG_ERROR && run.max_errors &&
        run.errors_shown >= (size_t)run.max_errors) {
        run.over = 1;
        return;
    }
    if (diag->severity != QG_ERROR && run.max_errors &&
        run.others_shown >= (size_t)run.max_errors * OTHERS_PER_ERROR) {
        run.others_dropped++;
        return;
    }
    qg_diag_print(diag, diag_out());
    run.errors_shown += diag->severity == QG_ERROR;
    run.others_shown += diag->severity != QG_ERROR;
}

qg_diags *cli_diags_new(const cli_opts *opts, int stream)
{
    qg_diags *diags = qg_diags_new();
    if (!diags)
        return NULL;
    run.max_errors = opts->max_errors;
    size_t left = (size_t)opts->max_errors;
    /* 0 would be no limit: one more, which show() then holds back */
    left = left > run.errors_shown ? left - run.errors_shown : 1;
    qg_diags_set_filter(diags, opts->quiet ? QG_ERROR : QG_NOTE, opts->max_errors ? left : 0);
    size_t others = (size_t)opts->max_errors * OTHERS_PER_ERROR;
    qg_diags_set_other_limit(diags, !opts->max_errors ? 0
                                    : others > run.others_shown ? others - run.others_shown
                                                                : 1);
    if (stream)
        qg_diags_set_sink(diags, show, NULL);
    return diags;
}

size_t cli_report(const qg_diags *diags)
{
    for (size_t i = 0; i < qg_diags_count(diags); i++)
        show(NULL, qg_diags_get(diags, i));
    run.over |= qg_diags_over_limit(diags);
    run.others_dropped += qg_diags_dropped_others(diags);
    if (run.over && !run.stopped) {
        run.stopped = 1;
        fprintf(diag_out(), "questgrid: too many errors (--max-errors %ld), stopping\n",
                run.max_errors);
    }
    fflush(diag_out());
    return qg_diags_count_severity(diags, QG_ERROR);
}

int cli_stopped(void)
{
    return run.stopped;
}

void cli_report_end(void)
{
    if (!run.others_dropped)
        return;
    fprintf(diag_out(), "questgrid: %zu more warnings and notes not shown (--max-errors %ld)\n",
            run.others_dropped, run.max_errors);
    fflush(diag_out());
}

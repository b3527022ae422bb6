/* Benchmark (run by hand, not a test): peak memory of each reader against
 * the size of its input, at 1x, 2x and 4x a base size.
 *
 *   make bench && ./tools/bench_memory [BASE_MB]
 *
 * Each measurement runs in a child process of its own: the input is made
 * in one buffer of its exact size, then the reader runs, and the growth of
 * the peak resident set (getrusage ru_maxrss) over what it was with the
 * input in memory is the reader's cost, printed as a multiple of the
 * input's size. Readers: F:/D: (qg_fd_parse of one file of 198 x 66
 * levels under ?: conditions, then qg_fd_resolve of one of them), .des
 * (qg_des_parse of a file of 40 x 20 maps) and REXPaint .xp (qg_xp_read of
 * an uncompressed image, and the same gzip-compressed, its multiple taken
 * of the inflated size).
 * BASE_MB defaults to 8 (so 32 MB at 4x, under the 64 MB file limit). */
#define _GNU_SOURCE
#include "memory_inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const struct {
    const char *name;
    void (*make)(mem_input *, size_t);
    int (*read)(const mem_input *);
} readers[] = {
    {"F:/D:", mem_make_fd, mem_read_fd},
    {".des", mem_make_des, mem_read_des},
    {".xp", mem_make_xp, mem_read_xp},
    {".xp.gz", mem_make_xp_gz, mem_read_xp},
};

/* In a child: makes the input, reads it, prints the figures. */
static void measure(size_t r, size_t target)
{
    mem_input in = {malloc(target), 0, target, 0};
    if (!in.data)
        _exit(1);
    readers[r].make(&in, target);
    long before = mem_resident_kb();
    int ok = readers[r].read(&in);
    long grown = mem_peak_kb() - before;
    size_t size = in.raw ? in.raw : in.len;
    printf("%-6s %8.1f MB input%s  %8.1f MB peak over it  %5.2f x%s\n", readers[r].name,
           size / 1e6, in.raw ? " (inflated)" : "           ", grown * 1024 / 1e6,
           grown * 1024.0 / (double)size, ok ? "" : "  (the read failed!)");
    fflush(stdout);
    _exit(ok ? 0 : 1);
}

int main(int argc, char **argv)
{
    double base = argc > 1 ? atof(argv[1]) : 8;
    if (base <= 0 || base > 16) {
        fprintf(stderr, "usage: bench_memory [BASE_MB (at most 16)]\n");
        return 2;
    }
    int failed = 0;
    for (size_t r = 0; r < sizeof readers / sizeof *readers; r++)
        for (int scale = 1; scale <= 4; scale *= 2) {
            fflush(stdout);
            pid_t pid = fork();
            if (pid == 0)
                measure(r, (size_t)(base * 1e6) * (size_t)scale);
            int status;
            failed |= pid < 0 || waitpid(pid, &status, 0) != pid || status != 0;
        }
    return failed;
}

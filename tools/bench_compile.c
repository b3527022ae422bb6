/* Cold compile against Crawl's own compiler, in one run (by hand):
 *
 *   tools/bench_compile [--dat DIR] [--crawl BIN] [--rounds N] [--jobs N]
 *                       [--no-copies]
 *
 * 1. compiles DIR/des with DIR/dlua (Debian's crawl-common:
 *    /usr/share/crawl/dat) into a cache, in a child process, and runs
 *    `crawl -builddb` (Debian's crawl package) with HOME in a fresh
 *    directory, so its map cache is built from nothing; the two alternate
 *    for N rounds (the host's speed drifts). Prints each one's CPU time
 *    (user + system of the child) and peak RSS, and the ratio;
 * 2. compiles 1, 2 and 4 copies of the corpus, each copy's map names
 *    made unique by a prefix, and prints peak RSS and CPU time of each:
 *    memory must not grow with the corpus;
 * 3. --jobs 1 against --jobs N (wall and CPU time).
 * Figures go to stdout. */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700
#include "questgrid.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct run {
    int ok;
    double cpu, wall, rss_mib;
    size_t maps;
} run;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double seconds(struct timeval t)
{
    return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

/* Waits for pid and fills r from its own resource usage. */
static void finish(pid_t pid, double start, run *r)
{
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
        return;
    r->wall = now() - start;
    r->cpu = seconds(ru.ru_utime) + seconds(ru.ru_stime);
    r->rss_mib = (double)ru.ru_maxrss / 1024.0;
    r->ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Our compile in a child; the map count comes back through a pipe. */
static run compile_child(const char *const *inputs, size_t count, const char *lua_path,
                         int jobs, const char *out)
{
    run r = {0, 0, 0, 0, 0};
    int fds[2];
    if (pipe(fds) != 0)
        return r;
    double start = now();
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        qg_diags *d = qg_diags_new();
        const char *paths[1] = {lua_path};
        qg_compile_options opt = {.lua_paths = paths, .lua_path_count = 1, .jobs = jobs};
        qg_compile_stats stats;
        unlink(out);
        qg_status st = qg_cache_compile(inputs, count, out, &opt, &stats, d);
        if (st != QG_OK) {
            fprintf(stderr, "bench_compile: the compile failed (%s):\n", qg_status_string(st));
            qg_diags_print(d, stderr);
        }
        if (write(fds[1], &stats.maps, sizeof stats.maps) < 0)
            _exit(3);
        _exit(st == QG_OK ? 0 : 1);
    }
    close(fds[1]);
    finish(pid, start, &r);
    if (read(fds[0], &r.maps, sizeof r.maps) != (ssize_t)sizeof r.maps)
        r.ok = 0;
    close(fds[0]);
    return r;
}

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static void remove_tree(const char *dir)
{
    nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* `crawl -builddb` with HOME in a new directory: nothing cached. */
static run crawl_child(const char *crawl, const char *work)
{
    run r = {0, 0, 0, 0, 0};
    char home[4096];
    snprintf(home, sizeof home, "%s/crawl-home", work);
    remove_tree(home);
    if (mkdir(home, 0700) != 0)
        return r;
    double start = now();
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        setenv("HOME", home, 1);
        execl(crawl, crawl, "-builddb", (char *)NULL);
        _exit(127);
    }
    finish(pid, start, &r);
    remove_tree(home);
    return r;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* ---- copies of the corpus ---------------------------------------------- */

/* text with every NAME: line's name prefixed: the copies compile side by
 * side. */
static void write_renamed(const char *text, size_t len, const char *prefix, FILE *out)
{
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl + 1 : end;
        const char *q = p;
        while (q < stop && (*q == ' ' || *q == '\t'))
            q++;
        if (stop - q > 5 && memcmp(q, "NAME:", 5) == 0) {
            q += 5;
            while (q < stop && (*q == ' ' || *q == '\t'))
                q++;
            fwrite(p, 1, (size_t)(q - p), out);
            fputs(prefix, out);
            fwrite(q, 1, (size_t)(stop - q), out);
        } else {
            fwrite(p, 1, (size_t)(stop - p), out);
        }
        p = stop;
    }
}

static const char *copy_prefix;
static const char *copy_from;
static const char *copy_to;

static int copy_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)ftw;
    char target[4096];
    snprintf(target, sizeof target, "%s%s", copy_to, path + strlen(copy_from));
    if (flag == FTW_D)
        return mkdir(target, 0755) != 0 && errno != EEXIST;
    if (flag != FTW_F || !S_ISREG(sb->st_mode))
        return 0;
    FILE *in = fopen(path, "rb"), *out = fopen(target, "wb");
    char *text = malloc((size_t)sb->st_size + 1);
    size_t got = in && text ? fread(text, 1, (size_t)sb->st_size, in) : 0;
    if (out && text)
        write_renamed(text, got, copy_prefix, out);
    int failed = !in || !out || !text || got != (size_t)sb->st_size;
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        failed = 1;
    free(text);
    return failed;
}

static int make_copy(const char *from, const char *to, const char *prefix)
{
    copy_prefix = prefix;
    copy_from = from;
    copy_to = to;
    return nftw(from, copy_one, 16, FTW_PHYS) == 0;
}

/* ---- the report ------------------------------------------------------- */

static void against_crawl(const char *des, const char *dlua, const char *crawl,
                          const char *work, const char *out, int rounds)
{
    double ours[64], theirs[64], ours_rss[64], theirs_rss[64];
    int n = 0, have_crawl = access(crawl, X_OK) == 0;
    const char *inputs[1] = {des};
    size_t maps = 0;
    if (!have_crawl)
        printf("%s is not installed (apt-get install crawl): no reference\n", crawl);
    for (int i = 0; i < rounds && i < 64; i++) {
        run q = compile_child(inputs, 1, dlua, 1, out);
        run c = have_crawl ? crawl_child(crawl, work) : (run){1, 0, 0, 0, 0};
        if (!q.ok || !c.ok) {
            printf("round %d: %s failed\n", i + 1, q.ok ? "crawl -builddb" : "questgrid compile");
            continue;
        }
        maps = q.maps;
        printf("round %d: questgrid %.3f s CPU, %.1f MiB", i + 1, q.cpu, q.rss_mib);
        if (have_crawl)
            printf("; crawl -builddb %.3f s CPU, %.1f MiB; %.1fx", c.cpu, c.rss_mib,
                   c.cpu / q.cpu);
        printf("\n");
        ours[n] = q.cpu;
        ours_rss[n] = q.rss_mib;
        theirs[n] = c.cpu;
        theirs_rss[n++] = c.rss_mib;
    }
    if (!n)
        return;
    double q = median(ours, n), c = median(theirs, n);
    printf("cold compile of %s (%zu maps), median of %d rounds:\n", des, maps, n);
    printf("  questgrid compile  %.3f s CPU, peak RSS %.1f MiB\n", q, median(ours_rss, n));
    if (have_crawl) {
        printf("  crawl -builddb     %.3f s CPU, peak RSS %.1f MiB\n", c, median(theirs_rss, n));
        printf("  questgrid is %.1fx faster in CPU time (target >= 10x)\n", c / q);
    }
}

static void memory_series(const char *des, const char *dlua, const char *work,
                          const char *out)
{
    static const int sizes[3] = {1, 2, 4};
    char dirs[4][4096];
    const char *inputs[4];
    for (int k = 0; k < 4; k++) {
        char prefix[16];
        snprintf(dirs[k], sizeof dirs[k], "%s/copy%d", work, k + 1);
        snprintf(prefix, sizeof prefix, "c%d_", k + 1);
        remove_tree(dirs[k]);
        if (!make_copy(des, dirs[k], prefix)) {
            printf("cannot copy %s to %s\n", des, dirs[k]);
            return;
        }
        inputs[k] = dirs[k];
    }
    printf("memory by corpus size (copies of the corpus, map names made unique):\n");
    double first = 0;
    for (int s = 0; s < 3; s++) {
        run r = compile_child(inputs, (size_t)sizes[s], dlua, 1, out);
        if (!r.ok) {
            printf("  %dx: the compile failed\n", sizes[s]);
            continue;
        }
        if (s == 0)
            first = r.rss_mib;
        printf("  %dx: %zu maps, %.3f s CPU, peak RSS %.1f MiB (%+.1f%% of 1x)\n", sizes[s],
               r.maps, r.cpu, r.rss_mib, first ? 100.0 * (r.rss_mib - first) / first : 0.0);
    }
    for (int k = 0; k < 4; k++)
        remove_tree(dirs[k]);
}

static void jobs_compared(const char *des, const char *dlua, const char *out, int jobs)
{
    const char *inputs[1] = {des};
    double wall[2][5], cpu[2][5];
    int n = 0;
    for (int i = 0; i < 5; i++) {
        run one = compile_child(inputs, 1, dlua, 1, out);
        run many = compile_child(inputs, 1, dlua, jobs, out);
        if (!one.ok || !many.ok)
            continue;
        wall[0][n] = one.wall;
        cpu[0][n] = one.cpu;
        wall[1][n] = many.wall;
        cpu[1][n++] = many.cpu;
    }
    if (!n)
        return;
    printf("--jobs (median of %d runs each, alternating):\n", n);
    printf("  --jobs 1   %.3f s wall, %.3f s CPU\n", median(wall[0], n), median(cpu[0], n));
    printf("  --jobs %-3d %.3f s wall, %.3f s CPU\n", jobs, median(wall[1], n),
           median(cpu[1], n));
}

int main(int argc, char **argv)
{
    const char *dat = "/usr/share/crawl/dat", *crawl = "/usr/games/crawl";
    int rounds = 3, jobs = 2, copies = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--dat") == 0 && i + 1 < argc)
            dat = argv[++i];
        else if (strcmp(argv[i], "--crawl") == 0 && i + 1 < argc)
            crawl = argv[++i];
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--jobs") == 0 && i + 1 < argc)
            jobs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--no-copies") == 0)
            copies = 0;
        else {
            fprintf(stderr, "usage: bench_compile [--dat DIR] [--crawl BIN] [--rounds N] "
                            "[--jobs N] [--no-copies]\n");
            return 2;
        }
    }
    char des[4096], dlua[4096], work[] = "/tmp/bench_compile.XXXXXX", out[4200];
    snprintf(des, sizeof des, "%s/des", dat);
    snprintf(dlua, sizeof dlua, "%s/dlua", dat);
    if (access(des, R_OK) != 0 || access(dlua, R_OK) != 0) {
        fprintf(stderr, "bench_compile: %s or %s is missing (apt-get install crawl-common)\n",
                des, dlua);
        return 1;
    }
    if (!mkdtemp(work)) {
        perror("bench_compile: mkdtemp");
        return 1;
    }
    snprintf(out, sizeof out, "%s/out.qgc", work);
    against_crawl(des, dlua, crawl, work, out, rounds);
    if (copies)
        memory_series(des, dlua, work, out);
    if (jobs > 1)
        jobs_compared(des, dlua, out, jobs);
    remove_tree(work);
    return 0;
}

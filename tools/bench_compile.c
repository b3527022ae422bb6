/* The compile against Crawl's own compiler, in one run (by hand):
 *
 *   tools/bench_compile [--dat DIR] [--crawl BIN] [--rounds N] [--jobs N]
 *                       [--copies]
 *
 * 1. In each of N rounds (default 5), one after another so that the
 *    host's drift falls on all of them alike: `crawl -builddb` (Debian's
 *    crawl package, HOME in a fresh directory so that its map cache is
 *    built from nothing); questgrid's cold compile of DIR/des (a copy of
 *    it, with DIR/dlua) on one thread and on --jobs threads (default: the
 *    cores online); the compile again after touching one file, and
 *    after changing one (a comment added to a small file). Each runs in a
 *    child process: user + system CPU, wall time and peak RSS; the
 *    medians are printed against the targets.
 * 2. The files' own compile costs, measured one by one in one runtime,
 *    and what they give on 1 to 16 threads handed out largest first (the
 *    longest file bounds the compile however many threads there are).
 * 3. With --copies: peak RSS for 1, 2 and 4 copies of the corpus (map
 *    names made unique), which must not grow with the corpus.
 * Figures go to stdout. */
#define _GNU_SOURCE
#include "questgrid.h"

#include <dirent.h>
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
    size_t maps, reused;
} run;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double thread_cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
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

/* Our compile in a child; the map and reuse counts come back through a
 * pipe. out is compiled over (so kept between calls when wanted). */
static run compile_child(const char *const *inputs, size_t count, const char *lua_path,
                         int jobs, const char *out)
{
    run r = {0, 0, 0, 0, 0, 0};
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
        qg_status st = qg_cache_compile(inputs, count, out, &opt, &stats, d);
        if (st != QG_OK) {
            fprintf(stderr, "bench_compile: the compile failed (%s):\n", qg_status_string(st));
            qg_diags_print(d, stderr);
        }
        size_t counts[2] = {stats.maps, stats.reused};
        if (write(fds[1], counts, sizeof counts) < 0)
            _exit(3);
        _exit(st == QG_OK ? 0 : 1);
    }
    close(fds[1]);
    finish(pid, start, &r);
    size_t counts[2];
    if (read(fds[0], counts, sizeof counts) != (ssize_t)sizeof counts)
        r.ok = 0;
    r.maps = counts[0];
    r.reused = counts[1];
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
    run r = {0, 0, 0, 0, 0, 0};
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

/* text with every NAME: line's name prefixed (prefix NULL: as it is). */
static void write_renamed(const char *text, size_t len, const char *prefix, FILE *out)
{
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl + 1 : end;
        const char *q = p;
        while (q < stop && (*q == ' ' || *q == '\t'))
            q++;
        if (prefix && stop - q > 5 && memcmp(q, "NAME:", 5) == 0) {
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

typedef struct copying {
    const char *prefix, *from, *to;
} copying;

static copying copy_job;

static int copy_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)ftw;
    char target[4096];
    snprintf(target, sizeof target, "%s%s", copy_job.to, path + strlen(copy_job.from));
    if (flag == FTW_D)
        return mkdir(target, 0755) != 0 && errno != EEXIST;
    if (flag != FTW_F || !S_ISREG(sb->st_mode))
        return 0;
    FILE *in = fopen(path, "rb"), *out = fopen(target, "wb");
    char *text = malloc((size_t)sb->st_size + 1);
    size_t got = in && text ? fread(text, 1, (size_t)sb->st_size, in) : 0;
    if (out && text)
        write_renamed(text, got, copy_job.prefix, out);
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
    copy_job = (copying){prefix, from, to};
    return nftw(from, copy_one, 16, FTW_PHYS) == 0;
}

/* ---- the rounds --------------------------------------------------------- */

enum { CRAWL, COLD_1, COLD_N, TOUCHED, CHANGED, KINDS, MAX_ROUNDS = 64 };

typedef struct series {
    double cpu[KINDS][MAX_ROUNDS], wall[KINDS][MAX_ROUNDS], rss[KINDS][MAX_ROUNDS];
    int n[KINDS];
    size_t maps, reused_touched, reused_changed;
} series;

static void keep(series *s, int kind, const run *r)
{
    if (!r->ok || s->n[kind] >= MAX_ROUNDS)
        return;
    int i = s->n[kind]++;
    s->cpu[kind][i] = r->cpu;
    s->wall[kind][i] = r->wall;
    s->rss[kind][i] = r->rss_mib;
}

/* A later mtime for path, as `touch` gives. */
static void touch(const char *path)
{
    struct timespec times[2] = {{0, UTIME_NOW}, {0, UTIME_NOW}};
    utimensat(AT_FDCWD, path, times, 0);
}

static void append_line(const char *path, int round)
{
    FILE *f = fopen(path, "ab");
    if (f) {
        fprintf(f, "# bench_compile, round %d\n", round);
        fclose(f);
    }
}

typedef struct setup {
    const char *des, *dlua, *crawl, *work;
    int rounds, jobs, have_crawl;
    char copy[4096], out[4096], touched[4200], changed[4200];
} setup;

static void one_round(const setup *b, int round, series *s)
{
    const char *inputs[1] = {b->copy};
    run r = b->have_crawl ? crawl_child(b->crawl, b->work) : (run){0, 0, 0, 0, 0, 0};
    keep(s, CRAWL, &r);
    unlink(b->out);
    r = compile_child(inputs, 1, b->dlua, 1, b->out);
    keep(s, COLD_1, &r);
    s->maps = r.maps;
    unlink(b->out);
    r = compile_child(inputs, 1, b->dlua, b->jobs, b->out);
    keep(s, COLD_N, &r);
    touch(b->touched);
    r = compile_child(inputs, 1, b->dlua, b->jobs, b->out);
    keep(s, TOUCHED, &r);
    s->reused_touched = r.reused;
    append_line(b->changed, round);
    r = compile_child(inputs, 1, b->dlua, b->jobs, b->out);
    keep(s, CHANGED, &r);
    s->reused_changed = r.reused;
    printf("round %d done\n", round + 1);
    fflush(stdout);
}

static void print_row(const char *what, series *s, int kind, const series *ref)
{
    int n = s->n[kind];
    if (!n) {
        printf("  %-34s (failed)\n", what);
        return;
    }
    double cpu = median(s->cpu[kind], n), wall = median(s->wall[kind], n);
    double rss = median(s->rss[kind], n);
    printf("  %-34s %7.3f s %7.3f s %7.1f MiB", what, cpu, wall, rss);
    if (ref && kind != CRAWL && ref->n[CRAWL]) {
        series copy = *ref;
        double c = median(copy.cpu[CRAWL], copy.n[CRAWL]);
        double w = median(copy.wall[CRAWL], copy.n[CRAWL]);
        printf("   %5.1fx  %5.1fx", c / cpu, w / wall);
    }
    printf("\n");
}

static double median_of(series *s, int kind, int wall)
{
    series copy = *s;
    return copy.n[kind] ? median(wall ? copy.wall[kind] : copy.cpu[kind], copy.n[kind]) : 0;
}

static void against_crawl(const setup *b)
{
    series *s = calloc(1, sizeof *s);
    if (!s)
        return;
    if (!b->have_crawl)
        printf("%s is not installed (apt-get install crawl): no reference\n", b->crawl);
    for (int r = 0; r < b->rounds && r < MAX_ROUNDS; r++)
        one_round(b, r, s);
    printf("\n%s (%zu maps), --lua-path %s; median of %d rounds, user + system CPU of each "
           "process:\n", b->des, s->maps, b->dlua, b->rounds);
    printf("  %-34s %9s %9s %11s   %s\n", "", "CPU", "wall", "peak RSS",
           b->have_crawl ? "less CPU, wall than crawl" : "");
    char label[64];
    print_row("crawl -builddb", s, CRAWL, NULL);
    print_row("questgrid compile, cold, -j1", s, COLD_1, s);
    snprintf(label, sizeof label, "questgrid compile, cold, -j%d", b->jobs);
    print_row(label, s, COLD_N, s);
    snprintf(label, sizeof label, "after touching one file, -j%d", b->jobs);
    print_row(label, s, TOUCHED, s);
    snprintf(label, sizeof label, "after changing one file, -j%d", b->jobs);
    print_row(label, s, CHANGED, s);
    double cold = median_of(s, COLD_N, 1);
    printf("  touched: %s (%zu files reused), %.1f%% of the cold -j%d wall time\n",
           b->touched, s->reused_touched, cold ? 100.0 * median_of(s, TOUCHED, 1) / cold : 0,
           b->jobs);
    printf("  changed: %s, a comment added (%zu files reused), %.1f%% of the cold -j%d "
           "wall time\n", b->changed, s->reused_changed,
           cold ? 100.0 * median_of(s, CHANGED, 1) / cold : 0, b->jobs);
    printf("  targets on a 2-core host: CPU >= 5x less than crawl's at -j1; wall >= 8x "
           "less at -j2; after one changed file <= 5%% of the cold wall; peak RSS <= 32 MiB "
           "at -j2\n");
    free(s);
}

/* ---- the files' own costs ---------------------------------------------- */

typedef struct file_cost {
    char *path;
    double cpu;
    size_t size;
    qg_des_chunk prelude;   /* kept for the files after it */
    char *prelude_code;
} file_cost;

typedef struct costs {
    file_cost *items;
    size_t count, cap;
} costs;

static int by_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .des files under dir in the compile's order (each directory's
 * entries in byte order). */
static void list_des(const char *dir, costs *c)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            names = realloc(names, cap * sizeof *names);
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_path);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct stat sb;
        size_t len = strlen(names[i]);
        if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            list_des(path, c);
        } else if (len > 4 && strcmp(names[i] + len - 4, ".des") == 0) {
            if (c->count == c->cap) {
                c->cap = c->cap ? c->cap * 2 : 64;
                c->items = realloc(c->items, c->cap * sizeof *c->items);
            }
            c->items[c->count++] = (file_cost){strdup(path), 0, (size_t)sb.st_size,
                                               {NULL, 0, 0, NULL}, NULL};
        }
        free(names[i]);
    }
    free(names);
}

/* One file as the compile runs it: the runtime back to the library's
 * state, the preludes before it, then its own and its maps. */
static void measure_file(qg_runtime *rt, costs *c, size_t i)
{
    file_cost *f = &c->items[i];
    qg_diags *d = qg_diags_new();
    double start = thread_cpu();
    qg_runtime_restore(rt, d);
    for (size_t j = 0; j < i; j++)
        if (c->items[j].prelude_code)
            qg_runtime_run_kept_prelude(rt, j, &c->items[j].prelude, NULL);
    qg_des_file *file = NULL;
    qg_des_load(f->path, NULL, NULL, &file, d);
    const qg_des_chunk *prelude = file ? qg_des_global_prelude(file) : NULL;
    if (prelude && prelude->len) {
        qg_runtime_run_kept_prelude(rt, i, prelude, d);
        f->prelude_code = malloc(prelude->len);
        memcpy(f->prelude_code, prelude->code, prelude->len);
        f->prelude = (qg_des_chunk){f->prelude_code, prelude->len, prelude->first_line,
                                    f->path};
    }
    for (size_t m = 0; file && m < qg_des_map_count(file); m++)
        qg_runtime_compile_map(rt, qg_des_map(file, m), d);
    f->cpu = thread_cpu() - start;
    qg_des_file_free(file);
    qg_diags_free(d);
}

static int by_size(const void *a, const void *b)
{
    const file_cost *x = a, *y = b;
    return (x->size < y->size) - (x->size > y->size);
}

static int by_cost(const void *a, const void *b)
{
    const file_cost *x = a, *y = b;
    return (x->cpu < y->cpu) - (x->cpu > y->cpu);
}

/* The longest thread's share when the files (largest first) go each to
 * the thread that comes free first. */
static double makespan(const costs *c, int threads)
{
    double load[64] = {0};
    for (size_t i = 0; i < c->count; i++) {
        int k = 0;
        for (int t = 1; t < threads; t++)
            if (load[t] < load[k])
                k = t;
        load[k] += c->items[i].cpu;
    }
    double most = 0;
    for (int t = 0; t < threads; t++)
        most = load[t] > most ? load[t] : most;
    return most;
}

static void file_costs(const setup *b)
{
    costs c = {NULL, 0, 0};
    list_des(b->des, &c);
    const char *paths[1] = {b->dlua};
    qg_runtime_options ro = {paths, 1, 0, 0, NULL};
    qg_diags *d = qg_diags_new();
    qg_runtime *rt = qg_runtime_new(&ro, d);
    if (!rt || qg_runtime_save(rt, d) != QG_OK) {
        qg_diags_print(d, stderr);
        return;
    }
    double total = 0;
    for (size_t i = 0; i < c.count; i++) {
        measure_file(rt, &c, i);
        total += c.items[i].cpu;
    }
    qg_runtime_free(rt);
    qg_diags_free(d);
    qsort(c.items, c.count, sizeof *c.items, by_size);
    printf("\nthe files' own compile (parse, preludes, maps), CPU of one thread, in all "
           "%.3f s over %zu files; handed out largest first, the longest thread takes:\n",
           total, c.count);
    static const int threads[] = {1, 2, 4, 8, 16};
    for (int k = 0; k < 5; k++)
        printf("  %2d threads: %.3f s\n", threads[k], makespan(&c, threads[k]));
    qsort(c.items, c.count, sizeof *c.items, by_cost);
    printf("  the costliest files (no number of threads takes less than the first):\n");
    for (size_t i = 0; i < c.count && i < 5; i++)
        printf("    %.3f s  %s\n", c.items[i].cpu, c.items[i].path);
    for (size_t i = 0; i < c.count; i++) {
        free(c.items[i].path);
        free(c.items[i].prelude_code);
    }
    free(c.items);
}

/* ---- memory by corpus size ---------------------------------------------- */

static void memory_series(const setup *b)
{
    static const int sizes[3] = {1, 2, 4};
    char dirs[4][4096];
    const char *inputs[4];
    for (int k = 0; k < 4; k++) {
        char prefix[16];
        snprintf(dirs[k], sizeof dirs[k], "%s/copy%d", b->work, k + 1);
        snprintf(prefix, sizeof prefix, "c%d_", k + 1);
        remove_tree(dirs[k]);
        if (!make_copy(b->des, dirs[k], prefix)) {
            printf("cannot copy %s to %s\n", b->des, dirs[k]);
            return;
        }
        inputs[k] = dirs[k];
    }
    printf("\nmemory by corpus size (copies of the corpus, map names made unique), -j%d:\n",
           b->jobs);
    double first = 0;
    for (int s = 0; s < 3; s++) {
        unlink(b->out);
        run r = compile_child(inputs, (size_t)sizes[s], b->dlua, b->jobs, b->out);
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

int main(int argc, char **argv)
{
    const char *dat = "/usr/share/crawl/dat";
    setup b;
    memset(&b, 0, sizeof b);
    b.crawl = "/usr/games/crawl";
    b.rounds = 5;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    b.jobs = online > 0 ? (int)online : 1;
    int copies = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--dat") == 0 && i + 1 < argc)
            dat = argv[++i];
        else if (strcmp(argv[i], "--crawl") == 0 && i + 1 < argc)
            b.crawl = argv[++i];
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            b.rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--jobs") == 0 && i + 1 < argc)
            b.jobs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--copies") == 0)
            copies = 1;
        else {
            fprintf(stderr, "usage: bench_compile [--dat DIR] [--crawl BIN] [--rounds N] "
                            "[--jobs N] [--copies]\n");
            return 2;
        }
    }
    if (b.rounds < 1 || b.jobs < 1) {
        fprintf(stderr, "bench_compile: --rounds and --jobs take a number of 1 or more\n");
        return 2;
    }
    char des[4096], dlua[4096], work[] = "/tmp/bench_compile.XXXXXX";
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
    b.des = des;
    b.dlua = dlua;
    b.work = work;
    b.have_crawl = access(b.crawl, X_OK) == 0;
    snprintf(b.copy, sizeof b.copy, "%s/des", work);
    snprintf(b.out, sizeof b.out, "%s/out.qgc", work);
    snprintf(b.touched, sizeof b.touched, "%s/variable/float.des", b.copy);
    snprintf(b.changed, sizeof b.changed, "%s/altar/xom_sheep.des", b.copy);
    if (!make_copy(des, b.copy, NULL)) {
        fprintf(stderr, "bench_compile: cannot copy %s to %s\n", des, b.copy);
        remove_tree(work);
        return 1;
    }
    against_crawl(&b);
    file_costs(&b);
    if (copies)
        memory_series(&b);
    remove_tree(work);
    return 0;
}

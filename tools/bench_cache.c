/* Benchmark of the .qgc cache against reading the text, in one run:
 *
 *   tools/bench_cache [--jobs N] [--lua-path DIR] OUT.qgc DIR|FILE...
 *
 * 1. cold compile of the inputs into OUT.qgc, in a child process (wall
 *    time and the child's peak RSS);
 * 2. open the cache and read the whole index, against parsing every .des
 *    input as text (no Lua);
 * 3. load one map definition, against parsing the map's source file;
 * 4. the cache size against the sources.
 * Run by hand (Crawl's corpus: /usr/share/crawl/dat/des with
 * --lua-path /usr/share/crawl/dat/dlua); figures go to stdout. */
#define _POSIX_C_SOURCE 200809L
#include "questgrid.h"
#include "questgrid/des.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Wall time, and this thread's CPU time: on a loaded machine the CPU time
 * is the figure that says what the code costs. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double tv(struct timeval t)
{
    return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

static int compile_in_child(char **inputs, int count, const char *out,
                            const char *const *lua_paths, size_t lua_count, int jobs)
{
    double start = now();
    pid_t pid = fork();
    if (pid == 0) {
        qg_diags *diags = qg_diags_new();
        qg_compile_options opt = {.lua_paths = lua_paths, .lua_path_count = lua_count,
                                  .jobs = jobs, .keep_going = 1};
        qg_compile_stats stats;
        qg_status st = qg_cache_compile((const char *const *)inputs, (size_t)count, out,
                                        &opt, &stats, diags);
        if (qg_diags_count_severity(diags, QG_ERROR))
            fprintf(stderr, "bench: %zu errors while compiling (maps left out: %zu)\n",
                    qg_diags_count_severity(diags, QG_ERROR), stats.failed);
        printf("compile: %zu maps from %zu files, %.0f KiB of source\n", stats.maps,
               stats.files, (double)stats.source_bytes / 1024.0);
        fflush(stdout);
        _exit(stats.cache_bytes > 0 ? 0 : (int)st + 1);
    }
    int status = 0;
    struct rusage ru;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || getrusage(RUSAGE_CHILDREN, &ru) != 0)
        return 1;
    printf("compile: %.3f s wall, %.3f s CPU (user+sys) with %d jobs, peak RSS %.1f MiB\n",
           now() - start, tv(ru.ru_utime) + tv(ru.ru_stime), jobs,
           (double)ru.ru_maxrss / 1024.0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static double bench_open_index(const char *path, size_t *entries)
{
    double best = 1e9;
    for (int round = 0; round < 50; round++) {
        double t0 = cpu();
        qg_cache *c;
        if (qg_cache_open(path, NULL, &c, NULL) != QG_OK)
            return -1;
        size_t touched = 0, count = qg_cache_map_count(c);
        for (size_t i = 0; i < count; i++) {
            const qg_cache_entry *e = qg_cache_entry_at(c, i);
            touched += strlen(e->name) + strlen(e->tags) + strlen(e->depth) +
                       (size_t)(e->quest + 1);
        }
        qg_cache_close(c);
        double t = cpu() - t0;
        if (t < best)
            best = t;
        *entries = touched ? count : 0;
    }
    return best;
}

static double bench_text_index(const qg_cache *c)
{
    double t0 = cpu();
    qg_des_names *names = qg_des_names_new();
    for (size_t f = 0; f < qg_cache_file_count(c); f++) {
        const qg_cache_file *file = qg_cache_file_at(c, f);
        if (file->format != QG_FORMAT_DES)
            continue;
        qg_des_file *parsed = NULL;
        qg_diags *d = qg_diags_new();
        qg_des_load(file->path, NULL, names, &parsed, d);
        qg_des_file_free(parsed);
        qg_diags_free(d);
    }
    qg_des_names_free(names);
    return cpu() - t0;
}

static void bench_loads(const qg_cache *c)
{
    size_t n = qg_cache_map_count(c);
    double t0 = cpu();
    for (int round = 0; round < 5; round++)
        for (size_t i = 0; i < n; i++) {
            qg_mapdef *def;
            if (qg_cache_load_map(c, i, &def, NULL) == QG_OK)
                qg_mapdef_free(def);
        }
    double per_map = (cpu() - t0) / (5.0 * (double)n);
    printf("load one map definition from the cache: %.1f us CPU (mean over %zu maps x 5)\n",
           per_map * 1e6, n);
    /* Text: reading a map means parsing its whole source file. */
    size_t sample = n < 200 ? n : 200, step = n / sample;
    t0 = cpu();
    for (size_t k = 0; k < sample; k++) {
        const qg_cache_entry *e = qg_cache_entry_at(c, k * step);
        const qg_cache_file *file = qg_cache_file_at(c, e->file);
        if (file->format != QG_FORMAT_DES)
            continue;
        qg_des_file *parsed = NULL;
        qg_diags *d = qg_diags_new();
        qg_des_load(file->path, NULL, NULL, &parsed, d);
        qg_des_file_free(parsed);
        qg_diags_free(d);
    }
    printf("load one map definition from text:      %.1f us CPU (parse its file; mean of %zu)\n",
           (cpu() - t0) / (double)sample * 1e6, sample);
}

int main(int argc, char **argv)
{
    int jobs = 2, arg = 1;
    const char *lua_paths[16];
    size_t lua_count = 0;
    while (arg + 1 < argc && argv[arg][0] == '-') {
        if (strcmp(argv[arg], "--jobs") == 0)
            jobs = atoi(argv[arg + 1]);
        else if (strcmp(argv[arg], "--lua-path") == 0 && lua_count < 16)
            lua_paths[lua_count++] = argv[arg + 1];
        arg += 2;
    }
    if (argc - arg < 2) {
        fprintf(stderr, "usage: bench_cache [--jobs N] [--lua-path DIR] OUT.qgc DIR|FILE...\n");
        return 2;
    }
    const char *out = argv[arg];
    unlink(out);
    if (compile_in_child(argv + arg + 1, argc - arg - 1, out, lua_paths, lua_count, jobs))
        return 1;
    qg_cache *c;
    qg_diags *d = qg_diags_new();
    if (qg_cache_open(out, NULL, &c, d) != QG_OK) {
        qg_diags_print(d, stderr);
        return 1;
    }
    qg_cache_info info;
    qg_cache_get_info(c, &info);
    uint64_t sources = 0;
    for (size_t f = 0; f < qg_cache_file_count(c); f++)
        sources += qg_cache_file_at(c, f)->size;
    printf("cache size: %.3f MB (%llu bytes; index %llu, blobs %llu) for %.3f MB of source\n",
           (double)info.file_size / 1e6, (unsigned long long)info.file_size,
           (unsigned long long)info.index_size, (unsigned long long)info.blob_size,
           (double)sources / 1e6);
    size_t entries = 0;
    double open_index = bench_open_index(out, &entries);
    printf("open the cache and read the whole index: %.2f ms CPU (%zu maps; best of 50)\n",
           open_index * 1e3, entries);
    printf("read the whole index from text:          %.2f ms CPU (parse every .des file, no Lua)\n",
           bench_text_index(c) * 1e3);
    bench_loads(c);
    qg_cache_close(c);
    qg_diags_free(d);
    return 0;
}

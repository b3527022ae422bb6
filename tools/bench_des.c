/* Benchmark (run by hand, not a test): reads every .des file of a corpus
 * into memory, then times lowering them all (lexing, parsing, chunk
 * assembly, structured directives) as one session, best of N rounds.
 *   bench_des [DIR [ROUNDS]]   (DIR defaults to ../shared/corpus/crawl/des) */
#define _POSIX_C_SOURCE 200809L
#include "questgrid.h"
#include "core/buf.h"
#include "core/file.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

typedef struct source {
    char *path;
    char *data;
    size_t len;
} source;

typedef struct sources {
    source *items;
    size_t count, cap;
    size_t bytes;
} sources;

static int cmp_source(const void *a, const void *b)
{
    return strcmp(((const source *)a)->path, ((const source *)b)->path);
}

static int collect(const char *dir, sources *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    int ok = 1;
    while (ok && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char *path = qg_path_join(dir, e->d_name);
        struct stat st;
        size_t n = path ? strlen(path) : 0;
        if (!path || stat(path, &st) != 0) {
            ok = 0;
        } else if (S_ISDIR(st.st_mode)) {
            ok = collect(path, out);
        } else if (n > 4 && strcmp(path + n - 4, ".des") == 0) {
            source *s = QG_PUSH(out->items, out->count, out->cap);
            if (!s || qg_read_file(path, QG_MAX_TEXT_FILE, &s->data, &s->len, NULL) != QG_OK)
                ok = 0;
            else {
                s->path = path;
                out->bytes += s->len;
                path = NULL;
            }
        }
        free(path);
    }
    closedir(d);
    return ok;
}

static double now(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Lowers every file once; returns the number of maps, or -1. */
static long lower_all(const sources *src)
{
    qg_des_names *names = qg_des_names_new();
    qg_diags *diags = qg_diags_new();
    long maps = 0;
    for (size_t i = 0; i < src->count && maps >= 0; i++) {
        qg_des_file *file;
        if (qg_des_parse(src->items[i].path, src->items[i].data, src->items[i].len, NULL,
                         names, &file, diags) != QG_OK)
            maps = -1;
        else
            maps += (long)qg_des_map_count(file);
        qg_des_file_free(file);
    }
    if (maps < 0)
        qg_diags_print(diags, stderr);
    qg_diags_free(diags);
    qg_des_names_free(names);
    return maps;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "../shared/corpus/crawl/des";
    int rounds = argc > 2 ? atoi(argv[2]) : 10;
    sources src = {0};
    if (!collect(dir, &src) || !src.count) {
        fprintf(stderr, "bench_des: cannot read .des files under %s\n", dir);
        return 1;
    }
    qsort(src.items, src.count, sizeof *src.items, cmp_source);
    /* CPU time of this process measures one core even on a busy machine;
     * wall time is shown beside it. */
    double best = 1e9, best_wall = 1e9;
    long maps = 0;
    for (int r = 0; r < (rounds > 0 ? rounds : 1); r++) {
        double c0 = now(CLOCK_PROCESS_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC);
        maps = lower_all(&src);
        double c = now(CLOCK_PROCESS_CPUTIME_ID) - c0, w = now(CLOCK_MONOTONIC) - w0;
        if (maps < 0)
            return 1;
        if (c < best)
            best = c;
        if (w < best_wall)
            best_wall = w;
    }
    double mb = (double)src.bytes / 1e6;
    printf("%zu files, %ld maps, %.2f MB: best of %d: %.1f ms CPU (%.0f MB/s), "
           "%.1f ms wall\n", src.count, maps, mb, rounds, best * 1e3, mb / best,
           best_wall * 1e3);
    for (size_t i = 0; i < src.count; i++) {
        free(src.items[i].path);
        free(src.items[i].data);
    }
    free(src.items);
    return 0;
}

/* Benchmark (run by hand, not a test): parse and resolve every map file of
 * the Zangband 2.3.0, Hengband 2.2.1 and ToME 2.4 corpora, files already
 * in memory, and report MB/s on one core.
 *
 *   make bench && ./tools/bench_fd [CORPUS_DIR] [PASSES]
 *
 * CORPUS_DIR defaults to ../shared/corpus/angband. Each file is parsed on
 * its own (its %: records kept, no other file read) and resolved once
 * with $WILDERNESS = NORMAL and no other variable. */
#define _POSIX_C_SOURCE 200809L
#include "questgrid.h"
#include "core/file.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct input {
    char *path;
    char *data;
    size_t size;
    qg_fd_dialect dialect;
} input;

typedef struct corpus {
    const char *name;
    qg_fd_dialect dialect;
    input *files;
    size_t count;
    size_t bytes;
} corpus;

static int is_map_file(const char *name)
{
    static const char *const databases[] = {
        "a_info.txt", "e_info.txt", "f_info.txt", "k_info.txt", "r_info.txt",
        "v_info.txt", "d_info.txt", "m_info.txt", "s_info.txt", "ab_info.txt",
        "ba_info.txt", "ow_info.txt", "p_info.txt", "ra_info.txt", "re_info.txt",
        "set_info.txt", "st_info.txt", "wf_info.txt", "readme.txt", NULL};
    size_t n = strlen(name);
    if (n < 4 || (strcmp(name + n - 4, ".txt") && strcmp(name + n - 4, ".map")))
        return 0;
    for (size_t i = 0; databases[i]; i++)
        if (!strcmp(name, databases[i]))
            return 0;
    return 1;
}

static int load_corpus(const char *root, corpus *c)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s/lib/edit", root, c->name);
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!is_map_file(e->d_name))
            continue;
        input *in = realloc(c->files, (c->count + 1) * sizeof *in);
        if (!in)
            break;
        c->files = in;
        in = &c->files[c->count];
        in->path = qg_path_join(dir, e->d_name);
        in->dialect = c->dialect;
        if (qg_read_file(in->path, QG_MAX_TEXT_FILE, &in->data, &in->size, NULL) != QG_OK) {
            free(in->path);
            continue;
        }
        c->bytes += in->size;
        c->count++;
    }
    closedir(d);
    return c->count > 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static size_t resolve(const qg_mapdef *def, const qg_fd_options *opt, const qg_vars *vars)
{
    qg_level *level = NULL;
    qg_fd_resolve(def, opt, vars, &level, NULL);
    size_t cells = level ? (size_t)qg_level_width(level) * (size_t)qg_level_height(level) : 0;
    qg_level_free(level);
    return cells;
}

static double run_pass(corpus *c, qg_vars *vars, size_t *cells)
{
    double start = now();
    for (size_t i = 0; i < c->count; i++) {
        qg_fd_options opt;
        qg_fd_options_init(&opt);
        opt.dialect = c->files[i].dialect;
        opt.no_includes = 1;
        qg_mapdef *def = NULL;
        qg_fd_parse(c->files[i].path, c->files[i].data, c->files[i].size, &opt, &def, NULL);
        if (def)
            *cells += resolve(def, &opt, vars);
        qg_mapdef_free(def);
    }
    return now() - start;
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : "../shared/corpus/angband";
    int passes = argc > 2 ? atoi(argv[2]) : 20;
    corpus corpora[] = {
        {"zangband-2.3.0", QG_FD_ZANGBAND, NULL, 0, 0},
        {"hengband-2.2.1", QG_FD_HENGBAND, NULL, 0, 0},
        {"tome-2.4", QG_FD_TOME, NULL, 0, 0},
    };
    qg_vars *vars = qg_vars_new();
    qg_vars_set(vars, "WILDERNESS", "NORMAL");
    size_t total_bytes = 0;
    double total_time = 0;
    for (size_t k = 0; k < sizeof corpora / sizeof *corpora; k++) {
        corpus *c = &corpora[k];
        if (!load_corpus(root, c)) {
            fprintf(stderr, "bench_fd: no corpus at %s/%s\n", root, c->name);
            continue;
        }
        size_t cells = 0;
        double best = 1e9;
        for (int p = 0; p < passes; p++) {
            size_t pass_cells = 0;
            double t = run_pass(c, vars, &pass_cells);
            if (t < best)
                best = t;
            cells = pass_cells;
        }
        printf("%-16s %3zu files %8zu bytes  %8.3f ms  %7.1f MB/s  %zu cells resolved\n",
               c->name, c->count, c->bytes, best * 1e3, (double)c->bytes / best / 1e6, cells);
        total_bytes += c->bytes;
        total_time += best;
    }
    if (total_time > 0)
        printf("%-16s     %13zu bytes  %8.3f ms  %7.1f MB/s\n", "all", total_bytes,
               total_time * 1e3, (double)total_bytes / total_time / 1e6);
    qg_vars_free(vars);
    for (size_t k = 0; k < sizeof corpora / sizeof *corpora; k++) {
        for (size_t i = 0; i < corpora[k].count; i++) {
            free(corpora[k].files[i].path);
            free(corpora[k].files[i].data);
        }
        free(corpora[k].files);
    }
    return 0;
}

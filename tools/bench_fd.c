/* Benchmark (run by hand, not a test): parse and resolve every map file of
 * the Zangband 2.3.0, Hengband 2.2.1 and ToME 2.4 corpora, files already
 * in memory, and report MB/s on one core.
 *
 *   make bench && ./tools/bench_fd [CORPUS_DIR] [PASSES]
 *
 * CORPUS_DIR defaults to ../shared/corpus/angband. Each file is parsed
 * exactly once: the hubs (q_info.txt and t_info.txt with every file they
 * include, served from memory) and every file no hub reaches (found out
 * before timing starts). The
 * quest hub is resolved once per quest file with a map, the town hub once
 * per town, every other file once: each map is laid out as the games lay
 * it out. The best of PASSES passes is reported, in CPU time of the
 * benchmark's one thread (so other processes on a shared machine do not
 * count). */
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
    int hub;       /* q_info.txt or t_info.txt */
    int reached;   /* a hub includes it: read through the hub only */
} input;

typedef struct corpus {
    const char *name;
    qg_fd_dialect dialect;
    input *files;
    size_t count;
    size_t bytes;
    size_t *by_path;   /* hash of paths to file index + 1 (the harness's
                          own lookup, kept out of the figures' way) */
    size_t slots;
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
        memset(in, 0, sizeof *in);
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
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The cells of the level laid out; 0 when no row was laid. */
static size_t resolve(const qg_mapdef *def, const qg_fd_options *opt, const qg_vars *vars)
{
    qg_level *level = NULL;
    qg_fd_resolve(def, opt, vars, &level, NULL);
    size_t cells = level ? (size_t)qg_level_width(level) * (size_t)qg_level_height(level) : 0;
    if (level && !qg_level_in_map(level)[0] && cells == 1)
        cells = 0;
    qg_level_free(level);
    return cells;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The quest hub once per file with a map (with the number of the quest
 * its Q: records name); the town hub once per town: $TOWN = 1, 2, … until
 * a town lays no row. */
static size_t resolve_hub(const qg_mapdef *def, const qg_fd_options *opt, qg_vars *vars)
{
    size_t cells = 0;
    if (strcmp(base_name(qg_fd_file_path(def, 0)), "q_info.txt") != 0) {
        for (int town = 1;; town++) {
            qg_vars_set_int(vars, "TOWN", town);
            size_t laid = resolve(def, opt, vars);
            if (!laid)
                return cells;
            cells += laid;
        }
    }
    size_t files = qg_fd_file_count(def);
    unsigned char *done = calloc(files, 1);
    unsigned char *rows = calloc(files, 1);
    for (size_t i = 0; rows && i < qg_fd_record_count(def); i++)
        if (qg_fd_record_at(def, i)->kind == QG_FD_ROW)
            rows[qg_fd_record_at(def, i)->file] = 1;
    for (size_t i = 0; done && rows && i < qg_fd_record_count(def); i++) {
        const qg_fd_record *rec = qg_fd_record_at(def, i);
        if (rec->kind != QG_FD_QUEST || !rec->quest || done[rec->file])
            continue;
        done[rec->file] = 1;
        if (!rows[rec->file])
            continue;
        qg_vars_set_int(vars, "QUEST_NUMBER", rec->quest->number);
        cells += resolve(def, opt, vars);
    }
    free(done);
    free(rows);
    return cells;
}

static int is_hub(const input *in)
{
    const char *base = base_name(in->path);
    return !strcmp(base, "q_info.txt") || !strcmp(base, "t_info.txt");
}

static size_t path_hash(const char *path)
{
    size_t h = 14695981039346656037u;
    for (; *path; path++)
        h = (h ^ (unsigned char)*path) * 1099511628211u;
    return h;
}

static input *find_input(const corpus *c, const char *path)
{
    for (size_t at = path_hash(path) & (c->slots - 1); c->by_path[at];
         at = (at + 1) & (c->slots - 1))
        if (!strcmp(c->files[c->by_path[at] - 1].path, path))
            return &c->files[c->by_path[at] - 1];
    return NULL;
}

static int from_memory(void *user, const char *path, const char **data, size_t *len)
{
    const input *in = find_input(user, path);
    if (!in)
        return 0;
    *data = in->data;
    *len = in->size;
    return 1;
}

static void parse_options(corpus *c, const input *in, qg_fd_options *opt)
{
    qg_fd_options_init(opt);
    opt->dialect = in->dialect;
    opt->source = from_memory;
    opt->source_user = c;
}

/* Indexes the paths and marks the files the hubs read. */
static int index_corpus(corpus *c)
{
    c->slots = 16;
    while (c->slots < 2 * c->count)
        c->slots *= 2;
    c->by_path = calloc(c->slots, sizeof *c->by_path);
    if (!c->by_path)
        return 0;
    for (size_t i = 0; i < c->count; i++) {
        size_t at = path_hash(c->files[i].path) & (c->slots - 1);
        while (c->by_path[at])
            at = (at + 1) & (c->slots - 1);
        c->by_path[at] = i + 1;
        c->files[i].hub = is_hub(&c->files[i]);
    }
    for (size_t i = 0; i < c->count; i++) {
        if (!c->files[i].hub)
            continue;
        qg_fd_options opt;
        parse_options(c, &c->files[i], &opt);
        qg_mapdef *def = NULL;
        qg_fd_parse(c->files[i].path, c->files[i].data, c->files[i].size, &opt, &def, NULL);
        for (size_t f = 1; def && f < qg_fd_file_count(def); f++) {
            input *in = find_input(c, qg_fd_file_path(def, f));
            if (in)
                in->reached = 1;
        }
        qg_mapdef_free(def);
    }
    return 1;
}

static double run_pass(corpus *c, qg_vars *vars, size_t *cells)
{
    double start = now();
    for (size_t i = 0; i < c->count; i++) {
        input *in = &c->files[i];
        if (in->reached)
            continue;
        qg_fd_options opt;
        parse_options(c, in, &opt);
        qg_mapdef *def = NULL;
        qg_fd_parse(in->path, in->data, in->size, &opt, &def, NULL);
        if (!def)
            continue;
        *cells += in->hub ? resolve_hub(def, &opt, vars) : resolve(def, &opt, vars);
        qg_mapdef_free(def);
    }
    return now() - start;
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : "../shared/corpus/angband";
    int passes = argc > 2 ? atoi(argv[2]) : 20;
    corpus corpora[] = {
        {"zangband-2.3.0", QG_FD_ZANGBAND, NULL, 0, 0, NULL, 0},
        {"hengband-2.2.1", QG_FD_HENGBAND, NULL, 0, 0, NULL, 0},
        {"tome-2.4", QG_FD_TOME, NULL, 0, 0, NULL, 0},
    };
    qg_vars *vars = qg_vars_new();
    qg_vars_set(vars, "WILDERNESS", "NORMAL");
    qg_vars_set(vars, "QUEST17", "1");
    size_t total_bytes = 0;
    double total_time = 0;
    for (size_t k = 0; k < sizeof corpora / sizeof *corpora; k++) {
        corpus *c = &corpora[k];
        if (!load_corpus(root, c) || !index_corpus(c)) {
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
        free(corpora[k].by_path);
    }
    return 0;
}

/* Benchmark and conformance report (run by hand, not a test): loads a
 * game's .des corpus the way its Lua library does (Crawl: dat/dlua with
 * loadmaps.lua), runs every map's compile-time run, then resolves each map
 * for a few seeds and places. Prints counts, failures grouped by cause,
 * times and peak memory.
 *   bench_lua [DATDIR [SEEDS]]   (DATDIR defaults to /usr/share/crawl/dat) */
#define _POSIX_C_SOURCE 200809L
#include "questgrid.h"
#include "core/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

typedef struct cause {
    char *text;
    int count;
    char *example;
} cause;

typedef struct causes {
    cause items[512];
    int count;
} causes;

/* CPU time of this process: the machine may be shared. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double max_rss_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

/* The message without its location: "...(map NAME): text" -> "text". */
static void add_cause(causes *c, const qg_diags *d, const char *map)
{
    const char *msg = qg_diags_count(d) ? qg_diags_get(d, 0)->message : "(no diagnostic)";
    char line[400];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(msg, "\n"), msg);
    const char *p = strstr(line, "): ");
    p = p ? p + 3 : line;
    char key[400];
    snprintf(key, sizeof key, "%s", p);
    char *m = strstr(key, " (map ");
    if (m)
        *m = '\0';
    for (int i = 0; i < c->count; i++)
        if (strcmp(c->items[i].text, key) == 0) {
            c->items[i].count++;
            return;
        }
    if (c->count < 512) {
        c->items[c->count].text = strdup(key);
        c->items[c->count].example = strdup(map);
        c->items[c->count++].count = 1;
    }
}

typedef struct sized {
    int cells;
    size_t index;
} sized;

static int by_cells(const void *a, const void *b)
{
    const sized *x = a, *y = b;
    return x->cells != y->cells ? (x->cells > y->cells) - (x->cells < y->cells)
                                : (x->index > y->index) - (x->index < y->index);
}

static int by_count(const void *a, const void *b)
{
    return ((const cause *)b)->count - ((const cause *)a)->count;
}

static void print_causes(causes *c, const char *what)
{
    qsort(c->items, (size_t)c->count, sizeof *c->items, by_count);
    printf("%s failures by cause:\n", what);
    for (int i = 0; i < c->count; i++) {
        printf("  %5d  %s  (e.g. %s)\n", c->items[i].count, c->items[i].text, c->items[i].example);
        free(c->items[i].text);
        free(c->items[i].example);
    }
}

/* A place the map is made for: its first PLACE, else its first DEPTH
 * range ("D:2-4" -> "D:2", "Lair" -> "Lair:1"), else D:5. */
static void own_place(const qg_mapdef *def, char *buf, size_t size)
{
    const char *p = qg_mapdef_get_property(def, "place");
    if (!p || !*p)
        p = qg_mapdef_get_property(def, "depth");
    snprintf(buf, size, "D:5");
    if (!p || !*p || *p == '!' || *p == '*' || (*p >= '0' && *p <= '9'))
        return;
    size_t branch = strcspn(p, ":, ");
    int depth = p[branch] == ':' ? atoi(p + branch + 1) : 1;
    snprintf(buf, size, "%.*s:%d", (int)branch, p, depth > 0 ? depth : 1);
}

int main(int argc, char **argv)
{
    const char *dat = argc > 1 ? argv[1] : "/usr/share/crawl/dat";
    int seeds = argc > 2 ? atoi(argv[2]) : 3;
    char *dlua = qg_path_join(dat, "dlua");
    const char *paths[1] = {dlua};
    qg_runtime_options opts = {paths, 1, 0, 0, NULL};
    qg_diags *diags = qg_diags_new();
    double t0 = now();
    qg_runtime *rt = qg_runtime_new(&opts, diags);
    if (!rt) {
        qg_diags_print(diags, stderr);
        return 1;
    }
    char **files;
    size_t nfiles;
    if (qg_runtime_library_des_files(rt, &files, &nfiles, diags) != QG_OK) {
        qg_diags_print(diags, stderr);
        return 1;
    }
    double t_lib = now();
    qg_des_names *names = qg_des_names_new();
    size_t load_errors = 0;
    for (size_t i = 0; i < nfiles; i++) {
        char *path = qg_path_join(dat, files[i]);
        qg_des_file *file = NULL;
        qg_diags_clear(diags);
        if (qg_des_load(path, NULL, names, &file, diags) != QG_OK)
            load_errors++;
        if (file && qg_runtime_add_file(rt, file, diags) != QG_OK) {
            load_errors++;
            qg_diags_print(diags, stderr);
        }
        free(path);
        free(files[i]);
    }
    free(files);
    double t_load = now();
    size_t n = qg_runtime_map_count(rt), compiled = 0;
    causes *cc = calloc(1, sizeof *cc), *rc = calloc(1, sizeof *rc);
    char *ok = calloc(n ? n : 1, 1);
    for (size_t i = 0; i < n; i++) {
        qg_mapdef *def = qg_runtime_map(rt, i);
        qg_diags_clear(diags);
        if (qg_runtime_compile_map(rt, def, diags) == QG_OK) {
            compiled++;
            ok[i] = 1;
        } else {
            add_cause(cc, diags, qg_mapdef_name(def));
        }
    }
    double t1 = now();
    double rss_compile = max_rss_mb();
    static const char *const places[] = {"D:5", "Lair:3", "Depths:2"};
    size_t tries = 0, resolved = 0;
    for (size_t i = 0; i < n; i++) {
        qg_mapdef *def = qg_runtime_map(rt, i);
        for (int s = 0; s < seeds; s++) {
            qg_context ctx = {places[s % 3], 10, NULL};
            qg_level *level = NULL;
            qg_diags_clear(diags);
            tries++;
            if (qg_runtime_resolve(rt, def, (unsigned long long)s + 1, &ctx, &level, diags) == QG_OK) {
                resolved++;
                qg_level_free(level);
            } else {
                add_cause(rc, diags, qg_mapdef_name(def));
            }
        }
    }
    double t2 = now();
    size_t own_ok = 0;
    for (size_t i = 0; i < n; i++) {
        char place[64];
        own_place(qg_runtime_map(rt, i), place, sizeof place);
        qg_context ctx = {place, 10, NULL};
        qg_level *level = NULL;
        qg_diags_clear(diags);
        if (qg_runtime_resolve(rt, qg_runtime_map(rt, i), 1, &ctx, &level, diags) == QG_OK) {
            own_ok++;
            qg_level_free(level);
        }
    }
    /* the median-size map (by cells) among those that compiled */
    sized *order = calloc(n ? n : 1, sizeof *order);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const char *w = qg_mapdef_get_property(qg_runtime_map(rt, i), "width");
        const char *h = qg_mapdef_get_property(qg_runtime_map(rt, i), "height");
        if (ok[i] && w && h && atoi(w) * atoi(h) > 0)
            order[m++] = (sized){atoi(w) * atoi(h), i};
    }
    qsort(order, m, sizeof *order, by_cells);
    qg_mapdef *median = m ? qg_runtime_map(rt, order[m / 2].index) : NULL;
    int reps = 20000;
    double t3 = now();
    for (int i = 0; median && i < reps; i++) {
        qg_context ctx = {"D:5", 10, NULL};
        qg_level *level = NULL;
        qg_diags_clear(diags);
        if (qg_runtime_resolve(rt, median, (unsigned long long)i, &ctx, &level, diags) == QG_OK)
            qg_level_free(level);
    }
    double t4 = now();
    if (median)
        printf("median-size map %s (%sx%s): %.0f resolutions per second\n",
               qg_mapdef_name(median), qg_mapdef_get_property(median, "width"),
               qg_mapdef_get_property(median, "height"), reps / (t4 - t3));
    free(order);
    printf("files: %zu (%zu with load errors)\nmaps: %zu\n", nfiles, load_errors, n);
    printf("compile-time run: %zu/%zu (%.2f%%) in %.3f s CPU: library %.3f, reading and "
           "lowering with global preludes %.3f, map chunks %.3f\n",
           compiled, n, n ? 100.0 * (double)compiled / (double)n : 0.0, t1 - t0,
           t_lib - t0, t_load - t_lib, t1 - t_load);
    printf("resolution: %zu/%zu (%.2f%%) in %.3f s (%.0f per second)\n", resolved, tries,
           tries ? 100.0 * (double)resolved / (double)tries : 0.0, t2 - t1,
           (double)tries / (t2 - t1));
    printf("resolution at each map's own place: %zu/%zu (%.2f%%)\n", own_ok, n,
           n ? 100.0 * (double)own_ok / (double)n : 0.0);
    printf("peak memory (max RSS): %.1f MB after the compile-time run, %.1f MB at the end\n",
           rss_compile, max_rss_mb());
    print_causes(cc, "compile-time");
    print_causes(rc, "resolution");
    free(cc);
    free(rc);
    free(ok);
    qg_des_names_free(names);
    qg_runtime_free(rt);
    qg_diags_free(diags);
    free(dlua);
    return 0;
}

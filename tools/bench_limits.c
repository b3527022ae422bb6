/* Benchmark (run by hand, not a test): CPU time and peak memory of each
 * reader against the size of its input, at 1x, 4x and 16x a base size,
 * for the inputs every reader meets and for the shapes that once made one
 * of them superlinear (issue 28): one XML token as long as the file, a
 * file of many tiny maps, a line of many bad entries.
 *
 *   make bench && ./tools/bench_limits [BASE_MB]
 *
 * Each measurement runs in a child process of its own: the input is made
 * in memory, then the reader runs; the CPU time of the read and the growth
 * of the peak resident set over what the process held with the input made
 * are printed, per MB of input, and the last column divides the 16x
 * figures by the 1x ones: about 1 for a linear reader. BASE_MB defaults
 * to 1 (16 MB at 16x, under the 64 MB file limit). */
#define _GNU_SOURCE
#include "memory_inputs.h"
#include "questgrid/convert.h"
#include "questgrid/des.h"
#include "questgrid/lua.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void put(mem_input *in, const char *text)
{
    size_t len = strlen(text);
    if (in->len + len <= in->cap) {
        memcpy(in->data + in->len, text, len);
        in->len += len;
    }
}

/* ---- inputs of the shapes issue 28 found ------------------------------- */

/* A map of the smallest kind, as many as fit. */
static void make_tiny_maps(mem_input *in, size_t target)
{
    char line[64];
    for (int n = 0; in->len + 64 < target; n++) {
        snprintf(line, sizeof line, "NAME:m%d\nMAP\nx\nENDMAP\n", n);
        put(in, line);
    }
}

/* One map whose NSUBST line holds as many bad entries as fit. */
static void make_bad_line(mem_input *in, size_t target)
{
    put(in, "NAME: bad_line\nNSUBST: . = 1:x / ");
    while (in->len + 64 < target)
        put(in, "1:, / ");
    put(in, "\nMAP\nx\nENDMAP\n");
}

static const char tmx_head[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<map version=\"1.8\" orientation=\"orthogonal\" width=\"%d\" height=\"%d\" "
    "tilewidth=\"8\" tileheight=\"8\">\n"
    " <tileset firstgid=\"1\" name=\"cp437\" tilewidth=\"8\" tileheight=\"8\" "
    "tilecount=\"256\" columns=\"16\"/>\n";

/* A Tiled map with one CSV layer 500 cells high, as wide as fits. */
static void make_tmx(mem_input *in, size_t target)
{
    int height = 500, width = (int)(target / 4 / 500);
    char line[512];
    snprintf(line, sizeof line, tmx_head, width, height);
    put(in, line);
    snprintf(line, sizeof line, " <layer id=\"1\" name=\"terrain\" width=\"%d\" height=\"%d\">"
                                "<data encoding=\"csv\">\n", width, height);
    put(in, line);
    for (long i = 0; i < (long)width * height; i++)
        put(in, i + 1 < (long)width * height ? (i % 7 ? "47," : "36,") : "47");
    put(in, "\n</data></layer>\n</map>\n");
}

/* A three-cell map after a comment as long as the file. */
static void make_tmx_comment(mem_input *in, size_t target)
{
    char line[512];
    snprintf(line, sizeof line, tmx_head, 3, 1);
    put(in, line);
    put(in, "<!--");
    while (in->len + 256 < target)
        put(in, "a comment ");
    put(in, "-->\n <layer id=\"1\" name=\"terrain\" width=\"3\" height=\"1\">"
            "<data encoding=\"csv\">36,47,36</data></layer>\n</map>\n");
}

/* ---- readers ------------------------------------------------------------- */

static int read_tmx(const mem_input *in)
{
    qg_diags *diags = qg_diags_new();
    qg_level *level = NULL;
    qg_status st = qg_tmx_read("bench.tmx", in->data, in->len, &level, diags);
    qg_level_free(level);
    qg_diags_free(diags);
    return st == QG_OK;
}

static void count_map(void *user, qg_mapdef *def)
{
    (*(size_t *)user)++;
    qg_mapdef_free(def);
}

/* As list reads: one map at a time. */
static int read_des_streamed(const mem_input *in)
{
    qg_diags *diags = qg_diags_new();
    qg_des_file *file = NULL;
    size_t maps = 0;
    qg_status st = qg_des_parse_each("bench.des", in->data, in->len, NULL, NULL, count_map,
                                     &maps, &file, diags);
    qg_des_file_free(file);
    qg_diags_free(diags);
    return st == QG_OK && maps > 0;
}

/* As the commands report: at most 50 errors kept, the rest counted. */
static int read_des_capped(const mem_input *in)
{
    qg_diags *diags = qg_diags_new();
    qg_diags_set_filter(diags, QG_NOTE, 50);
    qg_des_file *file = NULL;
    qg_des_parse("bench.des", in->data, in->len, NULL, NULL, &file, diags);
    int ok = file && qg_diags_count(diags) <= 51 && qg_diags_dropped(diags) > 0;
    qg_des_file_free(file);
    qg_diags_free(diags);
    return ok;
}

/* Every map's compile-time Lua, as compile runs it (its maps held). */
static int read_des_compiled(const mem_input *in)
{
    qg_diags *diags = qg_diags_new();
    qg_des_file *file = NULL;
    qg_des_parse("bench.des", in->data, in->len, NULL, NULL, &file, diags);
    qg_runtime *rt = file ? qg_runtime_new(NULL, diags) : NULL;
    int ok = rt && qg_runtime_add_file(rt, file, diags) == QG_OK;
    for (size_t i = 0; ok && i < qg_runtime_map_count(rt); i++)
        ok = qg_runtime_compile_map(rt, qg_runtime_map(rt, i), diags) == QG_OK;
    if (!rt)
        qg_des_file_free(file);
    qg_runtime_free(rt);
    qg_diags_free(diags);
    return ok;
}

static const struct {
    const char *name;
    void (*make)(mem_input *, size_t);
    int (*read)(const mem_input *);
} readers[] = {
    {"F:/D: quest levels (parse, resolve one)", mem_make_fd, mem_read_fd},
    {".des 40x20 maps (parse)", mem_make_des, mem_read_des},
    {".des 40x20 maps (compile-time Lua)", mem_make_des, read_des_compiled},
    {".des tiny maps, one at a time (list)", make_tiny_maps, read_des_streamed},
    {".des tiny maps, all held (parse)", make_tiny_maps, mem_read_des},
    {".des one line of bad entries (50 kept)", make_bad_line, read_des_capped},
    {"TMX CSV layer", make_tmx, read_tmx},
    {"TMX one comment as long as the file", make_tmx_comment, read_tmx},
    {".xp", mem_make_xp, mem_read_xp},
    {".xp.gz (per MB inflated)", mem_make_xp_gz, mem_read_xp},
};

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* In a child: makes the input, reads it, writes "seconds peak_mb mb" to fd. */
static void measure(size_t r, size_t target, int fd)
{
    mem_input in = {malloc(target), 0, target, 0};
    if (!in.data)
        _exit(1);
    readers[r].make(&in, target);
    long before = mem_resident_kb();
    double start = cpu_seconds();
    int ok = readers[r].read(&in);
    double took = cpu_seconds() - start;
    long grown = mem_peak_kb() - before;
    double mb = (double)(in.raw ? in.raw : in.len) / 1e6;
    char line[128];
    int n = snprintf(line, sizeof line, "%f %f %f\n", took, grown * 1024 / 1e6, mb);
    _exit(ok && write(fd, line, (size_t)n) == n ? 0 : 1);
}

static int run_child(size_t r, size_t target, double figures[3])
{
    int pipe_fd[2];
    if (pipe(pipe_fd) != 0)
        return 0;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(pipe_fd[0]);
        measure(r, target, pipe_fd[1]);
    }
    close(pipe_fd[1]);
    char line[128] = "";
    ssize_t got = pid > 0 ? read(pipe_fd[0], line, sizeof line - 1) : -1;
    close(pipe_fd[0]);
    int status = 1;
    if (pid > 0)
        waitpid(pid, &status, 0);
    line[got > 0 ? got : 0] = '\0';
    return status == 0 && sscanf(line, "%lf %lf %lf", &figures[0], &figures[1], &figures[2]) == 3;
}

int main(int argc, char **argv)
{
    double base = argc > 1 ? atof(argv[1]) : 1;
    if (base <= 0 || base > 4) {
        fprintf(stderr, "usage: bench_limits [BASE_MB (at most 4)]\n");
        return 2;
    }
    printf("%-42s %6s %8s %9s %8s %9s %7s %7s\n", "reader", "scale", "MB", "CPU s",
           "s/MB", "peak MB", "x input", "16x/1x");
    int failed = 0;
    for (size_t r = 0; r < sizeof readers / sizeof *readers; r++) {
        double first[3] = {0, 0, 0};
        for (int scale = 1; scale <= 16; scale *= 4) {
            double f[3];
            if (!run_child(r, (size_t)(base * 1e6) * (size_t)scale, f)) {
                printf("%-42s %5dx  (the read failed)\n", readers[r].name, scale);
                failed = 1;
                continue;
            }
            if (scale == 1)
                memcpy(first, f, sizeof first);
            double per_mb = f[0] / f[2], first_per_mb = first[0] / first[2];
            printf("%-42s %5dx %8.1f %9.3f %8.3f %9.1f %7.2f", scale == 1 ? readers[r].name : "",
                   scale, f[2], f[0], per_mb, f[1], f[1] / f[2]);
            if (scale == 16)
                printf("  %5.2f t %5.2f m", first_per_mb > 0 ? per_mb / first_per_mb : 0,
                       first[1] > 0 ? (f[1] / f[2]) / (first[1] / first[2]) : 0);
            printf("\n");
        }
    }
    return failed;
}

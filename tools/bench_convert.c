/* Benchmark (run by hand, not a test): write and read levels in every
 * converter format and report levels/s and MB/s on one core.
 *
 *   make bench && ./tools/bench_convert [SIDE] [PASSES]
 *   ./tools/bench_convert --tmx-memory [SIDE]
 *
 * The level is SIDE×SIDE cells (default 256) of walls and floor with a
 * monster on one cell in 16 and an object on one in 32: the shape of a
 * large quest map. --tmx-memory writes such a level (default 1300: about
 * 34 MB of CSV TMX) in a child, reads it in another and prints the reading
 * child's peak RSS against the file's size (the target: at most 4 times,
 * the file's bytes included). */
#define _DEFAULT_SOURCE
#include "questgrid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static qg_level *make_level(int side)
{
    qg_level *l = qg_level_new(side, side);
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++) {
            int wall = x == 0 || y == 0 || x == side - 1 || y == side - 1 || (x % 9 == 0 && y % 5);
            qg_level_set_glyph(l, x, y, wall ? '#' : '.');
            qg_level_set_feature(l, x, y, wall ? 63 : 1, wall ? "PERMANENT" : "FLOOR");
            qg_level_set_cave_info(l, x, y, wall ? 0 : 8);
            if (!wall && (x * 7 + y) % 16 == 0)
                qg_level_set_thing(l, x, y, QG_SLOT_MONSTER, QG_THING_INDEX, 44, NULL);
            if (!wall && (x + y * 3) % 32 == 0)
                qg_level_set_thing(l, x, y, QG_SLOT_OBJECT, QG_THING_RANDOM, 0, NULL);
        }
    qg_level_set_player_start(l, 1, 1);
    qg_level_set_name(l, "bench");
    return l;
}

typedef qg_status (*writer)(const qg_level *, const qg_write_options *, char **, size_t *,
                            qg_diags *);

static qg_status write_xp(const qg_level *l, const qg_write_options *o, char **out,
                          size_t *len, qg_diags *d)
{
    return qg_xp_write(l, o, (unsigned char **)out, len, d);
}

static void bench(const char *name, const qg_level *level, writer write,
                  qg_status (*read)(const char *, const void *, size_t, qg_level **,
                                    qg_diags *),
                  const qg_write_options *options, int passes)
{
    char *text = NULL;
    size_t len = 0;
    double t0 = now();
    for (int i = 0; i < passes; i++) {
        free(text);
        qg_diags *d = qg_diags_new();
        if (write(level, options, &text, &len, d) != QG_OK) {
            fprintf(stderr, "%s: write failed\n", name);
            exit(1);
        }
        qg_diags_free(d);
    }
    double wt = (now() - t0) / passes;
    printf("%-14s write %8.2f ms  %7.1f MB/s out  (%zu bytes)", name, wt * 1e3,
           (double)len / wt / 1e6, len);
    if (read) {
        t0 = now();
        for (int i = 0; i < passes; i++) {
            qg_level *back = NULL;
            if (read("bench", text, len, &back, NULL) != QG_OK) {
                fprintf(stderr, "%s: read failed\n", name);
                exit(1);
            }
            qg_level_free(back);
        }
        double rt = (now() - t0) / passes;
        printf("   read %8.2f ms  %7.1f MB/s in", rt * 1e3, (double)len / rt / 1e6);
    }
    putchar('\n');
    free(text);
}

static qg_status read_tmx(const char *p, const void *d, size_t n, qg_level **o, qg_diags *g)
{
    return qg_tmx_read(p, d, n, o, g);
}

static qg_status read_xp(const char *p, const void *d, size_t n, qg_level **o, qg_diags *g)
{
    return qg_xp_read(p, d, n, o, g);
}

/* ---- peak memory of reading a large TMX -------------------------------- */

static int memory_side;

static void write_child(const char *path)
{
    qg_level *l = make_level(memory_side);
    qg_write_options csv = {.tmx_encoding = QG_TMX_CSV};
    char *text = NULL;
    size_t len = 0;
    FILE *out = fopen(path, "wb");
    int ok = l && out && qg_tmx_write(l, &csv, &text, &len, NULL) == QG_OK &&
             fwrite(text, 1, len, out) == len;
    ok = out && fclose(out) == 0 && ok;
    _exit(ok ? 0 : 1);
}

static void read_child(const char *path)
{
    FILE *in = fopen(path, "rb");
    if (!in || fseek(in, 0, SEEK_END) != 0)
        _exit(1);
    long len = ftell(in);
    rewind(in);
    char *data = len > 0 ? malloc((size_t)len) : NULL;
    int ok = data && fread(data, 1, (size_t)len, in) == (size_t)len;
    qg_level *level = NULL;
    ok = ok && qg_tmx_read(path, data, (size_t)len, &level, NULL) == QG_OK;
    _exit(ok ? 0 : 1);
}

/* Runs fn(path) in a child; 1 with its resource usage when it succeeded. */
static int in_child(void (*fn)(const char *), const char *path, struct rusage *ru)
{
    pid_t pid = fork();
    if (pid == 0)
        fn(path);
    int status = 0;
    return pid > 0 && wait4(pid, &status, 0, ru) == pid && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
}

static int tmx_memory(int side)
{
    char path[] = "/tmp/bench_tmx_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    close(fd);
    memory_side = side;
    struct rusage wrote, read;
    int ok = in_child(write_child, path, &wrote) && in_child(read_child, path, &read);
    struct stat st;
    ok = ok && stat(path, &st) == 0;
    unlink(path);
    if (!ok) {
        fputs("bench_convert: writing or reading the TMX failed\n", stderr);
        return 1;
    }
    double mb = (double)st.st_size / 1e6;
    double rss_mb = (double)read.ru_maxrss * 1024.0 / 1e6;
    double cpu = (double)read.ru_utime.tv_sec + (double)read.ru_utime.tv_usec / 1e6 +
                 (double)read.ru_stime.tv_sec + (double)read.ru_stime.tv_usec / 1e6;
    printf("TMX %dx%d (CSV): %.1f MB; read: peak RSS %.1f MB = %.2f x the file "
           "(target <= 4), %.3f s CPU\n", side, side, mb, rss_mb, rss_mb / mb, cpu);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--tmx-memory") == 0) {
        int side = argc > 2 ? atoi(argv[2]) : 1300;
        if (side < 8 || side > 4000) {
            fputs("usage: bench_convert --tmx-memory [SIDE, 8 to 4000]\n", stderr);
            return 2;
        }
        return tmx_memory(side);
    }
    int side = argc > 1 ? atoi(argv[1]) : 256;
    int passes = argc > 2 ? atoi(argv[2]) : 10;
    if (side < 8 || passes < 1) {
        fputs("usage: bench_convert [SIDE>=8] [PASSES>=1]\n", stderr);
        return 2;
    }
    qg_level *level = make_level(side);
    qg_write_options csv = {.tmx_encoding = QG_TMX_CSV};
    qg_write_options zlib = {.tmx_encoding = QG_TMX_BASE64_ZLIB};
    printf("level %dx%d (%d cells), %d passes\n", side, side, side * side, passes);
    bench("tmx csv", level, qg_tmx_write, read_tmx, &csv, passes);
    bench("tmx zlib", level, qg_tmx_write, read_tmx, &zlib, passes);
    bench("xp", level, write_xp, read_xp, NULL, passes);
    bench("fd (level)", level, qg_fd_write_level, NULL, NULL, passes);
    bench("des (level)", level, qg_des_write_level, NULL, NULL, passes);
    qg_level_free(level);
    return 0;
}

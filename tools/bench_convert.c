/* Benchmark (run by hand, not a test): write and read levels in every
 * converter format and report levels/s and MB/s on one core.
 *
 *   make bench && ./tools/bench_convert [SIDE] [PASSES]
 *
 * The level is SIDE×SIDE cells (default 256) of walls and floor with a
 * monster on one cell in 16 and an object on one in 32: the shape of a
 * large quest map. */
#define _POSIX_C_SOURCE 200809L
#include "questgrid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

int main(int argc, char **argv)
{
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

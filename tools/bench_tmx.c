/* Peak memory of reading a large Tiled file (by hand):
 *
 *   make bench && ./tools/bench_tmx [SIDE]
 *
 * writes a SIDE x SIDE level (default 1300: about 34 MB of CSV TMX; walls,
 * floor, a monster on one cell in 16 and an object on one in 32) in a
 * child, then reads it in another and prints the reading child's peak RSS
 * against the file's size (the target: at most 4 times, the file's bytes
 * included) and its CPU time. */
#define _DEFAULT_SOURCE
#include "questgrid.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static void write_level(int side, const char *path)
{
    qg_level *l = qg_level_new(side, side);
    for (int y = 0; l && y < side; y++)
        for (int x = 0; x < side; x++) {
            int wall = x % 9 == 0 && y % 5;
            qg_level_set_glyph(l, x, y, wall ? '#' : '.');
            qg_level_set_feature(l, x, y, wall ? 63 : 1, wall ? "PERMANENT" : "FLOOR");
            qg_level_set_cave_info(l, x, y, wall ? 0 : 8);
            if (!wall && (x * 7 + y) % 16 == 0)
                qg_level_set_thing(l, x, y, QG_SLOT_MONSTER, QG_THING_INDEX, 44, NULL);
            if (!wall && (x + y * 3) % 32 == 0)
                qg_level_set_thing(l, x, y, QG_SLOT_OBJECT, QG_THING_RANDOM, 0, NULL);
        }
    qg_write_options csv = {.tmx_encoding = QG_TMX_CSV};
    char *text = NULL;
    size_t len = 0;
    FILE *out = fopen(path, "wb");
    int ok = l && out && qg_tmx_write(l, &csv, &text, &len, NULL) == QG_OK &&
             fwrite(text, 1, len, out) == len;
    ok = out && fclose(out) == 0 && ok;
    _exit(ok ? 0 : 1);
}

static void read_level(const char *path)
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

/* Runs fn(arg, path) in a child; its resource usage, or 0 on failure. */
static int in_child(void (*fn)(const char *), const char *path, struct rusage *ru)
{
    pid_t pid = fork();
    if (pid == 0)
        fn(path);
    int status = 0;
    return pid > 0 && wait4(pid, &status, 0, ru) == pid && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
}

static int side = 1300;

static void write_child(const char *path)
{
    write_level(side, path);
}

int main(int argc, char **argv)
{
    side = argc > 1 ? atoi(argv[1]) : 1300;
    if (side < 8 || side > 4000) {
        fputs("usage: bench_tmx [SIDE, 8 to 4000]\n", stderr);
        return 2;
    }
    char path[] = "/tmp/bench_tmx_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    close(fd);
    struct rusage wrote, read;
    if (!in_child(write_child, path, &wrote) || !in_child(read_level, path, &read)) {
        fprintf(stderr, "bench_tmx: writing or reading %s failed\n", path);
        unlink(path);
        return 1;
    }
    FILE *f = fopen(path, "rb");
    long len = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (f)
        fclose(f);
    unlink(path);
    double mb = (double)len / 1e6;
    double rss_mb = (double)read.ru_maxrss * 1024.0 / 1e6;
    double cpu = (double)read.ru_utime.tv_sec + (double)read.ru_utime.tv_usec / 1e6 +
                 (double)read.ru_stime.tv_sec + (double)read.ru_stime.tv_usec / 1e6;
    printf("TMX %dx%d (CSV): %.1f MB; read: peak RSS %.1f MB = %.2f x the file "
           "(target <= 4), %.3f s CPU\n", side, side, mb, rss_mb, rss_mb / mb, cpu);
    return 0;
}

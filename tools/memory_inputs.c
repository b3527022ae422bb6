/* Large generated inputs for each reader and a call of the reader on
 * each, shared by tools/bench_memory and tests/test_memory_bounds. */
#define _GNU_SOURCE
#include "memory_inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <zlib.h>

static void put(mem_input *in, const char *text, size_t len)
{
    if (in->len + len <= in->cap) {
        memcpy(in->data + in->len, text, len);
        in->len += len;
    }
}

static void puts_in(mem_input *in, const char *text)
{
    put(in, text, strlen(text));
}

/* Quest levels, each under its own ?: condition, as many as fit. */
void mem_make_fd(mem_input *in, size_t target)
{
    static const char cells[] = "....#..+..~..s..$...k..c..";
    char row[256], line[64];
    for (int n = 1; in->len + 16384 < target; n++) {
        snprintf(line, sizeof line, "# Level %d\n?:[EQU $LEVEL %d]\n", n, n);
        puts_in(in, line);
        puts_in(in, "F:.:1:8\nF:#:56:8\nF:+:32:8\nF:~:84:8\nF:s:1:8:15\nF:c:1:12:16:60\n"
                    "F:$:1:8:0:54\nF:k:1:8:0:51\n");
        for (int y = 0; y < 66; y++) {
            size_t k = 0;
            row[k++] = 'D';
            row[k++] = ':';
            for (int x = 0; x < 198; x++)
                row[k++] = cells[(x * 7 + y * 13 + n) % (sizeof cells - 1)];
            row[k++] = '\n';
            put(in, row, k);
        }
        puts_in(in, "P:1:1\n?:1\n\n");
    }
}

/* .des maps of 40 x 20 with a few properties each. */
void mem_make_des(mem_input *in, size_t target)
{
    char line[128];
    for (int n = 1; in->len + 4096 < target; n++) {
        snprintf(line, sizeof line, "NAME:   bench_memory_%d\nTAGS:   bench\nDEPTH:  D:2-8\n"
                                    "ORIENT: float\nMAP\n", n);
        puts_in(in, line);
        for (int y = 0; y < 20; y++) {
            for (int x = 0; x < 40; x++)
                line[x] = y == 0 || y == 19 || x == 0 || x == 39 ? 'x' : ".+.$..."[(x + y + n) % 7];
            line[40] = '\n';
            put(in, line, 41);
        }
        puts_in(in, "ENDMAP\n\n");
    }
}

static void put_i32(mem_input *in, int32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    put(in, (const char *)b, 4);
}

/* One layer of width x height cells (10 bytes each), uncompressed. */
void mem_make_xp(mem_input *in, size_t target)
{
    int height = 500, width = (int)((target - 16) / 10 / (size_t)height);
    put_i32(in, -1);
    put_i32(in, 1);
    put_i32(in, width);
    put_i32(in, height);
    for (int x = 0; x < width; x++)
        for (int y = 0; y < height; y++) {
            put_i32(in, (x + y) % 3 ? '.' : '#');
            unsigned char colours[6] = {200, 200, 200, 0, 0, 0};
            put(in, (const char *)colours, 6);
        }
}

void mem_make_xp_gz(mem_input *in, size_t target)
{
    mem_input plain = {malloc(target), 0, target, 0};
    if (!plain.data)
        return;
    mem_make_xp(&plain, target);
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK) {
        z.next_in = (Bytef *)plain.data;
        z.avail_in = (uInt)plain.len;
        z.next_out = (Bytef *)in->data;
        z.avail_out = (uInt)in->cap;
        if (deflate(&z, Z_FINISH) == Z_STREAM_END) {
            in->len = z.total_out;
            in->raw = plain.len;
        }
        deflateEnd(&z);
    }
    free(plain.data);
}

int mem_read_fd(const mem_input *in)
{
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.dialect = QG_FD_ZANGBAND;
    qg_mapdef *def = NULL;
    qg_status st = qg_fd_parse("bench.txt", in->data, in->len, &opt, &def, NULL);
    qg_vars *vars = qg_vars_new();
    qg_vars_set_int(vars, "LEVEL", 1);
    qg_level *level = NULL;
    if (def)
        qg_fd_resolve(def, &opt, vars, &level, NULL);
    int ok = st == QG_OK && level && qg_level_width(level) == 198;
    qg_level_free(level);
    qg_vars_free(vars);
    qg_mapdef_free(def);
    return ok;
}

int mem_read_des(const mem_input *in)
{
    qg_des_file *file = NULL;
    qg_status st = qg_des_parse("bench.des", in->data, in->len, NULL, NULL, &file, NULL);
    int ok = st == QG_OK && file && qg_des_map_count(file) > 0;
    qg_des_file_free(file);
    return ok;
}

int mem_read_xp(const mem_input *in)
{
    qg_level *level = NULL;
    qg_status st = qg_xp_read("bench.xp", (const unsigned char *)in->data, in->len, &level, NULL);
    int ok = st == QG_OK && level && qg_level_height(level) == 500 && in->len;
    qg_level_free(level);
    return ok;
}

long mem_resident_kb(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = -1, resident = -1;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = -1;
        fclose(f);
    }
    return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

long mem_peak_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Hostile TMX and REXPaint .xp files: entity expansion, external
 * entities, compression bombs, absurd sizes, deep nesting and damaged
 * bytes each end in a diagnostic, quickly and in bounded memory. */
#define _DEFAULT_SOURCE
#include "testutil.h"
#include "questgrid/convert.h"
#include "core/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#if defined(__SANITIZE_ADDRESS__)
#define MEMORY_NOT_OURS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEMORY_NOT_OURS 1
#endif
#endif

static qg_status read_tmx(const char *text, size_t len, qg_diags *diags)
{
    qg_level *level = NULL;
    qg_status st = qg_tmx_read("hostile.tmx", text, len, &level, diags);
    if (st == QG_OK)
        assert_non_null(level);
    else
        assert_null(level);
    qg_level_free(level);
    return st;
}

static void expect_tmx_error(const char *text, const char *why)
{
    qg_diags *diags = qg_diags_new();
    assert_int_not_equal(read_tmx(text, strlen(text), diags), QG_OK);
    if (!test_diags_contain(diags, QG_ERROR, why)) {
        qg_diags_print(diags, stderr);
        fail_msg("no error saying '%s'", why);
    }
    const qg_diag *d = qg_diags_get(diags, 0);
    assert_string_equal(d->file, "hostile.tmx");
    qg_diags_free(diags);
}

static void billion_laughs(void **state)
{
    (void)state;
    expect_tmx_error("<?xml version=\"1.0\"?>\n"
                     "<!DOCTYPE lolz [\n"
                     " <!ENTITY lol \"lol\">\n"
                     " <!ENTITY lol2 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
                     " <!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">\n"
                     " <!ENTITY lol4 \"&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;\">\n"
                     " <!ENTITY lol5 \"&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;\">\n"
                     " <!ENTITY lol6 \"&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;\">\n"
                     " <!ENTITY lol7 \"&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;\">\n"
                     " <!ENTITY lol8 \"&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;\">\n"
                     " <!ENTITY lol9 \"&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;\">\n"
                     "]>\n"
                     "<map version=\"1.10\" orientation=\"orthogonal\" width=\"1\" height=\"1\""
                     " tilewidth=\"8\" tileheight=\"8\"><properties>"
                     "<property name=\"name\" value=\"&lol9;\"/></properties></map>\n",
                     "DOCTYPE declarations are not accepted");
}

static void external_entities(void **state)
{
    (void)state;
    expect_tmx_error("<?xml version=\"1.0\"?>\n"
                     "<!DOCTYPE map [<!ENTITY secret SYSTEM \"file:///etc/passwd\">]>\n"
                     "<map width=\"1\" height=\"1\"><properties>"
                     "<property name=\"name\" value=\"&secret;\"/></properties></map>\n",
                     "DOCTYPE declarations are not accepted");
    expect_tmx_error("<?xml version=\"1.0\"?>\n"
                     "<!DOCTYPE map SYSTEM \"http://example.invalid/evil.dtd\">\n"
                     "<map width=\"1\" height=\"1\"></map>\n",
                     "DOCTYPE declarations are not accepted");
}

/* ---- linear in one token ---------------------------------------------- */

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A three-cell map with a filler of n bytes (its text repeated) between
 * head and tail placed after the <map> tag. */
static char *tmx_with(const char *head, const char *unit, size_t n, const char *tail,
                      size_t *len)
{
    static const char map_head[] =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<map version=\"1.8\" orientation=\"orthogonal\" width=\"3\" height=\"1\" "
        "tilewidth=\"8\" tileheight=\"8\">\n";
    static const char map_tail[] =
        "\n <tileset firstgid=\"1\" name=\"cp437\" tilewidth=\"8\" tileheight=\"8\" "
        "tilecount=\"256\" columns=\"16\"/>\n"
        " <layer id=\"1\" name=\"terrain\" width=\"3\" height=\"1\">"
        "<data encoding=\"csv\">36,47,36</data></layer>\n</map>\n";
    size_t unit_len = strlen(unit), count = n / unit_len;
    char *filler = test_repeat(head, unit, count, tail, len);
    size_t total = sizeof map_head - 1 + *len + sizeof map_tail - 1;
    char *text = malloc(total + 1);
    assert_non_null(text);
    memcpy(text, map_head, sizeof map_head - 1);
    memcpy(text + sizeof map_head - 1, filler, *len);
    memcpy(text + sizeof map_head - 1 + *len, map_tail, sizeof map_tail);
    free(filler);
    *len = total;
    return text;
}

/* expat was given the file in 64 KiB pieces and Debian's expat 2.5 scans
 * an unfinished token again with each: a 60 MB comment took 46 s (40 MB,
 * about 20 s), an attribute value of 16 MB 3.3 s. Each token is scanned
 * once now, and an attribute value has a size limit. */
static void one_long_token(void **state)
{
    (void)state;
    size_t len;
    char *text = tmx_with("<!--", "comment ", 40u << 20, "-->", &len);
    qg_diags *diags = qg_diags_new();
    double start = cpu_seconds();
    qg_status st = read_tmx(text, len, diags);
    double took = cpu_seconds() - start;
    if (st != QG_OK)
        qg_diags_print(diags, stderr);
    assert_int_equal(st, QG_OK);
    assert_true(took < 2.0);
    free(text);
    qg_diags_clear(diags);

    text = tmx_with("<properties><property name=\"x\" value=\"", "value ", 32u << 20,
                    "\"/></properties>", &len);
    start = cpu_seconds();
    st = read_tmx(text, len, diags);
    took = cpu_seconds() - start;
    assert_int_not_equal(st, QG_OK);
    assert_true(test_diags_contain(diags, QG_ERROR, "attribute value is longer than"));
    assert_true(took < 1.3);
    free(text);
    qg_diags_free(diags);
}

static void absurd_map_size(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    static const char text[] =
        "<?xml version=\"1.0\"?>\n<map version=\"1.10\" orientation=\"orthogonal\" "
        "width=\"2000000000\" height=\"2000000000\" tilewidth=\"8\" tileheight=\"8\">\n"
        "<layer id=\"1\" name=\"glyphs\" width=\"2000000000\" height=\"2000000000\">"
        "<data encoding=\"csv\">1</data></layer></map>\n";
    assert_int_not_equal(read_tmx(text, sizeof text - 1, diags), QG_OK);
    assert_true(qg_diags_count_severity(diags, QG_ERROR) >= 1);
    qg_diags_free(diags);
}

static void deep_nesting(void **state)
{
    (void)state;
    size_t depth = 100000;
    char *text = malloc(depth * 7 + 64);
    assert_non_null(text);
    char *p = text;
    p += sprintf(p, "<map width=\"1\" height=\"1\">");
    for (size_t i = 0; i < depth; i++)
        p += sprintf(p, "<x>");
    sprintf(p, "</map>");
    qg_diags *diags = qg_diags_new();
    assert_int_not_equal(read_tmx(text, strlen(text), diags), QG_OK);
    assert_true(test_diags_contain(diags, QG_ERROR, "elements nest deeper than"));
    qg_diags_free(diags);
    free(text);
}

static char *base64(const unsigned char *in, size_t len)
{
    static const char digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc((len + 2) / 3 * 4 + 1);
    assert_non_null(out);
    size_t n = 0;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16;
        if (i + 1 < len)
            v |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < len)
            v |= in[i + 2];
        out[n++] = digits[(v >> 18) & 63];
        out[n++] = digits[(v >> 12) & 63];
        out[n++] = i + 1 < len ? digits[(v >> 6) & 63] : '=';
        out[n++] = i + 2 < len ? digits[v & 63] : '=';
    }
    out[n] = '\0';
    return out;
}

/* zlib data of n zero bytes. */
static unsigned char *zeros_deflated(size_t n, int gzip, size_t *len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, gzip ? 31 : 15, 9, Z_DEFAULT_STRATEGY), Z_OK);
    size_t cap = n / 500 + 4096;
    unsigned char *out = malloc(cap);
    unsigned char *chunk = calloc(1, 1 << 20);
    assert_non_null(out);
    assert_non_null(chunk);
    z.next_out = out;
    z.avail_out = (uInt)cap;
    for (size_t done = 0; done < n;) {
        size_t step = n - done < (1u << 20) ? n - done : (1u << 20);
        z.next_in = chunk;
        z.avail_in = (uInt)step;
        done += step;
        assert_int_equal(deflate(&z, done == n ? Z_FINISH : Z_NO_FLUSH) == Z_STREAM_ERROR, 0);
    }
    *len = z.total_out;
    deflateEnd(&z);
    free(chunk);
    return out;
}

static void zlib_bomb_in_a_layer(void **state)
{
    (void)state;
    size_t len;
    unsigned char *bomb = zeros_deflated(256u << 20, 0, &len);
    char *b64 = base64(bomb, len);
    size_t size = strlen(b64) + 512;
    char *text = malloc(size);
    assert_non_null(text);
    snprintf(text, size,
             "<?xml version=\"1.0\"?>\n<map version=\"1.10\" orientation=\"orthogonal\" "
             "width=\"4\" height=\"4\" tilewidth=\"8\" tileheight=\"8\">\n"
             "<tileset firstgid=\"1\" name=\"cp437\" tilewidth=\"8\" tileheight=\"8\" tilecount=\"256\" columns=\"16\">"
             "<image source=\"questgrid-cp437.png\" width=\"128\" height=\"128\"/></tileset>\n"
             "<layer id=\"1\" name=\"glyphs\" width=\"4\" height=\"4\">"
             "<data encoding=\"base64\" compression=\"zlib\">%s</data></layer></map>\n",
             b64);
    qg_diags *diags = qg_diags_new();
    assert_int_not_equal(read_tmx(text, strlen(text), diags), QG_OK);
    assert_true(qg_diags_count_severity(diags, QG_ERROR) >= 1);
    qg_diags_free(diags);
    free(text);
    free(b64);
    free(bomb);
}

static void nul_bytes_and_invalid_utf8(void **state)
{
    (void)state;
    static const char nul[] = "<map width=\"1\" height=\"1\">\0</map>";
    qg_diags *diags = qg_diags_new();
    assert_int_not_equal(read_tmx(nul, sizeof nul - 1, diags), QG_OK);
    assert_true(qg_diags_count_severity(diags, QG_ERROR) >= 1);
    assert_true(qg_diags_get(diags, 0)->line >= 1);
    qg_diags_clear(diags);
    static const char bad[] = "<map width=\"1\" height=\"1\" name=\"\xff\xfe\"></map>";
    assert_int_not_equal(read_tmx(bad, sizeof bad - 1, diags), QG_OK);
    assert_true(qg_diags_count_severity(diags, QG_ERROR) >= 1);
    qg_diags_free(diags);
}

/* ---- REXPaint ---- */

static void put32(unsigned char *p, int32_t v)
{
    uint32_t u = (uint32_t)v;
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(u >> (8 * i));
}

static void gzip_bomb_in_xp(void **state)
{
    (void)state;
    size_t len;
    unsigned char *bomb = zeros_deflated(512u << 20, 1, &len);
    assert_true(len < (2u << 20));
    qg_diags *diags = qg_diags_new();
    qg_level *level = NULL;
    assert_int_equal(qg_xp_read("bomb.xp", bomb, len, &level, diags), QG_ERR_LIMIT);
    assert_null(level);
    assert_true(test_diags_contain(diags, QG_ERROR, "the file inflates to more than"));
    qg_diags_free(diags);
    free(bomb);
}

static void absurd_xp_sizes(void **state)
{
    (void)state;
    unsigned char xp[32];
    put32(xp, -1);
    put32(xp + 4, 1);
    put32(xp + 8, 0x7fffffff);
    put32(xp + 12, 0x7fffffff);
    memset(xp + 16, 0, 16);
    qg_diags *diags = qg_diags_new();
    qg_level *level = NULL;
    assert_int_not_equal(qg_xp_read("huge.xp", xp, sizeof xp, &level, diags), QG_OK);
    assert_null(level);
    assert_true(qg_diags_count_severity(diags, QG_ERROR) >= 1);
    qg_diags_clear(diags);
    put32(xp + 8, -5);
    assert_int_not_equal(qg_xp_read("negative.xp", xp, sizeof xp, &level, diags), QG_OK);
    assert_true(qg_diags_count_severity(diags, QG_ERROR) >= 1);
    qg_diags_free(diags);
}

static void truncated_xp(void **state)
{
    (void)state;
    unsigned char xp[16 + 10 * 4];
    put32(xp, -1);
    put32(xp + 4, 1);
    put32(xp + 8, 2);
    put32(xp + 12, 2);
    for (int i = 0; i < 4; i++) {
        put32(xp + 16 + 10 * i, '#');
        memset(xp + 20 + 10 * i, 0x80, 6);
    }
    qg_diags *diags = qg_diags_new();
    qg_level *level = NULL;
    assert_int_equal(qg_xp_read("whole.xp", xp, sizeof xp, &level, diags), QG_OK);
    qg_level_free(level);
    for (size_t cut = 0; cut < sizeof xp; cut++) {
        qg_diags_clear(diags);
        level = NULL;
        assert_int_not_equal(qg_xp_read("cut.xp", xp, cut, &level, diags), QG_OK);
        assert_null(level);
        assert_true(qg_diags_count_severity(diags, QG_ERROR) >= 1);
    }
    qg_diags_free(diags);
}

/* One gzip member of len bytes. */
static size_t gzip_member(const unsigned char *data, size_t len, unsigned char *out,
                          size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (unsigned char *)data;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    size_t n = z.total_out;
    deflateEnd(&z);
    return n;
}

/* A .xp of concatenated gzip members was read as its first member only,
 * silently. All members are read, as zlib's gzread (which REXPaint's
 * readers use) reads them; what follows the image is reported. */
static void concatenated_gzip_members(void **state)
{
    (void)state;
    unsigned char xp[16 + 10 * 4];
    put32(xp, -1);
    put32(xp + 4, 1);
    put32(xp + 8, 2);
    put32(xp + 12, 2);
    for (int i = 0; i < 4; i++) {
        put32(xp + 16 + 10 * i, i < 2 ? '#' : '.');
        memset(xp + 20 + 10 * i, 0x80, 6);
    }
    unsigned char file[1024];
    size_t len = gzip_member(xp, 30, file, sizeof file);
    len += gzip_member(xp + 30, sizeof xp - 30, file + len, sizeof file - len);
    qg_diags *diags = qg_diags_new();
    qg_level *level = NULL;
    assert_int_equal(qg_xp_read("split.xp", file, len, &level, diags), QG_OK);
    assert_int_equal(qg_diags_count(diags), 0);
    assert_int_equal(qg_level_glyphs(level)[1], '.');
    qg_level_free(level);

    len = gzip_member(xp, sizeof xp, file, sizeof file);
    len += gzip_member((const unsigned char *)"more", 4, file + len, sizeof file - len);
    level = NULL;
    assert_int_equal(qg_xp_read("more.xp", file, len, &level, diags), QG_OK);
    assert_true(test_diags_contain(diags, QG_WARNING, "4 bytes after the last layer"));
    qg_level_free(level);

    qg_diags_clear(diags);
    len = gzip_member(xp, sizeof xp, file, sizeof file);
    memcpy(file + len, "junk", 4);
    level = NULL;
    assert_int_equal(qg_xp_read("junk.xp", file, len + 4, &level, diags), QG_OK);
    assert_true(test_diags_contain(diags, QG_WARNING, "4 bytes after the gzip data"));
    qg_level_free(level);
    qg_diags_free(diags);
}

#ifndef MEMORY_NOT_OURS
/* A 1100 x 1100 level of walls, floor, monsters and objects as Tiled
 * CSV: about 25 MB of TMX. */
static void write_large_tmx(const char *path)
{
    enum { SIDE = 1100 };
    qg_level *level = qg_level_new(SIDE, SIDE);
    assert_non_null(level);
    for (int y = 0; y < SIDE; y++)
        for (int x = 0; x < SIDE; x++) {
            int wall = x % 9 == 0 && y % 5;
            qg_level_set_glyph(level, x, y, wall ? '#' : '.');
            qg_level_set_feature(level, x, y, wall ? 63 : 1, wall ? "PERMANENT" : "FLOOR");
            qg_level_set_cave_info(level, x, y, wall ? 0 : 8);
            if (!wall && (x * 7 + y) % 16 == 0)
                qg_level_set_thing(level, x, y, QG_SLOT_MONSTER, QG_THING_INDEX, 44, NULL);
            if (!wall && (x + y * 3) % 32 == 0)
                qg_level_set_thing(level, x, y, QG_SLOT_OBJECT, QG_THING_RANDOM, 0, NULL);
        }
    qg_write_options csv = {.tmx_encoding = QG_TMX_CSV};
    char *text = NULL;
    size_t len = 0;
    qg_diags *diags = qg_diags_new();
    assert_int_equal(qg_tmx_write(level, &csv, &text, &len, diags), QG_OK);
    FILE *out = fopen(path, "wb");
    assert_non_null(out);
    assert_int_equal(fwrite(text, 1, len, out), len);
    assert_int_equal(fclose(out), 0);
    free(text);
    qg_diags_free(diags);
    qg_level_free(level);
}

/* Reads path in a child: the growth of the child's peak RSS in KiB from
 * before the file was read (the file's bytes included), or -1 when the
 * read failed. */
static long read_in_child(const char *path, size_t *len)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rusage before, after;
        getrusage(RUSAGE_SELF, &before);
        qg_diags *diags = qg_diags_new();
        qg_level *level = NULL;
        char *data = NULL;
        size_t got = 0;
        long used = -1;
        if (qg_read_file(path, (size_t)1 << 30, &data, &got, diags) == QG_OK &&
            qg_tmx_read(path, data, got, &level, diags) == QG_OK &&
            qg_level_width(level) == 1100) {
            getrusage(RUSAGE_SELF, &after);
            used = after.ru_maxrss - before.ru_maxrss;
        }
        long out[2] = {used, (long)got};
        _exit(write(fds[1], out, sizeof out) == (ssize_t)sizeof out ? 0 : 1);
    }
    close(fds[1]);
    long in[2] = {-1, 0};
    ssize_t got = read(fds[0], in, sizeof in);
    close(fds[0]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(got == (ssize_t)sizeof in && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    *len = (size_t)in[1];
    return in[0];
}

#endif

/* Reading a large TMX takes at most four times its size, the file's own
 * bytes included (it took eighteen times before). The file is written in
 * a child, so that its memory is not this process's. */
static void large_tmx_within_four_times_its_size(void **state)
{
    (void)state;
#ifdef MEMORY_NOT_OURS
    test_skip("peak memory under AddressSanitizer is its shadow and quarantine, not ours");
#else
    char path[] = "/tmp/qg_large_tmx_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        write_large_tmx(path);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    size_t len = 0;
    long used = read_in_child(path, &len);
    unlink(path);
    assert_true(len > 20u * 1024 * 1024);
    assert_true(used > 0);
    if ((double)used * 1024.0 > 4.0 * (double)len)
        fail_msg("reading %zu bytes of TMX took %ld KiB (%.2f times)", len, used,
                 (double)used * 1024.0 / (double)len);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(billion_laughs),
        cmocka_unit_test(external_entities),
        cmocka_unit_test(absurd_map_size),
        cmocka_unit_test(deep_nesting),
        cmocka_unit_test(zlib_bomb_in_a_layer),
        cmocka_unit_test(nul_bytes_and_invalid_utf8),
        cmocka_unit_test(gzip_bomb_in_xp),
        cmocka_unit_test(absurd_xp_sizes),
        cmocka_unit_test(truncated_xp),
        cmocka_unit_test(concatenated_gzip_members),
        cmocka_unit_test(large_tmx_within_four_times_its_size),
        cmocka_unit_test(one_long_token),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Damaged and hostile .qgc caches: every truncation and every flipped bit
 * of a real cache is caught (by opening or by verifying), and a
 * compression bomb in the index is stopped at its declared size. */
#define _DEFAULT_SOURCE
#include "testutil.h"
#include "questgrid/cache.h"
#include "questgrid/des.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static const char des_text[] =
    "NAME: hostile_one\nTAGS: alpha beta\nDEPTH: D:2-5\nMAP\nx.x\n.1.\nENDMAP\n\n"
    "NAME: hostile_two\nORIENT: float\nMONS: kobold\nMAP\nxxx\nx1x\nxxx\nENDMAP\n";

/* A small real cache, written by the writer, read back into memory. */
static unsigned char *real_cache(size_t *len)
{
    qg_diags *diags = qg_diags_new();
    qg_des_names *names = qg_des_names_new();
    qg_des_file *file = NULL;
    qg_des_options options = {0};
    assert_int_equal(qg_des_parse("hostile.des", des_text, sizeof des_text - 1, &options,
                                  names, &file, diags), QG_OK);
    size_t count = qg_des_map_count(file);
    const qg_mapdef *defs[8];
    for (size_t i = 0; i < count; i++)
        defs[i] = qg_des_map(file, i);
    qg_cache_writer *writer = qg_cache_writer_new();
    qg_cache_source source = {"hostile.des", QG_FORMAT_DES, des_text, sizeof des_text - 1, 0, 0};
    assert_int_equal(qg_cache_writer_add_file(writer, &source, defs, count, diags), QG_OK);
    const char *path = test_write_temp("real.qgc", "", 0);
    assert_int_equal(qg_cache_writer_write(writer, path, NULL, diags), QG_OK);
    qg_cache_writer_free(writer);
    qg_des_file_free(file);
    qg_des_names_free(names);
    qg_diags_free(diags);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char *data = malloc(1 << 16);
    *len = fread(data, 1, 1 << 16, f);
    fclose(f);
    assert_true(*len > 64 && *len < (1 << 16));
    return data;
}

/* Writes bytes as a cache file, opens it (by read() or mmap) and, when it
 * opens, verifies it; returns the worst status. */
static qg_status open_and_verify(const unsigned char *bytes, size_t len, int no_mmap,
                                 qg_diags *diags)
{
    const char *path = test_write_temp("hostile.qgc", (const char *)bytes, len);
    qg_cache_open_options options = {.no_mmap = no_mmap};
    qg_cache *cache = NULL;
    qg_status st = qg_cache_open(path, &options, &cache, diags);
    if (st != QG_OK) {
        assert_null(cache);
        return st;
    }
    st = qg_cache_verify(cache, diags);
    for (size_t i = 0; i < qg_cache_map_count(cache); i++) {
        qg_mapdef *def = NULL;
        qg_status loaded = qg_cache_load_map(cache, i, &def, diags);
        if (loaded != QG_OK) {
            assert_null(def);
            st = loaded;
        }
        qg_mapdef_free(def);
    }
    qg_cache_close(cache);
    return st;
}

static void the_real_cache_is_sound(void **state)
{
    (void)state;
    size_t len;
    unsigned char *data = real_cache(&len);
    qg_diags *diags = qg_diags_new();
    assert_int_equal(open_and_verify(data, len, 0, diags), QG_OK);
    assert_int_equal(qg_diags_count(diags), 0);
    qg_diags_free(diags);
    free(data);
}

static void every_truncation_is_caught(void **state)
{
    (void)state;
    size_t len;
    unsigned char *data = real_cache(&len);
    qg_diags *diags = qg_diags_new();
    for (size_t cut = 0; cut < len; cut++) {
        qg_diags_clear(diags);
        qg_status st = open_and_verify(data, cut, cut & 1, diags);
        if (st == QG_OK || qg_diags_count_severity(diags, QG_ERROR) == 0)
            fail_msg("a cache cut to %zu of %zu bytes gave %s and %zu errors", cut, len,
                     qg_status_string(st), qg_diags_count_severity(diags, QG_ERROR));
    }
    qg_diags_free(diags);
    free(data);
}

static void every_flipped_bit_is_caught(void **state)
{
    (void)state;
    size_t len;
    unsigned char *data = real_cache(&len);
    qg_diags *diags = qg_diags_new();
    for (size_t bit = 0; bit < len * 8; bit++) {
        data[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        qg_diags_clear(diags);
        qg_status st = open_and_verify(data, len, bit & 1, diags);
        data[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        if (st == QG_OK || qg_diags_count_severity(diags, QG_ERROR) == 0)
            fail_msg("flipping bit %zu of byte %zu gave %s and %zu errors", bit % 8, bit / 8,
                     qg_status_string(st), qg_diags_count_severity(diags, QG_ERROR));
    }
    qg_diags_free(diags);
    free(data);
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The real header with its index replaced by packed (inflating to the
 * size the header is given), sizes and CRCs made consistent. */
static unsigned char *with_index(const unsigned char *real, const unsigned char *packed,
                                 size_t packed_len, uint32_t inflated, size_t *len)
{
    *len = 64 + packed_len;
    unsigned char *file = malloc(*len);
    assert_non_null(file);
    memcpy(file, real, 64);
    memcpy(file + 64, packed, packed_len);
    put64(file + 32, *len);
    put64(file + 40, *len);
    put32(file + 48, (uint32_t)packed_len);
    put32(file + 52, inflated);
    put32(file + 56, (uint32_t)crc32(0, packed, (uInt)packed_len));
    put32(file + 60, (uint32_t)crc32(0, file, 60));
    return file;
}

static unsigned char *raw_deflate_zeros(size_t n, size_t *len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY), Z_OK);
    size_t cap = n / 500 + 4096;
    unsigned char *out = malloc(cap);
    unsigned char *zeros = calloc(1, 1 << 20);
    assert_non_null(out);
    assert_non_null(zeros);
    z.next_out = out;
    z.avail_out = (uInt)cap;
    for (size_t done = 0; done < n;) {
        size_t step = n - done < (1u << 20) ? n - done : (1u << 20);
        z.next_in = zeros;
        z.avail_in = (uInt)step;
        done += step;
        deflate(&z, done == n ? Z_FINISH : Z_NO_FLUSH);
    }
    *len = z.total_out;
    deflateEnd(&z);
    free(zeros);
    return out;
}

/* An index that inflates to 1 GiB while claiming a few hundred bytes, or
 * that claims gigabytes: both refused without inflating them. */
static void index_compression_bomb(void **state)
{
    (void)state;
    size_t real_len;
    unsigned char *real = real_cache(&real_len);
    size_t packed_len;
    unsigned char *packed = raw_deflate_zeros(1u << 30, &packed_len);
    qg_diags *diags = qg_diags_new();
    size_t len;
    unsigned char *file = with_index(real, packed, packed_len, get32(real + 52), &len);
    assert_int_equal(open_and_verify(file, len, 1, diags), QG_ERR_CORRUPT);
    assert_true(qg_diags_count_severity(diags, QG_ERROR) >= 1);
    free(file);

    qg_diags_clear(diags);
    file = with_index(real, packed, packed_len, UINT32_MAX, &len);
    assert_int_equal(open_and_verify(file, len, 1, diags), QG_ERR_CORRUPT);
    assert_true(qg_diags_count_severity(diags, QG_ERROR) >= 1);
    free(file);
    qg_diags_free(diags);
    free(packed);
    free(real);
}

static void not_a_cache(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    static const unsigned char text[] = "NAME: not_a_cache\nMAP\nx\nENDMAP\n";
    assert_int_equal(open_and_verify(text, sizeof text - 1, 0, diags), QG_ERR_CORRUPT);
    assert_true(qg_diags_count_severity(diags, QG_ERROR) >= 1);
    qg_diags_clear(diags);
    unsigned char zeros[4096] = {0};
    assert_int_equal(open_and_verify(zeros, sizeof zeros, 1, diags), QG_ERR_CORRUPT);
    qg_diags_free(diags);
}

/* Writing a cache never replaces what is not a regular file (compile -o
 * /dev/full replaced the device node); a symbolic link at the path is
 * replaced by the cache, and the file it named is left alone. */
static void writing_respects_what_is_there(void **state)
{
    (void)state;
    size_t len;
    free(real_cache(&len));
    const char *marker = test_write_temp("cache_marker", "", 0);
    int dir_len = (int)(strrchr(marker, '/') - marker);
    char fifo[512], link[512];
    snprintf(fifo, sizeof fifo, "%.*s/cache_fifo.qgc", dir_len, marker);
    snprintf(link, sizeof link, "%.*s/cache_link.qgc", dir_len, marker);
    unlink(fifo);
    unlink(link);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(symlink("real.qgc", link), 0);

    qg_diags *diags = qg_diags_new();
    qg_des_names *names = qg_des_names_new();
    qg_des_file *file = NULL;
    qg_des_options options = {0};
    qg_des_parse("hostile.des", des_text, sizeof des_text - 1, &options, names, &file, diags);
    const qg_mapdef *defs[1] = {qg_des_map(file, 0)};
    qg_cache_writer *writer = qg_cache_writer_new();
    qg_cache_source source = {"hostile.des", QG_FORMAT_DES, des_text, sizeof des_text - 1, 0, 0};
    assert_int_equal(qg_cache_writer_add_file(writer, &source, defs, 1, diags), QG_OK);
    struct stat st;
    assert_int_not_equal(qg_cache_writer_write(writer, fifo, NULL, diags), QG_OK);
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    struct stat real;
    int had_real = lstat(link, &st) == 0 && stat(link, &real) == 0;
    assert_int_equal(qg_cache_writer_write(writer, link, NULL, diags), QG_OK);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    struct stat after;
    if (had_real) {
        char target[512];
        snprintf(target, sizeof target, "%.*s/real.qgc", dir_len, marker);
        assert_int_equal(stat(target, &after), 0);
        assert_true(after.st_mtime == real.st_mtime && after.st_size == real.st_size);
    }
    qg_cache_writer_free(writer);
    qg_des_file_free(file);
    qg_des_names_free(names);
    qg_diags_free(diags);
    unlink(fifo);
    unlink(link);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_real_cache_is_sound),
        cmocka_unit_test(every_truncation_is_caught),
        cmocka_unit_test(every_flipped_bit_is_caught),
        cmocka_unit_test(index_compression_bomb),
        cmocka_unit_test(not_a_cache),
        cmocka_unit_test(writing_respects_what_is_there),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

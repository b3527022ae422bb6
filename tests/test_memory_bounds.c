/* Each reader's peak memory stays within the multiple of its input that
 * doc/limits.md gives: an 8 MB input is made in a child process, read, and
 * the growth of the child's peak resident set (ru_maxrss) over what it was
 * with the input in memory is held to bound x input + slack (for gzip
 * data, bound x its inflated size). The slack
 * covers what does not grow with the input (code pages first touched, the
 * allocator's own). Under AddressSanitizer freed memory is held in
 * quarantine and every block has red zones, so there the test skips: the
 * bounds are the plain build's. */
#define _GNU_SOURCE
#include "testutil.h"
#include "memory_inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#define INPUT_BYTES ((size_t)8 << 20)
#define SLACK_KB 2048L

#ifndef UNDER_ASAN
/* The reader's growth of the peak in KB, measured in a child; -1 when the
 * read failed. */
static long grown_kb(void (*make)(mem_input *, size_t), int (*reader)(const mem_input *),
                     size_t *len)
{
    int pipefd[2];
    assert_int_equal(pipe(pipefd), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        mem_input in = {malloc(INPUT_BYTES), 0, INPUT_BYTES, 0};
        long figures[2] = {-1, 0};
        if (in.data) {
            make(&in, INPUT_BYTES);
            long before = mem_resident_kb();
            int ok = reader(&in);
            figures[0] = ok ? mem_peak_kb() - before : -1;
            figures[1] = (long)(in.raw ? in.raw : in.len);
        }
        _exit(write(pipefd[1], figures, sizeof figures) == sizeof figures ? 0 : 1);
    }
    close(pipefd[1]);
    long figures[2] = {-1, 0};
    assert_int_equal(read(pipefd[0], figures, sizeof figures), (ssize_t)sizeof figures);
    close(pipefd[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    *len = (size_t)figures[1];
    return figures[0];
}

#endif

static void assert_bound(void (*make)(mem_input *, size_t), int (*reader)(const mem_input *),
                         double bound, const char *name)
{
#ifdef UNDER_ASAN
    (void)make;
    (void)reader;
    (void)bound;
    test_skip("%s: AddressSanitizer's quarantine and red zones are not the reader's memory",
              name);
#else
    size_t len;
    long grown = grown_kb(make, reader, &len);
    assert_true(grown >= 0);
    assert_true(len > INPUT_BYTES / 2);
    long limit = (long)(bound * (double)len / 1024.0) + SLACK_KB;
    print_message("# %s: %.1f MB input, peak grew %.1f MB (%.2f x), bound %.1f x\n", name,
                  (double)len / 1e6, grown * 1024.0 / 1e6, grown * 1024.0 / (double)len, bound);
    assert_true(grown <= limit);
#endif
}

static void fd_reader_within_4x(void **state)
{
    (void)state;
    assert_bound(mem_make_fd, mem_read_fd, 4.0, "F:/D:");
}

static void des_reader_within_12x(void **state)
{
    (void)state;
    assert_bound(mem_make_des, mem_read_des, 12.0, ".des");
}

static void xp_reader_within_2x(void **state)
{
    (void)state;
    assert_bound(mem_make_xp, mem_read_xp, 2.0, ".xp");
}

static void gzip_xp_reader_within_3x(void **state)
{
    (void)state;
    assert_bound(mem_make_xp_gz, mem_read_xp, 3.0, ".xp (gzip)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fd_reader_within_4x),
        cmocka_unit_test(des_reader_within_12x),
        cmocka_unit_test(xp_reader_within_2x),
        cmocka_unit_test(gzip_xp_reader_within_3x),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

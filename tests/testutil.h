/* Helpers shared by the cmocka test programs. */
#ifndef QG_TESTUTIL_H
#define QG_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "questgrid.h"

/* The fixture of the Lua tests: a runtime with the bundled data and its
 * diagnostics, made and freed by cmocka setup and teardown functions. */
typedef struct test_runtime {
    qg_runtime *rt;
    qg_diags *diags;
} test_runtime;
int test_runtime_setup(void **state);
int test_runtime_teardown(void **state);

/* The source tree (QG_SRCDIR from make check, else "."). */
const char *test_srcdir(void);
/* ../shared/corpus beside the source tree, or QG_CORPUS; NULL when absent. */
const char *test_corpus_dir(void);
/* A path under the source tree / the corpus (static buffer, overwritten). */
const char *test_src_path(const char *relative);
/* Returns the corpus path of relative, or calls skip() when it is absent. */
const char *test_corpus_path_or_skip(const char *relative);
/* Debian's crawl-common (Crawl 0.28; $QG_CRAWL_DAT may point elsewhere):
 * its des and dlua directories into des and dlua (size bytes each); skips
 * the running test when they are not there (tools/test-deps installs
 * them). */
void test_crawl_dat_or_skip(char *des, char *dlua, size_t size);
/* Skips the running test, saying why: tests/cmocka-tap puts the reason on
 * the test's TAP "# SKIP" line. Does not return. */
void test_skip(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* A temporary directory of the test program's own (made on first use). */
const char *test_temp_dir(void);
/* The path of name in it (static storage, one per call up to 16). */
const char *test_temp_path(const char *name);
/* Writes text to a fresh file under the temporary directory; returns its
 * path (static storage, one per call up to 16). */
const char *test_write_temp(const char *name, const char *text, size_t len);
/* The bytes of the file at path (malloc'd, with a NUL after them; *len
 * their count); fails the test when it cannot be read. */
unsigned char *test_read_file(const char *path, size_t *len);
/* Writes len bytes to path; fails the test when it cannot. */
void test_write_file(const char *path, const void *data, size_t len);
/* Fails the test unless the two files hold the same bytes. */
void test_same_files(const char *a, const char *b);
/* A text made of head, then count copies of unit, then tail (malloc'd;
 * *len is its length). */
char *test_repeat(const char *head, const char *unit, size_t count, const char *tail,
                  size_t *len);
/* True when some diagnostic has this severity and contains the text. */
int test_diags_contain(const qg_diags *diags, qg_severity severity, const char *text);

/* Calls fn(path, user) for every file under dir (recursively) whose name
 * ends with suffix, skipping names that start with '.'. */
void test_walk_files(const char *dir, const char *suffix,
                     void (*fn)(const char *path, void *user), void *user);

#endif

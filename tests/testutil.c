#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>
#include <unistd.h>

const char *test_srcdir(void)
{
    const char *dir = getenv("QG_SRCDIR");
    return dir && dir[0] ? dir : ".";
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *test_corpus_dir(void)
{
    static char path[4096];
    const char *env = getenv("QG_CORPUS");
    if (env && env[0])
        snprintf(path, sizeof path, "%s", env);
    else
        snprintf(path, sizeof path, "%s/../shared/corpus", test_srcdir());
    return is_dir(path) ? path : NULL;
}

const char *test_src_path(const char *relative)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", test_srcdir(), relative);
    return path;
}

const char *test_corpus_path_or_skip(const char *relative)
{
    static char path[4096];
    const char *corpus = test_corpus_dir();
    if (!corpus) {
        test_skip("the corpus (../shared/corpus or $QG_CORPUS) is not beside the source tree");
        return NULL;
    }
    snprintf(path, sizeof path, "%s/%s", corpus, relative);
    if (access(path, R_OK) != 0) {
        test_skip("%s is not in the corpus", relative);
        return NULL;
    }
    return path;
}

void test_skip(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("# questgrid-skip: ", stdout);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
    skip();
}

const char *test_temp_dir(void)
{
    static char dir[256];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/qgtest.XXXXXX");
        assert_non_null(mkdtemp(dir));
    }
    return dir;
}

const char *test_temp_path(const char *name)
{
    static char paths[16][512];
    static int next;
    char *path = paths[next++ % 16];
    snprintf(path, 512, "%s/%s", test_temp_dir(), name);
    return path;
}

void test_crawl_dat_or_skip(char *des, char *dlua, size_t size)
{
    const char *dat = getenv("QG_CRAWL_DAT");
    if (!dat || !dat[0])
        dat = "/usr/share/crawl/dat";
    snprintf(des, size, "%s/des", dat);
    snprintf(dlua, size, "%s/dlua", dat);
    if (!is_dir(des) || !is_dir(dlua))
        test_skip("Crawl's data (des and dlua under %s) is not installed (tools/test-deps "
                  "installs it when run as root with apt-get)", dat);
}

unsigned char *test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc(*len + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, *len, f), *len);
    data[*len] = 0;
    fclose(f);
    return data;
}

void test_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

void test_same_files(const char *a, const char *b)
{
    size_t la, lb;
    unsigned char *x = test_read_file(a, &la), *y = test_read_file(b, &lb);
    assert_int_equal(la, lb);
    assert_memory_equal(x, y, la);
    free(x);
    free(y);
}

const char *test_write_temp(const char *name, const char *text, size_t len)
{
    const char *path = test_temp_path(name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return NULL;
    fwrite(text, 1, len, f);
    fclose(f);
    return path;
}

int test_diags_contain(const qg_diags *diags, qg_severity severity, const char *text)
{
    for (size_t i = 0; i < qg_diags_count(diags); i++) {
        const qg_diag *d = qg_diags_get(diags, i);
        if (d->severity == severity && strstr(d->message, text))
            return 1;
    }
    return 0;
}

void test_walk_files(const char *dir, const char *suffix,
                     void (*fn)(const char *path, void *user), void *user)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t suffix_len = strlen(suffix);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n = strlen(e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            test_walk_files(path, suffix, fn, user);
        else if (n > suffix_len && strcmp(e->d_name + n - suffix_len, suffix) == 0)
            fn(path, user);
    }
    closedir(d);
}

char *test_repeat(const char *head, const char *unit, size_t count, const char *tail,
                  size_t *len)
{
    size_t h = strlen(head), u = strlen(unit), t = strlen(tail);
    char *text = malloc(h + u * count + t + 1);
    assert_non_null(text);
    memcpy(text, head, h);
    for (size_t i = 0; i < count; i++)
        memcpy(text + h + i * u, unit, u);
    memcpy(text + h + u * count, tail, t + 1);
    *len = h + u * count + t;
    return text;
}

int test_runtime_setup(void **state)
{
    test_runtime *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    f->diags = qg_diags_new();
    f->rt = qg_runtime_new(NULL, f->diags);
    *state = f;
    return f->rt ? 0 : -1;
}

int test_runtime_teardown(void **state)
{
    test_runtime *f = *state;
    qg_runtime_free(f->rt);
    qg_diags_free(f->diags);
    free(f);
    return 0;
}

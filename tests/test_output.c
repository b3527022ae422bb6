/* How every output file is written (src/core/output.h): the umask gives a
 * new file its mode and a replaced file keeps its own; a symbolic link at
 * the path is replaced, never followed, unless asked; what is not a
 * regular file is written through or refused; no temporary file is left
 * behind, and one left by a killed writer goes at the next write. */
#define _DEFAULT_SOURCE
#include "testutil.h"
#include "core/file.h"
#include "core/output.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[512];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "%s/output", test_temp_dir());
    mkdir(dir, 0755);
    return 0;
}

static const char *in_dir(const char *name)
{
    static char paths[8][600];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, 600, "%s/%s", dir, name);
    return p;
}

static char *contents(const char *path)
{
    char *data = NULL;
    size_t len;
    qg_diags *diags = qg_diags_new();
    qg_read_file(path, 1 << 20, &data, &len, diags);
    qg_diags_free(diags);
    return data;
}

static void write_text(const char *path, const qg_output *how, const char *text,
                       qg_status want)
{
    qg_diags *diags = qg_diags_new();
    qg_status st = qg_output_write_bytes(path, how, text, strlen(text), diags);
    if (st != want) {
        qg_diags_print(diags, stderr);
        fail_msg("%s: %s, wanted %s", path, qg_status_string(st), qg_status_string(want));
    }
    qg_diags_free(diags);
}

static mode_t mode_of(const char *path)
{
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    return st.st_mode & 07777;
}

/* Files in the directory whose name starts with prefix. */
static int count_named(const char *prefix)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

/* compile, convert and render wrote 0644 under umask 077, and widened an
 * existing 0600 file to 0644. */
static void modes_from_the_umask_or_the_file_replaced(void **state)
{
    (void)state;
    const char *fresh = in_dir("fresh.txt"), *kept = in_dir("kept.txt");
    unlink(fresh);
    mode_t old = umask(077);
    write_text(fresh, NULL, "new\n", QG_OK);
    umask(022);
    assert_int_equal(mode_of(fresh), 0600);
    write_text(kept, NULL, "one\n", QG_OK);
    assert_int_equal(chmod(kept, 0640), 0);
    write_text(kept, NULL, "two\n", QG_OK);
    assert_int_equal(mode_of(kept), 0640);
    umask(old);
    char *text = contents(kept);
    assert_string_equal(text, "two\n");
    free(text);
}

/* -o link.qgc where link.qgc -> ../victim/victim.conf replaced the
 * victim. The link is replaced now; --follow-symlinks is the old way. */
static void a_link_is_replaced_not_followed(void **state)
{
    (void)state;
    const char *victim = in_dir("victim.conf"), *link = in_dir("link.out");
    write_text(victim, NULL, "secret\n", QG_OK);
    assert_int_equal(chmod(victim, 0600), 0);
    unlink(link);
    assert_int_equal(symlink("victim.conf", link), 0);
    write_text(link, NULL, "cache\n", QG_OK);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    char *text = contents(victim);
    assert_string_equal(text, "secret\n");
    free(text);
    assert_int_equal(mode_of(victim), 0600);

    unlink(link);
    assert_int_equal(symlink("victim.conf", link), 0);
    qg_output follow = {1, 0, NULL, NULL, NULL};
    write_text(link, &follow, "followed\n", QG_OK);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    text = contents(victim);
    assert_string_equal(text, "followed\n");
    free(text);
    assert_int_equal(mode_of(victim), 0600);
    /* a dangling link is replaced too */
    unlink(link);
    assert_int_equal(symlink("nowhere/at/all", link), 0);
    write_text(link, NULL, "dangling\n", QG_OK);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISREG(st.st_mode));
}

/* A FIFO nobody reads is an error and stays a FIFO; a directory is
 * refused; a cache refuses anything but a regular file; /dev/null and a
 * link to it are written through, never replaced. */
static void what_is_not_a_regular_file(void **state)
{
    (void)state;
    const char *fifo = in_dir("out_fifo"), *sub = in_dir("out_dir"), *null = in_dir("null");
    unlink(fifo);
    rmdir(sub);
    unlink(null);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(mkdir(sub, 0700), 0);
    assert_int_equal(symlink("/dev/null", null), 0);
    write_text(fifo, NULL, "data\n", QG_ERR_IO);
    struct stat st;
    assert_int_equal(stat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    write_text(sub, NULL, "data\n", QG_ERR_IO);
    assert_int_equal(stat(sub, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    write_text(null, NULL, "data\n", QG_OK);
    assert_int_equal(lstat(null, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    qg_output cache = {0, 1, NULL, NULL, NULL};
    write_text(null, &cache, "data\n", QG_ERR_IO);
    write_text("/dev/null", &cache, "data\n", QG_ERR_IO);
    assert_int_equal(lstat(null, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    unlink(fifo);
    unlink(null);
    rmdir(sub);
}

static int fail_fill(int fd, void *user)
{
    (void)fd;
    (void)user;
    return 0;
}

static qg_status refuse_check(const char *path, void *user, qg_diags *diags)
{
    (void)path;
    (void)user;
    qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0, "refused");
    return QG_ERR_CORRUPT;
}

/* A failed fill, a failed check and a cancel each leave the old file and
 * no temporary file. */
static void no_temporary_file_on_any_way_out(void **state)
{
    (void)state;
    const char *path = in_dir("ways.txt");
    write_text(path, NULL, "old\n", QG_OK);
    qg_diags *diags = qg_diags_new();
    assert_int_not_equal(qg_output_write(path, NULL, fail_fill, NULL, diags), QG_OK);
    qg_output checked = {0, 0, refuse_check, NULL, NULL};
    write_text(path, &checked, "new\n", QG_ERR_CORRUPT);
    volatile sig_atomic_t cancel = 1;
    qg_output cancelled = {0, 0, NULL, NULL, &cancel};
    write_text(path, &cancelled, "new\n", QG_ERR_IO);
    qg_diags_free(diags);
    char *text = contents(path);
    assert_string_equal(text, "old\n");
    free(text);
    assert_int_equal(count_named("ways.txt.tmp"), 0);
}

/* A writer's temporary file is locked while it lives: the next write
 * leaves a live writer's alone, and removes it once the writer is killed
 * (a killed compile left a 13 MB out.qgc.tmpXXXXXX forever). */
static void a_killed_writers_temporary_file_goes(void **state)
{
    (void)state;
    const char *path = in_dir("killed.qgc"), *temp = in_dir("killed.qgc.tmpK1ll3d");
    unlink(temp);
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        int fd = open(temp, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0 || flock(fd, LOCK_EX) != 0 || write(ready[1], "x", 1) != 1)
            _exit(1);
        for (;;)
            pause();
    }
    char c;
    assert_int_equal(read(ready[0], &c, 1), 1);
    write_text(path, NULL, "first\n", QG_OK);
    assert_int_equal(access(temp, F_OK), 0);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    write_text(path, NULL, "second\n", QG_OK);
    assert_int_not_equal(access(temp, F_OK), 0);
    assert_int_equal(count_named("killed.qgc.tmp"), 0);
    close(ready[0]);
    close(ready[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(modes_from_the_umask_or_the_file_replaced),
        cmocka_unit_test(a_link_is_replaced_not_followed),
        cmocka_unit_test(what_is_not_a_regular_file),
        cmocka_unit_test(no_temporary_file_on_any_way_out),
        cmocka_unit_test(a_killed_writers_temporary_file_goes),
    };
    return cmocka_run_group_tests(tests, make_dir, NULL);
}

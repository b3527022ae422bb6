/* Benchmark (run by hand, not a test): `questgrid check` throughput on
 * F:/D: input, in CPU time of the questgrid process (user + system, from
 * wait4), so other load on a shared machine does not count.
 *
 *   make bench && ./tools/bench_check [QUESTGRID [EDIT_DIR [MB [ROUNDS]]]]
 *   ./tools/bench_check QUESTGRID EDIT_DIR --files FILE...
 *
 * Defaults: ./questgrid, lib/edit, 48 MB, 3 rounds (the best is shown).
 * It writes, in a temporary directory, one large file of MB megabytes
 * (198 x 66 quest levels, each under its own ?: condition, with F: lines
 * naming the vocabulary's monsters and objects) and 400 files of one such
 * level each, then checks (1) the large file and (2) the 400 files in one
 * run, and prints MB/s for each. The start-up of the program
 * (`questgrid version`, the libtool wrapper included) is measured apart and
 * taken off. The second form checks the files given (a game's own, which
 * warn) in one run instead, best of 3. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

enum { LEVEL_WIDTH = 198, LEVEL_HEIGHT = 66, SMALL_FILES = 400 };

/* One level: F: letters over the bundled vocabulary's indices, rows of
 * walls, floor, doors, water and things. */
static size_t write_level(FILE *f, int number)
{
    long start = ftell(f);
    fprintf(f, "# Level %d\n?:[EQU $LEVEL %d]\n", number, number);
    fputs("F:.:1:8\nF:#:56:8\nF:+:32:8\nF:~:84:8\nF:s:1:8:15\nF:c:1:12:16:60\n"
          "F:$:1:8:0:54\nF:k:1:8:0:51\n", f);
    static const char cells[] = "....#..+..~..s..$...k..c..";
    for (int y = 0; y < LEVEL_HEIGHT; y++) {
        fputs("D:", f);
        for (int x = 0; x < LEVEL_WIDTH; x++) {
            int edge = y == 0 || x == 0 || y == LEVEL_HEIGHT - 1 || x == LEVEL_WIDTH - 1;
            fputc(edge ? '#' : cells[(x * 7 + y * 13 + number) % (sizeof cells - 1)], f);
        }
        fputc('\n', f);
    }
    fputs("P:1:1\n?:1\n\n", f);
    return (size_t)(ftell(f) - start);
}

/* CPU seconds of one run of argv, its output thrown away; -1 on failure.
 * *status is its exit status. */
static double run(char **argv, int *status)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) != pid)
        return -1;
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static double best_of(char **argv, int rounds, int *status)
{
    double best = -1;
    for (int i = 0; i < rounds; i++) {
        double t = run(argv, status);
        if (t >= 0 && (best < 0 || t < best))
            best = t;
    }
    return best;
}

static size_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (size_t)st.st_size : 0;
}

/* Checks the files given in one run. */
static int check_files(char **argv, int count)
{
    size_t bytes = 0;
    for (int i = 4; i < count; i++)
        bytes += file_size(argv[i]);
    char *version[] = {argv[1], "version", NULL};
    int status;
    double start = best_of(version, 3, &status);
    argv[3] = argv[2];
    argv[2] = "--edit-dir";
    argv[0] = argv[1];
    argv[1] = "check";
    double t = best_of(argv, 3, &status) - start;
    printf("%d files, %.2f MB in one run  %8.3f s CPU  %7.1f MB/s (exit status %d)\n", count - 4,
           bytes / 1e6, t, bytes / 1e6 / t, status);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 3 && strcmp(argv[3], "--files") == 0)
        return check_files(argv, argc);
    char *qg = argc > 1 ? argv[1] : "./questgrid";
    char *edit = argc > 2 ? argv[2] : "lib/edit";
    double mb = argc > 3 ? atof(argv[3]) : 48;
    int rounds = argc > 4 ? atoi(argv[4]) : 3;
    char dir[] = "/tmp/bench_check.XXXXXX";
    if (!mkdtemp(dir) || mb <= 0 || mb > 60 || rounds < 1) {
        fprintf(stderr, "usage: bench_check [QUESTGRID [EDIT_DIR [MB (at most 60) [ROUNDS]]]]\n");
        return 2;
    }
    char big[64], name[96];
    snprintf(big, sizeof big, "%s/big.txt", dir);
    FILE *f = fopen(big, "w");
    size_t big_bytes = 0;
    for (int n = 1; f && big_bytes < (size_t)(mb * 1e6); n++)
        big_bytes += write_level(f, n);
    if (!f || fclose(f) != 0)
        return 1;
    char **small = calloc(SMALL_FILES + 6, sizeof *small);
    size_t small_bytes = 0;
    small[0] = qg;
    small[1] = "check";
    small[2] = "--edit-dir";
    small[3] = edit;
    for (int i = 0; i < SMALL_FILES; i++) {
        snprintf(name, sizeof name, "%s/q%04d.txt", dir, i);
        small[4 + i] = strdup(name);
        FILE *s = fopen(name, "w");
        if (!s)
            return 1;
        small_bytes += write_level(s, i + 1);
        fclose(s);
    }

    int status;
    char *version[] = {qg, "version", NULL};
    double start = best_of(version, rounds, &status);
    char *one[] = {qg, "check", "--edit-dir", edit, big, NULL};
    double t_big = best_of(one, rounds, &status) - start;
    int big_status = status;
    double t_small = best_of(small, rounds, &status) - start;
    printf("start-up (questgrid version)   %8.3f s CPU\n", start);
    printf("one file, %6.1f MB           %8.3f s CPU  %7.1f MB/s%s\n", big_bytes / 1e6, t_big,
           big_bytes / 1e6 / t_big, big_status ? "  (check found errors!)" : "");
    printf("%d files, %6.1f MB in one run %8.3f s CPU  %7.1f MB/s%s\n", SMALL_FILES,
           small_bytes / 1e6, t_small, small_bytes / 1e6 / t_small,
           status ? "  (check found errors!)" : "");
    for (int i = 0; i < SMALL_FILES; i++) {
        unlink(small[4 + i]);
        free(small[4 + i]);
    }
    free(small);
    unlink(big);
    rmdir(dir);
    return 0;
}

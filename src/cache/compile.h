/* The pieces of `questgrid compile`: finding the inputs, reading each one
 * when its turn comes, and compiling it per format into a cache writer. A
 * file is read, compiled, handed to the writer and freed, so memory grows
 * with the threads compiling, not with the corpus. */
#ifndef QG_CACHE_COMPILE_H
#define QG_CACHE_COMPILE_H

#include "questgrid/cache.h"
#include "questgrid/des.h"
#include "cache/spill.h"

typedef struct qgc_input {
    char *path;        /* as recorded: relative to the base directory */
    char *io_path;     /* as read */
    qg_format format;
    char *data;        /* while it is being compiled */
    size_t len;
    int64_t mtime_sec;
    long mtime_nsec;
    /* a .des file, as the scan (qgc_scan_des) found it */
    uint64_t size;     /* its bytes: the largest files are handed out first */
    int start_state;   /* the scanner state the file before it leaves */
    int end_state;     /* the one it leaves */
    qgc_span prelude;  /* its global prelude's code in the run's store (len 0: none) */
    int prelude_line;  /* the .des line the prelude starts at */
    uint64_t prelude_hash; /* qgc_prelude_hash of its prelude (0: none) */
    uint64_t key;      /* what its compile depends on besides its text */
    /* a .des file the cache written over has (qgc_run.previous) */
    size_t previous;   /* its file there, or QG_CACHE_NONE */
    int unchanged;     /* its text is the one compiled there */
    int reused;        /* its entries are taken from there */
} qgc_input;

typedef struct qgc_inputs {
    qgc_input *items;
    size_t count, cap;
} qgc_inputs;

struct qgc_previous;

/* What one compile keeps from file to file. */
typedef struct qgc_run {
    const qg_compile_options *opt;
    qg_cache_writer *w;
    qg_compile_stats *stats;
    qg_diags *diags;
    size_t files_done, file_count;
    int jobs;           /* threads */
    const struct qgc_previous *previous;  /* the cache written over */
} qgc_run;

/* Called for each file a walk finds that questgrid reads: its path as
 * recorded, as opened, its kind, and whether it was named itself. A
 * status other than QG_OK ends the walk with it. */
typedef qg_status (*qgc_visit)(void *user, const char *path, const char *io_path,
                               qg_file_kind kind, int named);
/* Walks the files and directories given (relative ones read from
 * base_dir, NULL: the current directory), as qg_inputs_find describes. A
 * file that fails is reported and the walk goes on; the first failure is
 * returned. */
qg_status qgc_walk(const char *base_dir, const char *const *paths, size_t count,
                   qgc_visit fn, void *user, qg_diags *diags);
/* The files of a compile: .des files and F:/D: levels, and any file of
 * the F:/D: family named itself. */
qg_status qgc_collect_inputs(const char *base_dir, const char *const *paths,
                             size_t count, qgc_inputs *out, qg_diags *diags);
/* Reads one input with the stat() data taken before reading. */
qg_status qgc_read_input(qgc_input *item, qg_diags *diags);
/* Frees what qgc_read_input read. */
void qgc_input_drop(qgc_input *item);
void qgc_inputs_free(qgc_inputs *in);
/* Counts a file compiled and reports the progress. */
void qgc_file_done(qgc_run *run);
/* Makes a map whose compile failed (why: what it reported) the cache's
 * entry of a map left out (skipped.c). */
qg_status qgc_mark_skipped(qg_mapdef *def, const qg_diags *why);

/* The cores this process may run on (its affinity), else those online. */
int qgc_cores_available(void);
/* Runs fn(user, k) for k = 0 .. n-1: k = 0 on the calling thread, the
 * others on threads of their own; returns once all have. A thread that
 * cannot be started has its turn on the calling thread afterwards. */
void qgc_run_threads(int n, void (*fn)(void *user, int k), void *user);

/* The .des inputs' global preludes, kept for the files after them. */
typedef struct qgc_preludes {
    qgc_spill store;   /* their code, one after another */
} qgc_preludes;

/* Reads and parses every .des input (the others are skipped) on the run's
 * threads, keeping what a file's compile needs of the files before it:
 * each one's global prelude (in store) and the scanner state it leaves
 * (Crawl's scanner keeps its start condition from file to file). A file
 * is parsed from the initial state, then again, in file order, when the
 * file before it left another. A file the previous cache holds is only
 * checked: when its text is the same (its size and mtime, else its hash)
 * and it starts in the same state, the prelude's hash and the state it
 * leaves are taken from there and its prelude is read only when a file
 * after it is compiled. */
qg_status qgc_scan_des(qgc_inputs *in, qgc_run *run, qgc_preludes *store);

/* A global prelude's hash: its code and the line it starts at; never 0. */
uint64_t qgc_prelude_hash(const qg_des_chunk *prelude);
/* The hash of what every .des file's compile depends on besides the .des
 * files (environment.c); never 0. */
uint64_t qgc_environment(const qg_compile_options *opt);
/* Each .des input's key once the scan has run: the hash of environment,
 * the scanner state it starts in and the preludes of the .des files
 * before it (with their paths and lines). */
void qgc_des_keys(qgc_inputs *in, uint64_t environment);
/* Marks the .des inputs whose entries the previous cache holds as they
 * would be compiled: the same text and key, compiled without errors. */
void qgc_des_reuse(qgc_inputs *in, const struct qgc_previous *previous);

/* Compiles the .des inputs (the others are skipped) on the run's threads
 * and adds them to the writer. Each file is compiled from the state the
 * Lua library left, with the global preludes of the .des files before it
 * run first, in their order: a map sees what its file and the files
 * before it define (as in Crawl, which runs each file's prelude as it
 * reads it), and what one file's Lua changes reaches no other file, so
 * the cache is the same whatever the number of threads and the order they
 * take the files in. Files are handed out largest first; what they report
 * and their names (a map name given twice) are taken in file order.
 * *fatal tells a failure of the whole compile (the Lua library, memory,
 * cancellation) from errors in maps, which keep_going may write past. */
qg_status qgc_compile_des(qgc_inputs *in, qgc_run *run, const qgc_preludes *store,
                          int *fatal);

/* Reads the F:/D: inputs (with the files they include) and adds them to
 * the writer; *fatal as for qgc_compile_des. */
qg_status qgc_compile_fd(qgc_inputs *in, qgc_run *run, int *fatal);

#endif

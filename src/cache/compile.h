/* The pieces of `questgrid compile`: finding the inputs, reading each one
 * when its turn comes, and compiling it per format into a cache writer. A
 * file is read, compiled, handed to the writer and freed before the next
 * one is read, so memory does not grow with the corpus. */
#ifndef QG_CACHE_COMPILE_H
#define QG_CACHE_COMPILE_H

#include "questgrid/cache.h"
#include "questgrid/des.h"

typedef struct qgc_input {
    char *path;        /* as recorded: relative to the base directory */
    char *io_path;     /* as read */
    qg_format format;
    char *data;        /* while it is being compiled */
    size_t len;
    int64_t mtime_sec;
    long mtime_nsec;
} qgc_input;

typedef struct qgc_inputs {
    qgc_input *items;
    size_t count, cap;
} qgc_inputs;

/* What one compile keeps from file to file. */
typedef struct qgc_run {
    const qg_compile_options *opt;
    qg_cache_writer *w;
    qg_compile_stats *stats;
    qg_diags *diags;
    size_t files_done, file_count;
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

/* Compiles the .des inputs (the others are skipped) and adds them to the
 * writer. *fatal tells a failure of the whole compile (the Lua library,
 * memory, cancellation) from errors in maps, which keep_going may write
 * past. */
qg_status qgc_compile_des(qgc_inputs *in, qgc_run *run, int *fatal);

/* Reads the F:/D: inputs (with the files they include) and adds them to
 * the writer; *fatal as for qgc_compile_des. */
qg_status qgc_compile_fd(qgc_inputs *in, qgc_run *run, int *fatal);

#endif

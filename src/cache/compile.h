/* The pieces of `questgrid compile`: finding and reading the inputs, and
 * compiling them per format into a cache writer. */
#ifndef QG_CACHE_COMPILE_H
#define QG_CACHE_COMPILE_H

#include "questgrid/cache.h"
#include "questgrid/des.h"

typedef struct qgc_input {
    char *path;        /* as recorded: relative to the base directory */
    char *io_path;     /* as read */
    qg_format format;
    char *data;
    size_t len;
    int64_t mtime_sec;
    long mtime_nsec;
} qgc_input;

typedef struct qgc_inputs {
    qgc_input *items;
    size_t count, cap;
} qgc_inputs;

/* Files named are taken as they are; directories are searched recursively
 * (entries in byte order) for files of a format the compiler reads. */
qg_status qgc_collect_inputs(const char *base_dir, const char *const *paths,
                             size_t count, qgc_inputs *out, qg_diags *diags);
/* Reads every input with the stat() data taken before reading. */
qg_status qgc_read_inputs(qgc_inputs *in, qg_diags *diags);
void qgc_inputs_free(qgc_inputs *in);

/* Compiles the .des inputs (the others are skipped) and adds them to w.
 * *fatal tells a failure of the whole compile (the Lua library, memory,
 * cancellation) from errors in maps, which keep_going may write past. */
qg_status qgc_compile_des(qgc_inputs *in, const qg_compile_options *opt,
                          qg_cache_writer *w, qg_compile_stats *stats, int *fatal,
                          qg_diags *diags);

/* One .des input parsed (des_units.c). */
typedef struct qgc_des_unit {
    qgc_input *input;
    qg_des_file *file;
    qg_diags *diags;
    qg_status status;
    int end_state;       /* the scanner's start condition after the file */
    int reparsed;        /* parsed again by qgc_des_settle */
} qgc_des_unit;

/* Parses the unit's input as if it came first (safe on any thread). */
void qgc_des_unit_parse(qgc_des_unit *u);
void qgc_des_unit_free(qgc_des_unit *u);
/* Makes the units what parsing them in order gives: parses again, in
 * order, each file whose names or start condition earlier files change.
 * QG_ERR_NOMEM when a unit or the settling ran out of memory. */
qg_status qgc_des_settle(qgc_des_unit *units, size_t count);

/* Reads the F:/D: inputs (with the files they include) and adds them to w.
 * Both compilers free an input's data once the writer has what it needs. */
qg_status qgc_compile_fd(qgc_inputs *in, qg_cache_writer *w,
                         qg_compile_stats *stats, qg_diags *diags);

#endif

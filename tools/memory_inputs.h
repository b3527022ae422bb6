/* Large generated inputs for each reader, and the reader run on them:
 * what tools/bench_memory measures and tests/test_memory_bounds holds to
 * the bounds doc/limits.md gives. */
#ifndef QG_TOOLS_MEMORY_INPUTS_H
#define QG_TOOLS_MEMORY_INPUTS_H

#include "questgrid.h"

/* A buffer of cap bytes, filled up to len; raw is what the reader works
 * on (the inflated size of gzip data), 0 when that is len. */
typedef struct mem_input {
    char *data;
    size_t len, cap;
    size_t raw;
} mem_input;

/* Each fills in with whole records up to about target bytes (at most
 * in->cap): F:/D: 198 x 66 quest levels each under its own ?: condition;
 * .des maps of 40 x 20; one uncompressed REXPaint layer 500 cells high. */
void mem_make_fd(mem_input *in, size_t target);
void mem_make_des(mem_input *in, size_t target);
void mem_make_xp(mem_input *in, size_t target);
/* The .xp image of mem_make_xp, gzip-compressed as REXPaint saves it. */
void mem_make_xp_gz(mem_input *in, size_t target);

/* Each reads the input as a user of the library would (F:/D: parsed and
 * one level resolved; .des parsed; .xp read into a level); 1 when the
 * read gave what was made. */
int mem_read_fd(const mem_input *in);
int mem_read_des(const mem_input *in);
int mem_read_xp(const mem_input *in);

/* What the process holds now (/proc/self/statm), and the most it has
 * held (ru_maxrss), in KB; -1 when it cannot be told. The growth of the
 * second over the first taken before a read is the read's peak. */
long mem_resident_kb(void);
long mem_peak_kb(void);

#endif

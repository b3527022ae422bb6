/* Round trips of a level: F:/D: → .des → F:/D: and F:/D: → TMX → F:/D:
 * give back the same level (cells, properties, text), and every file
 * written on the way (.xp too) is read back without an error; a .des map
 * within Crawl's 80 x 70 also resolves through the Lua runtime. */
#ifndef QG_TESTS_ROUNDTRIP_UTIL_H
#define QG_TESTS_ROUNDTRIP_UTIL_H

#include "testutil.h"

typedef struct rt_counts {
    int des_exact, tmx_exact, des_lua;
} rt_counts;

/* Asserts the round trips of l, read from path with opt (whose vocab and
 * dialect the F:/D: is read back with); *rt is made on first use. */
void rt_level_round_trips(qg_runtime **rt, const qg_level *l, const qg_fd_options *opt,
                          const char *path, const char *what, rt_counts *counts);

#endif

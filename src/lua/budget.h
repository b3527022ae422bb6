/* The budget every run of map Lua pays from, and what each kind of work
 * costs in it: the one rule for how the runtime charges work.
 *
 * The budget counts instructions. The interpreter's own are counted by
 * the count hook; every other kind of work is charged as the instructions
 * it is worth in time: the bytes the state allocates (which also pays the
 * collector that frees them), each error raised and caught, and each call
 * of a C function with the work behind it (bytes scanned, values moved,
 * numbers formatted, pattern steps, entries back into Lua). The rates
 * below keep every kind of work at or under about LRT_NS_PER_UNIT of CPU
 * per instruction charged (measured by tools/bench_limits' hostile set),
 * so that a budget of N instructions ends in about N times that, whatever
 * the map does. What one instruction of the interpreter may do out of
 * every count's sight (compare or hash two long strings, copy a long list
 * of arguments between Lua functions) is bounded by the CPU time limit of
 * the operation instead (watch.h). */
#ifndef QG_LUA_BUDGET_H
#define QG_LUA_BUDGET_H

#include <stddef.h>

/* The slowest any charged work runs, per instruction charged. */
#define LRT_NS_PER_UNIT 10

/* Instructions between calls of the count hook (each call charges them
 * and looks at the time limit: a smaller step notices it sooner, after
 * fewer instructions of hidden work). Lua 5.4 enters its hook logic on
 * every instruction while any count hook is set, whatever the step
 * (ldebug.c, luaG_traceexec), so the step costs nothing else. */
#define LRT_HOOK_STEP 128

/* Allocation: LRT_ALLOC_UNITS an allocation (the allocator's call, the
 * collector's mark and sweep of the object) and one every LRT_ALLOC_BYTES
 * bytes allocated or grown (the bytes are written once and later swept).
 * A level builder making and dropping a table and two closures a step
 * ran at 9.7 ns an instruction charged with 1 an allocation. */
#define LRT_ALLOC_UNITS 6
#define LRT_ALLOC_BYTES 16
/* A new string besides its allocation: hashed and interned, and perhaps a
 * number formatted by the interpreter itself ('k' .. i), out of every
 * count's sight. */
#define LRT_STRING_UNITS 16
/* A full collection, which Lua runs before it gives up an allocation
 * over the memory cap: one instruction this many bytes of the heap. */
#define LRT_COLLECT_BYTES 16
/* An error raised and caught (pcall, xpcall, a coroutine's resume or
 * close): the throw, the unwinding and the message. */
#define LRT_ERROR_UNITS 48
/* Any call of a C function of the libraries, beyond its instructions. */
#define LRT_CALL_UNITS 2
/* Each entry back into Lua from C (a sort comparator, a gsub replacement
 * function, a coroutine switch). */
#define LRT_ENTRY_UNITS 8
#define LRT_SWITCH_UNITS 24
/* A number written or read as text (tostring, tonumber, string.format's
 * items, string concatenation of numbers). */
#define LRT_NUMBER_UNITS 24
/* Bytes read (scanned, compared, decoded) for one instruction: a loop
 * that looks at each byte (utf8.len, %b, upper) reads about one a
 * nanosecond. */
#define LRT_SCAN_BYTES 8
/* Arguments moved on the stack for one instruction; each value a C
 * function returns is one (table.unpack looks each up). */
#define LRT_VALUES 8
/* A directive's text parsed by a dgn function (subst, kfeat, ...): the
 * parse and what it allocates, besides a unit a byte. */
#define LRT_SPEC_UNITS 32
/* Bytes of Lua text compiled by load() for one instruction. */
#define LRT_PARSE_BYTES 2

/* The default CPU time limit of an operation, and of one that builds the
 * whole level (milliseconds). The compile-time runs of one file share one
 * operation's limit and LRT_FILE_MAP_TIME_MS more for each map, so that
 * `show` of a file ends within the two limits and a millisecond a map
 * (hostile maps: 2 s, 100 of them 2.1 s), while a file of many real maps
 * (Crawl's take 0.13 ms each on average) never meets it. */
#define LRT_TIME_LIMIT_MS 2000ul
#define LRT_LEVEL_TIME_LIMIT_MS 7000ul
#define LRT_FILE_MAP_TIME_MS 1.0

/* Instructions worth of n bytes at `bytes` a unit, saturating. */
static inline size_t lrt_units_of(double n, double bytes)
{
    double u = n / bytes;
    return u > 1e15 ? (size_t)1e15 : u > 0 ? (size_t)u : 0;
}

#endif

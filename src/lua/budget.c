/* The budget: what a chunk run and a whole operation may spend, the
 * count hook that charges the interpreter's instructions, charging from C,
 * and the operation's CPU time limit (budget.h says what work costs). */
#define _POSIX_C_SOURCE 200809L
#include "lua/rt.h"
#include "lua/watch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned long long chunk_limit(const qg_runtime *rt)
{
    return (unsigned long long)rt->instr_limit *
           (rt->level_operation ? LRT_LEVEL_BUDGET_SCALE : 1);
}

static unsigned long long operation_limit(const qg_runtime *rt)
{
    return (unsigned long long)rt->instr_limit *
           (rt->level_operation ? LRT_LEVEL_OPERATION_BUDGETS : LRT_OPERATION_BUDGETS);
}

static unsigned long time_limit(const qg_runtime *rt)
{
    return rt->level_operation ? rt->level_time_limit_ms : rt->time_limit_ms;
}

static int out_of_time(const qg_runtime *rt)
{
    return rt->clock_spent || (rt->watch && lrt_watch_expired(rt->watch));
}

static void raise_out_of_time(lua_State *L, const qg_runtime *rt)
{
    if (rt->op_cut_by_clock)
        luaL_error(L, "time limit of the file's compile exceeded (%f s of CPU for its "
                      "prelude and every map's validation together)",
                   (lua_Number)rt->clock_allowed_ms / 1000.0);
    luaL_error(L, "time limit of the map exceeded (%f s of CPU)",
               (lua_Number)time_limit(rt) / 1000.0);
}

void lrt_charge(lua_State *L, size_t work)
{
    qg_runtime *rt = lrt_runtime(L);
    rt->instr_used += work;
    rt->op_used += work;
    if (rt->op_used > operation_limit(rt)) {
        rt->budget_exhausted = 1;
        luaL_error(L, "instruction budget of the whole map exceeded (%I instructions)",
                   (lua_Integer)operation_limit(rt));
    }
    if (rt->instr_used > chunk_limit(rt)) {
        rt->budget_exhausted = 1;
        luaL_error(L, "instruction budget exceeded (%I instructions)",
                   (lua_Integer)chunk_limit(rt));
    }
    if (out_of_time(rt)) {
        rt->budget_exhausted = 1;
        raise_out_of_time(L, rt);
    }
}

int lrt_spend(qg_runtime *rt, size_t work)
{
    rt->instr_used += work;
    rt->op_used += work;
    if (rt->op_used > operation_limit(rt) || out_of_time(rt))
        rt->budget_exhausted = 1;
    return !rt->budget_exhausted;
}

static void count_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lrt_charge(L, LRT_HOOK_STEP);
}

void lrt_budget_hook(lua_State *L)
{
    lua_sethook(L, count_hook, LUA_MASKCOUNT, LRT_HOOK_STEP);
}

void lrt_budget_reset(qg_runtime *rt)
{
    rt->instr_used = 0;
    /* once the operation's budget is spent, every later chunk fails too */
    rt->budget_exhausted = rt->op_used > operation_limit(rt) || out_of_time(rt);
}

/* The operation's time limit, and whether it runs on the file's clock
 * (*on_clock): a compile-time run gets what its file has left. */
static unsigned long op_time_limit(qg_runtime *rt, const char *file, int *on_clock)
{
    unsigned long limit = time_limit(rt);
    *on_clock = 0;
    rt->clock_spent = 0;
    rt->op_cut_by_clock = 0;
    if (!file || !rt->watch)
        return limit;
    if (!rt->clock_file || strcmp(rt->clock_file, file) != 0) {
        lrt_file_begin(rt);
        rt->clock_file = strdup(file);
        if (!rt->clock_file)
            return limit;
    }
    *on_clock = 1;
    rt->clock_allowed_ms += LRT_FILE_MAP_TIME_MS;
    double left_ms = rt->clock_allowed_ms - rt->clock_used * 1000.0;
    if (left_ms >= (double)limit)
        return limit;
    rt->op_cut_by_clock = 1;
    rt->clock_spent = left_ms < 1.0;
    return rt->clock_spent ? 1 : (unsigned long)left_ms;
}

static void start(qg_runtime *rt, int level, const char *file)
{
    rt->op_used = 0;
    rt->mem_capped = 0;
    rt->level_operation = level;
    unsigned long limit = op_time_limit(rt, file, &rt->op_on_clock);
    if (rt->watch)
        lrt_watch_operation(rt->watch, limit);
    lrt_budget_reset(rt);
}

void lrt_operation_start(qg_runtime *rt)
{
    start(rt, 0, NULL);
}

void lrt_compile_operation_start(qg_runtime *rt, const char *file)
{
    start(rt, 0, file ? file : "");
}

void lrt_file_begin(qg_runtime *rt)
{
    free(rt->clock_file);
    rt->clock_file = NULL;
    rt->clock_used = 0;
    rt->clock_allowed_ms = (double)rt->time_limit_ms;
}

qg_status lrt_error_status(const qg_runtime *rt, int status)
{
    if (status == LUA_ERRMEM)
        return rt->mem_capped ? QG_ERR_LIMIT : QG_ERR_NOMEM;
    return rt->budget_exhausted ? QG_ERR_LIMIT : QG_ERR_LUA;
}

const char *lrt_error_text(const qg_runtime *rt, int status, const char *msg, char *buf,
                           size_t size)
{
    if (status != LUA_ERRMEM || !rt->mem_capped)
        return msg;
    snprintf(buf, size, "memory budget exceeded (%zu MiB of Lua memory)", rt->mem_limit >> 20);
    return buf;
}

void lrt_level_operation_start(qg_runtime *rt)
{
    start(rt, 1, NULL);
}

/* QUESTGRID_LUA_TIME_LIMIT: seconds of CPU an operation may take (0: no
 * limit), for runs under a profiler or emulator that slows Lua down. */
qg_status lrt_budget_init(qg_runtime *rt, unsigned long instruction_limit)
{
    rt->instr_limit = instruction_limit ? instruction_limit : LRT_DEFAULT_INSTRUCTIONS;
    rt->time_limit_ms = LRT_TIME_LIMIT_MS;
    rt->level_time_limit_ms = LRT_LEVEL_TIME_LIMIT_MS;
    const char *env = getenv("QUESTGRID_LUA_TIME_LIMIT");
    if (env && *env) {
        char *end;
        double seconds = strtod(env, &end);
        if (*end || seconds < 0)
            return QG_ERR_INVALID;
        rt->time_limit_ms = rt->level_time_limit_ms = (unsigned long)(seconds * 1000.0);
    }
    if (!rt->time_limit_ms)
        return QG_OK;
    rt->watch = lrt_watch_new();
    return rt->watch ? QG_OK : QG_ERR_NOMEM;
}

static double thread_seconds(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0)
        return 0;
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The file's clock counts the CPU time its compile-time runs spend in
 * Lua, read where Lua is entered from C and left. */
void lrt_enter(qg_runtime *rt)
{
    if (!rt->watch)
        return;
    lrt_watch_enter(rt->watch);
    if (rt->lua_depth++ == 0 && rt->op_on_clock)
        rt->entered_cpu = thread_seconds();
}

void lrt_leave(qg_runtime *rt)
{
    if (!rt->watch)
        return;
    lrt_watch_leave(rt->watch);
    if (--rt->lua_depth == 0 && rt->op_on_clock)
        rt->clock_used += thread_seconds() - rt->entered_cpu;
}

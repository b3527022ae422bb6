/* Hostile map programs against the Lua runtime, through the public API
 * only (a .des text parsed, added to a runtime, compiled and resolved):
 * each must end in a diagnostic naming the map, within the runtime's
 * instruction and memory budgets, and leave nothing reachable outside the
 * sandbox. */
#define _DEFAULT_SOURCE
#include "testutil.h"
#include "questgrid/des.h"
#include "questgrid/lua.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Seconds any one case may take: budgets are instructions and bytes, so
 * this only catches a run the budgets do not bound. A run that does not
 * end is stopped by SIGALRM (the program dies: the case fails). */
#define BOUND_SECONDS 20

typedef struct run {
    qg_status parse, prelude, compile, resolve;
    qg_diags *diags;
    double seconds;
} run;

/* Like cmocka on a crash: the case fails and the next one runs (the
 * interrupted runtime is lost, which only a failing case pays for). */
static void timed_out(int sig)
{
    (void)sig;
    fail_msg("no end after %d seconds", BOUND_SECONDS);
}

static int watch_time(void **state)
{
    (void)state;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = timed_out;
    action.sa_flags = SA_NODEFER;
    return sigaction(SIGALRM, &action, NULL);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Runs a whole .des text (its file-level Lua included): its first map
 * compiled and resolved under a 16 MiB, one-million-instruction budget. */
static run run_file(const char *text)
{
    run r = {QG_OK, QG_OK, QG_OK, QG_OK, qg_diags_new(), 0};
    double start = now();
    alarm(BOUND_SECONDS);
    qg_des_names *names = qg_des_names_new();
    qg_des_file *file = NULL;
    qg_des_options des_options = {0};
    r.parse = qg_des_parse("hostile.des", text, strlen(text), &des_options, names, &file, r.diags);
    assert_non_null(file);
    qg_runtime_options options = {0};
    options.memory_limit = 16u << 20;
    options.instruction_limit = 1000000;
    qg_runtime *rt = qg_runtime_new(&options, r.diags);
    assert_non_null(rt);
    r.prelude = qg_runtime_add_file(rt, file, r.diags);
    assert_true(qg_runtime_map_count(rt) >= 1);
    qg_mapdef *def = qg_runtime_map(rt, 0);
    r.compile = qg_runtime_compile_map(rt, def, r.diags);
    qg_level *level = NULL;
    qg_context context = {"D:3", 5, NULL};
    r.resolve = qg_runtime_resolve(rt, def, 1, &context, &level, r.diags);
    qg_level_free(level);
    qg_runtime_free(rt);
    qg_des_names_free(names);
    alarm(0);
    r.seconds = now() - start;
    assert_true(r.seconds < BOUND_SECONDS);
    return r;
}

/* Runs lua as the main chunk of a small map. */
static run run_main(const char *lua)
{
    size_t n = strlen(lua) + 256;
    char *text = malloc(n);
    assert_non_null(text);
    snprintf(text, n, "NAME: hostile\nTAGS: test\n{{\n%s\n}}\nMAP\nx.x\nENDMAP\n", lua);
    run r = run_file(text);
    free(text);
    return r;
}

/* Runs lua as file-level code (the global prelude) before a small map. */
static run run_prelude(const char *lua)
{
    size_t n = strlen(lua) + 256;
    char *text = malloc(n);
    assert_non_null(text);
    snprintf(text, n, "{{\n%s\n}}\nNAME: hostile\nTAGS: test\nMAP\nx.x\nENDMAP\n", lua);
    run r = run_file(text);
    free(text);
    return r;
}

static int has_error(const qg_diags *diags, const char *why)
{
    for (size_t i = 0; i < qg_diags_count(diags); i++) {
        const qg_diag *d = qg_diags_get(diags, i);
        if (d->severity == QG_ERROR && strcmp(d->file, "hostile.des") == 0 && d->line > 0 &&
            strstr(d->message, why))
            return 1;
    }
    return 0;
}

/* The file's prelude or the map's run failed with an error placed in the
 * map's file that says why (one of two texts when Lua may stop for either
 * reason). */
static void assert_refused_either(run r, const char *why, const char *or_why)
{
    assert_true(r.prelude != QG_OK || r.compile != QG_OK);
    if (!has_error(r.diags, why) && !(or_why && has_error(r.diags, or_why))) {
        qg_diags_print(r.diags, stderr);
        fail_msg("no error in hostile.des saying '%s'", why);
    }
    qg_diags_free(r.diags);
}

static void assert_refused(run r, const char *why)
{
    assert_refused_either(r, why, NULL);
}

static void assert_runs(run r)
{
    if (r.compile != QG_OK || r.resolve != QG_OK) {
        qg_diags_print(r.diags, stderr);
        fail_msg("compile %s, resolve %s", qg_status_string(r.compile),
                 qg_status_string(r.resolve));
    }
    qg_diags_free(r.diags);
}

static void infinite_loop(void **state)
{
    (void)state;
    assert_refused(run_main("while true do end"), "instruction budget exceeded");
}

static void infinite_loop_inside_pcall(void **state)
{
    (void)state;
    assert_refused(run_main("for i = 1, 1000 do pcall(function() while true do end end) end"),
                   "instruction budget exceeded");
}

/* The budget error raised from the count hook must not run a map's
 * message handler with hooks off (Lua calls the handler from inside the
 * hook), nor let the handler replace the budget error. */
static void infinite_loop_in_an_error_handler(void **state)
{
    (void)state;
    assert_refused(run_main("xpcall(error, function() while true do end end)"),
                   "instruction budget exceeded");
    assert_refused(run_main("xpcall(function() while true do end end, function() return 1 end)"),
                   "instruction budget exceeded");
}

static void infinite_loop_inside_a_coroutine(void **state)
{
    (void)state;
    assert_refused(run_main("coroutine.wrap(function() while true do end end)()"),
                   "instruction budget exceeded");
    assert_refused(run_main("local co = coroutine.create(function() while true do end end)\n"
                            "for i = 1, 100 do coroutine.resume(co) end"),
                   "instruction budget exceeded");
}

static void infinite_loop_in_a_to_be_closed_handler(void **state)
{
    (void)state;
    assert_refused(run_main("do local x <close> = setmetatable({}, {__close = function()\n"
                            "  while true do end end}) end"),
                   "instruction budget exceeded");
}

static void infinite_loop_in_a_sort_comparator(void **state)
{
    (void)state;
    assert_refused(run_main("local t = {} for i = 1, 100 do t[i] = i end\n"
                            "table.sort(t, function(a, b) while true do end end)"),
                   "instruction budget exceeded");
}

/* C functions the count hook cannot interrupt: a loop that lives entirely
 * inside one library call must still be bounded. */
static void long_loops_inside_one_library_call(void **state)
{
    (void)state;
    run r = run_main("table.move({}, 1, math.maxinteger - 1, 1)");
    assert_int_not_equal(r.compile, QG_OK);
    qg_diags_free(r.diags);
}

/* Cheap calls doing costly work: a few instructions each, megabytes of
 * work behind every one; the budget must count the work, not the call. */
static void costly_library_calls_in_a_loop(void **state)
{
    (void)state;
    run r = run_main("local s = ('x'):rep(8e6) for i = 1, 1e6 do local u = s:upper() end");
    assert_int_not_equal(r.compile, QG_OK);
    qg_diags_free(r.diags);
    r = run_main("local t = {} for i = 1, 5e5 do t[i] = i end\n"
                 "for i = 1, 1e6 do table.sort(t) end");
    assert_int_not_equal(r.compile, QG_OK);
    qg_diags_free(r.diags);
}

/* Allocation is charged too: under this budget a memory bomb may end on
 * either. */
static void memory_bomb(void **state)
{
    (void)state;
    assert_refused_either(run_main("local t = {} for i = 1, 1e9 do t[i] = {i, i, i} end"),
                          "memory budget exceeded", "instruction budget");
}

static void memory_bomb_inside_pcall(void **state)
{
    (void)state;
    assert_refused_either(run_main("local t = {}\n"
                                   "for i = 1, 100 do pcall(function()\n"
                                   "  for j = 1, 1e9 do t[#t + 1] = ('x'):rep(65536) .. j end end) end"),
                          "memory budget exceeded", "instruction budget");
}

static void string_rep_blowups(void **state)
{
    (void)state;
    assert_refused(run_main("local s = string.rep('x', 1 << 40)"), "resulting string too large");
    assert_refused_either(run_main("local s = ('x'):rep(1 << 20) s = s .. s s = s .. s\n"
                                   "s = s .. s s = s .. s"),
                          "memory budget exceeded", "instruction budget");
    assert_refused_either(run_main("local s = string.rep('ab', 1 << 30, ',')"),
                          "memory budget exceeded", "resulting string too large");
    assert_refused_either(run_main("local t = {} for i = 1, 64 do t[i] = ('x'):rep(1 << 20) end\n"
                                   "local s = table.concat(t)"),
                          "memory budget exceeded", "instruction budget");
}

static void costly_patterns(void **state)
{
    (void)state;
    assert_refused(run_main("local s = ('a'):rep(20000)\nreturn s:find('.-.-.-.-b')"),
                   "instruction budget exceeded");
    assert_refused(run_main("local s = ('a'):rep(20000)\n"
                            "for _ in s:gmatch('.-.-.-.-b') do end"),
                   "instruction budget exceeded");
}

static void unsafe_libraries_are_unreachable(void **state)
{
    (void)state;
    assert_runs(run_main(
        "assert(io == nil and os == nil and debug == nil and package == nil)\n"
        "assert(require == nil and dofile == nil and loadfile == nil)\n"
        "assert(collectgarbage == nil and string.dump == nil)\n"
        "assert(_G.io == nil and _ENV.os == nil)\n"
        "assert(rawget(_G, 'debug') == nil)\n"
        "local s = getmetatable('').__index\n"
        "assert(s.dump == nil)\n"
        "for _, lib in ipairs({string, table, math, coroutine, utf8}) do\n"
        "  for k, v in pairs(lib) do assert(k ~= 'dump' and k ~= 'open' and k ~= 'execute') end\n"
        "end"));
}

static void io_os_require_debug_calls_fail(void **state)
{
    (void)state;
    assert_refused(run_main("io.open('/etc/passwd')"), "io");
    assert_refused(run_main("os.execute('true')"), "os");
    assert_refused(run_main("require('os')"), "require");
    assert_refused(run_main("debug.sethook()"), "debug");
}

static void bytecode_is_refused(void **state)
{
    (void)state;
    assert_runs(run_main(
        "local f, err = load('\\27Lua\\84\\0\\25\\147\\13\\10\\26\\10', 'x', 'bt')\n"
        "assert(f == nil and err:find('binary'))\n"
        "local ok = pcall(load, 'return 1', 'x', 'b')\n"
        "assert(not ok)\n"
        "assert(load(string.char(27) .. 'Lua') == nil)"));
    assert_refused(run_main("local f = string.dump(function() end)"), "dump");
}

static void gc_finalizers_are_refused(void **state)
{
    (void)state;
    assert_refused(run_main("setmetatable({}, {__gc = function() while true do end end})"),
                   "__gc");
}

/* What one map does to the shared libraries must not reach the next. */
static void maps_do_not_share_library_state(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    static const char text[] =
        "NAME: hostile_first\n{{\n"
        "string.rep = function() error('poisoned') end\n"
        "getmetatable('').__index = { rep = function() error('poisoned') end }\n"
        "math.floor = nil\n}}\nMAP\nx\nENDMAP\n"
        "NAME: hostile_second\n{{\n"
        "assert(('x'):rep(3) == 'xxx') assert(string.rep('y', 2) == 'yy')\n"
        "assert(math.floor(1.5) == 1)\n}}\nMAP\nx\nENDMAP\n";
    qg_des_names *names = qg_des_names_new();
    qg_des_file *file = NULL;
    qg_des_options des_options = {0};
    qg_des_parse("share.des", text, sizeof text - 1, &des_options, names, &file, diags);
    qg_runtime *rt = qg_runtime_new(NULL, diags);
    assert_int_equal(qg_runtime_add_file(rt, file, diags), QG_OK);
    qg_runtime_compile_map(rt, qg_runtime_find_map(rt, "hostile_first"), diags);
    qg_status second = qg_runtime_compile_map(rt, qg_runtime_find_map(rt, "hostile_second"), diags);
    if (second != QG_OK) {
        qg_diags_print(diags, stderr);
        fail_msg("the second map saw the first map's changes to the libraries");
    }
    qg_runtime_free(rt);
    qg_des_names_free(names);
    qg_diags_free(diags);
}

static void deep_recursion(void **state)
{
    (void)state;
    assert_refused_either(run_main("local function f() return 1 + f() end f()"),
                          "stack overflow", "instruction budget");
    assert_refused(run_main("local t = setmetatable({}, {__index = function(t, k) return t[k] end})\n"
                            "return t.x"),
                   "C stack overflow");
}

/* The reproducer: file-level Lua guards _G with an erroring
 * __newindex; the runtime's own set-up of the map's environment (an
 * ordinary global assignment, as Crawl's) meets it. A diagnostic for the
 * map, never an abort. */
static void guarded_globals_at_file_level(void **state)
{
    (void)state;
    assert_refused(run_prelude("setmetatable(_G, {__newindex = function() error('x') end})"),
                   "x");
    assert_refused(run_prelude("setmetatable(_G, {__newindex = function(t, k)\n"
                               "  error('no new global ' .. k) end})"),
                   "no new global g_dgn_curr_map");
}

/* An erroring __index on _G: every name a map or the runtime looks up
 * and does not find raises it. */
static void erroring_global_lookups(void **state)
{
    (void)state;
    assert_refused(run_file("{{\nsetmetatable(_G, {__index = function(t, k)\n"
                            "  error('no global ' .. k) end})\n}}\n"
                            "NAME: hostile\n{{\nlocal v = undefined_thing\n}}\n"
                            "MAP\nx.x\nENDMAP\n"),
                   "no global undefined_thing");
    /* in a map, _G is the map's environment: its own metatable replaced,
     * even `error` must be kept aside first */
    assert_refused(run_main("local err = error\n"
                            "setmetatable(_G, {__index = function(t, k)\n"
                            "  err('unknown ' .. k) end})\nlocal v = not_defined"),
                   "unknown not_defined");
    assert_refused(run_main("local err = error\n"
                            "setmetatable(_G, {__newindex = function() err('read-only') end})\n"
                            "fresh = 1"),
                   "read-only");
    assert_refused(run_main("setmetatable(_G, {__index = function(t, k) return t[k] end})\n"
                            "local v = not_defined"),
                   "stack overflow");
}

static void finalizers_anywhere_are_refused(void **state)
{
    (void)state;
    assert_refused(run_prelude("setmetatable({}, {__gc = function() error('late') end})"),
                   "__gc");
    assert_refused(run_main("local mt = setmetatable({}, {__index = function(t, k)\n"
                            "  if k == '__gc' then return function() end end end})\n"
                            "setmetatable({}, mt)"),
                   "__gc");
    /* a __gc added after setmetatable never runs (Lua 5.4): harmless */
    assert_runs(run_main("local mt = {} local t = setmetatable({}, mt)\n"
                         "mt.__gc = function() while true do end end t = nil"));
}

static void hooks_cannot_be_set(void **state)
{
    (void)state;
    assert_refused(run_main("debug.sethook(function() end, '', 1)"), "debug");
    assert_refused(run_main("_G.debug.sethook()"), "debug");
    assert_refused(run_main("rawget(_G, 'debug').sethook()"), "attempt to index a nil value");
    assert_refused(run_main("coroutine.wrap(function() debug.sethook() end)()"), "debug");
    assert_refused(run_prelude("debug.sethook(function() error('hooked') end, 'l')"), "debug");
}

/* The string metatable is shared by every map: neither file-level code
 * nor a map may change it, and strings keep working after the attempt. */
static void string_metatable_is_out_of_reach(void **state)
{
    (void)state;
    assert_refused(run_main("getmetatable('').__index = {}"), "string metatable");
    assert_refused(run_main("getmetatable('').__index.rep = nil"), "string");
    assert_refused(run_main("setmetatable('', {})"), "setmetatable");
    assert_refused(run_prelude("getmetatable('').__index = function() error('y') end"),
                   "string metatable");
    assert_runs(run_main("pcall(function() getmetatable('').__index = {} end)\n"
                         "assert(('x'):rep(2) == 'xx')"));
}

/* Errors whose objects fight back: a __tostring that errors, a __close
 * that errors, a table with no message. */
static void awkward_error_objects(void **state)
{
    (void)state;
    run r = run_main("error(setmetatable({}, {__tostring = function() error('deep') end}))");
    assert_int_not_equal(r.compile, QG_OK);
    assert_true(qg_diags_count(r.diags) > 0);
    qg_diags_free(r.diags);
    assert_refused(run_main("do local x <close> = setmetatable({}, {__close = function()\n"
                            "  error('closing') end}) end"),
                   "closing");
    assert_refused(run_main("error({})"), "table value");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(infinite_loop),
        cmocka_unit_test(infinite_loop_inside_pcall),
        cmocka_unit_test(infinite_loop_in_an_error_handler),
        cmocka_unit_test(infinite_loop_inside_a_coroutine),
        cmocka_unit_test(infinite_loop_in_a_to_be_closed_handler),
        cmocka_unit_test(infinite_loop_in_a_sort_comparator),
        cmocka_unit_test(long_loops_inside_one_library_call),
        cmocka_unit_test(costly_library_calls_in_a_loop),
        cmocka_unit_test(memory_bomb),
        cmocka_unit_test(memory_bomb_inside_pcall),
        cmocka_unit_test(string_rep_blowups),
        cmocka_unit_test(costly_patterns),
        cmocka_unit_test(unsafe_libraries_are_unreachable),
        cmocka_unit_test(io_os_require_debug_calls_fail),
        cmocka_unit_test(bytecode_is_refused),
        cmocka_unit_test(gc_finalizers_are_refused),
        cmocka_unit_test(maps_do_not_share_library_state),
        cmocka_unit_test(deep_recursion),
        cmocka_unit_test(guarded_globals_at_file_level),
        cmocka_unit_test(erroring_global_lookups),
        cmocka_unit_test(finalizers_anywhere_are_refused),
        cmocka_unit_test(hooks_cannot_be_set),
        cmocka_unit_test(string_metatable_is_out_of_reach),
        cmocka_unit_test(awkward_error_objects),
    };
    return cmocka_run_group_tests(tests, watch_time, NULL);
}

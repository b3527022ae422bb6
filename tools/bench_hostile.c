/* Benchmark (run by hand, not a test): hostile map programs under the
 * default budgets, as `questgrid show FILE.des --seed 1` runs them (the map
 * compiled, then resolved), each in a child process of its own with a CPU
 * limit; prints the CPU time each took and why it ended. The set holds the
 * programs of issue 28 and the bypasses of the budget found since; the
 * slowest should end well under 10 s on one core.
 *
 *   make bench && ./tools/bench_hostile [CPU_LIMIT_S [NAME_PART]]
 *
 * "file" programs are files of FILE_MAPS such maps, each map compiled, the
 * first resolved (as `show` runs a file: its compile, then one map).
 * "level" programs are maps that build the whole level (ORIENT: encompass,
 * TAGS: layout), which get the level's budget when resolved; their Lua
 * runs when not validating, so the compile passes and the resolution
 * meets it. CPU_LIMIT_S (default 60) stops a run that does not end;
 * NAME_PART runs only the programs whose names hold it. */
#define _GNU_SOURCE
#include "questgrid.h"
#include "questgrid/des.h"
#include "questgrid/lua.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Long strings made by doubling, for a few instructions each. */
#define BIG "local function big(n) local s = 'a' while #s < n do s = s .. s end " \
            "return s:sub(1, n) end "

enum { VAULT, LEVEL, FILE_OF_MAPS, FILE_MAPS = 100 };

static const struct {
    const char *name;
    int kind;
    const char *lua;
} cases[] = {
    {"pcall recursion", VAULT, "local function f() pcall(f) f() end f()"},
    {"concat 8 MB", VAULT, BIG "local s = big(8000000) for i=1,100000 do local t=s..'b' end"},
    {"compare 8 MB <", VAULT, BIG "local a, b = big(8000000), big(8000000) "
                              "for i=1,100000 do local c = a < b end"},
    {"compare 8 MB ==", VAULT, BIG "local a, b = big(8000000), big(8000000) "
                               "for i=1,100000 do local c = a == b end"},
    {"string.pack z", VAULT, BIG "local s = big(8000000) for i=1,100000 do local p = string.pack('z', s) end"},
    {"string.rep separator", VAULT, "for i=1,1000000 do local s = string.rep('', 5000000, 'abcdef') end"},
    {"table.concat 8 MB", VAULT, BIG "local t = {big(8000000)} for i=1,1000000 do local s = table.concat(t) end"},
    {"table.unpack range", VAULT, "for i=1,1e9 do local a = table.unpack({}, 1, 500000) end"},
    {"select varargs", VAULT, "local t = {} for i=1,200000 do t[i]=i end local function g(...) "
                          "for i=1,1e9 do local n = select('#', ...) end end g(table.unpack(t))"},
    {"load 4 MB", VAULT, BIG "local s = big(4000000):gsub('a', 'x=1 ', 1000000) "
                         "for i=1,1000000 do load(s) end"},
    {"pattern a*b", VAULT, "local s = string.rep('a', 5000) for i=1,1000000 do s:find('a*b') end"},
    {"pattern backref", VAULT, "local s = string.rep('a', 3000) for i=1,1000000 do s:find('(a-)%1b') end"},
    {"pattern %b", VAULT, "local s = string.rep('(', 5000) for i=1,1000000 do s:find('%b()') end"},
    {"pattern long set", VAULT, "local set = '[' .. string.rep('b', 4000000) .. ']' "
                            "local s = string.rep('a', 100) for i=1,1000000 do s:find(set) end"},
    {"plain find", VAULT, BIG "local s, p = big(4000000), big(2000000) .. 'b' "
                          "for i=1,1000 do s:find(p, 1, true) end"},
    {"long key lookup", VAULT, BIG "local t = {[big(8000000)] = 1} local k = big(8000000) "
                               "for i=1,1e9 do local v = t[k] end"},
    {"memory in coroutine", VAULT, BIG "local keep = big(20000000) while true do coroutine.resume("
                                   "coroutine.create(function() local s = keep .. keep .. keep end)) end"},
    {"memory in wrap", VAULT, BIG "local keep = big(20000000) while true do pcall(coroutine.wrap("
                              "function() local s = keep .. keep .. keep end)) end"},
    {"error of 50 MB", VAULT, BIG "error(big(50000000))"},
    {"error under deep calls", VAULT, "local function deep(n) if n == 0 then while true do "
                                  "pcall(error, 'x') end end return deep(n - 1) + 1 end deep(150000)"},
    {"mapgrd", VAULT, "while true do local c = mapgrd[1][1] end"},
    {"nsubst", VAULT, "while true do nsubst('. = 1:x / 1:,') end"},
    {"loop", LEVEL, "while true do end"},
    {"tostring", LEVEL, "while true do local s = tostring(12345) end"},
    {"pcall error", LEVEL, "while true do pcall(error) end"},
    {"format", LEVEL, "while true do local s = string.format('%5.2f %d %s', 1.5, 3, 'x') end"},
    {"gsub function", LEVEL, "local s = string.rep('x', 1000) while true do s:gsub('.', function() end) end"},
    {"sort comparator", LEVEL, "local t = {} for i=1,1000 do t[i]=i end "
                           "while true do table.sort(t, function(a,b) return a<b end) end"},
    {"coroutine switch", LEVEL, "local co = coroutine.wrap(function() while true do coroutine.yield() end end) "
                            "while true do co() end"},
    {"ipairs", LEVEL, "local t = {} for i = 1, 1000 do t[i] = i end while true do for _ in ipairs(t) do end end"},
    {"compare 8 MB <", LEVEL, BIG "local a, b = big(8000000), big(8000000) while true do local c = a < b end"},
    {"subst", LEVEL, "while true do subst('x = x.') end"},
    {"kfeat", LEVEL, "while true do kfeat('Z = altar_zin') end"},
    {"xpcall new closures", LEVEL, "while true do xpcall(function() end, function(e) return e end) end"},
    {"pcall new closure", LEVEL, "while true do pcall(function() end) end"},
    {"closures", LEVEL, "while true do local f = function() end end"},
    {"tables", LEVEL, "while true do local t = {1, 2, 3, 4} end"},
    {"coroutine.create", LEVEL, "while true do coroutine.create(function() end) end"},
    {"fresh metatables", LEVEL, "local t = {} while true do setmetatable(t, {__index = function(_, k) "
                            "return k end, __lt = function() return true end}) end"},
    {"global reads", LEVEL, "while true do local a, b, c, d = type, pairs, next, select end"},
    {"__gc", LEVEL, "while true do setmetatable({}, {__gc = function() end}) end"},
    {"number keys", LEVEL, "local i = 0 while true do i = i + 1 local s = 'k' .. i end"},
    {"100 maps compare 8 MB", FILE_OF_MAPS, BIG "local a, b = big(8000000), big(8000000) "
                              "for i=1,100000 do local c = a < b end"},
    {"100 maps pcall", FILE_OF_MAPS, "local function f() pcall(f) f() end f()"},
};

static const char *last_line(const qg_diags *diags)
{
    for (size_t i = qg_diags_count(diags); i-- > 0;) {
        const qg_diag *d = qg_diags_get(diags, i);
        if (d->severity == QG_ERROR)
            return d->message;
    }
    return "(no error)";
}

/* In a child: the map (the maps of a file) compiled, the first resolved;
 * prints why it ended. */
static void run(size_t i)
{
    static char text[FILE_MAPS * 4096];
    int level = cases[i].kind == LEVEL, maps = cases[i].kind == FILE_OF_MAPS ? FILE_MAPS : 1;
    size_t len = 0;
    for (int m = 0; m < maps; m++)
        len += (size_t)snprintf(text + len, sizeof text - len,
                                "NAME: hostile%.0d\nTAGS: %s\n%s{{\n%s%s%s\n}}\nMAP\nx.x\nENDMAP\n\n",
                                m, level ? "layout" : "test", level ? "ORIENT: encompass\n" : "",
                                level ? "if not is_validating() then\n" : "", cases[i].lua,
                                level ? "\nend" : "");
    qg_diags *diags = qg_diags_new();
    qg_des_file *file = NULL;
    qg_des_parse("hostile.des", text, len, NULL, NULL, &file, diags);
    qg_runtime *rt = file ? qg_runtime_new(NULL, diags) : NULL;
    if (rt && qg_runtime_add_file(rt, file, diags) == QG_OK) {
        qg_level *out = NULL;
        qg_status first = QG_OK;
        for (int m = 0; m < maps; m++) {
            qg_status st = qg_runtime_compile_map(rt, qg_runtime_map(rt, (size_t)m), diags);
            if (m == 0)
                first = st;
        }
        if (first == QG_OK)
            qg_runtime_resolve(rt, qg_runtime_map(rt, 0), 1, NULL, &out, diags);
        qg_level_free(out);
    }
    const char *why = last_line(diags);
    int line = (int)strcspn(why, "\n");
    const char *cut = strstr(why, "(map hostile): ");
    if (cut && cut - why < line) {
        line -= (int)(cut + 15 - why);
        why = cut + 15;
    }
    printf("%.*s\n", line < 90 ? line : 90, why);
    fflush(stdout);
    _exit(0);
}

int main(int argc, char **argv)
{
    long limit = argc > 1 ? atol(argv[1]) : 60;
    double slowest = 0;
    printf("%-24s %-6s %8s %8s  %s\n", "program", "map", "CPU s", "peak MB", "ended by");
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (argc > 2 && !strstr(cases[i].name, argv[2]))
            continue;
        static const char *const kinds[] = {"vault", "level", "file"};
        printf("%-24s %-6s ", cases[i].name, kinds[cases[i].kind]);
        fflush(stdout);
        struct rusage before, after;
        getrusage(RUSAGE_CHILDREN, &before);
        pid_t pid = fork();
        if (pid == 0) {
            struct rlimit cpu = {(rlim_t)limit, (rlim_t)limit + 1};
            setrlimit(RLIMIT_CPU, &cpu);
            int fd[2];
            if (pipe(fd) == 0) {
                pid_t worker = fork();
                if (worker == 0) {
                    dup2(fd[1], STDOUT_FILENO);
                    run(i);
                }
                close(fd[1]);
                char why[256] = "";
                ssize_t n = read(fd[0], why, sizeof why - 1);
                int status = 0;
                waitpid(worker, &status, 0);
                struct rusage ru;
                getrusage(RUSAGE_CHILDREN, &ru);
                double cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
                               (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
                why[n > 0 ? n : 0] = '\0';
                printf("%8.2f %8.1f  %s", cpu_s, ru.ru_maxrss / 1024.0,
                       WIFSIGNALED(status) ? "(killed at the CPU limit)\n" : why);
                fflush(stdout);
            }
            _exit(0);
        }
        waitpid(pid, NULL, 0);
        getrusage(RUSAGE_CHILDREN, &after);
        double took = (double)(after.ru_utime.tv_sec - before.ru_utime.tv_sec) +
                      (after.ru_utime.tv_usec - before.ru_utime.tv_usec) / 1e6;
        if (took > slowest)
            slowest = took;
    }
    printf("slowest: %.2f s of CPU\n", slowest);
    return 0;
}

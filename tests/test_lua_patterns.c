/* The runtime's string.find, match, gmatch and gsub (src/lua/pattern.c)
 * against Lua 5.4's own: the same Lua program, run in a sandboxed state
 * and in a plain one, draws thousands of patterns and subjects from small
 * alphabets rich in pattern syntax and writes every result and every
 * error message down; the two texts must be the same. Linked statically
 * to reach the runtime's state. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"
#include "lua/rt.h"

#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A seeded generator (the sandbox has no os or clock), the four functions
 * called through a wrapper so that argument errors name it the same way
 * in both states, and every value written as type and text. */
static const char program[] =
    "local seed = ...\n"
    "local function rand(n) seed = (seed * 1103515245 + 12345) % 2147483648\n"
    "  return seed % n end\n"
    "local function pick(alphabet, most)\n"
    "  local t = {}\n"
    "  for i = 1, rand(most + 1) do local k = rand(#alphabet) + 1 t[i] = alphabet:sub(k, k) end\n"
    "  return table.concat(t) end\n"
    "local out = {}\n"
    "local function put(...) local n = select('#', ...)\n"
    "  for i = 1, n do local v = select(i, ...) out[#out + 1] = type(v) .. ':' .. tostring(v) end\n"
    "  out[#out + 1] = '|' end\n"
    "local function call(f, ...) local r = table.pack(f(...)) return table.unpack(r, 1, r.n) end\n"
    "local function try(...) put(pcall(call, ...)) end\n"
    "local pattern_chars = 'ab.%()[]^$*+-?1bfdwsxA]%a'\n"
    "local subject_chars = 'ab()[]%x- \\0'\n"
    "local repls = {'<%0>', '%1', '%2', '%%', '%', 'x', 5,\n"
    "  function(a, b) return b or a end, function() return false end,\n"
    "  {a = 'A', ['('] = 1}, function() return {} end}\n"
    "for case = 1, 6000 do\n"
    "  local p, s = pick(pattern_chars, 8), pick(subject_chars, 12)\n"
    "  local init = rand(5) - 2\n"
    "  try(string.find, s, p, init)\n"
    "  try(string.find, s, p, init, true)\n"
    "  try(string.match, s, p, init)\n"
    "  local ok, iter = pcall(string.gmatch, s, p, init)\n"
    "  if ok then for i = 1, 20 do local r = table.pack(pcall(iter))\n"
    "    put(table.unpack(r, 1, r.n)) if not r[1] or r[2] == nil then break end end\n"
    "  else put(ok, iter) end\n"
    "  try(string.gsub, s, p, repls[rand(#repls) + 1], rand(4) == 0 and rand(3) or nil)\n"
    "end\n"
    "try(string.gsub, 'abc', '%w', '%9')\n"
    "try(string.find, ('a'):rep(300), ('(a)'):rep(33))\n"
    "try(string.find, ('a'):rep(300), ('a?'):rep(250) .. ('a'):rep(250))\n"
    "try(string.gsub, 'hello world', '(o)', '[%1]')\n"
    "try(string.gsub, 'abc', '', '-')\n"
    "try(string.gmatch, 'abc')\n"
    "try(string.gsub, 'abc', 'b', true)\n"
    "return table.concat(out, '\\n')\n";

/* The program's text (it may hold NUL bytes: the subjects do). */
typedef struct text {
    char *data;
    size_t len;
} text;

static text run_program(lua_State *L, int seed)
{
    if (luaL_loadbufferx(L, program, sizeof program - 1, "=patterns", "t") != LUA_OK)
        fail_msg("%s", lua_tostring(L, -1));
    lua_pushinteger(L, seed);
    if (lua_pcall(L, 1, 1, 0) != LUA_OK)
        fail_msg("%s", lua_tostring(L, -1));
    text t;
    const char *s = lua_tolstring(L, -1, &t.len);
    t.data = malloc(t.len + 1);
    assert_non_null(t.data);
    memcpy(t.data, s, t.len + 1);
    lua_pop(L, 1);
    return t;
}

/* Shows where they part, NUL bytes written as \0. */
static void show_from(const char *label, text t, size_t from)
{
    fprintf(stderr, "--- %s:\n", label);
    for (size_t i = from; i < t.len && i < from + 400; i++)
        fputs(t.data[i] ? (char[2]){t.data[i], 0} : "\\0", stderr);
    fputc('\n', stderr);
}

static void assert_same(text expected, text got)
{
    size_t i = 0;
    while (i < expected.len && i < got.len && expected.data[i] == got.data[i])
        i++;
    if (i == expected.len && i == got.len)
        return;
    size_t from = i > 200 ? i - 200 : 0;
    show_from("Lua's", expected, from);
    show_from("the runtime's", got, from);
    fail_msg("the runs differ at byte %zu of %zu", i, expected.len);
}

static void same_results_as_lua(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    qg_runtime_options options = {0};
    options.instruction_limit = 4000000000ul;
    qg_runtime *rt = qg_runtime_new(&options, diags);
    assert_non_null(rt);
    lua_State *plain = luaL_newstate();
    luaL_openlibs(plain);
    for (int seed = 1; seed <= 3; seed++) {
        lrt_operation_start(rt);
        text expected = run_program(plain, seed);
        text got = run_program(rt->L, seed);
        assert_same(expected, got);
        assert_true(expected.len > 500000);
        free(expected.data);
        free(got.data);
    }
    lua_close(plain);
    qg_runtime_free(rt);
    qg_diags_free(diags);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_results_as_lua),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

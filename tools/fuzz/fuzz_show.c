/* libFuzzer harness: `questgrid show FILE.des --seed N` on generated maps.
 *
 * The input is not Lua: its bytes choose, one after another, from a small
 * grammar of the statements that load the sandbox (loops, protected calls
 * and errors, coroutines, metatables with __index, __lt and __close, long
 * strings made and compared, patterns, the table library, load(), the
 * map-bound dgn functions, mapgrd), so nearly every input is a program
 * that runs. The map is compiled and resolved with the seed the input
 * gives, at the runtime's real budgets (the defaults: memory, instructions,
 * CPU time), as show does, and the level rendered. A map may be a level
 * builder (ORIENT: encompass, TAGS: layout), which runs under the level's
 * budget. A run past every budget is a libFuzzer timeout. */
#include "questgrid.h"
#include "questgrid/des.h"
#include "questgrid/lua.h"
#include "questgrid/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

typedef struct gen {
    const unsigned char *data;
    size_t size, at;
    char *out;
    size_t len, cap;
    int depth, names;
} gen;

static unsigned pick(gen *g, unsigned n)
{
    return g->at < g->size ? g->data[g->at++] % n : 0;
}

static void put(gen *g, const char *s)
{
    size_t n = strlen(s);
    if (g->len + n + 1 > g->cap) {
        size_t cap = (g->len + n + 1) * 2;
        char *p = realloc(g->out, cap);
        if (!p)
            return;
        g->out = p;
        g->cap = cap;
    }
    memcpy(g->out + g->len, s, n + 1);
    g->len += n;
}

static void putf(gen *g, const char *fmt, unsigned v)
{
    char buf[256];
    snprintf(buf, sizeof buf, fmt, v);
    put(g, buf);
}

static const char *const numbers[] = {"0", "1", "7", "-1", "1e9", "math.maxinteger", "0.5",
                                      "2^31", "n", "#s", "#t"};
static const char *const strings[] = {"'x'", "''", "s", "s .. s", "('ab'):rep(n)",
                                      "tostring(n)", "'%d'", "'(a*)%1'", "'[%a-z]+'",
                                      "'%b()'", "string.rep('a', 1 << 16)", "'\\0'"};
static const char *const patterns[] = {"'a*b'", "'(.-)%1'", "'%b()'", "'^%s*(.-)%s*$'",
                                       "'[^x]*'", "'%f[%w]%w+'", "'()a'", "'.'", "'((a)'",
                                       "'%'"};

static void expression(gen *g);

static void value(gen *g)
{
    switch (pick(g, 4)) {
    case 0: put(g, numbers[pick(g, sizeof numbers / sizeof *numbers)]); break;
    case 1: put(g, strings[pick(g, sizeof strings / sizeof *strings)]); break;
    case 2: put(g, "t"); break;
    default: expression(g); break;
    }
}

static void expression(gen *g)
{
    if (g->depth > 4) {
        put(g, "n");
        return;
    }
    g->depth++;
    switch (pick(g, 12)) {
    case 0: put(g, "("); value(g); put(g, " .. "); value(g); put(g, ")"); break;
    case 1: put(g, "(s < s .. 'b')"); break;
    case 2: put(g, "select('#', table.unpack(t))"); break;
    case 3: put(g, "s:gsub("); put(g, patterns[pick(g, 10)]); put(g, ", function(a) return a end)"); break;
    case 4: put(g, "(s:find("); put(g, patterns[pick(g, 10)]); put(g, ") or 0)"); break;
    case 5: put(g, "string.format('%5.2f %s', n, s)"); break;
    case 6: put(g, "table.concat(t, ',')"); break;
    case 7: put(g, "pcall(error, s)"); break;
    case 8: put(g, "(mapgrd[1][1] or '.')"); break;
    case 9: put(g, "crawl.random2(10)"); break;
    case 10: put(g, "tonumber(s)"); break;
    default: put(g, "n + 1"); break;
    }
    g->depth--;
}

static void block(gen *g, unsigned statements);

static void statement(gen *g)
{
    if (g->depth > 3) {
        put(g, "n = n + 1\n");
        return;
    }
    g->depth++;
    switch (pick(g, 24)) {
    case 0: put(g, "for i = 1, "); value(g); put(g, " do\n"); block(g, 3); put(g, "end\n"); break;
    case 1: put(g, "while n < 1e12 do n = n + 1\n"); block(g, 2); put(g, "end\n"); break;
    case 2: put(g, "pcall(function()\n"); block(g, 3); put(g, "end)\n"); break;
    case 3: put(g, "xpcall(function()\n"); block(g, 2); put(g, "end, function(e) "); block(g, 1);
        put(g, " return e end)\n"); break;
    case 4: put(g, "s = "); value(g); put(g, "\n"); break;
    case 5: put(g, "t[#t + 1] = "); value(g); put(g, "\n"); break;
    case 6: put(g, "table.sort(t, function(a, b) return tostring(a) < tostring(b) end)\n"); break;
    case 7: put(g, "local co = coroutine.wrap(function() for i = 1, 10 do coroutine.yield(i) end end)\n"
                   "pcall(co) pcall(co)\n"); break;
    case 8: put(g, "do local c <close> = setmetatable({}, {__close = function()\n");
        block(g, 2); put(g, "end}) end\n"); break;
    case 9: put(g, "setmetatable(t, {__index = function(_, k) "); block(g, 1);
        put(g, " return k end, __lt = function() return true end})\n"); break;
    case 10: put(g, "local f = load('return ' .. tostring(n))\nif f then n = f() or n end\n"); break;
    case 11: put(g, "local function r(k) if k > 0 then return r(k - 1) + 1 end return 0 end\npcall(r, ");
        value(g); put(g, ")\n"); break;
    case 12: put(g, "local function f() pcall(f) end f()\n"); break;
    case 13: put(g, "subst('x = x.')\n"); break;
    case 14: put(g, "nsubst('. = 1:x / 1:.')\n"); break;
    case 15: put(g, "kfeat('Z = altar_zin')\n"); break;
    case 16: put(g, "mapgrd[1][1] = '.'\n"); break;
    case 17: putf(g, "extend_map{width = %u, height = 8, fill = 'x'}\n", 4 + pick(g, 40)); break;
    case 18: put(g, "if crawl.coinflip() then\n"); block(g, 2); put(g, "else\n"); block(g, 2);
        put(g, "end\n"); break;
    case 19: put(g, "n = "); expression(g); put(g, "\n"); break;
    case 20: put(g, "for _, v in ipairs(t) do n = n + 1 end\n"); break;
    case 21: put(g, "for k in pairs(t) do n = n + 1 end\n"); break;
    case 22: put(g, "local co = coroutine.create(function() error('x') end)\ncoroutine.resume(co)\n"
                    "coroutine.close(co)\n"); break;
    default: put(g, "s = s:sub(1, 1 << 20)\n"); break;
    }
    g->depth--;
}

static void block(gen *g, unsigned statements)
{
    unsigned n = 1 + pick(g, statements);
    for (unsigned i = 0; i < n; i++)
        statement(g);
}

/* A .des file of one map whose main chunk (and, by choice, its validate
 * chunk) the input generates. */
static char *generate(const unsigned char *data, size_t size, unsigned long long *seed)
{
    gen g = {data, size, 0, NULL, 0, 0, 0, 0};
    *seed = pick(&g, 256);
    int level = pick(&g, 4) == 0;
    put(&g, "NAME: fuzz_show\n");
    put(&g, level ? "TAGS: layout\nORIENT: encompass\n" : "TAGS: fuzz\nDEPTH: D:1-20\n");
    put(&g, "{{\nlocal n, s, t = 0, 'ab', {1, 2, 3}\n");
    if (level)
        put(&g, "if not is_validating() then\n");
    block(&g, 12);
    if (level)
        put(&g, "end\n");
    put(&g, "}}\n");
    if (pick(&g, 3) == 0) {
        put(&g, "validate {{\nlocal n, s, t = 0, 'ab', {}\n");
        block(&g, 4);
        put(&g, "return true\n}}\n");
    }
    put(&g, "KFEAT: Z = altar_zin\nMONS: kobold\nMAP\nxxxxxxx\nx.1.Z.x\nx+xxxxx\nENDMAP\n");
    return g.out;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size > 4096)
        return 0;
    unsigned long long seed;
    char *text = generate(data, size, &seed);
    if (!text)
        return 0;
    qg_diags *diags = qg_diags_new();
    qg_des_names *names = qg_des_names_new();
    qg_des_file *file = NULL;
    qg_des_options des_options = {0};
    qg_des_parse("fuzz_show.des", text, strlen(text), &des_options, names, &file, diags);
    free(text);
    qg_runtime *rt = file ? qg_runtime_new(NULL, diags) : NULL;
    if (rt && qg_runtime_add_file(rt, file, diags) == QG_OK && qg_runtime_map_count(rt)) {
        qg_mapdef *def = qg_runtime_map(rt, 0);
        qg_level *level = NULL;
        qg_context context = {"D:5", 10, NULL};
        if (qg_runtime_compile_map(rt, def, diags) == QG_OK &&
            qg_runtime_resolve(rt, def, seed, &context, &level, diags) == QG_OK) {
            FILE *sink = fopen("/dev/null", "w");
            if (sink) {
                qg_render_text(level, NULL, sink);
                fclose(sink);
            }
        }
        qg_level_free(level);
    } else if (!rt) {
        qg_des_file_free(file);
    }
    qg_runtime_free(rt);
    qg_des_names_free(names);
    qg_diags_free(diags);
    return 0;
}

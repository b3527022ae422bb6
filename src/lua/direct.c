/* Chunks that are plain directive calls, run without compiling them. Most
 * of a lowered .des map's main chunk is statements like `tags("arrival")`
 * or `weight(2)`: a call of a dgn function bound to the map with literal
 * arguments, and Lua takes longer to compile such text than to run it.
 * So the statements of that form at the head of a chunk are run by calling
 * the directive directly, and Lua compiles the rest of the chunk (padded
 * to its lines, so that line numbers and messages are those of the whole
 * chunk) from the first statement of any other form. A call that fails is
 * handed to Lua too, with the random state it started from, so that its
 * error is reported exactly as Lua reports it. A mapchunk of map("row")
 * calls alone (a lowered MAP body) goes further: its rows are added with
 * no call at all. */
#include "lua/run.h"
#include "core/buf.h"

#include <string.h>

enum { MAX_ARGS = 8, MAX_DIGITS = 18 };

typedef struct literal {
    const char *text;    /* a string's bytes between its quotes */
    size_t len;
    int escaped;         /* the string holds \\ \" or \' */
    int is_number;
    lua_Integer number;
} literal;

typedef struct plain_call {
    const char *name;
    size_t name_len;
    literal args[MAX_ARGS];
    int argc;
} plain_call;

typedef struct direct_run {
    qg_runtime *rt;
    lrt_map *map;
    const qg_des_chunk *chunk;
    qg_chunk_kind kind;
    const char *rest;    /* where Lua takes over (the chunk's end: nowhere) */
    int rest_line;       /* its line in the chunk, from 1 */
    int nomem;           /* rows could not be added */
    qg_buf unescaped;
} direct_run;

static int is_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_name_char(char c)
{
    return is_name_start(c) || (c >= '0' && c <= '9');
}

static int is_reserved(const char *s, size_t len)
{
    static const struct { const char *word; size_t len; } words[] = {
        {"and", 3}, {"break", 5}, {"do", 2}, {"else", 4}, {"elseif", 6}, {"end", 3},
        {"false", 5}, {"for", 3}, {"function", 8}, {"goto", 4}, {"if", 2}, {"in", 2},
        {"local", 5}, {"nil", 3}, {"not", 3}, {"or", 2}, {"repeat", 6}, {"return", 6},
        {"then", 4}, {"true", 4}, {"until", 5}, {"while", 5}};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (words[i].len == len && memcmp(words[i].word, s, len) == 0)
            return 1;
    return 0;
}

/* Spaces, tabs, newlines and empty statements; *line counts the newlines.
 * A carriage return stops it: Lua counts "\r\n" as one line, and the
 * padded rest must count as Lua does. */
static const char *skip_blank(const char *p, const char *end, int *line)
{
    for (; p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == ';'); p++)
        *line += *p == '\n';
    return p;
}

static const char *skip_spaces(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* A string in quotes with no escapes but \\ \" \' and no line break. */
static const char *scan_string(const char *p, const char *end, literal *out)
{
    char quote = *p++;
    out->text = p;
    out->escaped = 0;
    out->is_number = 0;
    for (; p < end && *p != quote; p++) {
        if (*p == '\n' || *p == '\r')
            return NULL;
        if (*p == '\\') {
            if (end - p < 2 || (p[1] != '\\' && p[1] != '"' && p[1] != '\''))
                return NULL;
            out->escaped = 1;
            p++;
        }
    }
    if (p == end)
        return NULL;
    out->len = (size_t)(p - out->text);
    return p + 1;
}

/* A decimal integer that Lua reads as one (never as a float). */
static const char *scan_number(const char *p, const char *end, literal *out)
{
    int negative = p < end && *p == '-';
    const char *digits = p + negative, *q = digits;
    lua_Integer value = 0;
    while (q < end && *q >= '0' && *q <= '9' && q - digits < MAX_DIGITS)
        value = value * 10 + (*q++ - '0');
    if (q == digits || (q < end && (is_name_char(*q) || *q == '.')))
        return NULL;
    out->is_number = 1;
    out->number = negative ? -value : value;
    return q;
}

/* name(literal, ...) ending where a new statement or the chunk begins;
 * returns the end of the call, NULL when the statement is of another form. */
static const char *scan_call(const char *p, const char *end, plain_call *call)
{
    call->name = p;
    while (p < end && is_name_char(*p))
        p++;
    call->name_len = (size_t)(p - call->name);
    if (!call->name_len || !is_name_start(*call->name) ||
        is_reserved(call->name, call->name_len))
        return NULL;
    p = skip_spaces(p, end);
    if (p == end || *p != '(')
        return NULL;
    p = skip_spaces(p + 1, end);
    call->argc = 0;
    while (p < end && *p != ')') {
        if (call->argc == MAX_ARGS)
            return NULL;
        literal *arg = &call->args[call->argc++];
        p = *p == '"' || *p == '\'' ? scan_string(p, end, arg) : scan_number(p, end, arg);
        if (!p)
            return NULL;
        p = skip_spaces(p, end);
        if (p < end && *p == ',')
            p = skip_spaces(p + 1, end);
        else if (p < end && *p != ')')
            return NULL;
    }
    if (p == end)
        return NULL;
    const char *after = ++p;
    int lines_after = 0;
    /* `f("a") ("b")` or `f("a").x` go on with the call: not plain */
    p = skip_blank(p, end, &lines_after);
    return p == end || *p == ';' || is_name_start(*p) ? after : NULL;
}

/* A string literal's bytes into out (room for arg->len); their count. */
static size_t unescape(const literal *arg, char *out)
{
    size_t n = 0;
    for (size_t i = 0; i < arg->len; i++)
        out[n++] = arg->text[i] == '\\' ? arg->text[++i] : arg->text[i];
    return n;
}

static void push_literal(lua_State *L, const literal *arg, qg_buf *scratch)
{
    if (arg->is_number) {
        lua_pushinteger(L, arg->number);
        return;
    }
    if (!arg->escaped) {
        lua_pushlstring(L, arg->text, arg->len);
        return;
    }
    qg_buf_reset(scratch);
    if (!qg_buf_reserve(scratch, arg->len))
        luaL_error(L, "not enough memory");
    scratch->len = unescape(arg, scratch->data);
    lua_pushlstring(L, scratch->data, scratch->len);
}

static int is_row_call(const plain_call *call)
{
    return call->name_len == 3 && memcmp(call->name, "map", 3) == 0 && call->argc == 1 &&
           !call->args[0].is_number && call->args[0].len <= LRT_MAX_WIDTH;
}

/* The rows of a mapchunk of map("row") calls alone, added as map() would
 * add them, while map is the runtime's own (a map's prelude may define its
 * own). All or nothing: a map too high is left to map(), which reports it.
 * Returns 1 when added, 0 when the chunk must run otherwise, -1 when out
 * of memory. The environment is at index 1. */
static int add_plain_rows(lua_State *L, direct_run *d)
{
    if (lrt_env_directive_cfunction(L, 1, "map", 3) != lrt_map_fn)
        return 0;
    literal rows[LRT_MAX_HEIGHT];
    int count = 0, room = LRT_MAX_HEIGHT - d->map->height, lines = 1;
    const char *end = d->chunk->code + d->chunk->len;
    for (const char *p = skip_blank(d->chunk->code, end, &lines); p < end;
         p = skip_blank(p, end, &lines)) {
        plain_call call;
        p = scan_call(p, end, &call);
        if (!p || !is_row_call(&call) || count >= room)
            return 0;
        rows[count++] = call.args[0];
    }
    for (int i = 0; i < count; i++) {
        char row[LRT_MAX_WIDTH];
        if (!lrt_map_add_row(d->map, row, unescape(&rows[i], row)))
            return -1;
    }
    return 1;
}

/* Whether a call resolves maps inside the map (subvault): one that fails
 * is not run directly, since handed to Lua it would run again, every map
 * below it with it, twice at each level a chain of subvaults nests. */
static int nests_maps(const plain_call *call)
{
    return call->name_len == 8 && memcmp(call->name, "subvault", 8) == 0;
}

/* Runs the plain calls at the head of the chunk (protected: an error
 * leaves d->rest at the statement that was being run). */
static int run_plain_calls(lua_State *L)
{
    direct_run *d = lua_touserdata(L, 1);
    lua_settop(L, 0);
    lrt_push_env(L, d->rt, d->map);
    const char *p = d->chunk->code, *end = p + d->chunk->len;
    if (d->kind == QG_CHUNK_MAPCHUNK) {
        int added = add_plain_rows(L, d);
        d->nomem = added < 0;
        if (added) {
            d->rest = end;
            return 0;
        }
    }
    int line = 1;
    for (;;) {
        p = skip_blank(p, end, &line);
        d->rest = p;
        d->rest_line = line;
        plain_call call;
        const char *next = p < end ? scan_call(p, end, &call) : NULL;
        if (!next || nests_maps(&call) || !lrt_env_directive(L, 1, call.name, call.name_len))
            return 0;
        for (int i = 0; i < call.argc; i++)
            push_literal(L, &call.args[i], &d->unescaped);
        qg_rng before = d->rt->rng;
        if (lua_pcall(L, call.argc, 0, 0) != LUA_OK) {
            d->rt->rng = before;
            return 0;
        }
        p = next;
    }
}

/* The chunk from d->rest on, with a newline for each line before it. */
static qg_status run_rest(direct_run *d, int *result, qg_diags *diags)
{
    const qg_des_chunk *chunk = d->chunk;
    if (d->rest == chunk->code)
        return lrt_run_chunk(d->rt, d->map, chunk, d->kind, result, diags);
    qg_buf code;
    qg_buf_init(&code);
    for (int i = 1; i < d->rest_line; i++)
        qg_buf_putc(&code, '\n');
    qg_buf_append(&code, d->rest, (size_t)(chunk->code + chunk->len - d->rest));
    qg_status st = QG_ERR_NOMEM;
    if (!code.failed) {
        qg_des_chunk rest = {code.data, code.len, chunk->first_line, chunk->file};
        st = lrt_run_chunk(d->rt, d->map, &rest, d->kind, result, diags);
    }
    qg_buf_free(&code);
    return st;
}

qg_status lrt_run_chunk_direct(qg_runtime *rt, lrt_map *map, const qg_des_chunk *chunk,
                               qg_chunk_kind kind, int *result, qg_diags *diags)
{
    lua_State *L = rt->L;
    direct_run d = {rt, map, chunk, kind, chunk->code, 1, 0, {0}};
    qg_buf_init(&d.unescaped);
    int top = lua_gettop(L);
    lrt_budget_reset(rt);
    int status = lrt_protect(L, run_plain_calls, &d);
    qg_buf_free(&d.unescaped);
    if (status != LUA_OK)
        return lrt_report_lua_error(rt, map, "setting up its environment", status, diags);
    lua_settop(L, top);
    if (d.nomem)
        return QG_ERR_NOMEM;
    if (d.rest == chunk->code + chunk->len) {
        if (result)
            *result = 0;   /* a chunk that returns nothing */
        return QG_OK;
    }
    return run_rest(&d, result, diags);
}

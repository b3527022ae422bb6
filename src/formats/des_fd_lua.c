/* F:/D: ?: expressions as Lua: the expression text becomes calls of
 * qg_fd_call and qg_fd_var, which the map's prelude defines to evaluate
 * exactly as the dialect's games do (strings; only "0" is false). */
#include "formats/des_fd.h"
#include "fd/dialect.h"

#include <string.h>

static const char functions[] =
    "  function qg_fd_var(name)\n"
    "    local get = rawget(you, \"var\")\n"
    "    if get then\n"
    "      local v = get(name)\n"
    "      if v ~= nil then return tostring(v) end\n"
    "    end\n"
    "    if name == \"LEVEL\" then return tostring(you.xl()) end\n"
    "    return \"?o?o?\"\n"
    "  end\n"
    "  local function fold(args, start, hit, want_zero)\n"
    "    local v = start\n"
    "    for _, t in ipairs(args) do\n"
    "      if t ~= \"\" and (t == \"0\") == want_zero then v = hit end\n"
    "    end\n"
    "    return v\n"
    "  end\n"
    "  local function equ_chain(args)\n"
    "    local v, t = \"1\", args[1] or \"\"\n"
    "    for i = 2, #args do\n"
    "      local p = t\n"
    "      t = args[i]\n"
    "      if t ~= \"\" and p ~= t then v = \"0\" end\n"
    "    end\n"
    "    return v\n"
    "  end\n"
    "  local function equ_set(args, negate)\n"
    "    local v, t = negate and \"1\" or \"0\", args[1] or \"\"\n"
    "    for i = 2, #args do\n"
    "      if t == args[i] then v = negate and \"0\" or \"1\" end\n"
    "    end\n"
    "    return v\n"
    "  end\n"
    "  local function atol(s)\n"
    "    return tonumber(string.match(s, \"^%s*([+-]?%d+)\")) or 0\n"
    "  end\n"
    "  local function compare_chain(args, sign)\n"
    "    local v, t = \"1\", args[1] or \"\"\n"
    "    for i = 2, #args do\n"
    "      local p = t\n"
    "      t = args[i]\n"
    "      if t ~= \"\" then\n"
    "        local a, b = p, t\n"
    "        if qg_fd_order == \"number\" then a, b = atol(p), atol(t) end\n"
    "        local cmp = (a > b and 1 or 0) - (a < b and 1 or 0)\n"
    "        if cmp * sign > 0 then v = \"0\" end\n"
    "      end\n"
    "    end\n"
    "    return v\n"
    "  end\n"
    "  local function modulo(args)\n"
    "    local v = atol(args[1] or \"0\")\n"
    "    for i = 2, #args do\n"
    "      local d = atol(args[i])\n"
    "      if d == 0 then return \"0\" end\n"
    "      v = math.fmod(v, d)\n"
    "    end\n"
    "    return tostring(math.tointeger(v) or v)\n"
    "  end\n"
    "  function qg_fd_call(name, ...)\n"
    "    local args = {...}\n"
    "    if not qg_fd_functions[name] then return \"?o?o?\" end\n"
    "    if name == \"IOR\" or name == \"OR\" then return fold(args, \"0\", \"1\", false) end\n"
    "    if name == \"AND\" then return fold(args, \"1\", \"0\", true) end\n"
    "    if name == \"NOT\" then return fold(args, \"1\", \"0\", false) end\n"
    "    if name == \"EQU\" then\n"
    "      if qg_fd_equ == \"set\" then return equ_set(args, false) end\n"
    "      return equ_chain(args)\n"
    "    end\n"
    "    if name == \"NEQ\" then return equ_set(args, true) end\n"
    "    if name == \"LEQ\" then return compare_chain(args, 1) end\n"
    "    if name == \"GEQ\" then return compare_chain(args, -1) end\n"
    "    if name == \"MOD\" then return modulo(args) end\n"
    "    return \"?o?o?\"\n"
    "  end\n"
    "}}\n";

/* The dialect's ?: semantics, from its table, as Lua values. */
void des_fd_prelude(qg_buf *out, qg_fd_dialect dialect)
{
    const fd_dialect_row *row = fd_row(dialect);
    static const char *const orders[] = {"none", "strcmp", "number"};
    qg_buf_printf(out,
                  "prelude {{\n"
                  "  -- F:/D: ?: conditions, evaluated as %s reads them. A host that\n"
                  "  -- knows the games' variables answers you.var(NAME); $LEVEL is\n"
                  "  -- you.xl().\n"
                  "  qg_fd_dialect = \"%s\"\n"
                  "  qg_fd_equ = \"%s\"\n"
                  "  qg_fd_order = \"%s\"\n"
                  "  qg_fd_functions = {",
                  row->title, row->name, row->equ == FD_EQU_SET ? "set" : "chain",
                  orders[row->order]);
    static const char *const candidates[] = {"AND", "IOR", "NOT", "EQU", "LEQ", "GEQ",
                                             "OR", "NEQ", "MOD", NULL};
    for (int i = 0; candidates[i]; i++)
        if (fd_has_function(row, candidates[i]))
            qg_buf_printf(out, " %s = true,", candidates[i]);
    qg_buf_puts(out, " }\n");
    qg_buf_puts(out, functions);
}

static void put_constant(qg_buf *out, const char *s, size_t len)
{
    qg_buf_putc(out, '"');
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '"' || s[i] == '\\')
            qg_buf_putc(out, '\\');
        qg_buf_putc(out, s[i]);
    }
    qg_buf_putc(out, '"');
}

typedef struct scan {
    const char *s, *end;
    int tome;
} scan;

static int is_atom_byte(const scan *sc, char c)
{
    return (unsigned char)c > ' ' && (unsigned char)c < 0x7F && c != '[' && c != ']';
}

static void expr(scan *sc, qg_buf *out);

/* An atom: a constant, or a $variable. */
static void atom(scan *sc, qg_buf *out)
{
    const char *b = sc->s;
    while (sc->s < sc->end && is_atom_byte(sc, *sc->s)) {
        if (sc->tome && *sc->s == '"') {
            const char *close = memchr(sc->s + 1, '"', (size_t)(sc->end - sc->s - 1));
            sc->s = close ? close : sc->end - 1;
        }
        sc->s++;
    }
    if (b < sc->s && *b == '$') {
        qg_buf_puts(out, "qg_fd_var(");
        put_constant(out, b + 1, (size_t)(sc->s - b - 1));
        qg_buf_putc(out, ')');
    } else {
        put_constant(out, b, (size_t)(sc->s - b));
    }
}

static void skip_space(scan *sc)
{
    while (sc->s < sc->end && *sc->s == ' ')
        sc->s++;
}

/* [NAME arg …]: the name is itself an expression in the games; here it
 * must be an atom. A missing ']' is the games' "?x?x?". */
static void bracket(scan *sc, qg_buf *out)
{
    sc->s++;
    skip_space(sc);
    qg_buf_puts(out, "qg_fd_call(");
    atom(sc, out);
    for (;;) {
        skip_space(sc);
        if (sc->s >= sc->end) {
            qg_buf_puts(out, ") and \"?x?x?\"");
            return;
        }
        if (*sc->s == ']') {
            sc->s++;
            qg_buf_putc(out, ')');
            return;
        }
        qg_buf_puts(out, ", ");
        expr(sc, out);
    }
}

static void expr(scan *sc, qg_buf *out)
{
    skip_space(sc);
    if (sc->s < sc->end && *sc->s == '[')
        bracket(sc, out);
    else
        atom(sc, out);
}

void des_fd_condition(qg_buf *out, const char *text, size_t len, qg_fd_dialect dialect)
{
    scan sc = {text, text + len, fd_row(dialect)->quoted_atoms};
    qg_buf_putc(out, '(');
    expr(&sc, out);
    qg_buf_puts(out, ") ~= \"0\"");
}

/* The ?: expression language, evaluated the way the games'
 * process_dungeon_file_expr() does it: over a scratch copy of the line
 * that is cut into tokens in place, with the same terminator bookkeeping,
 * so odd inputs (missing ']', stray spaces, nested brackets closing early)
 * give the games' values. */
#include "fd/fd_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NESTING 200
#define RESULT_RING 32

static const char UNKNOWN[] = "?o?o?";
static const char UNCLOSED[] = "?x?x?";

/* A value: a string, or the games' shared static buffer that numeric
 * variables are formatted into (so two of them always compare equal). */
typedef struct val {
    const char *s;
    int shared;
    int variable;
} val;

typedef struct ectx {
    char *s;
    const char *base;        /* the scratch copy's start, for columns */
    qg_fd_dialect dialect;
    const fd_dialect_row *row;
    const qg_vars *vars;
    const fd_eval_sink *sink;
    char shared[64];
    int next_result;
    int depth;
    int too_deep;
    char results[RESULT_RING][24];  /* last: not cleared per evaluation */
} ectx;

static const char *str(const ectx *c, val v)
{
    return v.shared ? c->shared : v.s;
}

static void copy_text(char *out, size_t size, const char *text)
{
    size_t n = strlen(text);
    if (n >= size)
        n = size - 1;
    memcpy(out, text, n);
    out[n] = '\0';
}

static val constant(const char *s)
{
    val v = {s, 0, 0};
    return v;
}

static int is_space(char ch)
{
    return ch == ' ' || (ch >= '\t' && ch <= '\r');
}

static int is_print(char ch)
{
    return (unsigned char)ch >= 0x20 && (unsigned char)ch < 0x7f;
}

/* The column of a byte of the scratch copy in the reported line. */
static int column(const ectx *c, const char *p)
{
    return c->sink ? (int)(p - c->base) + c->sink->first_col : 0;
}

static val variable(ectx *c, const char *name)
{
    const char *value = qg_vars_get(c->vars, name);
    if (c->sink && c->sink->checking && c->sink->at && !value &&
        !fd_has_variable(c->row, name))
        fd_warning(c->sink->at, column(c, name - 1),
                   "unknown variable $%s: the games read it as \"%s\", which counts as true "
                   "on its own and equals no value an EQU compares it with",
                   name, UNKNOWN);
    val v = {value ? value : UNKNOWN, 0, 1};
    if (value && fd_shared_variable(c->row, name)) {
        copy_text(c->shared, sizeof c->shared, value);
        v.shared = 1;
    }
    return v;
}

static val expr(ectx *c, char *f);

/* An atom: printable bytes up to a space or bracket (ToME reads a quoted
 * part as one piece, for $QUEST"name"). */
static val atom(ectx *c, char *f)
{
    char *b = c->s;
    char *s = c->s;
    while (is_print(*s) && *s != ' ' && *s != '[' && *s != ']') {
        if (c->row->quoted_atoms && *s == '"') {
            s++;
            while (*s && *s != '"')
                s++;
            if (!*s)
                break;
        }
        s++;
    }
    if ((*f = *s) != '\0')
        *s++ = '\0';
    c->s = s;
    return *b == '$' ? variable(c, b + 1) : constant(b);
}

static val number_result(ectx *c, long long n)
{
    char *out = c->results[c->next_result++ % RESULT_RING];
    snprintf(out, sizeof c->results[0], "%lld", n);
    return constant(out);
}

static int more(const ectx *c, char f)
{
    return *c->s && f != ']';
}

static val fold_bool(ectx *c, char *f, const char *start, const char *hit, int want_zero)
{
    val v = constant(start);
    while (more(c, *f)) {
        const char *t = str(c, expr(c, f));
        if (*t && (strcmp(t, "0") == 0) == want_zero)
            v = constant(hit);
    }
    return v;
}

/* Zangband/ToME EQU: every adjacent pair equal. */
static val equ_chain(ectx *c, char *f)
{
    val v = constant("1");
    val t = constant("");
    if (more(c, *f))
        t = expr(c, f);
    while (more(c, *f)) {
        val p = t;
        t = expr(c, f);
        if (*str(c, t) && strcmp(str(c, p), str(c, t)) != 0)
            v = constant("0");
    }
    return v;
}

/* Hengband EQU (and NEQ): the first argument against each later one. */
static val equ_set(ectx *c, char *f, int negate)
{
    val v = constant(negate ? "1" : "0");
    val t = constant("");
    if (more(c, *f))
        t = expr(c, f);
    while (more(c, *f)) {
        val p = expr(c, f);
        if (strcmp(str(c, t), str(c, p)) == 0)
            v = constant(negate ? "0" : "1");
    }
    return v;
}

/* LEQ (sign 1) / GEQ (sign -1) chains: strcmp in Zangband, atoi in
 * Hengband. */
static val compare_chain(ectx *c, char *f, int sign)
{
    val v = constant("1");
    val t = constant("");
    if (more(c, *f))
        t = expr(c, f);
    while (more(c, *f)) {
        val p = t;
        t = expr(c, f);
        const char *a = str(c, p), *b = str(c, t);
        if (!*b)
            continue;
        int cmp;
        if (c->row->order == FD_ORDER_NUMBER) {
            long x = atol(a), y = atol(b);
            cmp = (x > y) - (x < y);
        } else {
            cmp = strcmp(a, b);
        }
        if (cmp * sign > 0)
            v = constant("0");
    }
    return v;
}

/* PosChengband MOD: the first argument modulo each later one in turn. */
static val modulo(ectx *c, char *f, int col)
{
    long long acc = 0;
    if (more(c, *f))
        acc = atol(str(c, expr(c, f)));
    int failed = 0;
    while (more(c, *f)) {
        val p = expr(c, f);
        long long d = atol(str(c, p));
        if (d == 0) {
            if (c->sink && c->sink->at && (!c->sink->checking || !p.variable))
                fd_error(c->sink->at, col, "[MOD x 0]: division by zero (PosChengband crashes here)");
            failed = 1;
            continue;
        }
        acc %= d;
    }
    return failed ? constant("0") : number_result(c, acc);
}

static val skip_arguments(ectx *c, char *f, const char *name, int col)
{
    if (c->sink && c->sink->checking && c->sink->at)
        fd_warning(c->sink->at, col,
                   "unknown function %s in the %s dialect: the games read it as \"%s\", which counts as true",
                   name, qg_fd_dialect_name(c->dialect), UNKNOWN);
    while (more(c, *f))
        expr(c, f);
    return constant(UNKNOWN);
}

/* Dispatched on the first letter: conditions are evaluated by the
 * thousand when a hub is resolved. */
static val call(ectx *c, char *f, const char *name, int col)
{
    const fd_dialect_row *row = c->row;
    if (!name[0])
        return constant(UNKNOWN);
    if (!fd_has_function(row, name))
        return skip_arguments(c, f, name, col);
    switch (name[0]) {
    case 'E': return row->equ == FD_EQU_SET ? equ_set(c, f, 0) : equ_chain(c, f);
    case 'A': return fold_bool(c, f, "1", "0", 1);
    case 'I':
    case 'O': return fold_bool(c, f, "0", "1", 0);
    case 'N': return name[1] == 'O' ? fold_bool(c, f, "1", "0", 0) : equ_set(c, f, 1);
    case 'L': return compare_chain(c, f, 1);
    case 'G': return compare_chain(c, f, -1);
    case 'M': return modulo(c, f, col);
    default: return skip_arguments(c, f, name, col);
    }
}

static val bracket(ectx *c, char *f)
{
    int col = column(c, c->s);
    c->s++;
    if (++c->depth > MAX_NESTING) {
        c->too_deep = 1;
        c->s += strlen(c->s);
        *f = '\0';
        return constant(UNCLOSED);
    }
    char inner = ' ';
    val name = expr(c, &inner);
    char name_copy[32];
    copy_text(name_copy, sizeof name_copy, str(c, name));
    val v = call(c, &inner, name_copy, col);
    c->depth--;
    if (inner != ']') {
        if (c->sink && c->sink->checking && c->sink->at && !c->too_deep)
            fd_warning(c->sink->at, col,
                       "missing ']': the games read the expression as \"%s\", which counts as true",
                       UNCLOSED);
        v = constant(UNCLOSED);
    }
    if ((*f = *c->s) != '\0')
        *c->s++ = '\0';
    return v;
}

static val expr(ectx *c, char *f)
{
    while (is_space(*c->s))
        c->s++;
    if (*c->s == '[')
        return bracket(c, f);
    return atom(c, f);
}

void fd_eval(const char *text, size_t len, qg_fd_dialect dialect,
             const qg_vars *vars, char *out, size_t size, const fd_eval_sink *sink)
{
    char local[512];
    char *scratch = len < sizeof local ? local : malloc(len + 1);
    ectx context;
    ectx *c = &context;
    if (!scratch) {
        snprintf(out, size, "%s", UNCLOSED);
        return;
    }
    memcpy(scratch, text, len);
    scratch[len] = '\0';
    memset(c, 0, offsetof(ectx, results));
    c->s = scratch;
    c->base = scratch;
    c->dialect = dialect == QG_FD_AUTO ? QG_FD_ZANGBAND : dialect;
    c->row = fd_row(c->dialect);
    c->vars = vars;
    c->sink = sink;
    char f = ' ';
    val v = expr(c, &f);
    if (c->too_deep && sink && sink->at)
        fd_error(sink->at, 0, "expression nested deeper than %d brackets", MAX_NESTING);
    copy_text(out, size, str(c, v));
    if (scratch != local)
        free(scratch);
}

static int is_word(char ch)
{
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
           ch == '_';
}

static size_t word_len(const char *s, const char *end)
{
    const char *p = s;
    while (p < end && is_word(*p))
        p++;
    return (size_t)(p - s);
}

int fd_eval_equ(const char *text, size_t len, const qg_vars *vars, int *equal)
{
    static const char lead[] = "[EQU $";
    const char *end = text + len;
    while (end > text && end[-1] == '\r')
        end--;
    if ((size_t)(end - text) < sizeof lead || memcmp(text, lead, sizeof lead - 1) != 0)
        return 0;
    const char *name = text + sizeof lead - 1;
    size_t name_len = word_len(name, end);
    const char *want = name + name_len + 1;
    if (!name_len || name_len >= 64 || want >= end || want[-1] != ' ')
        return 0;
    size_t want_len = word_len(want, end);
    if (!want_len || want + want_len + 1 != end || end[-1] != ']')
        return 0;
    char key[64];
    memcpy(key, name, name_len);
    key[name_len] = '\0';
    const char *value = qg_vars_get(vars, key);
    if (!value)
        value = UNKNOWN;
    size_t value_len = strlen(value);
    /* A value the games would cut short in their shared buffer. */
    if (value_len >= sizeof ((ectx *)0)->shared - 1)
        return 0;
    *equal = value_len == want_len && memcmp(value, want, want_len) == 0;
    return 1;
}

qg_status qg_fd_eval(const char *expr_text, size_t len, qg_fd_dialect dialect,
                     const qg_vars *vars, char *out, size_t size,
                     const char *file, int line, qg_diags *diags)
{
    if (!expr_text || !out || !size)
        return QG_ERR_INVALID;
    fd_line at = {file ? file : "", line, expr_text, len, diags};
    fd_eval_sink sink = {diags ? &at : NULL, 0, 1};
    size_t errors = qg_diags_count_severity(diags, QG_ERROR);
    fd_eval(expr_text, len, dialect, vars, out, size, &sink);
    return qg_diags_count_severity(diags, QG_ERROR) > errors ? QG_ERR_PARSE : QG_OK;
}

/* ---- the values that make a condition hold ---- */

typedef struct binder {
    const char *p, *end;
    qg_vars *vars;
    int failed;     /* memory ran out */
} binder;

static void skip_blanks(binder *b)
{
    while (b->p < b->end && is_space(*b->p))
        b->p++;
}

/* An atom's bytes: up to a space or bracket. */
static size_t atom_len(const binder *b)
{
    const char *q = b->p;
    while (q < b->end && !is_space(*q) && *q != '[' && *q != ']')
        q++;
    return (size_t)(q - b->p);
}

static void term(binder *b, int conjunct, int depth);

/* The arguments of a call up to its ']': the first binds when first says
 * so, the others when rest does. */
static void arguments(binder *b, int first, int rest, int depth)
{
    for (int n = 0;; n++) {
        skip_blanks(b);
        if (b->p >= b->end || *b->p == ']')
            break;
        term(b, n == 0 ? first : rest, depth);
    }
    if (b->p < b->end)
        b->p++;
}

/* [EQU $NAME value …] as a conjunct: NAME takes value, unless an earlier
 * conjunct gave it one. */
static void equ(binder *b, int depth)
{
    skip_blanks(b);
    size_t n = atom_len(b);
    const char *name = b->p;
    if (n < 2 || n > 63 || name[0] != '$') {
        arguments(b, 0, 0, depth);
        return;
    }
    b->p += n;
    skip_blanks(b);
    size_t m = atom_len(b);
    if (m && m < 64 && b->p[0] != '$') {
        char key[64], value[64];
        memcpy(key, name + 1, n - 1);
        key[n - 1] = '\0';
        memcpy(value, b->p, m);
        value[m] = '\0';
        if (!qg_vars_get(b->vars, key) && qg_vars_set(b->vars, key, value) != QG_OK)
            b->failed = 1;
    }
    arguments(b, 0, 0, depth);
}

/* One term: a call's arguments bind as conjuncts under AND, the first
 * alternative of IOR or OR does; NOT and the other functions bind
 * nothing. */
static void term(binder *b, int conjunct, int depth)
{
    skip_blanks(b);
    if (b->p >= b->end)
        return;
    if (*b->p != '[' || depth >= MAX_NESTING) {
        size_t n = atom_len(b);
        b->p += n ? n : 1;
        return;
    }
    b->p++;
    skip_blanks(b);
    size_t n = atom_len(b);
    const char *name = b->p;
    b->p += n;
    int is_and = n == 3 && memcmp(name, "AND", 3) == 0;
    int is_or = (n == 3 && memcmp(name, "IOR", 3) == 0) || (n == 2 && memcmp(name, "OR", 2) == 0);
    if (conjunct && n == 3 && memcmp(name, "EQU", 3) == 0)
        equ(b, depth + 1);
    else
        arguments(b, conjunct && (is_and || is_or), conjunct && is_and, depth + 1);
}

int fd_expr_bindings(const char *text, size_t len, qg_vars *vars)
{
    binder b = {text, text + len, vars, 0};
    term(&b, 1, 0);
    return b.failed ? 0 : 1;
}

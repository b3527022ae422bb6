/* string.find, string.match, string.gmatch and string.gsub with Lua 5.4's
 * patterns, every step of the matcher charged to the budget. Lua's own
 * matcher backtracks without a bound the count hook could see (a*a*a*b
 * against a run of a's is cubic in one call), so the runtime matches
 * itself, with the same results and the same errors as Lua 5.4, counting
 * its steps: a call costs what it does, not what its arguments look like.
 * A plain find is memmem's (linear: Lua's own is quadratic at worst). */
#define _GNU_SOURCE
#include "lua/rt.h"

#include <ctype.h>
#include <string.h>

#define ESCAPE '%'
#define SPECIALS "^$*+?.([%-"
#define MAX_CAPTURES 32      /* LUA_MAXCAPTURES */
#define MAX_DEPTH 200        /* MAXCCALLS: "pattern too complex" */
#define CAP_UNFINISHED (-1)
#define CAP_POSITION (-2)
/* Steps counted before they are charged (and the budget looked at). */
#define STEPS_PER_CHARGE 4096

typedef struct matcher {
    lua_State *L;
    const char *src_init, *src_end;
    const char *p_end;
    int depth;                   /* calls of match() still allowed */
    int level;                   /* captures opened */
    struct {
        const char *init;
        ptrdiff_t len;
    } capture[MAX_CAPTURES];
    size_t steps;                /* not charged yet */
} matcher;

static void charge_steps(matcher *m, size_t more)
{
    size_t n = m->steps + more;
    m->steps = 0;
    lrt_charge(m->L, n);
}

static void step(matcher *m, size_t n)
{
    m->steps += n;
    if (m->steps >= STEPS_PER_CHARGE)
        charge_steps(m, 0);
}

static size_t scanned(size_t bytes)
{
    return lrt_units_of((double)bytes, LRT_SCAN_BYTES);
}

static void init_matcher(matcher *m, lua_State *L, const char *s, size_t ls,
                         const char *p, size_t lp)
{
    m->L = L;
    m->src_init = s;
    m->src_end = s + ls;
    m->p_end = p + lp;
    m->depth = MAX_DEPTH;
    m->level = 0;
    m->steps = 0;
}

/* Before each attempt (a match left by an error starts whole again). */
static void restart(matcher *m)
{
    m->level = 0;
    m->depth = MAX_DEPTH;
}

/* ---- single characters and classes -------------------------------------- */

static int class_matches(int c, int cl)
{
    int res;
    switch (tolower(cl)) {
    case 'a': res = isalpha(c); break;
    case 'c': res = iscntrl(c); break;
    case 'd': res = isdigit(c); break;
    case 'g': res = isgraph(c); break;
    case 'l': res = islower(c); break;
    case 'p': res = ispunct(c); break;
    case 's': res = isspace(c); break;
    case 'u': res = isupper(c); break;
    case 'w': res = isalnum(c); break;
    case 'x': res = isxdigit(c); break;
    default: return cl == c;
    }
    if (isupper(cl))
        res = !res;
    return res;
}

/* The end of the single-character class at p (after an escape, or past
 * the closing bracket of a set). */
static const char *class_end(matcher *m, const char *p)
{
    switch (*p++) {
    case ESCAPE:
        if (p == m->p_end)
            luaL_error(m->L, "malformed pattern (ends with '%%')");
        return p + 1;
    case '[':
        if (*p == '^')
            p++;
        do {
            if (p == m->p_end)
                luaL_error(m->L, "malformed pattern (missing ']')");
            if (*(p++) == ESCAPE && p < m->p_end)
                p++;
        } while (*p != ']');
        return p + 1;
    default:
        return p;
    }
}

/* Whether c is in the set from p ('[') to end (its ']'). */
static int in_set(matcher *m, int c, const char *p, const char *end)
{
    int found = 1;
    if (*(p + 1) == '^') {
        found = 0;
        p++;
    }
    const char *first = p;
    int result = !found;
    while (++p < end) {
        if (*p == ESCAPE) {
            p++;
            if (class_matches(c, (unsigned char)*p)) {
                result = found;
                break;
            }
        } else if (*(p + 1) == '-' && p + 2 < end) {
            p += 2;
            if ((unsigned char)*(p - 2) <= c && c <= (unsigned char)*p) {
                result = found;
                break;
            }
        } else if ((unsigned char)*p == c) {
            result = found;
            break;
        }
    }
    step(m, (size_t)(p - first) / LRT_SCAN_BYTES);
    return result;
}

static int single_matches(matcher *m, const char *s, const char *p, const char *ep)
{
    step(m, 1);
    if (s >= m->src_end)
        return 0;
    int c = (unsigned char)*s;
    switch (*p) {
    case '.':
        return 1;
    case ESCAPE:
        return class_matches(c, (unsigned char)*(p + 1));
    case '[':
        return in_set(m, c, p, ep - 1);
    default:
        return (unsigned char)*p == c;
    }
}

/* ---- the matcher ------------------------------------------------------- */

static const char *match(matcher *m, const char *s, const char *p);

static const char *balanced(matcher *m, const char *s, const char *p)
{
    if (p >= m->p_end - 1)
        luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
    if (*s != *p)
        return NULL;
    int open = *p, close = *(p + 1), depth = 1;
    const char *from = s;
    const char *found = NULL;
    while (++s < m->src_end) {
        if (*s == close) {
            if (--depth == 0) {
                found = s + 1;
                break;
            }
        } else if (*s == open) {
            depth++;
        }
    }
    step(m, (size_t)(s - from) / LRT_SCAN_BYTES);
    return found;
}

static const char *expand_greedy(matcher *m, const char *s, const char *p, const char *ep)
{
    ptrdiff_t i = 0;
    while (single_matches(m, s + i, p, ep))
        i++;
    for (; i >= 0; i--) {
        const char *res = match(m, s + i, ep + 1);
        if (res)
            return res;
    }
    return NULL;
}

static const char *expand_lazy(matcher *m, const char *s, const char *p, const char *ep)
{
    for (;;) {
        const char *res = match(m, s, ep + 1);
        if (res)
            return res;
        if (!single_matches(m, s, p, ep))
            return NULL;
        s++;
    }
}

static const char *open_capture(matcher *m, const char *s, const char *p, ptrdiff_t what)
{
    if (m->level >= MAX_CAPTURES)
        luaL_error(m->L, "too many captures");
    m->capture[m->level].init = s;
    m->capture[m->level].len = what;
    m->level++;
    const char *res = match(m, s, p);
    if (!res)
        m->level--;
    return res;
}

static const char *close_capture(matcher *m, const char *s, const char *p)
{
    int l = m->level - 1;
    while (l >= 0 && m->capture[l].len != CAP_UNFINISHED)
        l--;
    if (l < 0)
        luaL_error(m->L, "invalid pattern capture");
    m->capture[l].len = s - m->capture[l].init;
    const char *res = match(m, s, p);
    if (!res)
        m->capture[l].len = CAP_UNFINISHED;
    return res;
}

static int capture_index(matcher *m, int l)
{
    l -= '1';
    if (l < 0 || l >= m->level || m->capture[l].len == CAP_UNFINISHED)
        return luaL_error(m->L, "invalid capture index %%%d", l + 1);
    return l;
}

/* %1 to %9: the text of an earlier capture again. */
static const char *same_as_capture(matcher *m, const char *s, int l)
{
    l = capture_index(m, l);
    size_t len = (size_t)m->capture[l].len;
    if ((size_t)(m->src_end - s) >= len) {
        step(m, len / LRT_SCAN_BYTES);
        if (memcmp(m->capture[l].init, s, len) == 0)
            return s + len;
    }
    return NULL;
}

/* A pattern item with its optional suffix (*, +, -, ?). Returns where
 * the pattern goes on, with *s past what the item took; or NULL when the
 * match is decided, *s then its end (NULL: no match). */
static const char *match_item(matcher *m, const char **s, const char *p)
{
    const char *ep = class_end(m, p);
    if (!single_matches(m, *s, p, ep)) {
        if (*ep == '*' || *ep == '?' || *ep == '-')
            return ep + 1;   /* none taken: the rest from here */
        *s = NULL;
        return NULL;
    }
    const char *res;
    switch (*ep) {
    case '?':
        if ((res = match(m, *s + 1, ep + 1)) != NULL) {
            *s = res;
            return NULL;
        }
        return ep + 1;
    case '+':
        *s = expand_greedy(m, *s + 1, p, ep);
        return NULL;
    case '*':
        *s = expand_greedy(m, *s, p, ep);
        return NULL;
    case '-':
        *s = expand_lazy(m, *s, p, ep);
        return NULL;
    default:
        (*s)++;
        return ep;
    }
}

/* Items that decide the match at once, by a capture (whose own match()
 * takes the rest of the pattern) or the end of the subject; the others
 * say where the pattern goes on. Each turn of the loop is one of Lua's
 * tail calls of match(). */
static const char *match(matcher *m, const char *s, const char *p)
{
    if (m->depth-- == 0)
        luaL_error(m->L, "pattern too complex");
    while (p != m->p_end) {
        const char *next = NULL;
        step(m, 1);
        switch (*p) {
        case '(':
            s = *(p + 1) == ')' ? open_capture(m, s, p + 2, CAP_POSITION)
                                : open_capture(m, s, p + 1, CAP_UNFINISHED);
            break;
        case ')':
            s = close_capture(m, s, p + 1);
            break;
        case '$':
            if (p + 1 == m->p_end)
                s = s == m->src_end ? s : NULL;
            else
                next = match_item(m, &s, p);
            break;
        case ESCAPE:
            switch (*(p + 1)) {
            case 'b':
                s = balanced(m, s, p + 2);
                next = s ? p + 4 : NULL;
                break;
            case 'f': {
                p += 2;
                if (*p != '[')
                    luaL_error(m->L, "missing '[' after '%%f' in pattern");
                const char *ep = class_end(m, p);
                int before = s == m->src_init ? '\0' : (unsigned char)*(s - 1);
                if (!in_set(m, before, p, ep - 1) && in_set(m, (unsigned char)*s, p, ep - 1))
                    next = ep;
                else
                    s = NULL;
                break;
            }
            case '0': case '1': case '2': case '3': case '4':
            case '5': case '6': case '7': case '8': case '9':
                s = same_as_capture(m, s, (unsigned char)*(p + 1));
                next = s ? p + 2 : NULL;
                break;
            default:
                next = match_item(m, &s, p);
                break;
            }
            break;
        default:
            next = match_item(m, &s, p);
            break;
        }
        if (!next)
            break;
        p = next;
    }
    m->depth++;
    return s;
}

/* ---- captures ---------------------------------------------------------- */

/* Capture i of the match from s to e: its text (*cap, the length
 * returned) or, for a position capture, CAP_POSITION with the position
 * pushed. */
static ptrdiff_t one_capture(matcher *m, int i, const char *s, const char *e,
                             const char **cap)
{
    if (i >= m->level) {
        if (i != 0)
            luaL_error(m->L, "invalid capture index %%%d", i + 1);
        *cap = s;
        return e - s;
    }
    ptrdiff_t len = m->capture[i].len;
    *cap = m->capture[i].init;
    if (len == CAP_UNFINISHED)
        luaL_error(m->L, "unfinished capture");
    else if (len == CAP_POSITION)
        lua_pushinteger(m->L, (m->capture[i].init - m->src_init) + 1);
    return len;
}

static void push_capture(matcher *m, int i, const char *s, const char *e)
{
    const char *cap;
    ptrdiff_t len = one_capture(m, i, s, e, &cap);
    if (len != CAP_POSITION)
        lua_pushlstring(m->L, cap, (size_t)len);
}

/* The captures (the whole match when there are none and s is given). */
static int push_captures(matcher *m, const char *s, const char *e)
{
    int n = m->level == 0 && s ? 1 : m->level;
    luaL_checkstack(m->L, n, "too many captures");
    for (int i = 0; i < n; i++)
        push_capture(m, i, s, e);
    return n;
}

/* ---- find and match ---------------------------------------------------- */

/* Where init (argument arg) starts, from 0; past len when after the end. */
static size_t start_of(lua_State *L, int arg, size_t len)
{
    lua_Integer pos = luaL_optinteger(L, arg, 1);
    if (pos > 0)
        return (size_t)pos - 1;
    if (pos == 0 || pos < -(lua_Integer)len)
        return 0;
    return len - (size_t)-pos;
}

static int no_specials(const char *p, size_t len)
{
    size_t upto = 0;
    do {
        if (strpbrk(p + upto, SPECIALS))
            return 0;
        upto += strlen(p + upto) + 1;
    } while (upto <= len);
    return 1;
}

static int plain_find(lua_State *L, const char *s, size_t len, size_t init,
                      const char *p, size_t lp)
{
    const char *hit = memmem(s + init, len - init, p, lp);
    lrt_charge(L, scanned(hit ? (size_t)(hit - s) - init + lp : len - init));
    if (!hit) {
        luaL_pushfail(L);
        return 1;
    }
    lua_pushinteger(L, (hit - s) + 1);
    lua_pushinteger(L, (lua_Integer)((size_t)(hit - s) + lp));
    return 2;
}

static int find_or_match(lua_State *L, int find)
{
    size_t len, lp;
    const char *s = luaL_checklstring(L, 1, &len);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = start_of(L, 3, len);
    lrt_charge(L, LRT_CALL_UNITS + scanned(lp));
    if (init > len) {
        luaL_pushfail(L);
        return 1;
    }
    if (find && (lua_toboolean(L, 4) || no_specials(p, lp)))
        return plain_find(L, s, len, init, p, lp);
    matcher m;
    const char *s1 = s + init;
    int anchor = *p == '^';
    if (anchor) {
        p++;
        lp--;
    }
    init_matcher(&m, L, s, len, p, lp);
    do {
        restart(&m);
        const char *end = match(&m, s1, p);
        if (end) {
            charge_steps(&m, 0);
            if (!find)
                return push_captures(&m, s1, end);
            lua_pushinteger(L, (s1 - s) + 1);
            lua_pushinteger(L, end - s);
            return push_captures(&m, NULL, NULL) + 2;
        }
    } while (s1++ < m.src_end && !anchor);
    charge_steps(&m, 0);
    luaL_pushfail(L);
    return 1;
}

static int l_find(lua_State *L)
{
    return find_or_match(L, 1);
}

static int l_match(lua_State *L)
{
    return find_or_match(L, 0);
}

/* ---- gmatch ------------------------------------------------------------ */

typedef struct gmatch_state {
    const char *src, *p, *lastmatch;
    matcher m;
} gmatch_state;

static int gmatch_step(lua_State *L)
{
    gmatch_state *g = lua_touserdata(L, lua_upvalueindex(3));
    g->m.L = L;
    lrt_charge(L, LRT_CALL_UNITS);
    for (const char *src = g->src; src <= g->m.src_end; src++) {
        restart(&g->m);
        const char *end = match(&g->m, src, g->p);
        if (end && end != g->lastmatch) {
            g->src = g->lastmatch = end;
            charge_steps(&g->m, 0);
            return push_captures(&g->m, src, end);
        }
    }
    charge_steps(&g->m, 0);
    return 0;
}

static int l_gmatch(lua_State *L)
{
    size_t len, lp;
    const char *s = luaL_checklstring(L, 1, &len);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = start_of(L, 3, len);
    lrt_charge(L, LRT_CALL_UNITS);
    lua_settop(L, 2);   /* the strings stay alive as the closure's upvalues */
    gmatch_state *g = lua_newuserdatauv(L, sizeof *g, 0);
    if (init > len)
        init = len + 1;
    init_matcher(&g->m, L, s, len, p, lp);
    g->src = s + init;
    g->p = p;
    g->lastmatch = NULL;
    lua_pushcclosure(L, gmatch_step, 3);
    return 1;
}

/* ---- gsub -------------------------------------------------------------- */

/* The replacement string (argument 3) with %0 to %9 and %% expanded. */
static void add_expanded(matcher *m, luaL_Buffer *b, const char *s, const char *e)
{
    lua_State *L = m->L;
    size_t len;
    const char *repl = lua_tolstring(L, 3, &len);
    const char *p;
    while ((p = memchr(repl, ESCAPE, len)) != NULL) {
        luaL_addlstring(b, repl, (size_t)(p - repl));
        p++;
        if (*p == ESCAPE) {
            luaL_addchar(b, *p);
        } else if (*p == '0') {
            luaL_addlstring(b, s, (size_t)(e - s));
        } else if (isdigit((unsigned char)*p)) {
            const char *cap;
            ptrdiff_t n = one_capture(m, *p - '1', s, e, &cap);
            if (n == CAP_POSITION)
                luaL_addvalue(b);
            else
                luaL_addlstring(b, cap, (size_t)n);
        } else {
            luaL_error(L, "invalid use of '%c' in replacement string", ESCAPE);
        }
        len -= (size_t)(p + 1 - repl);
        repl = p + 1;
    }
    luaL_addlstring(b, repl, len);
}

/* Adds the replacement of the match from s to e; 1 when it differs from
 * the text matched. */
static int add_replacement(matcher *m, luaL_Buffer *b, const char *s, const char *e,
                           int type)
{
    lua_State *L = m->L;
    if (type == LUA_TFUNCTION) {
        lrt_charge(L, LRT_ENTRY_UNITS);
        lua_pushvalue(L, 3);
        int n = push_captures(m, s, e);
        lua_call(L, n, 1);
    } else if (type == LUA_TTABLE) {
        lrt_charge(L, LRT_ENTRY_UNITS);
        push_capture(m, 0, s, e);
        lua_gettable(L, 3);
    } else {
        add_expanded(m, b, s, e);
        return 1;
    }
    if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s));
        return 0;
    }
    if (!lua_isstring(L, -1))
        return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    luaL_addvalue(b);
    return 1;
}

static int l_gsub(lua_State *L)
{
    size_t len, lp;
    const char *src = luaL_checklstring(L, 1, &len);
    const char *p = luaL_checklstring(L, 2, &lp);
    const char *lastmatch = NULL;
    int type = lua_type(L, 3);
    lua_Integer max = luaL_optinteger(L, 4, (lua_Integer)len + 1);
    int anchor = *p == '^';
    lua_Integer n = 0;
    int changed = 0;
    luaL_argexpected(L, type == LUA_TNUMBER || type == LUA_TSTRING ||
                        type == LUA_TFUNCTION || type == LUA_TTABLE,
                     3, "string/function/table");
    lrt_charge(L, LRT_CALL_UNITS + scanned(lp));
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    if (anchor) {
        p++;
        lp--;
    }
    matcher m;
    init_matcher(&m, L, src, len, p, lp);
    while (n < max) {
        restart(&m);
        const char *end = match(&m, src, p);
        if (end && end != lastmatch) {
            n++;
            changed = add_replacement(&m, &b, src, end, type) | changed;
            src = lastmatch = end;
        } else if (src < m.src_end) {
            luaL_addchar(&b, *src++);
        } else {
            break;
        }
        if (anchor)
            break;
    }
    charge_steps(&m, 0);
    if (!changed) {
        lua_pushvalue(L, 1);
    } else {
        luaL_addlstring(&b, src, (size_t)(m.src_end - src));
        luaL_pushresult(&b);
    }
    lua_pushinteger(L, n);
    return 2;
}

void lrt_open_patterns(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"find", l_find}, {"match", l_match}, {"gmatch", l_gmatch}, {"gsub", l_gsub},
        {NULL, NULL}};
    lua_getglobal(L, "string");
    luaL_setfuncs(L, fns, 0);
    lua_pop(L, 1);
}

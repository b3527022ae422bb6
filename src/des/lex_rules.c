#include "des/lex_rules.h"

#include <string.h>

static int is_sp(char c) { return c == ' ' || c == '\t' || c == '\r'; }
static int is_nspace(char c) { return !is_sp(c) && c != '\n'; }
static void offer(des_match *best, enum rule rule, size_t total, size_t consume,
                  size_t seg_end)
{
    if (total == 0 || (best->rule != R_NONE && total <= best->total))
        return;
    best->rule = rule;
    best->total = total;
    best->consume = consume;
    best->seg_end = seg_end;
}

/* {SPACE}*\\{SPACE}*\n */
static size_t m_bsnl(const des_scan *s)
{
    size_t i = s->pos;
    while (i < s->n && is_sp(s->d[i]))
        i++;
    if (i >= s->n || s->d[i] != '\\')
        return 0;
    i++;
    while (i < s->n && is_sp(s->d[i]))
        i++;
    return i < s->n && s->d[i] == '\n' ? i + 1 - s->pos : 0;
}

/* End of [^,\r\n]* starting after the first character. */
static size_t list_run(const des_scan *s)
{
    size_t i = s->pos + 1;
    while (i < s->n && s->d[i] != ',' && s->d[i] != '\r' && s->d[i] != '\n')
        i++;
    return i;
}

static int list_first(const des_scan *s)
{
    char c = s->d[s->pos];
    return c != ',' && is_nspace(c);
}

/* [^,\ \t\r\n][^,\r\n]*\\{SPACE}*\n ; *seg: where the backslash is */
static size_t m_list_cont(const des_scan *s, size_t *seg)
{
    if (!list_first(s))
        return 0;
    size_t run = list_run(s), t = run;
    while (t > s->pos + 1 && (s->d[t - 1] == ' ' || s->d[t - 1] == '\t'))
        t--;
    if (t < s->pos + 2 || s->d[t - 1] != '\\' || run >= s->n || s->d[run] == ',')
        return 0;
    size_t k = run;
    while (k < s->n && is_sp(s->d[k]))
        k++;
    if (k >= s->n || s->d[k] != '\n')
        return 0;
    *seg = t - 1;
    return k + 1 - s->pos;
}

/* [^,\ \t\r\n][^,\r\n]*[^,\ \t\r\n] */
static size_t m_list_item(const des_scan *s)
{
    if (!list_first(s))
        return 0;
    size_t t = list_run(s);
    while (t > s->pos + 1 && (s->d[t - 1] == ' ' || s->d[t - 1] == '\t'))
        t--;
    return t >= s->pos + 2 ? t - s->pos : 0;
}

/* The run of bytes in class cls at pos: 0 " \t", 1 " \t\r", 2 " ",
 * 3 [A-Za-z_0-9-]. */
enum span_class { SPAN_BLANK, SPAN_BLANK_CR, SPAN_SPACE, SPAN_WORD };

static int in_class(unsigned char c, enum span_class cls)
{
    switch (cls) {
    case SPAN_BLANK: return c == ' ' || c == '\t';
    case SPAN_BLANK_CR: return c == ' ' || c == '\t' || c == '\r';
    case SPAN_SPACE: return c == ' ';
    case SPAN_WORD:
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-';
    }
    return 0;
}

static size_t m_span(const des_scan *s, enum span_class cls)
{
    size_t i = s->pos;
    while (i < s->n && in_class((unsigned char)s->d[i], cls))
        i++;
    return i - s->pos;
}

/* [spaces]*\r?\n, the spaces of class cls ([\ \t\r]*\n when it holds \r) */
static size_t m_spaces_nl(const des_scan *s, enum span_class cls)
{
    size_t i = s->pos + m_span(s, cls);
    if (i < s->n && s->d[i] == '\r' && cls != SPAN_BLANK_CR)
        i++;
    return i < s->n && s->d[i] == '\n' ? i + 1 - s->pos : 0;
}

/* \r?\n */
static size_t m_newline(const des_scan *s)
{
    size_t i = s->pos;
    if (i < s->n && s->d[i] == '\r')
        i++;
    return i < s->n && s->d[i] == '\n' ? i + 1 - s->pos : 0;
}

/* The first of c before the line's end (eol), or eol. */
static size_t until(const des_scan *s, size_t from, char c)
{
    if (from >= s->eol)
        return s->eol;
    const char *hit = memchr(s->d + from, c, s->eol - from);
    return hit ? (size_t)(hit - s->d) : s->eol;
}

static void rules_mapdef(const des_scan *s, des_match *m)
{
    const char *d = s->d;
    size_t p = s->pos;
    if (s->bol) {
        size_t i = p;
        while (i < s->n && d[i] == 's')
            i++;
        if (s->n - i >= 6 && memcmp(d + i, "ENDMAP", 6) == 0) {
            i += 6;
            while (i < s->n && d[i] == ' ')
                i++;
            offer(m, R_MAP_ENDMAP, i - p, i - p, 0);
        }
        i = until(s, p, '\t');
        size_t cr = until(s, p, '\r');
        if (cr < i)
            i = cr;
        offer(m, R_MAP_LINE, i - p, i - p, 0);
        if (d[p] == ' ' || d[p] == '\r' || d[p] == '\n') {
            size_t blank = m_spaces_nl(s, SPAN_SPACE);
            offer(m, R_MAP_BLANK, blank, blank, 0);
        }
    }
    if (d[p] == '#')
        offer(m, R_MAP_HASH, 1, 1, 0);
    if (d[p] == ' ' && p + 1 < s->n && d[p + 1] != ' ' && d[p + 1] != '\r' &&
        d[p + 1] != '\n')
        offer(m, R_MAP_SPACE, 2, 2, 0);
    if (d[p] == ' ' || d[p] == '\r' || d[p] == '\n') {
        size_t eol = m_spaces_nl(s, SPAN_SPACE);
        offer(m, R_MAP_EOL, eol, eol, 0);
    }
}

static void rules_lua(const des_scan *s, des_match *m)
{
    const char *d = s->d;
    size_t p = s->pos, e = s->eol;
    if (e < s->n) {
        size_t t = e;
        while (t > p && is_sp(d[t - 1]))
            t--;
        if (t >= p + 2 && d[t - 1] == '}' && d[t - 2] == '}') {
            size_t i = p;
            while (i < t - 2 && d[i] == 's')
                i++;
            if (i == t - 2)
                offer(m, R_LUA_END, e + 1 - p, e - p, 0);
            if (t - 2 > p && !memchr(d + p, '\r', t - 2 - p))
                offer(m, R_LUA_ENDLINE, e + 1 - p, e - p, 0);
        }
    }
    size_t i = until(s, p, '\r');
    offer(m, R_LUA_LINE, i - p, i - p, 0);
    size_t nl = m_newline(s);
    offer(m, R_LUA_NL, nl, nl, 0);
}

static void rules_oneliner(const des_scan *s, des_match *m)
{
    const char *d = s->d;
    size_t p = s->pos, i = p;
    while (i < s->n && d[i] != '\r' && d[i] != '\n')
        i++;
    if (i > p) {
        size_t j = i < s->n && d[i] == '\r' ? i + 1 : i;
        if (j < s->n && d[j] == '\n')
            offer(m, R_ONE_LINE, j + 1 - p, j - p, 0);
    }
    size_t nl = m_newline(s);
    offer(m, R_ONE_NL, nl, nl, 0);
}

static void rules_keywords(const des_scan *s, des_match *m)
{
    size_t w = m_span(s, SPAN_WORD);
    offer(m, R_KW_WORD, w, w, 0);
    size_t c = m_bsnl(s);
    offer(m, R_KW_CONT, c, c, 0);
    size_t sp = m_span(s, SPAN_BLANK);
    offer(m, R_KW_SP, sp, sp, 0);
    size_t nl = m_spaces_nl(s, SPAN_BLANK);
    offer(m, R_KW_NL, nl, nl, 0);
}

static void rules_item_list(const des_scan *s, des_match *m)
{
    size_t seg = 0, c = m_list_cont(s, &seg);
    offer(m, R_IL_CONT, c, c, seg);
    size_t b = m_bsnl(s);
    offer(m, R_IL_BSNL, b, b, 0);
    size_t it = m_list_item(s);
    offer(m, R_IL_ITEM, it, it, 0);
    if (s->d[s->pos] == ',')
        offer(m, R_IL_COMMA, 1, 1, 0);
    size_t sp = m_span(s, SPAN_BLANK);
    offer(m, R_IL_SP, sp, sp, 0);
    size_t nl = m_spaces_nl(s, SPAN_BLANK);
    offer(m, R_IL_NL, nl, nl, 0);
}

static void rules_mname(const des_scan *s, des_match *m)
{
    size_t nl = m_spaces_nl(s, SPAN_BLANK_CR);
    offer(m, R_MN_NL, nl, nl, 0);
    size_t seg = 0, c = m_list_cont(s, &seg);
    offer(m, R_MN_CONT, c, c, seg);
    size_t b = m_bsnl(s);
    offer(m, R_MN_BSNL, b, b, 0);
    size_t it = m_list_item(s);
    offer(m, R_MN_NAME, it, it, 0);
    if (s->d[s->pos] == ',')
        offer(m, R_MN_COMMA, 1, 1, 0);
    size_t sp = m_span(s, SPAN_BLANK_CR);
    offer(m, R_MN_SP, sp, sp, 0);
}

static void rules_argument(const des_scan *s, des_match *m)
{
    const char *d = s->d;
    size_t p = s->pos, e = s->eol;
    if (is_nspace(d[p])) {
        size_t t = e;
        while (t > p + 1 && is_sp(d[t - 1]))
            t--;
        if (e < s->n && t >= p + 2 && d[t - 1] == '\\')
            offer(m, R_AR_CONT, e + 1 - p, e + 1 - p, t - 1);
        size_t b = m_bsnl(s);
        offer(m, R_AR_BSNL, b, b, 0);
        if (t >= p + 2)
            offer(m, R_AR_TEXT, t - p, t - p, 0);
        offer(m, R_AR_ONE, 1, 1, 0);
    } else {
        size_t b = m_bsnl(s);
        offer(m, R_AR_BSNL, b, b, 0);
    }
    size_t i = p;
    while (i < s->n && is_sp(d[i]))
        i++;
    if (i < s->n && d[i] == '\n')
        offer(m, R_AR_END, i + 1 - p, i - p, 0);
}

/* ^[ \t]*WORD[ \t]*\{\{ */
static size_t m_block(const des_scan *s, const char *word)
{
    size_t i = s->pos, wl = strlen(word);
    while (i < s->n && (s->d[i] == ' ' || s->d[i] == '\t'))
        i++;
    if (wl) {
        if (s->n - i < wl || memcmp(s->d + i, word, wl) != 0)
            return 0;
        i += wl;
        while (i < s->n && (s->d[i] == ' ' || s->d[i] == '\t'))
            i++;
    }
    return s->n - i >= 2 && s->d[i] == '{' && s->d[i + 1] == '{' ? i + 2 - s->pos : 0;
}

static size_t m_number(const des_scan *s)
{
    const char *d = s->d;
    size_t p = s->pos, i = p;
    if (i < s->n && (d[i] == '+' || d[i] == '-'))
        i++;
    size_t best = 0, j = i;
    if (j < s->n && d[j] == '.') {
        size_t k = j + 1;
        while (k < s->n && d[k] >= '0' && d[k] <= '9')
            k++;
        if (k > j + 1)
            best = k - p;
    }
    size_t k = i;
    while (k < s->n && d[k] >= '0' && d[k] <= '9')
        k++;
    if (k > i) {
        if (k < s->n && d[k] == '.') {
            k++;
            while (k < s->n && d[k] >= '0' && d[k] <= '9')
                k++;
        }
        if (k - p > best)
            best = k - p;
    }
    return best;
}

static void rules_initial(const des_scan *s, des_match *m, int legacy)
{
    const char *d = s->d;
    size_t p = s->pos;
    if (s->bol) {
        size_t i = p;
        while (i < s->n && (d[i] == ' ' || d[i] == '\t'))
            i++;
        if (i < s->n && d[i] == '#')
            offer(m, R_I_COMMENT, s->eol - p, s->eol - p, 0);
        size_t j = p;
        while (j < s->n && d[j] == 's')
            j++;
        if (s->n - j >= 3 && memcmp(d + j, "MAP", 3) == 0) {
            j += 3;
            while (j < s->n && is_sp(d[j]))
                j++;
            if (j < s->n && d[j] == '\n')
                offer(m, R_I_MAP, j + 1 - p, j - p, 0);
        }
        if (i < s->n && d[i] == ':')
            offer(m, R_I_ONELINER, i + 1 - p, i + 1 - p, 0);
        static const struct { enum rule rule; const char *word; } blocks[] = {
            {R_I_PRELUDE, "prelude"}, {R_I_LUA, "lua"}, {R_I_BLOCK, ""},
            {R_I_VALIDATE, "validate"}, {R_I_VETO, "veto"}, {R_I_EPILOGUE, "epilogue"},
        };
        char first = i < s->n ? d[i] : 0;
        int maybe_block = first == '{' || first == 'p' || first == 'l' || first == 'v' ||
                          first == 'e';
        for (size_t b = 0; maybe_block && b < sizeof blocks / sizeof *blocks; b++) {
            size_t len = m_block(s, blocks[b].word);
            offer(m, blocks[b].rule, len, len, 0);
        }
    }
    const des_keyword *kw = des_keyword_match(d + p, d + s->n, legacy);
    if (kw) {
        offer(m, R_I_KEYWORD, kw->len, kw->len, 0);
        if (m->rule == R_I_KEYWORD)
            m->keyword = kw;
    }
    switch (d[p]) {
    case ',': offer(m, R_I_COMMA, 1, 1, 0); break;
    case ':': offer(m, R_I_COLON, 1, 1, 0); break;
    case '%': offer(m, R_I_PERC, 1, 1, 0); break;
    case '-': offer(m, R_I_DASH, 1, 1, 0); break;
    default: break;
    }
    size_t num = m_number(s);
    offer(m, R_I_NUMBER, num, num, 0);
    if (d[p] == '(') {
        size_t i = p + 1;
        while (i < s->n && d[i] != '\r' && d[i] != '\n' && d[i] != ')')
            i++;
        if (i < s->n && d[i] == ')')
            offer(m, R_I_PAREN, i + 1 - p, i + 1 - p, 0);
    }
    size_t sp = m_span(s, SPAN_BLANK);
    offer(m, R_I_SP, sp, sp, 0);
    size_t nl = m_newline(s);
    offer(m, R_I_NL, nl, nl, 0);
    if (d[p] == '\r')
        offer(m, R_I_CR, 1, 1, 0);
    if (d[p] != '\n')
        offer(m, R_I_ANY, 1, 1, 0);
}

void des_find_match(des_state state, int legacy, const des_scan *s, des_match *m)
{
    m->rule = R_NONE;
    m->total = m->consume = m->seg_end = 0;
    m->keyword = NULL;
    switch (state) {
    case DES_ST_MAPDEF: rules_mapdef(s, m); return;
    case DES_ST_LUA: rules_lua(s, m); return;
    case DES_ST_LUA_ONELINER: rules_oneliner(s, m); return;
    case DES_ST_ITEM_LIST: rules_item_list(s, m); return;
    case DES_ST_KEYWORDS: rules_keywords(s, m); break;
    case DES_ST_MNAME: rules_mname(s, m); break;
    case DES_ST_ARGUMENT: rules_argument(s, m); break;
    case DES_ST_INITIAL: break;
    }
    rules_initial(s, m, legacy);
}

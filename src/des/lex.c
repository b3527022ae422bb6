#include "des/lex.h"

#include <stdlib.h>
#include <string.h>

/* Rules in levcomp.lpp order: ties in match length go to the lower one. */
enum rule {
    R_NONE = -1,
    R_MAP_ENDMAP, R_MAP_LINE, R_MAP_BLANK, R_MAP_HASH, R_MAP_SPACE, R_MAP_EOL,
    R_LUA_END, R_LUA_ENDLINE, R_LUA_LINE, R_LUA_NL,
    R_ONE_LINE, R_ONE_NL,
    R_KW_WORD, R_KW_CONT, R_KW_SP, R_KW_NL,
    R_IL_CONT, R_IL_BSNL, R_IL_ITEM, R_IL_COMMA, R_IL_SP, R_IL_NL,
    R_MN_NL, R_MN_CONT, R_MN_BSNL, R_MN_NAME, R_MN_COMMA, R_MN_SP,
    R_AR_CONT, R_AR_BSNL, R_AR_TEXT, R_AR_ONE, R_AR_END,
    R_I_COMMENT, R_I_MAP, R_I_ONELINER, R_I_PRELUDE, R_I_LUA, R_I_BLOCK,
    R_I_VALIDATE, R_I_VETO, R_I_EPILOGUE, R_I_KEYWORD, R_I_COMMA, R_I_COLON,
    R_I_PERC, R_I_DASH, R_I_NUMBER, R_I_PAREN, R_I_SP, R_I_NL, R_I_CR, R_I_ANY
};

typedef struct match {
    enum rule rule;
    size_t total;   /* length including trailing context: decides the match */
    size_t consume; /* length of yytext */
    size_t seg_end; /* continuation rules: end of the text kept */
    const des_keyword *keyword;
} match;

typedef struct scan {
    const char *d;
    size_t n, pos, eol; /* eol: the next '\n' at or after pos, or n */
    int bol;
} scan;

static int is_sp(char c) { return c == ' ' || c == '\t' || c == '\r'; }
static int is_nspace(char c) { return !is_sp(c) && c != '\n'; }
static int is_cspace(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

static void offer(match *best, enum rule rule, size_t total, size_t consume,
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
static size_t m_bsnl(const scan *s)
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
static size_t list_run(const scan *s)
{
    size_t i = s->pos + 1;
    while (i < s->n && s->d[i] != ',' && s->d[i] != '\r' && s->d[i] != '\n')
        i++;
    return i;
}

static int list_first(const scan *s)
{
    char c = s->d[s->pos];
    return c != ',' && is_nspace(c);
}

/* [^,\ \t\r\n][^,\r\n]*\\{SPACE}*\n ; *seg: where the backslash is */
static size_t m_list_cont(const scan *s, size_t *seg)
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
static size_t m_list_item(const scan *s)
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

static size_t m_span(const scan *s, enum span_class cls)
{
    size_t i = s->pos;
    while (i < s->n && in_class((unsigned char)s->d[i], cls))
        i++;
    return i - s->pos;
}

/* [spaces]*\r?\n, the spaces of class cls ([\ \t\r]*\n when it holds \r) */
static size_t m_spaces_nl(const scan *s, enum span_class cls)
{
    size_t i = s->pos + m_span(s, cls);
    if (i < s->n && s->d[i] == '\r' && cls != SPAN_BLANK_CR)
        i++;
    return i < s->n && s->d[i] == '\n' ? i + 1 - s->pos : 0;
}

/* \r?\n */
static size_t m_newline(const scan *s)
{
    size_t i = s->pos;
    if (i < s->n && s->d[i] == '\r')
        i++;
    return i < s->n && s->d[i] == '\n' ? i + 1 - s->pos : 0;
}

static void rules_mapdef(const scan *s, match *m)
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
        i = p;
        while (i < s->n && d[i] != '\r' && d[i] != '\n' && d[i] != '\t')
            i++;
        offer(m, R_MAP_LINE, i - p, i - p, 0);
        size_t blank = m_spaces_nl(s, SPAN_SPACE);
        offer(m, R_MAP_BLANK, blank, blank, 0);
    }
    if (d[p] == '#')
        offer(m, R_MAP_HASH, 1, 1, 0);
    if (d[p] == ' ' && p + 1 < s->n && d[p + 1] != ' ' && d[p + 1] != '\r' &&
        d[p + 1] != '\n')
        offer(m, R_MAP_SPACE, 2, 2, 0);
    size_t eol = m_spaces_nl(s, SPAN_SPACE);
    offer(m, R_MAP_EOL, eol, eol, 0);
}

static void rules_lua(const scan *s, match *m)
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
    size_t i = p;
    while (i < s->n && d[i] != '\r' && d[i] != '\n')
        i++;
    offer(m, R_LUA_LINE, i - p, i - p, 0);
    size_t nl = m_newline(s);
    offer(m, R_LUA_NL, nl, nl, 0);
}

static void rules_oneliner(const scan *s, match *m)
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

static void rules_keywords(const scan *s, match *m)
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

static void rules_item_list(const scan *s, match *m)
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

static void rules_mname(const scan *s, match *m)
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

static void rules_argument(const scan *s, match *m)
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
static size_t m_block(const scan *s, const char *word)
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

static size_t m_number(const scan *s)
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

static void rules_initial(const scan *s, match *m, int legacy)
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

static void find_match(const des_lexer *lx, const scan *s, match *m)
{
    m->rule = R_NONE;
    m->total = m->consume = m->seg_end = 0;
    m->keyword = NULL;
    switch (lx->state) {
    case DES_ST_MAPDEF: rules_mapdef(s, m); return;
    case DES_ST_LUA: rules_lua(s, m); return;
    case DES_ST_LUA_ONELINER: rules_oneliner(s, m); return;
    case DES_ST_ITEM_LIST: rules_item_list(s, m); return;
    case DES_ST_KEYWORDS: rules_keywords(s, m); break;
    case DES_ST_MNAME: rules_mname(s, m); break;
    case DES_ST_ARGUMENT: rules_argument(s, m); break;
    case DES_ST_INITIAL: break;
    }
    rules_initial(s, m, lx->legacy);
}

/* ---- yylval.text handling (settext / cattext / clean / str_check) ----- */

static void post_proc(qg_buf *b, size_t from, int trim_right, int strip_trailing,
                      int strip_leading)
{
    if (trim_right)
        while (b->len > from && is_cspace((unsigned char)b->data[b->len - 1]))
            b->len--;
    while (strip_trailing-- > 0 && b->len > from)
        b->len--;
    if (strip_leading) {
        size_t have = b->len - from, cut = (size_t)strip_leading < have ? (size_t)strip_leading : have;
        memmove(b->data + from, b->data + from + cut, have - cut);
        b->len -= cut;
    }
    if (b->data)
        b->data[b->len] = '\0';
}

static int settext(des_lexer *lx, const char *s, size_t len, int trim, int strip_tr,
                   int strip_ld)
{
    lx->text_offset = lx->pos;
    lx->text_line = lx->line;
    lx->text_col = (int)(lx->pos - lx->line_start) + 1;
    qg_buf_reset(&lx->text);
    if (!qg_buf_append(&lx->text, s, len) || !qg_buf_reserve(&lx->text, 1))
        return 0;
    post_proc(&lx->text, 0, trim, strip_tr, strip_ld);
    lx->has_text = 1;
    return 1;
}

static int cattext(des_lexer *lx, const char *s, size_t len, int trim, int strip_tr)
{
    if (!lx->has_text)
        return settext(lx, s, len, trim, strip_tr, 0);
    if (!qg_buf_append(&lx->text, s, len) || !qg_buf_reserve(&lx->text, 1))
        return 0;
    post_proc(&lx->text, 0, trim, strip_tr, 0);
    return 1;
}

static void clean(des_lexer *lx) { lx->has_text = 0; }

static int str_check(des_lexer *lx)
{
    if (lx->has_text)
        return 1;
    return settext(lx, "", 0, 0, 0, 0);
}

/* ---- the scanner loop ------------------------------------------------- */

void des_lexer_init(des_lexer *lx, const char *data, size_t len,
                    des_state initial_state, int legacy)
{
    memset(lx, 0, sizeof *lx);
    lx->data = data;
    lx->len = len;
    lx->line = 1;
    lx->state = initial_state;
    lx->legacy = legacy;
    qg_buf_init(&lx->text);
}

void des_lexer_free(des_lexer *lx)
{
    qg_buf_free(&lx->text);
}

static void event(des_lexer *lx, des_lex_event ev, size_t offset)
{
    if (lx->on_event)
        lx->on_event(lx->user, ev, offset);
}

static void advance(des_lexer *lx, size_t count)
{
    const char *p = lx->data + lx->pos, *end = p + count;
    /* eol is the first newline at or after pos: text before it has none */
    if (lx->eol_known && lx->pos + count <= lx->eol) {
        lx->pos += count;
        return;
    }
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        lx->line++;
        p++;
        lx->line_start = (size_t)(p - lx->data);
    }
    lx->pos += count;
}

static void set_token(des_lexer *lx, des_token *tok, des_tok kind)
{
    tok->kind = kind;
    tok->line = lx->line;
    if (kind == DES_T_STRING || kind == DES_T_MAP_LINE || kind == DES_T_MONSTER_NAME ||
        kind == DES_T_ITEM_INFO || kind == DES_T_LUA_LINE) {
        tok->text = lx->text.data ? lx->text.data : "";
        tok->len = lx->text.len;
        tok->start_line = lx->text_line;
        tok->start_col = lx->text_col;
        tok->start_offset = lx->text_offset;
    }
}

static void note_map_line(des_lexer *lx, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if ((unsigned char)lx->data[i] >= 0x80) {
            event(lx, DES_EV_MAP_NONASCII, i);
            return;
        }
}

/* Runs the action of rule m; returns the token kind, or -1 to go on
 * scanning, or -2 when out of memory. */
static int act(des_lexer *lx, const match *m, des_token *tok)
{
    const char *t = lx->data + lx->pos;
    size_t n = m->consume;
    int ok = 1;
    switch (m->rule) {
    case R_MAP_ENDMAP: lx->state = DES_ST_INITIAL; return -1;
    case R_MAP_LINE:
        note_map_line(lx, lx->pos, lx->pos + n);
        ok = settext(lx, t, n, 1, 0, 0);
        return ok ? DES_T_MAP_LINE : -2;
    case R_MAP_BLANK: case R_MAP_HASH: case R_MAP_SPACE: return DES_T_CHARACTER;
    case R_LUA_END: lx->state = DES_ST_INITIAL; return -1;
    case R_LUA_ENDLINE:
        lx->state = DES_ST_INITIAL;
        return settext(lx, t, n, 1, 2, 0) ? DES_T_LUA_LINE : -2;
    case R_LUA_LINE: case R_ONE_LINE:
        return settext(lx, t, n, 1, 0, 0) ? DES_T_LUA_LINE : -2;
    case R_ONE_NL: case R_KW_NL: case R_IL_NL: case R_MN_NL:
        lx->state = DES_ST_INITIAL;
        return -1;
    case R_KW_WORD:
        return settext(lx, t, n, 0, 0, 0) ? DES_T_STRING : -2;
    case R_IL_CONT: case R_MN_CONT: case R_AR_CONT:
        ok = cattext(lx, t, m->seg_end + 1 - lx->pos, 1, 1);
        return ok ? -1 : -2;
    case R_IL_ITEM: case R_MN_NAME:
        ok = cattext(lx, t, n, 0, 0);
        return !ok ? -2 : m->rule == R_IL_ITEM ? DES_T_ITEM_INFO : DES_T_MONSTER_NAME;
    case R_IL_COMMA: case R_MN_COMMA: clean(lx); return DES_T_COMMA;
    case R_AR_TEXT: case R_AR_ONE: return cattext(lx, t, n, 0, 0) ? -1 : -2;
    case R_AR_END:
        lx->state = DES_ST_INITIAL;
        return str_check(lx) ? DES_T_STRING : -2;
    case R_I_MAP:
        event(lx, DES_EV_MAP_START, lx->pos);
        lx->state = DES_ST_MAPDEF;
        return -1;
    case R_I_ONELINER: lx->state = DES_ST_LUA_ONELINER; return DES_T_MAIN;
    case R_I_PRELUDE: lx->state = DES_ST_LUA; return DES_T_PRELUDE;
    case R_I_LUA: case R_I_BLOCK: lx->state = DES_ST_LUA; return DES_T_MAIN;
    case R_I_VALIDATE: lx->state = DES_ST_LUA; return DES_T_VALIDATE;
    case R_I_VETO: lx->state = DES_ST_LUA; return DES_T_VETO;
    case R_I_EPILOGUE: lx->state = DES_ST_LUA; return DES_T_EPILOGUE;
    case R_I_KEYWORD:
        tok->keyword = m->keyword;
        if (m->keyword->enter_state >= 0) {
            lx->state = (des_state)m->keyword->enter_state;
            clean(lx);
        }
        return DES_T_KEYWORD;
    case R_I_COMMA: return DES_T_COMMA;
    case R_I_COLON: return DES_T_COLON;
    case R_I_PERC: return DES_T_PERC;
    case R_I_DASH: return DES_T_DASH;
    case R_I_NUMBER: {
        char num[64];
        size_t k = n < sizeof num - 1 ? n : sizeof num - 1;
        memcpy(num, t, k);
        num[k] = '\0';
        clean(lx);
        tok->number = strtod(num, NULL);
        return DES_T_NUMBER;
    }
    case R_I_PAREN: return settext(lx, t, n, 1, 1, 1) ? DES_T_STRING : -2;
    case R_I_ANY: return DES_T_CHARACTER;
    default: return -1;
    }
}

int des_lex(des_lexer *lx, des_token *tok)
{
    memset(tok, 0, sizeof *tok);
    scan s = {lx->data, lx->len, 0, 0, 0};
    for (;;) {
        if (lx->pos >= lx->len) {
            tok->kind = DES_T_EOF;
            tok->line = lx->line;
            tok->start_line = lx->line;
            tok->start_col = 1;
            tok->start_offset = lx->len;
            return 1;
        }
        s.pos = lx->pos;
        s.bol = lx->pos == 0 || lx->data[lx->pos - 1] == '\n';
        if (!lx->eol_known || lx->eol < s.pos) {
            const char *nl = memchr(lx->data + s.pos, '\n', lx->len - s.pos);
            lx->eol = nl ? (size_t)(nl - lx->data) : lx->len;
            lx->eol_known = 1;
        }
        s.eol = lx->eol;
        match m;
        find_match(lx, &s, &m);
        tok->start_line = lx->line;
        tok->start_col = (int)(lx->pos - lx->line_start) + 1;
        tok->start_offset = lx->pos;
        if (m.rule == R_NONE) {
            /* flex's default rule: echo one byte and drop it */
            event(lx, lx->state == DES_ST_MAPDEF && lx->data[lx->pos] == '\t'
                          ? DES_EV_MAP_TAB : DES_EV_ECHO, lx->pos);
            advance(lx, 1);
            continue;
        }
        int kind = act(lx, &m, tok);
        advance(lx, m.consume);
        if (kind == -2)
            return 0;
        if (kind >= 0) {
            set_token(lx, tok, (des_tok)kind);
            return 1;
        }
    }
}

void des_position(const char *data, size_t len, size_t offset, int *line,
                  int *col, size_t *line_start)
{
    int ln = 1;
    size_t start = 0;
    if (offset > len)
        offset = len;
    for (const char *p = data, *end = data + offset;
         (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) {
        ln++;
        start = (size_t)(p - data) + 1;
    }
    if (line)
        *line = ln;
    if (col)
        *col = (int)(offset - start) + 1;
    if (line_start)
        *line_start = start;
}

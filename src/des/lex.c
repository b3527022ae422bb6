#include "des/lex.h"
#include "des/lex_rules.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int is_cspace(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
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
    if (!qg_buf_append(&lx->text, s, len))
        return 0;
    post_proc(&lx->text, 0, trim, strip_tr, strip_ld);
    lx->has_text = 1;
    return 1;
}

static int cattext(des_lexer *lx, const char *s, size_t len, int trim, int strip_tr)
{
    if (!lx->has_text)
        return settext(lx, s, len, trim, strip_tr, 0);
    if (!qg_buf_append(&lx->text, s, len))
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
    size_t i = from;
    /* eight bytes at a time: any high bit means a byte that is not ASCII */
    for (; i + 8 <= to; i += 8) {
        uint64_t word;
        memcpy(&word, lx->data + i, 8);
        if (word & UINT64_C(0x8080808080808080))
            break;
    }
    for (; i < to; i++)
        if ((unsigned char)lx->data[i] >= 0x80) {
            event(lx, DES_EV_MAP_NONASCII, i);
            return;
        }
}

/* Runs the action of rule m; returns the token kind, or -1 to go on
 * scanning, or -2 when out of memory. */
static int act(des_lexer *lx, const des_match *m, des_token *tok)
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
    des_scan s = {lx->data, lx->len, 0, 0, 0};
    for (;;) {
        if (lx->pos >= lx->len) {
            tok->kind = DES_T_EOF;
            tok->line = lx->line;
            tok->start_line = lx->line;
            tok->start_col = (int)(lx->len - lx->line_start) + 1;
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
        des_match m;
        des_find_match(lx->state, lx->legacy, &s, &m);
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
        if (lx->pos + m.consume <= lx->eol)
            lx->pos += m.consume; /* no newline in it: the common case */
        else
            advance(lx, m.consume);
        if (kind == -2)
            return 0;
        if (kind >= 0) {
            set_token(lx, tok, (des_tok)kind);
            return 1;
        }
    }
}

int des_lex_take_text(des_lexer *lx, const des_token *tok, qg_buf *out)
{
    if (tok->kind == DES_T_MAP_LINE || tok->kind == DES_T_LUA_LINE) {
        qg_buf held = *out;
        *out = lx->text;
        lx->text = held;
        qg_buf_reset(&lx->text);
        return 1;
    }
    qg_buf_reset(out);
    return qg_buf_append(out, tok->text, tok->len);
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

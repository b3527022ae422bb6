/* Parser diagnostics: positions, scanner events and syntax errors. */
#include "des/parser.h"

#include <string.h>

/* The line is read only from the column on, as far as a diagnostic keeps
 * of it (QG_DIAG_SOURCE_MAX bytes; the column is on the line, so no
 * newline comes before it): thousands of errors on one long line would
 * otherwise each read the whole line. */
void des_diag_line(parser *p, qg_severity sev, int line, int col, size_t line_start,
                   const char *msg)
{
    const char *s = p->data + line_start;
    size_t left = line_start < p->len ? p->len - line_start : 0;
    size_t from = col > 0 ? (size_t)col - 1 : 0;
    if (from > left)
        from = left;
    size_t more = left - from < QG_DIAG_SOURCE_MAX ? left - from : QG_DIAG_SOURCE_MAX;
    const char *nl = more ? memchr(s + from, '\n', more) : NULL;
    size_t n = nl ? (size_t)(nl - s) : from + more;
    qg_diags_add(p->diags, sev, p->path, line, col, n ? s : "", n, "%s", msg);
}

void des_diag_offset(parser *p, qg_severity sev, size_t offset, const char *msg)
{
    int line, col;
    size_t start;
    des_position(p->data, p->len, offset, &line, &col, &start);
    des_diag_line(p, sev, line, col, start, msg);
}

/* Tokens and scanner events know their line: no rescan of the file. */
void des_diag_token(parser *p, qg_severity sev, const des_token *t, const char *msg)
{
    des_diag_line(p, sev, t->start_line, t->start_col,
                  t->start_offset - (size_t)(t->start_col - 1), msg);
}

void des_diag_here(parser *p, qg_severity sev, size_t offset, const char *msg)
{
    des_diag_line(p, sev, p->lx.line, (int)(offset - p->lx.line_start) + 1,
                  p->lx.line_start, msg);
}

void des_on_lex_event(void *user, des_lex_event ev, size_t offset)
{
    parser *p = user;
    switch (ev) {
    case DES_EV_ECHO:
        /* one report for the bytes a line loses */
        if (p->dropped_line != p->lx.line)
            des_diag_here(p, QG_WARNING, offset,
                      "character ignored (Crawl's scanner echoes and drops it)");
        p->dropped_line = p->lx.line;
        break;
    case DES_EV_MAP_TAB:
        des_diag_here(p, QG_ERROR, offset, "TAB inside MAP (the rest of the row is dropped)");
        p->dropped_line = p->lx.line;
        break;
    case DES_EV_MAP_NONASCII:
        des_diag_here(p, QG_WARNING, offset, "byte that is not ASCII inside MAP (kept)");
        break;
    case DES_EV_MAP_START:
        p->map_offset = offset;
        break;
    }
}

static int starts_statement(const des_token *t)
{
    return t->kind == DES_T_EOF || t->kind == DES_T_KEYWORD || t->kind == DES_T_MAIN ||
           t->kind == DES_T_PRELUDE || t->kind == DES_T_VALIDATE ||
           t->kind == DES_T_VETO || t->kind == DES_T_EPILOGUE;
}

static const char *token_name(const des_token *t)
{
    switch (t->kind) {
    case DES_T_EOF: return "end of file";
    case DES_T_KEYWORD: return t->keyword->word;
    case DES_T_PRELUDE: return "prelude {{";
    case DES_T_MAIN: return "Lua";
    case DES_T_VALIDATE: return "validate {{";
    case DES_T_VETO: return "veto {{";
    case DES_T_EPILOGUE: return "epilogue {{";
    case DES_T_COMMA: return "','";
    case DES_T_COLON: return "':'";
    case DES_T_PERC: return "'%'";
    case DES_T_DASH: return "'-'";
    case DES_T_NUMBER: return "a number";
    case DES_T_STRING: return "a string";
    case DES_T_MAP_LINE: return "a map row";
    case DES_T_MONSTER_NAME: return "a monster";
    case DES_T_ITEM_INFO: return "an item";
    case DES_T_LUA_LINE: return "a Lua line";
    case DES_T_CHARACTER: return "a character";
    }
    return "?";
}

/* Reports the lookahead as unexpected and skips the rest of its line. */
/* The CHARACTER tokens of a map body: its scanner rules say why. */
static const char *map_character(const parser *p, const des_token *t)
{
    size_t at = t->start_offset;
    char c = p->data[at], next = at + 1 < p->len ? p->data[at + 1] : '\n';
    if (c == '#')
        return "'#' after a TAB inside MAP";
    if (c == ' ' && next != ' ' && next != '\n' && next != '\r')
        return "space after a TAB inside MAP";
    return "blank line inside MAP";
}

void des_syntax_error(parser *p, const char *expected)
{
    const des_token *t = des_peek(p);
    char msg[200];
    unsigned char c = (unsigned char)p->data[t->start_offset < p->len ? t->start_offset : 0];
    if (t->kind == DES_T_CHARACTER && p->lx.state == DES_ST_MAPDEF)
        snprintf(msg, sizeof msg, "%s", map_character(p, t));
    else if (t->kind == DES_T_CHARACTER && c >= 0x21 && c < 0x7f)
        snprintf(msg, sizeof msg, "unexpected character '%c'", c);
    else if (t->kind == DES_T_CHARACTER)
        snprintf(msg, sizeof msg, "unexpected character \\x%02x", c);
    else if (expected)
        snprintf(msg, sizeof msg, "syntax error: expected %s, found %s", expected,
                 token_name(t));
    else
        snprintf(msg, sizeof msg, "syntax error: %s is not expected here", token_name(t));
    des_diag_token(p, QG_ERROR, t, msg);
    /* A missing argument leaves the next statement to be read; anything
     * else unexpected takes the rest of its line with it. */
    if (expected && starts_statement(t))
        return;
    int line = t->start_line;
    des_take(p);
    while (!p->nomem && des_peek(p)->kind != DES_T_EOF && p->look.start_line == line)
        des_take(p);
}

/* The rules of Crawl's scanner (levcomp.lpp), each matched by hand: for a
 * position and a start condition, which rule flex would pick. flex takes
 * the longest match (trailing context "$" counts towards its length) and,
 * on a tie, the rule written first. */
#ifndef QG_DES_LEX_RULES_H
#define QG_DES_LEX_RULES_H

#include <stddef.h>

#include "des/lex.h"

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

typedef struct des_match {
    enum rule rule;
    size_t total;   /* length including trailing context: decides the match */
    size_t consume; /* length of yytext */
    size_t seg_end; /* continuation rules: end of the text kept */
    const des_keyword *keyword;
} des_match;

typedef struct des_scan {
    const char *d;
    size_t n, pos, eol; /* eol: the next '\n' at or after pos, or n */
    int bol;
} des_scan;

/* The rule flex picks at s->pos in state (R_NONE: its default rule, which
 * echoes one byte). */
void des_find_match(des_state state, int legacy, const des_scan *s, des_match *m);

#endif

/* The .des lexer: a byte-exact emulation of Crawl's flex scanner
 * (levcomp.lpp), including its quirks: flex reads "\s" as the letter s,
 * trailing context "$" counts towards the longest match, ties go to the
 * earlier rule, and characters no rule matches in an exclusive state are
 * echoed and dropped. */
#ifndef QG_DES_LEX_H
#define QG_DES_LEX_H

#include <stddef.h>

#include "core/buf.h"
#include "des/keywords.h"

/* Start conditions, as in levcomp.lpp. */
typedef enum des_state {
    DES_ST_INITIAL = 0,
    DES_ST_MAPDEF,
    DES_ST_LUA,
    DES_ST_LUA_ONELINER,
    DES_ST_ARGUMENT,
    DES_ST_MNAME,
    DES_ST_KEYWORDS,
    DES_ST_ITEM_LIST
} des_state;

typedef enum des_tok {
    DES_T_EOF = 0,
    DES_T_KEYWORD,     /* a directive keyword; see tok.keyword */
    DES_T_PRELUDE,
    DES_T_MAIN,        /* ':' or '{{' or 'lua {{' */
    DES_T_VALIDATE,
    DES_T_VETO,
    DES_T_EPILOGUE,
    DES_T_COMMA,
    DES_T_COLON,
    DES_T_PERC,
    DES_T_DASH,
    DES_T_NUMBER,
    DES_T_STRING,
    DES_T_MAP_LINE,
    DES_T_MONSTER_NAME,
    DES_T_ITEM_INFO,
    DES_T_LUA_LINE,
    DES_T_CHARACTER
} des_tok;

/* Something the scanner saw that Crawl passes over silently or that the
 * grammar never sees; the parser turns these into diagnostics. */
typedef enum des_lex_event {
    DES_EV_ECHO,          /* a byte no rule matched: Crawl echoes and drops it */
    DES_EV_MAP_TAB,       /* a TAB inside a MAP row */
    DES_EV_MAP_NONASCII,  /* a byte >= 0x80 inside a MAP row (kept) */
    DES_EV_MAP_START      /* a MAP line opened a map body */
} des_lex_event;

typedef struct des_token {
    des_tok kind;
    const des_keyword *keyword; /* for DES_T_KEYWORD */
    const char *text;           /* STRING, *_NAME, ITEM_INFO, LUA_LINE, MAP_LINE */
    size_t len;
    double number;              /* NUMBER */
    int line;                   /* Crawl's yylineno once the token is read */
    int start_line, start_col;  /* where the token begins, for diagnostics */
    size_t start_offset;
} des_token;

typedef void (*des_event_fn)(void *user, des_lex_event event, size_t offset);

typedef struct des_lexer {
    const char *data;
    size_t len;
    size_t pos;
    int line;            /* yylineno */
    size_t line_start;   /* offset of the current line */
    size_t eol;          /* the next '\n' at or after pos (when eol_known) */
    int eol_known;
    des_state state;
    int legacy;          /* FLAGS/LFLAGS/BFLAGS/FLOORCOL/ROCKCOL are keywords */
    qg_buf text;         /* yylval.text (cattext accumulates into it) */
    int has_text;        /* yylval.text is set */
    size_t text_offset;  /* where yylval.text began */
    int text_line, text_col;
    des_event_fn on_event;
    void *user;
} des_lexer;

void des_lexer_init(des_lexer *lx, const char *data, size_t len,
                    des_state initial_state, int legacy);
void des_lexer_free(des_lexer *lx);
/* Reads the next token; tok->text points into the lexer (valid until the
 * next call). Returns 0 when out of memory. */
int des_lex(des_lexer *lx, des_token *tok);

/* Moves the text of the token just read into out (replacing what out
 * held). A MAP_LINE or LUA_LINE text is never extended by a later token
 * (the scanner reaches a state that appends only through a keyword, which
 * clears it), so its buffer is handed over instead of copied. Returns 0
 * when out of memory. */
int des_lex_take_text(des_lexer *lx, const des_token *tok, qg_buf *out);

/* Line and column (1-based) of a byte offset; the start of that line. */
void des_position(const char *data, size_t len, size_t offset, int *line,
                  int *col, size_t *line_start);

#endif

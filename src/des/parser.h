/* The .des parser's state and the pieces of it that live in separate
 * files, each calling only those before it: the lookahead (lookahead.c),
 * diagnostics (parse_diag.c), the lowering of directives to Lua
 * statements (lower.c), the map grammar (parse.c). */
#ifndef QG_DES_PARSER_H
#define QG_DES_PARSER_H

#include "des/lex.h"
#include "des/map.h"

typedef struct parser {
    des_lexer lx;
    des_token look;          /* the lookahead, when have_look */
    qg_buf look_text;
    int have_look;
    des_token cur;           /* the token last taken */
    qg_buf cur_text;
    const char *path;
    const char *data;
    size_t len;
    qg_des_file *file;
    qg_diags *diags;
    qg_des_names *names;
    qg_mapdef *def;          /* the map being read */
    des_map *map;
    qg_buf code;             /* scratch for one Lua statement */
    des_chunk work[QG_CHUNK_KINDS]; /* the current map's chunks while read */
    int legacy;
    int skim;                /* only what lies outside the maps (des_skim) */
    int nomem;
    size_t map_offset;       /* where the last MAP line began */
    size_t block_offset;     /* where the last {{ block began */
    int dropped_line;        /* the line whose dropped bytes were reported */
} parser;

/* The lookahead (read on demand) and taking it. */
const des_token *des_peek(parser *p);
const des_token *des_take(parser *p);

void des_diag_line(parser *p, qg_severity sev, int line, int col, size_t line_start,
                   const char *msg);
void des_diag_offset(parser *p, qg_severity sev, size_t offset, const char *msg);
void des_diag_token(parser *p, qg_severity sev, const des_token *t, const char *msg);
void des_diag_here(parser *p, qg_severity sev, size_t offset, const char *msg);
void des_on_lex_event(void *user, des_lex_event ev, size_t offset);
/* Reports the lookahead as unexpected (expected: what the grammar wanted,
 * or NULL) and skips what cannot be read. */
void des_syntax_error(parser *p, const char *expected);

/* The arguments of directive kw, lowered into the main chunk and recorded. */
void des_directive_args(parser *p, const des_keyword *kw);
/* Lua lines following a ':' or a block opener, into chunk. */
void des_lua_lines(parser *p, des_chunk *chunk);
/* lua("arg") into a chunk of the current map. */
void des_emit_call_to(parser *p, qg_chunk_kind kind, const char *lua, const char *arg,
                      size_t len, int line);

#endif

/* Lua chunk assembly with Crawl's line alignment (dlua_chunk::add): each
 * statement is appended as " " + code, and newlines are inserted so that
 * chunk line k comes from .des line first + k - 1. */
#ifndef QG_DES_CHUNK_H
#define QG_DES_CHUNK_H

#include "core/buf.h"

typedef struct des_chunk {
    qg_buf code;
    int first; /* -1 while empty */
    int last;
} des_chunk;

void des_chunk_init(des_chunk *chunk);
void des_chunk_free(des_chunk *chunk);
/* Adds one statement from .des line `line`; 0 when out of memory. */
int des_chunk_add(des_chunk *chunk, int line, const char *code, size_t len);
/* Starts a statement from .des line `line` and returns the buffer to
 * write its code into (des_chunk_add in two steps). */
qg_buf *des_chunk_begin(des_chunk *chunk, int line);
/* Appends s to buf with \ and " escaped (quote_lua_string). */
int des_quote_lua(qg_buf *buf, const char *s, size_t len);

#endif

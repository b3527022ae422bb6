#include "des/chunk.h"

#include <string.h>

void des_chunk_init(des_chunk *chunk)
{
    qg_buf_init(&chunk->code);
    chunk->first = chunk->last = -1;
}

void des_chunk_free(des_chunk *chunk)
{
    qg_buf_free(&chunk->code);
    chunk->first = chunk->last = -1;
}

/* Room for n more bytes at the end of buf, counted in its length. */
static char *extend(qg_buf *buf, size_t n)
{
    if (!qg_buf_reserve(buf, n))
        return NULL;
    char *at = buf->data + buf->len;
    buf->len += n;
    buf->data[buf->len] = '\0';
    return at;
}

qg_buf *des_chunk_begin(des_chunk *chunk, int line)
{
    if (chunk->first == -1)
        chunk->first = line;
    size_t newlines = 0;
    if (line != chunk->last && chunk->last != -1 && chunk->last < line)
        newlines = (size_t)(line - chunk->last);
    char *at = extend(&chunk->code, newlines + 1);
    if (at) {
        memset(at, '\n', newlines);
        at[newlines] = ' ';
    }
    chunk->last = line;
    return &chunk->code;
}

int des_chunk_add(des_chunk *chunk, int line, const char *code, size_t len)
{
    qg_buf_append(des_chunk_begin(chunk, line), code, len);
    return !chunk->code.failed;
}

int des_quote_lua(qg_buf *buf, const char *s, size_t len)
{
    /* most strings have nothing to escape: look for it with memchr */
    const char *bs = memchr(s, '\\', len), *dq = memchr(s, '"', len);
    size_t quoted = len;
    if (bs || dq) {
        size_t from = (size_t)((bs && (!dq || bs < dq) ? bs : dq) - s);
        for (size_t i = from; i < len; i++)
            quoted += s[i] == '\\' || s[i] == '"';
    }
    char *at = extend(buf, quoted);
    if (!at)
        return 0;
    if (quoted == len) {
        memcpy(at, s, len);
        return 1;
    }
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\\' || s[i] == '"')
            *at++ = '\\';
        *at++ = s[i];
    }
    return 1;
}

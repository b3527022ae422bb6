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

int des_chunk_add(des_chunk *chunk, int line, const char *code, size_t len)
{
    if (chunk->first == -1)
        chunk->first = line;
    if (line != chunk->last && chunk->last != -1)
        while (chunk->last++ < line)
            qg_buf_putc(&chunk->code, '\n');
    qg_buf_putc(&chunk->code, ' ');
    qg_buf_append(&chunk->code, code, len);
    chunk->last = line;
    return !chunk->code.failed;
}

int des_quote_lua(qg_buf *buf, const char *s, size_t len)
{
    size_t from = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] != '\\' && s[i] != '"')
            continue;
        qg_buf_append(buf, s + from, i - from);
        qg_buf_putc(buf, '\\');
        from = i;
    }
    qg_buf_append(buf, s + from, len - from);
    return !buf->failed;
}

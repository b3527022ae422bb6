#include "core/buf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void qg_buf_init(qg_buf *buf)
{
    buf->data = NULL;
    buf->len = 0;
    buf->cap = 0;
    buf->failed = 0;
}

void qg_buf_free(qg_buf *buf)
{
    free(buf->data);
    qg_buf_init(buf);
}

void qg_buf_reset(qg_buf *buf)
{
    buf->len = 0;
    if (buf->data)
        buf->data[0] = '\0';
}

int qg_buf_reserve(qg_buf *buf, size_t extra)
{
    if (buf->failed)
        return 0;
    if (extra > SIZE_MAX - buf->len - 1) {
        buf->failed = 1;
        return 0;
    }
    size_t need = buf->len + extra + 1;
    if (need <= buf->cap)
        return 1;
    size_t cap = buf->cap ? buf->cap : 64;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    char *data = realloc(buf->data, cap);
    if (!data) {
        buf->failed = 1;
        return 0;
    }
    buf->data = data;
    buf->cap = cap;
    return 1;
}

int qg_buf_append(qg_buf *buf, const void *data, size_t len)
{
    if (!qg_buf_reserve(buf, len))
        return 0;
    if (len)
        memcpy(buf->data + buf->len, data, len);
    buf->len += len;
    buf->data[buf->len] = '\0';
    return 1;
}

int qg_buf_putc(qg_buf *buf, int c)
{
    char ch = (char)c;
    return qg_buf_append(buf, &ch, 1);
}

int qg_buf_puts(qg_buf *buf, const char *s)
{
    return qg_buf_append(buf, s, strlen(s));
}

int qg_buf_vprintf(qg_buf *buf, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0 || !qg_buf_reserve(buf, (size_t)n))
        return 0;
    vsnprintf(buf->data + buf->len, (size_t)n + 1, fmt, ap);
    buf->len += (size_t)n;
    return 1;
}

int qg_buf_printf(qg_buf *buf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int ok = qg_buf_vprintf(buf, fmt, ap);
    va_end(ap);
    return ok;
}

char *qg_buf_take(qg_buf *buf)
{
    if (buf->failed) {
        qg_buf_free(buf);
        return NULL;
    }
    if (!buf->data && !qg_buf_reserve(buf, 0))
        return NULL;
    if (!buf->len)
        buf->data[0] = '\0';
    char *data = buf->data;
    qg_buf_init(buf);
    return data;
}

char *qg_strndup(const char *s, size_t len)
{
    char *copy = malloc(len + 1);
    if (!copy)
        return NULL;
    memcpy(copy, s, len);
    copy[len] = '\0';
    return copy;
}

char *qg_strdup(const char *s)
{
    return s ? qg_strndup(s, strlen(s)) : NULL;
}

int qg_grow(void **items, size_t *cap, size_t need, size_t item_size)
{
    if (need <= *cap)
        return 1;
    size_t next = *cap ? *cap : 4;
    while (next < need) {
        if (next > SIZE_MAX / 2)
            return 0;
        next *= 2;
    }
    if (next > SIZE_MAX / item_size)
        return 0;
    void *grown = realloc(*items, next * item_size);
    if (!grown)
        return 0;
    *items = grown;
    *cap = next;
    return 1;
}

const char *qg_decimal(char out[QG_DECIMAL_SIZE], long long value)
{
    char *p = out + QG_DECIMAL_SIZE - 1;
    unsigned long long magnitude = value < 0 ? 0ull - (unsigned long long)value
                                             : (unsigned long long)value;
    *p = '\0';
    do {
        *--p = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude);
    if (value < 0)
        *--p = '-';
    return p;
}

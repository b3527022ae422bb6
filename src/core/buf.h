/* Growable byte buffers and arrays: the one allocation helper every module
 * uses, so that running out of memory is reported the same way everywhere. */
#ifndef QG_CORE_BUF_H
#define QG_CORE_BUF_H

#include <stddef.h>
#include <stdarg.h>

typedef struct qg_buf {
    char *data;   /* always NUL-terminated when cap > 0 */
    size_t len;
    size_t cap;
    int failed;   /* set once an allocation failed; later appends are no-ops */
} qg_buf;

void qg_buf_init(qg_buf *buf);
void qg_buf_free(qg_buf *buf);
void qg_buf_reset(qg_buf *buf);
int qg_buf_reserve(qg_buf *buf, size_t extra);
int qg_buf_append(qg_buf *buf, const void *data, size_t len);
int qg_buf_putc(qg_buf *buf, int c);
int qg_buf_puts(qg_buf *buf, const char *s);
int qg_buf_printf(qg_buf *buf, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
int qg_buf_vprintf(qg_buf *buf, const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 0)))
#endif
    ;
/* Hands the data over to the caller (NUL-terminated; never NULL unless
 * allocation failed) and leaves the buffer empty. */
char *qg_buf_take(qg_buf *buf);

char *qg_strdup(const char *s);
char *qg_strndup(const char *s, size_t len);

/* Grows *items (of item_size bytes each) so that it holds at least need
 * items; returns 0 on allocation failure (the array is left as it was). */
int qg_grow(void **items, size_t *cap, size_t need, size_t item_size);

/* value in decimal, written to the end of out; returns where it starts.
 * (Levels get their numeric properties by the dozen: no printf.) */
#define QG_DECIMAL_SIZE 24
const char *qg_decimal(char out[QG_DECIMAL_SIZE], long long value);

#define QG_PUSH(items, count, cap)                                          \
    (((count) < (cap) ||                                                    \
      qg_grow((void **)&(items), &(cap), (count) + 1, sizeof *(items)))     \
         ? &(items)[(count)++]                                              \
         : NULL)

#endif

/* Numbers as the games read them (atoi), with the junk atoi silently
 * accepts reported; and the diagnostics helpers every reader uses. */
#include "fd/fd_internal.h"

#include <limits.h>
#include <stdarg.h>

#if defined(__GNUC__)
__attribute__((format(printf, 4, 0)))
#endif
static void report(const fd_line *at, qg_severity severity, int col,
                   const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 0)))
#endif
    ;

static void report(const fd_line *at, qg_severity severity, int col,
                   const char *fmt, va_list ap)
{
    if (at)
        qg_diags_vadd(at->diags, severity, at->file, at->line, col, at->text, at->len, fmt, ap);
}

void fd_error(const fd_line *at, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(at, QG_ERROR, col, fmt, ap);
    va_end(ap);
}

void fd_warning(const fd_line *at, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(at, QG_WARNING, col, fmt, ap);
    va_end(ap);
}

void fd_note(const fd_line *at, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(at, QG_NOTE, col, fmt, ap);
    va_end(ap);
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

int32_t fd_atoi(const char *p, size_t len)
{
    size_t i = 0;
    while (i < len && is_space(p[i]))
        i++;
    int negative = 0;
    if (i < len && (p[i] == '-' || p[i] == '+'))
        negative = p[i++] == '-';
    long long value = 0;
    while (i < len && p[i] >= '0' && p[i] <= '9') {
        if (value < (long long)INT32_MAX + 1)
            value = value * 10 + (p[i] - '0');
        i++;
    }
    if (negative)
        value = -value;
    if (value > INT32_MAX)
        return INT32_MAX;
    if (value < INT32_MIN)
        return INT32_MIN;
    return (int32_t)value;
}

/* Whether the token is a decimal number with nothing but spaces around:
 * what atoi reads entirely. */
static int clean_number(const char *p, size_t len)
{
    size_t i = 0;
    while (i < len && is_space(p[i]))
        i++;
    if (i < len && (p[i] == '-' || p[i] == '+'))
        i++;
    size_t digits = 0;
    while (i < len && p[i] >= '0' && p[i] <= '9') {
        i++;
        digits++;
    }
    while (i < len && is_space(p[i]))
        i++;
    return digits > 0 && digits <= 10 && i == len;
}

static int all_space(const char *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!is_space(p[i]))
            return 0;
    return 1;
}

int fd_number(const fd_line *at, const fd_tok *tok, const char *what, int32_t *value)
{
    *value = fd_atoi(tok->p, tok->len);
    if (all_space(tok->p, tok->len) || clean_number(tok->p, tok->len))
        return 1;
    fd_error(at, tok->col, "bad number '%.*s' for %s (the games would read %ld)",
             (int)(tok->len > 40 ? 40 : tok->len), tok->p, what, (long)*value);
    return 0;
}

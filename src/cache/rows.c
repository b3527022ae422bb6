/* The plain-row rule shared by the writer, which checks that a map's rows
 * follow it, and the reader, which rebuilds them from it. */
#include "cache/rows.h"

#include <string.h>

/* Where line `line` of a slice starting at line first_line begins, or NULL. */
const char *qgc_slice_line(const char *text, const char *end, size_t first_line,
                              size_t line)
{
    if (line < first_line)
        return NULL;
    for (size_t l = first_line; l < line && text; l++) {
        text = memchr(text, '\n', (size_t)(end - text));
        text = text ? text + 1 : NULL;
    }
    return text && text < end ? text : NULL;
}

/* The bytes of the line at p from column on, without trailing blanks: what
 * a MAP or D: row usually is. Returns the start of the next line. */
const char *qgc_plain_row(const char *p, const char *end, size_t column,
                             const char **text, size_t *len)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *stop = nl ? nl : end;
    while (stop > p && (stop[-1] == ' ' || stop[-1] == '\t' || stop[-1] == '\r'))
        stop--;
    if ((size_t)(stop - p) < column)
        return NULL;
    *text = p + column;
    *len = (size_t)(stop - p) - column;
    return nl ? nl + 1 : end;
}

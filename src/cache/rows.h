/* Rows as lines of a map's source slice (doc/qgc-format.md "Map blob"). */
#ifndef QG_CACHE_ROWS_H
#define QG_CACHE_ROWS_H

#include <stddef.h>

/* Where line `line` of a slice starting at line first_line begins, or NULL. */
const char *qgc_slice_line(const char *text, const char *end, size_t first_line,
                           size_t line);
/* The row on the line at p: its bytes from column on, without trailing
 * blanks (space, tab, CR). Returns the start of the next line, or NULL
 * when the line is shorter than column. */
const char *qgc_plain_row(const char *p, const char *end, size_t column,
                          const char **text, size_t *len);

#endif

/* Column-major bytes from one pass over row-major records: the index
 * stores its maps column by column, and its maps come one at a time from
 * the sorted records. Each column gathers in a buffer of its own that
 * goes to a scratch file of its own once past a bound, so one pass fills
 * every column in memory that does not grow with the corpus; the columns
 * are then read back one after another. */
#ifndef QG_CACHE_COLUMNS_H
#define QG_CACHE_COLUMNS_H

#include "cache/spill.h"
#include "core/buf.h"

typedef struct qgc_column {
    qg_buf buf;        /* appended, not yet in the scratch file */
    qgc_spill spill;   /* open once the buffer first passes the bound */
    int spilled;
} qgc_column;

typedef struct qgc_columns {
    qgc_column *cols;
    size_t count;
    int err;           /* errno of the first scratch file failure */
} qgc_columns;

/* 0 on no memory. */
int qgc_columns_init(qgc_columns *c, size_t count);
void qgc_columns_free(qgc_columns *c);

/* Column k's buffer, to append to; qgc_columns_settle after appending. */
static inline qg_buf *qgc_column_buf(qgc_columns *c, size_t k)
{
    return &c->cols[k].buf;
}

/* Moves column k's buffer to its scratch file once past the bound. 0 on
 * a scratch file failure (c->err). */
int qgc_columns_settle(qgc_columns *c, size_t k);

/* Called with column k's bytes, in order, a piece at a time. */
typedef void (*qgc_column_fn)(void *user, const void *data, size_t len);

/* Hands every column's bytes to each, column 0 first. 0 on a failed
 * append (a buffer's, or c->err) or read (errno set). */
int qgc_columns_read(qgc_columns *c, qgc_column_fn each, void *user);

#endif

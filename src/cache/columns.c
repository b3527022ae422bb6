#define _POSIX_C_SOURCE 200809L
#include "cache/columns.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A column's buffer bound, and the piece a spilled column is read back
 * in: the index has 14 columns, so gathering them holds about 1 MB. */
enum { COLUMN_BYTES = 64 * 1024 };

int qgc_columns_init(qgc_columns *c, size_t count)
{
    memset(c, 0, sizeof *c);
    c->cols = calloc(count + 1, sizeof *c->cols);
    if (!c->cols)
        return 0;
    c->count = count;
    for (size_t k = 0; k < count; k++)
        qg_buf_init(&c->cols[k].buf);
    return 1;
}

void qgc_columns_free(qgc_columns *c)
{
    for (size_t k = 0; c->cols && k < c->count; k++) {
        qg_buf_free(&c->cols[k].buf);
        if (c->cols[k].spilled)
            qgc_spill_close(&c->cols[k].spill);
    }
    free(c->cols);
    memset(c, 0, sizeof *c);
}

int qgc_columns_settle(qgc_columns *c, size_t k)
{
    qgc_column *col = &c->cols[k];
    if (col->buf.len < COLUMN_BYTES || c->err)
        return !c->err;
    if (!col->spilled) {
        col->spilled = qgc_spill_open(&col->spill);
        c->err = col->spill.err;
        if (!col->spilled)
            return 0;
    }
    qgc_spill_append(&col->spill, col->buf.data, col->buf.len);
    qg_buf_reset(&col->buf);
    c->err = col->spill.err;
    return !c->err;
}

/* Column k's spilled bytes to each, a piece at a time. */
static int read_spilled(qgc_column *col, unsigned char *piece, qgc_column_fn each, void *user)
{
    if (!col->spilled)
        return 1;
    if (!qgc_spill_flush(&col->spill)) {
        errno = col->spill.err;
        return 0;
    }
    for (uint64_t at = 0; at < col->spill.size;) {
        size_t n = col->spill.size - at < COLUMN_BYTES ? (size_t)(col->spill.size - at)
                                                       : COLUMN_BYTES;
        if (!qgc_spill_read(&col->spill, at, piece, n))
            return 0;
        each(user, piece, n);
        at += n;
    }
    return 1;
}

int qgc_columns_read(qgc_columns *c, qgc_column_fn each, void *user)
{
    for (size_t k = 0; k < c->count; k++)
        if (c->cols[k].buf.failed) {
            errno = ENOMEM;
            return 0;
        }
    if (c->err) {
        errno = c->err;
        return 0;
    }
    unsigned char *piece = malloc(COLUMN_BYTES);
    if (!piece) {
        errno = ENOMEM;
        return 0;
    }
    int ok = 1;
    for (size_t k = 0; k < c->count && ok; k++) {
        qgc_column *col = &c->cols[k];
        ok = read_spilled(col, piece, each, user);
        if (ok && col->buf.len)
            each(user, col->buf.data, col->buf.len);
    }
    free(piece);
    return ok;
}

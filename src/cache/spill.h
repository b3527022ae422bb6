/* A scratch file the writer appends to and reads back: what a compile
 * makes (blob texts, index records, compressed blobs) goes to disk as it
 * is made, so the writer's memory does not grow with the corpus. The file
 * is unlinked as soon as it is made ($TMPDIR, else /tmp). */
#ifndef QG_CACHE_SPILL_H
#define QG_CACHE_SPILL_H

#include "questgrid/core.h"

#include <stddef.h>
#include <stdint.h>

typedef struct qgc_spill {
    int fd;
    uint64_t size;       /* bytes appended, buffered ones included */
    unsigned char *buf;  /* appends not yet written */
    size_t len;
    int err;             /* the errno of the first failure; 0 when none */
} qgc_spill;

/* A part of a scratch file: len bytes from at. */
typedef struct qgc_span {
    uint64_t at, len;
} qgc_span;

/* 0 and s->err set when no scratch file can be made; such a spill holds
 * nothing to close. */
int qgc_spill_open(qgc_spill *s);
void qgc_spill_close(qgc_spill *s);
/* Appends len bytes; returns where they start. A failure is kept in
 * s->err and every later call fails. */
uint64_t qgc_spill_append(qgc_spill *s, const void *data, size_t len);
/* Writes what is buffered: reads see every append after it. */
int qgc_spill_flush(qgc_spill *s);
/* Reads len bytes from offset at (flushed); 0 on failure, errno set. Any
 * number of threads may read at once. */
int qgc_spill_read(const qgc_spill *s, uint64_t at, void *out, size_t len);
/* Writes len bytes from offset at to fd; 0 on failure, errno set. */
int qgc_spill_copy(const qgc_spill *s, uint64_t at, uint64_t len, int fd);
/* The message for the first failure, as a diagnostic. */
void qgc_spill_report(const qgc_spill *s, const char *path, qg_diags *diags);

#endif

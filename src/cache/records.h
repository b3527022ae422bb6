/* The writer's map records in name order, in bounded memory: records are
 * gathered into runs of a fixed size, each run sorted in memory and
 * appended to a scratch file, and the runs merged into one sorted scratch
 * file at write time, reading each run through a small window (an
 * external merge sort). A record starts with its name (qgc_put_cstr) and
 * its place among the records (a varint), which orders records of one
 * name as they were added. */
#ifndef QG_CACHE_RECORDS_H
#define QG_CACHE_RECORDS_H

#include "cache/spill.h"
#include "core/buf.h"

typedef struct qgc_run {
    uint64_t at, len;
} qgc_run;

/* A run's size bounds the memory of gathering and sorting it: a run is
 * written out before a record would take it past this, and the buffer
 * that gathers it never holds more (a record larger than a run is a run
 * of its own). */
#define QGC_RUN_BYTES (256 * 1024)

typedef struct qgc_records {
    qgc_spill runs_file;   /* the sorted runs, one after another */
    qg_buf run;            /* the run being gathered: records, each length-prefixed */
    qgc_run *runs;
    size_t run_count, run_cap;
} qgc_records;

/* 0 with runs_file.err set when its scratch file cannot be made. */
int qgc_records_open(qgc_records *r);
void qgc_records_close(qgc_records *r);
/* 0 on no memory, or a scratch file failure (runs_file.err). */
int qgc_records_add(qgc_records *r, const qg_buf *record);

/* Reads length-prefixed records from a scratch file, front to back. */
typedef struct qgc_record_reader {
    const qgc_spill *file;
    uint64_t next, end;     /* the unread part of the file */
    unsigned char *window;
    size_t cap, start, len; /* window[start, len) holds unread bytes */
    int failed;             /* errno of a read, or ENOMEM, or EINVAL for a bad frame */
} qgc_record_reader;

void qgc_record_reader_init(qgc_record_reader *rd, const qgc_spill *file, uint64_t at,
                            uint64_t len);
void qgc_record_reader_free(qgc_record_reader *rd);
/* The next record in place (valid until the next call): 1; 0 at the end
 * or on failure (rd->failed). */
int qgc_record_next(qgc_record_reader *rd, const unsigned char **record, size_t *len);

/* Called with each record in order. */
typedef void (*qgc_record_fn)(void *user, const unsigned char *record, size_t len);

/* Merges every run into out (length-prefixed records, by name then
 * place, flushed), calling each (if any) with every record. 0 on failure,
 * with errno set: ENOMEM, or a scratch file's error. */
int qgc_records_merge(qgc_records *r, qgc_spill *out, qgc_record_fn each, void *user);

/* Appends a record to file with its frame (its length before it), as a
 * record reader reads it. */
void qgc_record_append(qgc_spill *file, const void *record, size_t len);

/* A record's name (NUL-terminated in place) and its place. */
const char *qgc_record_name(const unsigned char *record, size_t len, uint64_t *place);

#endif

/* The open cache: the file's bytes (mapped or read), the inflated index
 * and the tables decoded from it. Nothing changes after qg_cache_open, so
 * every reading function may run in several threads at once. */
#ifndef QG_CACHE_READER_H
#define QG_CACHE_READER_H

#include "cache/format.h"

typedef struct qgc_bytes {
    const unsigned char *data;
    size_t len;
} qgc_bytes;

typedef struct qgc_blob_ref {
    uint64_t offset;
    uint32_t size;
    uint32_t raw_size;
    uint32_t crc;
} qgc_blob_ref;

struct qg_cache {
    char *path;
    const unsigned char *data;
    size_t size;
    int mapped;
    qgc_header header;
    unsigned char *index;          /* inflated index; strings point into it */
    size_t maps_at;                /* where its maps start, after the files */
    qg_cache_file *files;
    qgc_blob_ref *file_blobs;
    qgc_reuse *reuse;              /* per file (all 0 in a version 2 cache) */
    uint64_t environment;          /* 0 in a version 2 cache */
    qg_cache_entry *maps;
    char *names;                   /* the map names, rebuilt */
    qgc_bytes *meta;               /* per map: slice place, row shape, properties */
    const unsigned char *dict;
    size_t dict_len;
    uint64_t blob_raw_total;
    qg_stale_policy stale;         /* as applied at open */
    qg_source_state *states;       /* per file; NULL when not checked */
    char *source_dir;
};

/* open.c: opens the cache at path as it was written, its sources not
 * looked at (qg_cache_open, fresh.c, then applies options->stale). */
qg_status qgc_open_file(const char *path, const qg_cache_open_options *options,
                        qg_cache **out, qg_diags *diags);
/* from_text.c: reads the map of entry e from its source text with its
 * front end. */
qg_status qgc_load_from_text(const qg_cache *cache, const qg_cache_entry *e,
                             qg_mapdef **out, qg_diags *diags);

/* Checks a blob's bounds and CRC and inflates it into a fresh buffer of
 * raw_size + 1 bytes (NUL-terminated), with inf's state (NULL: one of its
 * own). Problems are reported against what ("map 'X'", "context of FILE"). */
struct qgc_inflater;
qg_status qgc_read_blob(const qg_cache *cache, const qgc_blob_ref *ref,
                        struct qgc_inflater *inf, const char *what, unsigned char **out,
                        qg_diags *diags);
/* The same, its bytes appended to into (a blob taken whole into a buffer
 * is not inflated and then copied). */
qg_status qgc_read_blob_into(const qg_cache *cache, const qgc_blob_ref *ref,
                             struct qgc_inflater *inf, const char *what, qg_buf *into,
                             qg_diags *diags);

/* A map blob, decoded in place (pointers into the inflated bytes). */
typedef struct qgc_map_blob {
    size_t first_line;             /* of the slice; 0 when there is none */
    const char *text;              /* the slice */
    size_t text_len;
    int line;                      /* of the definition (from the index) */
    const unsigned char *meta;     /* from the index: rows and properties */
    size_t meta_len;
    const unsigned char *rows;     /* after the slice: rows that are not plain */
    size_t rows_len;
} qgc_map_blob;

/* Reads map index's blob (bounds, CRC, capped inflation), puts back the
 * name the writer took out of its slice, and splits it with the map's
 * metadata: *raw holds the bytes (the caller frees them), blob points into
 * them. Problems are reported against "map 'NAME'". */
qg_status qgc_read_map(const qg_cache *cache, size_t index, struct qgc_inflater *inf,
                       unsigned char **raw, qgc_map_blob *blob, qg_diags *diags);
/* Decodes rows and properties, into def when def is not NULL. Returns
 * QG_OK, QG_ERR_CORRUPT for malformed bytes or QG_ERR_NOMEM. */
qg_status qgc_decode_map_body(const qg_cache_entry *entry, const qgc_map_blob *blob,
                              qg_mapdef *def);
/* Where the slice goes back into its file's context: the context keeps a
 * bare newline for each line of the slice, from line first_line on. 0 when
 * the context has no such run of newlines there (a corrupt pair). */
int qgc_splice_point(const unsigned char *ctx, size_t ctx_len, const qgc_map_blob *b,
                     size_t *pos, size_t *blank);
/* The same when the caller knows at, where line first_line starts. */
int qgc_splice_at(const unsigned char *ctx, size_t ctx_len, size_t at,
                  const qgc_map_blob *b, size_t *pos, size_t *blank);
/* The CRC of every blob, against the bytes in the file (their bounds were
 * checked at open): what the writer re-checks in the file it has just
 * written, whose blobs it made itself. */
qg_status qgc_verify_crcs(const qg_cache *cache, qg_diags *diags);
/* corrupt.c: reports the cache corrupt (an error naming it and what is
 * wrong) and returns QG_ERR_CORRUPT. */
qg_status qgc_corrupt(qg_diags *diags, const qg_cache *cache, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif

/* Raw deflate streams with an optional preset dictionary, and inflation
 * into a buffer of exactly the recorded size: a stream that would produce
 * more (a "zip bomb") or less is corrupt. */
#ifndef QG_CACHE_ZBLOB_H
#define QG_CACHE_ZBLOB_H

#include "questgrid/core.h"
#include "core/buf.h"

#include <zlib.h>

/* One deflate state reused for many blobs: setting up a state costs more
 * than compressing a small map, and so does loading the dictionary (its
 * every byte is hashed). So a second state holds the dictionary loaded
 * once, and each blob starts from a copy of it. */
typedef struct qgc_deflater {
    z_stream z;
    int ready;
    z_stream primed;
    int primed_ready;
    const void *primed_dict;
    size_t primed_len;
} qgc_deflater;

void qgc_deflater_init(qgc_deflater *d);
void qgc_deflater_end(qgc_deflater *d);
/* Appends the compressed form of data to out. */
qg_status qgc_deflater_run(qgc_deflater *d, const void *data, size_t len,
                           const void *dict, size_t dict_len, qg_buf *out);
/* The same with a state of its own. */
qg_status qgc_deflate(const void *data, size_t len, const void *dict,
                      size_t dict_len, qg_buf *out);
/* One stream compressed on up to jobs threads as pigz does: the data is cut
 * into pieces of a fixed size, each compressed with the 32 KiB before it
 * as its dictionary and ended on a byte boundary (the last one finishes
 * the stream), and the pieces are joined. The stream is the same for any
 * number of jobs and inflates as any other. */
qg_status qgc_deflate_pieces(const void *data, size_t len, int jobs, qg_buf *out);
/* Inflates src into out (raw_len bytes, allocated by the caller); 1 when
 * the stream is complete and yields exactly raw_len bytes. */
int qgc_inflate(const void *src, size_t src_len, const void *dict,
                size_t dict_len, void *out, size_t raw_len);

/* One inflate state reused for many blobs (verifying a whole cache):
 * setting a state up and freeing it costs more than inflating a small
 * map. */
typedef struct qgc_inflater {
    z_stream z;
    int ready;
} qgc_inflater;

void qgc_inflater_init(qgc_inflater *inf);
void qgc_inflater_end(qgc_inflater *inf);
/* qgc_inflate with inf's state. */
int qgc_inflater_run(qgc_inflater *inf, const void *src, size_t src_len, const void *dict,
                     size_t dict_len, void *out, size_t raw_len);

#endif

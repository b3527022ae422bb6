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
/* One raw deflate stream made as the data comes, in the memory of a
 * piece and the window before it, so that an index of any size is
 * compressed in the same memory: the data is cut into pieces of a fixed
 * size, each compressed with the 32 KiB before it as its dictionary and
 * ended on a byte boundary (the last one finishes the stream), as pigz
 * does. The stream is the same however the data is handed over. */
typedef struct qgc_piece_prior qgc_piece_prior;

typedef struct qgc_piece_stream {
    qg_buf raw;        /* the window, then the bytes not yet compressed */
    size_t window;     /* the window's length */
    uint64_t total;    /* bytes taken */
    size_t pieces;     /* pieces compressed */
    qg_buf *out;       /* the compressed stream, appended to */
    const qgc_piece_prior *prior;  /* NULL, or pieces that may be copied */
    int failed;
} qgc_piece_stream;

void qgc_piece_stream_init(qgc_piece_stream *s, qg_buf *out);
/* A piece as long as its window: after one changed file a recompile
 * compresses again the pieces its changed bytes fall in and the ones
 * after them, 4 of Crawl 0.28's 23 (2 of 6 pieces of 128 KiB, twice
 * the bytes), and the index comes out no larger. */
#define QGC_PIECE (32u * 1024u)
#define QGC_PIECE_WINDOW (32u * 1024u)

/* A piece stream made before (the index of the cache written over), its
 * data beside it: a piece whose bytes and window are the same as one of
 * its pieces at the same place, and which ends or does not end the
 * stream alike, compresses to that piece's bytes (deflate is
 * deterministic), which are copied instead. */
struct qgc_piece_prior {
    const unsigned char *raw;
    uint64_t raw_len;
    const unsigned char *z;
    size_t *starts;    /* per piece: where it starts in z; then z's length */
    size_t count;      /* pieces */
};

/* Finds where each piece of z (z_len bytes, the stream of raw's raw_len
 * bytes) starts; 0 when it is not a piece stream of them or out of
 * memory (p then holds nothing to copy). */
int qgc_piece_prior_init(qgc_piece_prior *p, const unsigned char *raw, uint64_t raw_len,
                         const unsigned char *z, size_t z_len);
void qgc_piece_prior_free(qgc_piece_prior *p);
/* Compresses with p's pieces copied where they fit (p may be NULL). */
void qgc_piece_stream_use_prior(qgc_piece_stream *s, const qgc_piece_prior *p);

/* Takes b's bytes (b is left empty); 0 once something failed. */
int qgc_piece_stream_take(qgc_piece_stream *s, qg_buf *b);
/* Ends the stream and frees the state. */
qg_status qgc_piece_stream_finish(qgc_piece_stream *s);
/* Frees the state of a stream left unfinished (its pieces so far are in
 * out, each ended on a byte boundary). */
void qgc_piece_stream_drop(qgc_piece_stream *s);
/* Where in the piece stream z (z_len bytes) the piece that starts at byte
 * raw_at of the data starts (raw_at a multiple of QGC_PIECE, short of the
 * data's end): 1 with *z_at set, 0 when the stream is not one of pieces. */
int qgc_piece_start(const void *z, size_t z_len, uint64_t raw_at, size_t *z_at);
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

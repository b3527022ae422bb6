/* The cache a compile writes over, open so that the entries of the files
 * it finds unchanged are reused (previous.c). */
#ifndef QG_CACHE_PREVIOUS_H
#define QG_CACHE_PREVIOUS_H

#include "cache/pack.h"
#include "cache/reader.h"
#include "cache/write.h"

typedef struct qgc_previous {
    qg_cache *cache;     /* NULL: nothing to reuse */
    size_t *paths;       /* its files in path order */
    size_t *maps;        /* its maps, file by file, each file's in line order */
    size_t *first;       /* per file: where its maps start in maps (and the end) */
    const char **sources; /* per file: where to read its source when reused, or NULL */
} qgc_previous;

/* Opens the cache at path for reuse when it is one this questgrid wrote
 * with the same environment (qgc_environment); otherwise p->cache is NULL
 * and, when a file is there, a note says why every file is compiled.
 * Fails only when out of memory. */
qg_status qgc_previous_open(qgc_previous *p, const char *path, uint64_t environment,
                            qg_diags *diags);
void qgc_previous_close(qgc_previous *p);
/* Lends the writer its blob area and dictionary, for the blobs unpacked
 * from it (qgc_writer_set_prior): it must stay open until the write. */
void qgc_previous_lend(const qgc_previous *p, qg_cache_writer *w);
/* The file recorded as path, or QG_CACHE_NONE. */
size_t qgc_previous_find(const qgc_previous *p, const char *path);
/* File f's entries as a compile of it would pack them (its blob texts
 * cut out of its source when qgc_previous_set_source named it, else
 * inflated; its maps in line order), with the path and mtime of now. */
qg_status qgc_previous_unpack(const qgc_previous *p, size_t f, const qg_cache_file *now,
                              qgc_packed *out, qg_diags *diags);
/* File f's source is at io_path (which must stay valid until the close):
 * when it is reused, its blob texts are cut out of it, not inflated. */
void qgc_previous_set_source(qgc_previous *p, size_t f, const char *io_path);
/* Of out (file f unpacked, its blobs empty): the context and the blobs of
 * the maps whose blob is their slice alone (rebuilt[k] set), cut out of
 * text[0..len), file f's source as it was compiled. 1 when that is what
 * text is; else 0 with every blob left empty; -1 on no memory
 * (from_source.c). */
int qgc_previous_from_source(const qgc_previous *p, size_t f, const char *text, size_t len,
                             qgc_packed *out, int *rebuilt);
/* The names and lines of file f's maps, in line order. */
qg_status qgc_previous_names(const qgc_previous *p, size_t f, char ***names, int **lines,
                             size_t *count);
/* File f's context blob, inflated (*text NUL-terminated; free it). */
qg_status qgc_previous_context(const qgc_previous *p, size_t f, unsigned char **text,
                               size_t *len, qg_diags *diags);

/* Writes the cache again at path with the files' mtimes of stamps (one
 * per file, in its order), as a compile that reuses every file writes it
 * (restamp.c). */
qg_status qgc_previous_restamp(const qgc_previous *p, const qg_cache_file *stamps,
                               const char *path, const qgc_write_how *how,
                               qg_diags *diags);

#endif

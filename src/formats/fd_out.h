/* Writing F:/D: lines in one dialect, shared by the writer that works from
 * a definition and the one that works from a level. */
#ifndef QG_FORMATS_FD_OUT_H
#define QG_FORMATS_FD_OUT_H

#include "formats/formats.h"

typedef struct fd_out {
    qg_buf *buf;
    qg_fd_dialect dialect;     /* never QG_FD_AUTO */
    const qg_vocab *vocab;     /* may be NULL */
    const qg_mapping *mapping; /* Crawl names to indices; may be NULL */
    qg_translator *translator; /* the level's game to the output's; may be NULL */
    qg_diags *diags;
    /* where warnings point: the source record, or nothing */
    const char *file;
    int line;
    const char *source;
    size_t source_len;
    size_t warnings;
} fd_out;

void fd_out_warn(fd_out *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Appends "F:…" (no newline) for spec. keep_fields: write at least
 * spec->fields fields (the source had the same field layout). */
void fd_put_spec(fd_out *o, const qg_fd_spec *spec, int keep_fields);
/* The spec's feature and things as the output game's own, through
 * o->translator (which reports what it refuses); 0 when the feature was
 * refused (it is then none). */
int fd_translate_spec(fd_out *o, qg_fd_spec *spec);
/* Appends "L:c:FEATURE(flags, special):MON(…):…" (no newline). */
void fd_put_grid(fd_out *o, const qg_fd_spec *spec);

#endif

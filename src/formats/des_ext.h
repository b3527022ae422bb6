/* The #qg: lines of a .des map: what .des cannot say (a level's size and
 * origin, each glyph's exact cell, cells that differ from their glyph's,
 * markers, the player start, the name and every property) in comment
 * lines that Crawl skips and questgrid reads back (doc/des.md). */
#ifndef QG_FORMATS_DES_EXT_H
#define QG_FORMATS_DES_EXT_H

#include "formats/formats.h"

#define DES_EXT_PREFIX "#qg:"
#define DES_EXT_PREFIX_LEN 4

/* Appends " -" for NULL, else " :" and the text with bytes that are not
 * printable ASCII, spaces and '%' as %XX. */
void des_ext_put_string(qg_buf *out, const char *s);
/* Appends a cell: glyph feature name cave_info mask special mimic mflag,
 * then kind index name for each slot. */
void des_ext_put_cell(qg_buf *out, const qg_cell *c);

/* A line being read: its words. */
typedef struct des_ext_words {
    const char *p, *end;
    const char *line;   /* the whole line, for columns */
} des_ext_words;

/* The next word as a number; 0 when there is none or it is not one. */
int des_ext_number(des_ext_words *w, long *value);
/* The next word as a string (malloc'd, NULL for '-'); 0 when malformed. */
int des_ext_string(des_ext_words *w, char **out);
/* The next word: keyword into buf; 0 when none. */
int des_ext_keyword(des_ext_words *w, char *buf, size_t size);
/* The column (1-based) where the next word starts. */
int des_ext_column(const des_ext_words *w);

#endif

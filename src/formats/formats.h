/* Pieces the format writers and readers share: the embedded tileset,
 * base64, zlib/gzip with hard caps and the names of thing kinds. */
#ifndef QG_FORMATS_FORMATS_H
#define QG_FORMATS_FORMATS_H

#include "questgrid/convert.h"
#include "core/buf.h"

/* The tileset every TMX file embeds: 256 CP437-style glyphs of 8×8 pixels
 * on a 16×16 grid, as a grayscale PNG. */
#define QG_TILE_SIZE QG_TMX_TILE_SIZE
#define QG_TILESET_COLUMNS 16
#define QG_TILESET_PIXELS (QG_TILE_SIZE * QG_TILESET_COLUMNS)

/* The 8 rows (bit 7 = left column) of glyph code's tile. */
void qg_tileset_glyph(unsigned code, unsigned char rows[QG_TILE_SIZE]);
/* Appends the tileset image as a PNG file; 0 on failure. */
int qg_tileset_png_append(qg_buf *out);

/* Appends the base64 form of data (no line breaks); 0 on failure. */
int qg_base64_encode(qg_buf *out, const unsigned char *data, size_t len);
/* Decodes base64 text, skipping whitespace; 0 on a bad character. */
int qg_base64_decode(qg_buf *out, const char *text, size_t len);

/* Appends data deflated with a zlib (gzip when gzip != 0) wrapper. */
int qg_deflate(qg_buf *out, const void *data, size_t len, int gzip);
/* Inflates a zlib or gzip stream (detected) into out, failing with
 * QG_ERR_LIMIT once more than max_len bytes would come out and with
 * QG_ERR_CORRUPT on bad data. Gzip members that follow one another are
 * read one after the other, as zlib's gzread reads them; *rest (when not
 * NULL) gets the count of bytes after the last stream, left unread. */
qg_status qg_inflate(qg_buf *out, const void *data, size_t len, size_t max_len,
                     size_t *rest);

/* The vocabulary indices a writer has reported it cannot map, so that it
 * reports each once. */
typedef struct qg_reported {
    int32_t *ids;  /* kind << 24 | index */
    size_t count, cap;
} qg_reported;

/* 1 the first time (kind, index) is asked about (and remembers it). */
int qg_reported_first(qg_reported *r, qg_vocab_kind kind, int32_t index);
void qg_reported_free(qg_reported *r);

/* "index", "random", "clone", "reward", "name", "tag"; NULL for none. */
const char *qg_thing_kind_name(qg_thing_kind kind);
/* The kind called name; QG_THING_NONE when unknown. */
qg_thing_kind qg_thing_kind_from_name(const char *name);
/* "monster", "object", "ego", "artifact", "trap". */
const char *qg_slot_name(qg_slot slot);
/* The slot called name; QG_SLOTS when unknown. */
qg_slot qg_slot_from_name(const char *name);

/* Calls fn for each distinct meaning of a glyph in the level, in glyph
 * order, with a cell that has it and its description as the text legend
 * prints it (vocab may be NULL). 0 when memory ran out. */
typedef void (*qg_legend_fn)(void *user, unsigned char glyph, const qg_cell *cell,
                             const char *text);
int qg_legend_each(const qg_level *level, const qg_vocab *vocab, qg_legend_fn fn, void *user);

/* The Unicode code point CP437 draws for byte (0x20-0x7E are ASCII). */
unsigned qg_cp437_unicode(unsigned char byte);
/* The code point of the UTF-8 character text starts with; 0 when it is
 * empty or not UTF-8. */
unsigned qg_utf8_code(const char *text);
/* The CP437 byte that draws a code point (the inverse of qg_cp437_unicode),
 * or 0 when CP437 has none. */
unsigned char qg_cp437_byte(unsigned code);
/* Appends a code point below 0x10000 as UTF-8. */
void qg_buf_put_utf8(qg_buf *b, unsigned code);

#endif

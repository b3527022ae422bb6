/* What the .xp writer and reader agree on (see convert.h for the layout). */
#ifndef QG_FORMATS_XP_H
#define QG_FORMATS_XP_H

#include "formats/formats.h"

#define XP_VERSION (-1)
#define XP_CELL_BYTES 10
#define XP_TRANSPARENT 0xFF00FFu
/* What a decompressed .xp may grow to: 9 layers of 16M cells would be far
 * beyond any level; 64 MiB is plenty and bounded. */
#define XP_MAX_BYTES (64u * 1024u * 1024u)
#define XP_MAX_VALUE 0xFFFFFFu

/* Layer 2 marks, in the order a cell's things are shown: upper case for an
 * index, lower case for random. */
typedef struct xp_mark {
    qg_slot slot;
    char index_glyph, random_glyph;
    uint32_t fg;
} xp_mark;

extern const xp_mark xp_marks[QG_SLOTS];
#define XP_START_GLYPH '@'

#endif

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

/* The layers questgrid writes: what REXPaint shows, in the game's colours
 * (terrain; objects, egos, artifacts and traps; monsters and the player
 * start), then data layers REXPaint keeps but does not draw (transparent
 * background) holding each cell's exact things, one per layer. */
enum { XP_TERRAIN = 0, XP_OBJECTS, XP_MONSTERS, XP_DATA, XP_MAX_LAYERS = 9 };

/* A data cell: the glyph holds the thing's index; the foreground, red
 * XP_DATA_TAG, green the slot (XP_START_SLOT for the player start), blue
 * the thing's kind. */
#define XP_DATA_TAG 'q'
#define XP_START_SLOT QG_SLOTS

/* What a visible cell shows when the vocabulary has no glyph for the
 * thing: upper case for an index, lower case for a random one. */
typedef struct xp_mark {
    qg_slot slot;
    char index_glyph, random_glyph;
} xp_mark;

extern const xp_mark xp_marks[QG_SLOTS];
#define XP_START_GLYPH '@'

#endif

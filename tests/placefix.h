/* Hand-built fixtures for the placement tests: levels from glyph rows and
 * small caves whose feature ids carry class and glyph ((class << 8) | glyph). */
#ifndef QG_TEST_PLACEFIX_H
#define QG_TEST_PLACEFIX_H

#include "questgrid.h"

typedef struct tcave {
    qg_cave cave;
    int32_t feature[64 * 64];
    uint32_t info[64 * 64];
    uint32_t mask[64 * 64];
    int32_t special[64 * 64];
    char text[64 * 65 + 1];
    int occupied_x, occupied_y; /* -1: nothing stands anywhere */
} tcave;

/* A level from rows (' ' = not part of the map); orient/tags may be NULL. */
qg_level *fix_level(const char *const *rows, int nrows, const char *orient,
                    const char *tags);
/* A cave from rows: '#' rock, 'X' permanent rock, '.' floor, 'w' deep
 * water, 'W' shallow water, 'l' lava, '+' door. */
void fix_cave(tcave *c, const char *const *rows, int nrows);
/* A cave of w × h cells all of one row glyph. */
void fix_cave_fill(tcave *c, int w, int h, char glyph);
/* The cave's glyphs, rows joined by '\n' (static in c). */
const char *fix_render(tcave *c);
int32_t fix_feature(char glyph);

#endif

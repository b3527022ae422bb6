/* Bulk writing for front ends that fill whole rows from a legend: the
 * per-letter values are looked up once per byte in one tight loop. */
#ifndef QG_CORE_LEVEL_H
#define QG_CORE_LEVEL_H

#include "questgrid/core.h"

/* The most cells a level may hold (a larger request is refused, never
 * attempted: 16 Mi cells already take some 420 MB). */
#define QG_LEVEL_MAX_CELLS (16u * 1024u * 1024u)

typedef struct qg_row_legend {
    unsigned char use[256];  /* 0: skipped, 1: placed, 2: placed and counted */
    int32_t feature[256];
    uint32_t name_id[256];   /* from qg_level_intern */
    uint32_t info[256];
} qg_row_legend;

/* The level's id for name (0 for NULL); UINT32_MAX when out of memory. */
uint32_t qg_level_intern(qg_level *level, const char *name);
/* qg_level_set_thing with the name already interned (an id from
 * qg_level_intern). */
qg_status qg_level_set_thing_id(qg_level *level, int x, int y, qg_slot slot,
                                qg_thing_kind kind, int32_t index, uint32_t name);
/* Places the bytes of row y from column x0 on: each byte the legend uses
 * sets glyph, feature, feature name and cave_info of its cell and marks
 * it as in the map; a byte of use 0 leaves its cell as it was. Bytes
 * outside the level are skipped. Lists in others (room for n) the offsets
 * in glyphs of the bytes of use 0 or 2, for the caller to revisit, and
 * returns how many it listed. */
size_t qg_level_put_row(qg_level *level, int y, int x0, const unsigned char *glyphs,
                        size_t n, const qg_row_legend *legend, size_t *others);

/* Sets every part of cell (x, y) of level to c (its things, chances and
 * names copied). */
qg_status qg_level_copy_cell(qg_level *level, int x, int y, const qg_cell *c);

#endif

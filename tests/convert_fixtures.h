/* Levels the converter tests share. */
#ifndef QG_TESTS_CONVERT_FIXTURES_H
#define QG_TESTS_CONVERT_FIXTURES_H

#include "questgrid.h"

/* A 7×5 level using every field a level has: features with and without
 * names, flags, specials, every thing kind, markers, a start, properties
 * (one key repeated), bytes that are not UTF-8 and cells outside the map. */
qg_level *fixture_rich_level(void);
/* The same, with its properties sorted by name when sorted_properties. */
qg_level *fixture_rich_level_ordered(int sorted_properties);
/* A level with glyphs and indexed or random things only (what .xp holds). */
qg_level *fixture_glyph_level(void);

#endif

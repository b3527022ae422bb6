/* Renderers of resolved levels, whatever format they came from. */
#ifndef QUESTGRID_RENDER_H
#define QUESTGRID_RENDER_H

#include <questgrid/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Prints the level as text: its name and size, the grid (one glyph per
 * cell, blank outside the map), then a legend with one line per distinct
 * glyph meaning: the feature by name, cave_info and vault flags, monsters,
 * objects, egos, artifacts and traps by name (vocab may be NULL: indices
 * are then shown as numbers), special values and markers, and the player
 * start. */
qg_status qg_render_text(const qg_level *level, const qg_vocab *vocab, FILE *out);

#ifdef __cplusplus
}
#endif
#endif

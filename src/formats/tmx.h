/* What the TMX writer and reader agree on: names, the terrain a glyph's
 * tile or a "cell" object describes, and how strings are escaped. */
#ifndef QG_FORMATS_TMX_H
#define QG_FORMATS_TMX_H

#include "formats/formats.h"

#define TMX_TILESET_NAME "cp437"
#define TMX_TERRAIN_LAYER "terrain"
#define TMX_THINGS_LAYER "things"
#define TMX_LEVEL_NAME_PROPERTY "qg.name"
#define TMX_OBJECT_START "player_start"
#define TMX_OBJECT_MARKER "marker"
#define TMX_OBJECT_CELL "cell"

/* The terrain of a cell: everything a cell holds apart from its glyph and
 * its things. */
typedef struct tmx_terrain {
    int32_t feature;
    const char *feature_name;
    uint32_t cave_info;
    uint32_t vault_mask;
    int32_t special;
    int32_t mimic;
    uint32_t mflag;
    int32_t feature_chance;
} tmx_terrain;

void tmx_terrain_of(const qg_cell *cell, tmx_terrain *out);
void tmx_terrain_default(tmx_terrain *out);
int tmx_terrain_equal(const tmx_terrain *a, const tmx_terrain *b);
int tmx_terrain_is_default(const tmx_terrain *t);

/* Text in TMX is UTF-8; level strings are bytes. A backslash is written
 * "\\" and every byte that cannot stand in XML as it is (invalid UTF-8,
 * control characters) "\xNN", so that any byte string round-trips. */
int tmx_escape_bytes(qg_buf *out, const char *s, size_t len);
/* Undoes tmx_escape_bytes; a backslash not followed by '\' or xNN stays. */
int tmx_unescape_bytes(qg_buf *out, const char *s, size_t len);

#endif

/* A TMX file as the reader saw it (tmx_read.c), before it becomes a level
 * (tmx_build.c). Everything carries the line it came from. */
#ifndef QG_FORMATS_TMX_DOC_H
#define QG_FORMATS_TMX_DOC_H

#include "formats/tmx.h"

typedef struct tmx_prop {
    char *name;
    char *type;
    char *value;
    int line;
} tmx_prop;

typedef struct tmx_props {
    tmx_prop *items;
    size_t count, cap;
} tmx_props;

typedef struct tmx_tileset {
    uint32_t firstgid;
    char *source;  /* an external .tsx, or NULL */
    int line;
} tmx_tileset;

/* A tile that has properties: its gid and what they say. */
typedef struct tmx_tile {
    uint32_t gid;
    tmx_props props;
    int line;
} tmx_tile;

typedef struct tmx_object {
    char *type;
    double x, y, width, height;
    int has_gid, is_point;
    tmx_props props;
    int line;
} tmx_object;

typedef struct tmx_doc {
    const char *path;
    const char *data;
    size_t len;
    qg_diags *diags;
    int errors;
    int width, height, tile_width, tile_height, infinite;
    tmx_props map_props;
    tmx_tileset *tilesets;
    size_t tileset_count, tileset_cap;
    tmx_tile *tiles;
    size_t tile_count, tile_cap;
    uint32_t *gids;     /* width × height, once a terrain layer was read */
    int terrain_line;
    tmx_object *objects;
    size_t object_count, object_cap;
} tmx_doc;

/* Reports a diagnostic at line (col 1) with the source line. */
void tmx_report(tmx_doc *doc, qg_severity severity, int line, int col,
                const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Parses the XML into doc; QG_OK or the first failure's status. */
qg_status tmx_parse(tmx_doc *doc);
/* Builds the level doc describes. */
qg_status tmx_build(tmx_doc *doc, qg_level **out);
void tmx_doc_free(tmx_doc *doc);

#endif

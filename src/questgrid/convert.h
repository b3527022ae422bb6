/* questgrid converters: writing a level to Tiled TMX and REXPaint .xp and
 * reading it back, and comparing levels (to measure round trips).
 *
 * What each format carries:
 * - TMX carries everything a level holds. The terrain layer holds the glyphs
 *   (gid = glyph + 1; 0 outside the map); the embedded cp437 tileset gives
 *   each glyph its terrain (feature, feature_name, cave_info, vault_mask,
 *   special, mimic) as tile properties; cells whose terrain differs from
 *   their glyph's get a "cell" object; monsters, objects, egos, artifacts,
 *   traps, markers and the player start are objects with typed properties;
 *   the level's name and properties are map properties.
 * - .xp carries the glyphs and the extent of the map (layer 1, in the
 *   game's colours, transparent background 255,0,255 outside the map),
 *   shows objects, egos, artifacts and traps on layer 2 and monsters and
 *   the player start ('@') on layer 3, each as the game draws it (the
 *   vocabulary's G: glyph and colour; else 'M' monster, 'A' artifact, 'O'
 *   object, 'E' ego, 'T' trap, lower case when random), and keeps every
 *   thing of a cell exactly (kind and index) on data layers 4 and up,
 *   which REXPaint keeps but does not draw (transparent background; the
 *   glyph holds the index, the foreground 'q', the slot and the kind). A
 *   cell drawn by hand on layer 2 or 3 without data is read as a random
 *   thing of that layer. Everything else is reported as not carried. */
#ifndef QUESTGRID_CONVERT_H
#define QUESTGRID_CONVERT_H

#include <questgrid/core.h>
#include <questgrid/fd.h>
#include <questgrid/mapping.h>
#include <questgrid/games.h>
#include <questgrid/des.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum qg_tmx_encoding {
    QG_TMX_CSV = 0,
    QG_TMX_BASE64_ZLIB
} qg_tmx_encoding;

typedef struct qg_write_options {
    qg_tmx_encoding tmx_encoding;
    /* Optional: names for Tiled object labels (never needed to read back). */
    const qg_vocab *vocab;
    /* The tileset image the TMX refers to, relative to the TMX file (NULL:
     * QG_TILESET_IMAGE). Tiled 1.8 does not draw images embedded in a TMX,
     * so the image lives beside it: write qg_tileset_png() there. */
    const char *tileset_source;
    /* F:/D: output dialect; QG_FD_AUTO: the source's own (zangband for a
     * level that does not say). */
    qg_fd_dialect fd_dialect;
    /* Optional: what F:/D: indices mean in Crawl, and back (.des output;
     * F:/D: output from Crawl names or drawn glyphs). */
    const qg_mapping *mapping;
    /* Optional: the game the output is for and how the level's game maps
     * to it (.des and F:/D: output). With it, every feature, monster and
     * object is written as the target game's own (the mapping is not
     * asked); what it refuses is reported by qg_translator_report, which
     * the caller runs after writing. */
    qg_translator *translator;
    /* Optional: Crawl feature colours for the .xp layers (F:/D: levels take
     * theirs from vocab's G: lines). */
    const struct qg_palette *palette;
    /* .des output: write a map larger than Crawl's 80 x 70 (for questgrid,
     * which reads it back through its #qg: lines; Crawl will not load
     * it). Without it such a level is an error. */
    int des_oversize;
} qg_write_options;

#define QG_TILESET_IMAGE "questgrid-cp437.png"
/* Tiles are QG_TMX_TILE_SIZE pixels square. */
#define QG_TMX_TILE_SIZE 8

/* The tileset image TMX files use (a PNG; free *out with free()). */
qg_status qg_tileset_png(unsigned char **out, size_t *len);

/* Writers hand back a malloc'd buffer (*out, *len; free with free()).
 * What the format cannot carry is reported as warnings in diags; options
 * may be NULL for the defaults. */
qg_status qg_tmx_write(const qg_level *level, const qg_write_options *options,
                       char **out, size_t *len, qg_diags *diags);
qg_status qg_xp_write(const qg_level *level, const qg_write_options *options,
                      unsigned char **out, size_t *len, qg_diags *diags);

/* F:/D: from a definition read by the F:/D: front end: the records of its
 * top file in order, F:, Q: and P: lines rewritten for the output dialect
 * (features and traps as numbers or f_info tags through options->vocab),
 * everything else carried verbatim; %: lines name the same files. What
 * the output dialect cannot say is a warning at the source line. */
qg_status qg_fd_write(const qg_mapdef *def, const qg_write_options *options,
                      char **out, size_t *len, qg_diags *diags);
/* F:/D: from a level: one F: letter per distinct glyph and cell (the glyph
 * itself when free), D: rows, P:, Q: records from the level's quest
 * properties; markers and other properties become comments (warned). */
qg_status qg_fd_write_level(const qg_level *level, const qg_write_options *options,
                            char **out, size_t *len, qg_diags *diags);

/* .des from a level: NAME, TAGS, DEPTH/PLACE, ORIENT, MONS/KMONS,
 * ITEM/KITEM, KFEAT, then KMASK and MARKER, and the MAP block. A cell is
 * written as the built-in glyph of its feature when it has one and holds
 * nothing else, else a MONS/ITEM slot glyph, else a free glyph given
 * K* lines. F:/D: indices become Crawl names through options->mapping
 * (an unmapped one is warned about). What Crawl's directives cannot say
 * (cave_info, indices, specials, traps, the player start, the name, the
 * properties, each glyph's exact cell) is written in #qg: comment lines
 * that Crawl skips and qg_des_read_level reads back (doc/des.md); a note
 * says what Crawl will not see. A level larger than 80 x 70 is an error
 * unless options->des_oversize. */
qg_status qg_des_write_level(const qg_level *level, const qg_write_options *options,
                             char **out, size_t *len, qg_diags *diags);

/* .des from an F:/D: definition, keeping its ?: conditions: the D: rows
 * (unconditional, from one file) become the MAP, each F: line KFEAT,
 * KMONS and KITEM lines for its letter, inside `: if … then` … `: end`
 * when a condition is in force. The map's prelude evaluates conditions as
 * the dialect's games do; variables come from you.var(NAME) when the host
 * provides it ($LEVEL from you.xl()), else read as "?o?o?" (true). */
qg_status qg_des_write_fd(const qg_mapdef *def, const qg_write_options *options,
                          char **out, size_t *len, qg_diags *diags);

/* A level from a .des map with #qg: lines (the first map, or the one named
 * map), exactly as qg_des_write_level was given it, without running its
 * Lua; QG_ERR_NOTFOUND (nothing reported) when the map has no #qg: lines
 * or there is no such map. */
qg_status qg_des_read_level(const char *path, const char *data, size_t len, const char *map,
                            qg_level **out, qg_diags *diags);

/* One map of a .des file as .des, without resolving it: the file's text
 * from the map's NAME line up to the next map's, byte for byte, so that it
 * lowers to the same Lua chunks (directive order, Lua and line layout
 * kept). data and len are the file's bytes as parsed into file. */
qg_status qg_des_extract_map(const char *data, size_t len, const qg_des_file *file,
                             size_t index, char **out, size_t *out_len);

/* Readers take the file's bytes (path names the file in diagnostics). The
 * TMX reader refuses DOCTYPE declarations (and so every entity) and
 * ignores elements it does not know; the .xp reader accepts gzip or plain
 * data and caps what it inflates. */
qg_status qg_tmx_read(const char *path, const char *data, size_t len,
                      qg_level **out, qg_diags *diags);
qg_status qg_xp_read(const char *path, const unsigned char *data, size_t len,
                     qg_level **out, qg_diags *diags);

/* The format of a file: by content (gzip or REXPaint header: .xp; '<':
 * TMX), else by the path's extension; QG_FORMAT_UNKNOWN when neither says. */
qg_format qg_format_detect(const char *path, const void *data, size_t len);
/* Reads a level from a TMX or .xp file's bytes. */
qg_status qg_level_read(const char *path, const void *data, size_t len, qg_format format,
                        qg_level **out, qg_diags *diags);
/* How qg_read_written reads a file back: the F:/D: dialect and vocabulary
 * (NULL: F:/D: indices and tags are not checked), whether F:/D: is also
 * resolved, and the .des vocabulary whose names are checked (NULL: none). */
typedef struct qg_read_back {
    qg_fd_dialect dialect;
    const qg_vocab *vocab;
    const qg_des_vocab *des_vocab;
    int resolve;
} qg_read_back;

/* Reads back what a writer wrote (text, len bytes in format) with the
 * reader of its format; when that reader rejects it, one error says so
 * (it is the writer's fault, not the input's) and QG_ERR_INVALID. */
qg_status qg_read_written(qg_format format, const char *text, size_t len, const qg_read_back *back,
                       qg_diags *diags);

/* Writes a level as F:/D:, .des, TMX or .xp, then reads it back
 * (qg_read_written with options->vocab): what its reader rejects is never
 * handed out. */
qg_status qg_level_write(const qg_level *level, qg_format format,
                         const qg_write_options *options, char **out, size_t *len,
                         qg_diags *diags);

/* Compares two levels cell by cell (glyph, extent, terrain, things,
 * specials), then markers, player start, name and properties. Returns 1
 * when equal; otherwise 0 and a description of the first difference in
 * what (when not NULL). */
int qg_level_equal(const qg_level *a, const qg_level *b, char *what, size_t what_len);

#ifdef __cplusplus
}
#endif
#endif

/* Renderers of resolved levels, whatever format they came from: text
 * (plain or coloured for a terminal), SVG, self-contained HTML pages and
 * PNG (when built with libpng), all in the games' own colours. */
#ifndef QUESTGRID_RENDER_H
#define QUESTGRID_RENDER_H

#include <questgrid/core.h>
#include <questgrid/games.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Prints the level as text: its name and size, the grid (one glyph per
 * cell, blank outside the map), then a legend with one line per distinct
 * glyph meaning: the feature by name, cave_info and vault flags, monsters,
 * objects, egos, artifacts and traps by name (vocab may be NULL: indices
 * are then shown as numbers), special values, the markers (one line a
 * kind of marker, with the number of its cells and the first of them) and
 * the player start. */
qg_status qg_render_text(const qg_level *level, const qg_vocab *vocab, FILE *out);

/* ---- colours ---------------------------------------------------------- */

/* A colour as a picture draws it (0xRRGGBB) and a terminal shows it (the
 * ANSI SGR foreground code, 30-37 or 90-97; 0 for the default). */
typedef struct qg_colour {
    uint32_t rgb;
    unsigned char sgr;
} qg_colour;

/* Crawl's feature colours by vault name ("rock_wall" brown, ...). */
typedef struct qg_palette qg_palette;

qg_palette *qg_palette_new(void);
void qg_palette_free(qg_palette *palette);
/* Reads lines "feature_name colour" (Crawl's sixteen colour names);
 * later entries override earlier ones. */
qg_status qg_palette_load_file(qg_palette *palette, const char *path, qg_diags *diags);
/* The bundled des/colours.txt, found by qg_data_find(). */
qg_status qg_palette_load_bundled(qg_palette *palette, qg_diags *diags);

typedef struct qg_render_options {
    const qg_vocab *vocab;      /* G: colours of features, monsters, objects; names */
    const qg_palette *palette;  /* Crawl feature colours */
    int colour;                 /* text: colour the grid with ANSI escapes */
    /* The game whose tables draw what the level names (Crawl's monsters,
     * items and features; a room template's MON(name)), or NULL. */
    const qg_game *game;
    /* PNG: pixels a cell is square (QG_PNG_CELL_MIN to QG_PNG_CELL_MAX;
     * 0: QG_PNG_CELL). */
    int cell;
    int verbose;                /* text: a line for every marker's cell, not one
                                   a kind of marker with its count */
} qg_render_options;

/* The colour a cell is drawn in: the player start white; else the first
 * of monster, artifact, object, ego and trap in the colour of its G: line
 * (a kind's own colour when there is none); else the feature's G: colour
 * or palette colour; else light grey. */
qg_colour qg_render_cell_colour(const qg_cell *cell, int is_start,
                                const qg_render_options *options);
/* The character a picture draws a cell with (a Unicode code point): what
 * the game draws what shows there with (the first of monster, artifact,
 * object, ego and trap, else the feature) by the vocabulary's G: lines or
 * the game's tables; the cell's own glyph when neither says. */
unsigned qg_render_cell_char(const qg_cell *cell, int is_start, const qg_render_options *options);

/* 1 when the vocabulary or palette gives the cell's feature a colour. */
int qg_render_knows_colour(const qg_cell *cell, const qg_render_options *options);

/* qg_render_text with options (vocab for names; with options->colour the
 * grid is drawn with ANSI colour escapes). */
qg_status qg_render_text_with(const qg_level *level, const qg_render_options *options,
                              FILE *out);

/* ---- pictures ---------------------------------------------------------- */

/* Pictures are of levels the games build: none is wider than the Angband
 * family's 198 columns or taller than Crawl's 70 rows. A larger level is
 * refused with an error (QG_ERR_LIMIT), never drawn. */
#define QG_RENDER_MAX_WIDTH 198
#define QG_RENDER_MAX_HEIGHT 70
qg_status qg_render_check_size(const qg_level *level, qg_diags *diags);

/* SVG: one <text> element of class "cell" per in-map cell, in a grid of
 * QG_SVG_CELL_W by QG_SVG_CELL_H pixel cells on black, with the level's
 * name and size as its title, and below the map its legend (one line per
 * distinct cell: its character, in its colour, and what it is).
 * Appends to *out (malloc'd; free with free()). */
#define QG_SVG_CELL_W 10
#define QG_SVG_CELL_H 16
qg_status qg_render_svg(const qg_level *level, const qg_render_options *options,
                        char **out, size_t *len);

/* A self-contained HTML page (no external file or script): a heading, then
 * for each level a section with its name, size, tags and kind, the level
 * as inline SVG and its legend. title names the page. */
qg_status qg_render_html(const qg_level *const *levels, size_t count, const char *title,
                         const qg_render_options *options, char **out, size_t *len);

/* The same page made a card at a time, for a batch over many maps: a
 * card for each level drawn (freed once added), and a card for a map
 * that has no level, saying where it is defined and why: failed when it
 * could not be resolved (its first error), else what it is (a dummy, a
 * quest whose level the game generates). options must outlive the
 * gallery. */
typedef struct qg_gallery qg_gallery;
qg_gallery *qg_gallery_new(const char *title, const qg_render_options *options);
qg_status qg_gallery_add_level(qg_gallery *g, const qg_level *level);
qg_status qg_gallery_add_card(qg_gallery *g, const char *name, const char *where,
                              const char *text, int failed);
/* The page, saying how many cards are of maps not drawn (failed); the
 * gallery is spent (free it after). */
qg_status qg_gallery_finish(qg_gallery *g, size_t failed, char **out, size_t *len);
void qg_gallery_free(qg_gallery *g);

/* PNG (RGB) drawn with questgrid's 8x8 CP437 font scaled to
 * options->cell pixels a cell (QG_PNG_CELL by default), the legend below
 * the map as the SVG's. QG_ERR_INVALID with a diagnostic when questgrid
 * was built without libpng (see qg_render_has_png). */
#define QG_PNG_CELL 16
#define QG_PNG_CELL_MIN 8
#define QG_PNG_CELL_MAX 64
qg_status qg_render_png(const qg_level *level, const qg_render_options *options,
                        unsigned char **out, size_t *len, qg_diags *diags);
int qg_render_has_png(void);

#ifdef __cplusplus
}
#endif
#endif

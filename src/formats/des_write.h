/* The .des writer's shared state: the distinct cells of a level (keys)
 * and the glyphs they get (des_cells.c, des_glyphs.c, des_write.c). */
#ifndef QG_FORMATS_DES_WRITE_H
#define QG_FORMATS_DES_WRITE_H

#include "formats/formats.h"

#define MAX_KEYS 255
#define MONS_SLOTS 7
#define ITEM_SLOTS 8

/* The masks KMASK can set or clear (Crawl's MMT bits). */
#define KMASK_BITS 0xFFu

typedef struct cell_key {
    char *feature;     /* Crawl feature name */
    char *monster;     /* MONS spec, or NULL */
    char *item;        /* ITEM spec, or NULL */
    int random_monster; /* glyph '0' or '9' for a random monster, else 0 */
    int random_item;    /* '%' or '*', else 0 */
    uint32_t masks;    /* the cell's KMASK bits */
    char *markers;     /* MARKER specs, '\n'-separated, or NULL */
    int32_t unmapped;  /* a feature index with no Crawl name (written as
                          floor under its own glyph), or -1 */
    int exit;          /* an exit cell: glyph '@' */
    unsigned char own; /* the glyph of its first cell */
    unsigned char glyph;
    qg_cell exact;     /* its first cell, as #qg:glyph writes it */
} cell_key;

typedef struct des_writer {
    const qg_level *level;
    const qg_write_options *options;
    qg_diags *diags;
    qg_buf *out;
    cell_key keys[MAX_KEYS];
    int key_count;
    unsigned char *cells;      /* per cell: 1 + key index, 0 outside */
    char *mons[MONS_SLOTS];
    int mons_count;
    char *items[ITEM_SLOTS];
    int item_count;
    int used[256];
    size_t lost_info, lost_special, lost_things, lost_exits, lost_random;
    size_t lost_indices;       /* cells whose feature or things are indices */
    int ext;                   /* #qg: lines are written */
    int split;                 /* cells of different glyphs get different
                                  keys (their own glyphs back) */
    int outside;               /* the glyph of cells outside the map in a row
                                  with none inside, or 0 */
    int top, bottom, right;    /* the MAP block: rows [top, bottom), columns
                                  [0, right) */
    uint32_t tag_masks;        /* masks the level's tags give every cell */
    int transparent;           /* the level has the "transparent" tag */
    qg_reported reported;      /* indices already reported unmapped */
    int failed;
} des_writer;


void des_warn(des_writer *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A spec on one line (NULL stays NULL; the copy is malloc'd). */
char *des_folded(const char *s);
/* qg_level_foreach callback: files the cell under its key. */
int des_add_cell(void *user, int x, int y, const qg_cell *c);
void des_key_free(cell_key *k);
/* The masks the level's tags give every cell, and "transparent". */
void des_read_tags(des_writer *w);
/* The KMASK bits a placed map gives glyph g by itself. */
uint32_t des_automatic_masks(const des_writer *w, unsigned char g);
/* 1 when g means feature by itself. */
int des_builtin(unsigned char g, const char *feature);
/* The built-in item glyph ('$', '|', '%', '*') of a key's item, or 0. */
unsigned char des_item_glyph(const cell_key *k);
/* Gives every key a glyph; 0 when the glyphs run out. */
int des_assign_glyphs(des_writer *w);
/* A glyph no key has, for the cells outside the map; 0 when none is left. */
unsigned char des_spare_glyph(des_writer *w);
/* The #qg: lines: the level's size and the MAP's origin, each glyph's
 * exact cell, the cells that differ from their glyph's, markers, start,
 * name and properties. */
void des_put_extensions(des_writer *w);

#endif

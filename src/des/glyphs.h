/* Crawl's built-in map glyphs (dungeon.cc _glyph_to_feat,
 * _vault_grid_glyph, _vault_grid_glyph_mons), as data: what a glyph means
 * when no KFEAT/KMONS/KITEM gives it another meaning. */
#ifndef QG_DES_GLYPHS_H
#define QG_DES_GLYPHS_H

typedef enum des_glyph_kind {
    DES_GLYPH_FEATURE,   /* terrain; name is Crawl's feature name */
    DES_GLYPH_ITEM,      /* floor with an item; slot >= 0 for ITEM slots d-k */
    DES_GLYPH_MONSTER,   /* floor with a monster; slot >= 0 for MONS slots 1-7 */
    DES_GLYPH_OUTSIDE    /* space: not part of the map */
} des_glyph_kind;

typedef struct des_glyph {
    unsigned char glyph;
    des_glyph_kind kind;
    const char *feature;     /* Crawl feature name of the cell's terrain */
    const char *meaning;     /* what the glyph places, in words */
    int slot;                /* ITEM/MONS slot index, or -1 */
} des_glyph;

/* The built-in meaning of a glyph; any glyph without one is floor (the
 * returned entry then says so). Never NULL. */
const des_glyph *des_glyph_info(unsigned char glyph);
/* 1 when the glyph has a meaning of its own (not the floor fallback). */
int des_glyph_is_builtin(unsigned char glyph);

#endif

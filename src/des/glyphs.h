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

/* How a seed-era glyph picks what it places when it is resolved. */
typedef enum des_glyph_pick {
    DES_PICK_FIXED = 0,      /* always the thing named */
    DES_PICK_HALF,           /* the thing one time in two (P: maybe a rune) */
    DES_PICK_JELLY,          /* honeycomb 2/3, royal jelly 1/3 (R) */
    DES_PICK_STATUE,         /* granite statue; one time in 100 a statue
                                monster instead (F) */
    DES_PICK_BRANCH          /* the entrance of the branch a *_entry tag
                                names, else an appropriate rune (O) */
} des_glyph_pick;

typedef struct des_glyph {
    unsigned char glyph;
    des_glyph_kind kind;
    const char *feature;     /* Crawl feature name of the cell's terrain */
    const char *meaning;     /* what the glyph places, in words */
    int slot;                /* ITEM/MONS slot index, or -1 */
    const char *thing;       /* the monster or item a seed-era glyph places */
    des_glyph_pick pick;
} des_glyph;

/* The built-in meaning of a glyph; any glyph without one is floor (the
 * returned entry then says so). Never NULL. */
const des_glyph *des_glyph_info(unsigned char glyph);
/* The same for a map read with the seed-era (Crawl 0.3-0.5) meanings:
 * the glyphs the seed documents define differently come first. */
const des_glyph *des_glyph_info_for(unsigned char glyph, int legacy);
/* 1 when the glyph has a meaning of its own (not the floor fallback). */
int des_glyph_is_builtin(unsigned char glyph);

#endif

/* Structured .des directive arguments, parsed per Crawl's rules without
 * running Lua (mapdef.cc: mapdef_split_key_item, parse_glyph_replacements,
 * add_nsubst, check_shuffle, add_key_field, level_range::parse, …).
 *
 * Every parser works on one argument string, exactly as a directive line
 * hands it to Lua or as Lua code calls the function (subst("x = a:5 b")),
 * so the Lua runtime reuses them for resolution. Everything a parser
 * builds lives in the arena it is given (qg_arena_free releases it). On a
 * malformed argument a parser returns DES_PARSE_BAD and fills err with a
 * message and the byte offset in the argument where the problem is. */
#ifndef QG_DES_DIRECTIVES_H
#define QG_DES_DIRECTIVES_H

#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "des/keywords.h"

enum { DES_PARSE_NOMEM = -1, DES_PARSE_BAD = 0, DES_PARSE_OK = 1 };

#define DES_DEFAULT_WEIGHT 10

typedef struct des_spec_error {
    size_t offset;
    char message[200];
} des_spec_error;

/* One weighted alternative: "w:5 orc", "lightred", "!no_item_gen". */
typedef struct des_weighted {
    char *text;      /* the alternative without its weight */
    int weight;
    uint32_t mask;   /* KMASK: the QG_MASK_* bit */
    int negate;      /* KMASK: "!flag" */
} des_weighted;

/* A list of weighted alternatives: one MONS/ITEM slot, one KMONS slot. */
typedef struct des_slot {
    des_weighted *alts;
    size_t count;
} des_slot;

typedef struct des_glyph_choice {
    unsigned char glyph;
    int weight;
} des_glyph_choice;

/* SUBST: "keys (=|:) choices" */
typedef struct des_subst {
    char *keys;
    int fixed;       /* ':' — one choice for every cell */
    des_glyph_choice *choices;
    size_t count;
} des_subst;

/* NSUBST: "keys = N=repl / N:repl / *=repl" */
typedef struct des_nsubst_seg {
    int count;       /* cells handed this replacement; -1 for '*' (the rest) */
    int fixed;
    des_glyph_choice *choices;
    size_t choice_count;
} des_nsubst_seg;

typedef struct des_nsubst {
    char *keys;
    des_nsubst_seg *segs;
    size_t count;
} des_nsubst;

/* SHUFFLE: glyphs without spaces; block_len 1 for a glyph permutation,
 * else the length of each '/'-separated block (the '/' removed). */
typedef struct des_shuffle {
    char *glyphs;
    size_t block_len;
    size_t block_count;
} des_shuffle;

/* KFEAT, KMONS, KITEM, KMASK, KPROP, COLOUR, FTILE, RTILE, TILE, FHEIGHT,
 * SUBVAULT: "keys (=|:) value"; the value as slots of alternatives (KMONS
 * and KITEM split on ',' into slots; the others have one slot split on
 * '/'). */
typedef struct des_keyed {
    char *keys;
    int fixed;
    des_slot *slots;
    size_t slot_count;
} des_keyed;

typedef enum des_marker_kind {
    DES_MARKER_LUA,          /* lua:<expr> */
    DES_MARKER_LUA_MAPLESS,  /* lua_mapless:<expr> */
    DES_MARKER_FEAT,         /* feat:<feature> */
    DES_MARKER_OTHER
} des_marker_kind;

typedef struct des_marker {
    unsigned char key;
    int fixed;
    des_marker_kind kind;
    char *value;             /* after the "lua:"/"feat:" prefix */
    size_t next;             /* seed 002 "MARKER: D=feat:x, G=feat:y": where
                                the next feature marker of the line starts,
                                or 0 */
} des_marker;

/* One DEPTH/PLACE range: [!](*|Br|Br:n|Br:a-b|Br:a-|Br:$|a-b). */
typedef struct des_range {
    int deny;
    char *branch;            /* NULL for "*" and bare absolute ranges */
    int any_branch;          /* "*" */
    int absolute;            /* bare "a-b": absolute dungeon depth */
    int lo, hi;              /* hi -1: to the end of the branch */
} des_range;

typedef struct des_ranges {
    des_range *items;
    size_t count;
} des_ranges;

typedef enum des_spec_kind {
    DES_SPEC_NONE = 0,
    DES_SPEC_TEXT,    /* the argument as is (NAME, DESC, TAGS word, …) */
    DES_SPEC_SUBST,
    DES_SPEC_NSUBST,
    DES_SPEC_SHUFFLE,
    DES_SPEC_KEYED,
    DES_SPEC_SLOT,    /* MONS, ITEM */
    DES_SPEC_MARKER,
    DES_SPEC_RANGES   /* DEPTH, PLACE, default-depth; CHANCE and WEIGHT ranges */
} des_spec_kind;

typedef struct des_spec {
    des_spec_kind kind;
    union {
        des_subst subst;
        des_nsubst nsubst;
        des_shuffle shuffle;
        des_keyed keyed;
        des_slot slot;
        des_marker marker;
        des_ranges ranges;
    } u;
} des_spec;

/* Parses the argument of directive dir into out (kind set by dir). */
int des_parse_spec(qg_arena *arena, des_dir dir, const char *arg, size_t len,
                   des_spec *out, des_spec_error *err);

/* mapdef_split_key_item: key and value around the first '=' or ':' at
 * index >= 1, both trimmed and non-empty; key_max_len -1 for no limit.
 * The key and value point into s. */
int des_split_key_item(const char *s, size_t len, int key_max_len,
                       const char **key, size_t *key_len, int *sep,
                       const char **value, size_t *value_len,
                       des_spec_error *err);

int des_parse_subst(qg_arena *arena, const char *s, size_t len, des_subst *out,
                    des_spec_error *err);
int des_parse_nsubst(qg_arena *arena, const char *s, size_t len, des_nsubst *out,
                     des_spec_error *err);
int des_parse_shuffle(qg_arena *arena, const char *s, size_t len, des_shuffle *out,
                      des_spec_error *err);
/* dir picks the value syntax (KMASK flags, KMONS/KITEM slots, …). */
int des_parse_keyed(qg_arena *arena, des_dir dir, const char *s, size_t len,
                    des_keyed *out, des_spec_error *err);
/* One MONS/ITEM slot: "alt / w:N alt / …". */
int des_parse_slot(qg_arena *arena, const char *s, size_t len, des_slot *out,
                   des_spec_error *err);
int des_parse_marker(qg_arena *arena, const char *s, size_t len, des_marker *out,
                     des_spec_error *err);
int des_parse_ranges(qg_arena *arena, const char *s, size_t len, des_ranges *out,
                     des_spec_error *err);

/* ORIENT values Crawl accepts ("float", "encompass", "north", …). */
int des_orient_valid(const char *s, size_t len);

#endif

/* Parsers for the arguments of .des directives as Crawl's mapdef.cc reads
 * them: "key = value" splitting, SUBST/NSUBST weighted glyphs and the
 * "/"-separated weighted alternatives of KFEAT, MONS, ITEM, COLOUR, …
 * Pure functions over byte strings, shared by the front end and the Lua
 * runtime. */
#ifndef QG_DES_DSPEC_H
#define QG_DES_DSPEC_H

#include <stddef.h>

#define DSPEC_DEFAULT_WEIGHT 10

/* "key = arg" / "key : arg": the earliest '=' or ':' at index >= 1; key and
 * arg trimmed, both non-empty. Returns 0 on success, else a static message.
 * The ranges point into s. */
typedef struct dspec_split {
    const char *key;
    size_t key_len;
    char sep;
    const char *arg;
    size_t arg_len;
} dspec_split;
const char *dspec_split_key(const char *s, size_t len, dspec_split *out);

/* One weighted choice: a glyph (SUBST) or a text (alternatives; owned). */
typedef struct dspec_choice {
    char *text;
    int glyph;
    int weight;
} dspec_choice;

typedef struct dspec_choices {
    dspec_choice *items;
    size_t count, cap;
} dspec_choices;

void dspec_choices_free(dspec_choices *choices);

/* SUBST replacement list: space-separated tokens, "g:N" a glyph with weight
 * N >= 1, any other token one choice of weight 10 per byte. Returns 0 or a
 * static message. */
const char *dspec_weighted_glyphs(const char *s, size_t len, dspec_choices *out);

/* "/"-separated alternatives, each trimmed, with a "w:N" or "weight:N"
 * word (or, when colon_weight, a trailing ":N") taken out as its weight
 * (default 10); the remaining words are kept, single-spaced. When lower,
 * the text is lowercased (COLOUR, TILE, …). Returns 0 or a static
 * message (also on no memory). */
const char *dspec_alternatives(const char *s, size_t len, int colon_weight,
                               int lower, dspec_choices *out);

/* Picks a choice with Crawl's weighted reservoir: for each choice,
 * total += w and x_chance_in_y(w, total) replaces the pick. chance(x, y)
 * draws from the caller's generator. Returns the index, or -1 when empty. */
int dspec_pick(const dspec_choices *choices,
               int (*chance)(void *rng, int x, int y), void *rng);

#endif

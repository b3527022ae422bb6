/* A game's tables as the translator reads them (games.c loads them,
 * translate.c and the renderers' looks use them). */
#ifndef QG_FORMATS_GAME_TABLES_H
#define QG_FORMATS_GAME_TABLES_H

#include "questgrid/games.h"

#include <stddef.h>

/* The kinds of a game's tables: features, monsters, objects, artifacts
 * (the Angband family's; an artifact's class is an object class). */
enum { GAME_FEATURE, GAME_MONSTER, GAME_OBJECT, GAME_ARTIFACT, GAME_KINDS };

typedef struct game_entry {
    int32_t index;     /* the F: index; -1 for a Crawl name */
    char *tag;         /* the f_info tag or Crawl name, or NULL */
    char *name;        /* what the game calls it */
    char *tag_key;     /* tag and name as compared (game_key), or NULL */
    char *name_key;
    int cls;           /* the class (game_class_*), or -1 when unknown */
    char glyph[8];     /* the character it is drawn with, UTF-8 ("" for none) */
    char *colour;      /* an Angband colour letter or a Crawl colour name */
    int level;
    int unique;
    int avoid;         /* never the nearest of anything */
} game_entry;

typedef struct game_key_ref {
    const char *key;
    size_t entry;
} game_key_ref;

typedef struct game_kind {
    game_entry *items;
    size_t count, cap;
    size_t *by_index;      /* entry + 1 per index, 0 for none */
    size_t index_cap;
    game_key_ref *keys;    /* tag and name keys, sorted (first entry first) */
    size_t key_count;
    int max_level;         /* over the entries that may be chosen */
} game_kind;

typedef struct game_class {
    char *name;
    int kind;
    int family;            /* index into families */
} game_class;

/* "same" and "class" lines of exact.txt, with their names as keys. */
typedef struct game_same {
    int kind;
    int cls;               /* the class a "class" line stands for, else -1 */
    char **keys;
    size_t count;
} game_same;

struct qg_game {
    char *name;
    int crawl;
    game_kind kinds[GAME_KINDS];
    game_class *classes;
    size_t class_count, class_cap;
    char **families;
    size_t family_count, family_cap;
    game_same *same;
    size_t same_count, same_cap;
};

/* Lowercase, '_' as a space, '&' and '~' dropped, spaces collapsed
 * (malloc'd; NULL when memory runs out). */
char *game_key(const char *text);
/* The kind of a vocabulary kind. */
int game_kind_of(qg_vocab_kind kind);
/* The kind whose classes a kind's entries have (an artifact's: objects'). */
int game_class_kind(int kind);
/* The entry with the index, or NULL. */
const game_entry *game_by_index(const qg_game *game, int kind, int32_t index);
/* The first entry whose tag or name has the key, or NULL. */
const game_entry *game_by_key(const qg_game *game, int kind, const char *key);
/* The class of that name for the kind, or -1. */
int game_class_named(const qg_game *game, int kind, const char *name);
/* The base name of a Crawl monster or item spec (no alternatives, no
 * equipment, no flags, no weights), lowercase, as a key (malloc'd). */
char *game_spec_key(const char *spec);

#endif

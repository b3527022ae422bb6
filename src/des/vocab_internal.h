/* The vocabulary's lists, shared by its loader and its checker. */
#ifndef QG_DES_VOCAB_INTERNAL_H
#define QG_DES_VOCAB_INTERNAL_H

#include "questgrid/des.h"
#include "core/buf.h"

#include <stddef.h>

enum { DES_VOCAB_FEATURE, DES_VOCAB_MONSTER, DES_VOCAB_ITEM, DES_VOCAB_KINDS };

typedef struct des_vocab_entry {
    char *name;      /* lowercase, in the list's text */
    int refused;     /* the game knows the name and refuses it in a map */
} des_vocab_entry;

typedef struct des_vocab_list {
    char *text;
    des_vocab_entry *entries;    /* sorted by name */
    size_t count, cap;
} des_vocab_list;

/* The game's spec grammar (<game>/grammar.txt): the forms its parsers
 * build names from, one rule per line, "<rule> <text>". */
enum {
    DES_RULE_MONSTER,     /* a name mons_by_name takes itself */
    DES_RULE_UNDEAD,      /* "<monster> <word>": the monster made undead */
    DES_RULE_SHAPED,      /* "<monster>-shaped <text>" */
    DES_RULE_HEADED,      /* "<n>-headed <text>" */
    DES_RULE_ITEM_CLASS,  /* "any <text>", "random <text>", "acquire <text>" */
    DES_RULE_ITEM_WORD,   /* a spec holding the word is that item, whatever else it says */
    DES_RULE_ITEM_PAIR,   /* "pair of <text>" names the item <text> */
    DES_RULE_KINDS
};

typedef struct des_rule_list {
    char **texts;         /* lowercase, in the grammar's text */
    size_t count, cap;
} des_rule_list;

struct qg_des_vocab {
    char *game;
    des_vocab_list lists[DES_VOCAB_KINDS];
    char *grammar_text;
    des_rule_list rules[DES_RULE_KINDS];
    int unrand_drop_apostrophes; /* "unrand-key drop-apostrophes" */
    qg_branches *branches;       /* <game>/branches.txt */
};

/* Whether text (len bytes, lowercase) is one of the rule's texts. */
int des_vocab_rule_has(const qg_des_vocab *vocab, int rule, const char *text, size_t len);

/* The entry for name (len bytes, any case), or NULL. */
const des_vocab_entry *des_vocab_find(const qg_des_vocab *vocab, int kind, const char *name,
                                      size_t len);
/* The closest name the game accepts, for a hint; NULL when none is close. */
const char *des_vocab_closest(const qg_des_vocab *vocab, int kind, const char *name,
                              size_t len, size_t *best_len);

#endif

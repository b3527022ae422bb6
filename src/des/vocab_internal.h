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

struct qg_des_vocab {
    char *game;
    des_vocab_list lists[DES_VOCAB_KINDS];
};

/* The entry for name (len bytes, any case), or NULL. */
const des_vocab_entry *des_vocab_find(const qg_des_vocab *vocab, int kind, const char *name,
                                      size_t len);
/* The closest name the game accepts, for a hint; NULL when none is close. */
const char *des_vocab_closest(const qg_des_vocab *vocab, int kind, const char *name,
                              size_t len, size_t *best_len);

#endif

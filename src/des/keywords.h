/* The directive table: every .des keyword, the scanner state it enters,
 * the grammar form of its arguments and the Lua function it lowers to. */
#ifndef QG_DES_KEYWORDS_H
#define QG_DES_KEYWORDS_H

#include <stddef.h>

typedef enum des_dir {
    DES_DIR_NAME = 0,
    DES_DIR_DEFAULT_DEPTH,
    DES_DIR_DESC,
    DES_DIR_DEPTH,
    DES_DIR_ORIENT,
    DES_DIR_PLACE,
    DES_DIR_WELCOME,
    DES_DIR_CHANCE,
    DES_DIR_WEIGHT,
    DES_DIR_TAGS,
    DES_DIR_SUBST,
    DES_DIR_NSUBST,
    DES_DIR_COLOUR,
    DES_DIR_LFLOORCOL,
    DES_DIR_LROCKCOL,
    DES_DIR_LFLOORTILE,
    DES_DIR_LROCKTILE,
    DES_DIR_FTILE,
    DES_DIR_RTILE,
    DES_DIR_TILE,
    DES_DIR_FHEIGHT,
    DES_DIR_MONS,
    DES_DIR_ITEM,
    DES_DIR_MARKER,
    DES_DIR_SHUFFLE,
    DES_DIR_CLEAR,
    DES_DIR_ORDER,
    DES_DIR_KFEAT,
    DES_DIR_KITEM,
    DES_DIR_KMONS,
    DES_DIR_KMASK,
    DES_DIR_KPROP,
    DES_DIR_SUBVAULT,
    /* Crawl 0.3-0.4 only (read with the legacy option) */
    DES_DIR_FLAGS,
    DES_DIR_LFLAGS,
    DES_DIR_BFLAGS,
    DES_DIR_FLOORCOL,
    DES_DIR_ROCKCOL,
    DES_DIR_COUNT
} des_dir;

/* How the grammar reads a directive's arguments (levcomp.ypp). */
typedef enum des_form {
    DES_FORM_NAME,       /* NAME STRING */
    DES_FORM_DEFDEPTH,   /* default-depth STRING */
    DES_FORM_STRING,     /* X STRING */
    DES_FORM_STRING_OPT, /* X | X STRING */
    DES_FORM_MARKER,     /* MARKER STRING, split at compile time */
    DES_FORM_SUBVAULT,   /* SUBVAULT STRING (COMMA STRING)* */
    DES_FORM_LIST,       /* X ITEM_INFO (COMMA ITEM_INFO)* */
    DES_FORM_LIST_OPT,   /* ITEM: the list may be empty */
    DES_FORM_MONS,       /* MONS [MONSTER_NAME (COMMA MONSTER_NAME)*] */
    DES_FORM_WORDS,      /* TAGS STRING* */
    DES_FORM_CHANCE,     /* CHANCE [roll [STRING] (COMMA roll [STRING])*] */
    DES_FORM_WEIGHT,     /* WEIGHT NUMBER [STRING] (COMMA NUMBER [STRING])* */
    DES_FORM_ORDER       /* ORDER NUMBER */
} des_form;

typedef struct des_keyword {
    const char *word;   /* "NAME:", "default-depth:", … */
    size_t len;
    des_dir dir;
    int enter_state;    /* des_state the scanner enters, or -1 to stay */
    des_form form;
    const char *lua;    /* the Lua function each argument lowers to */
    int legacy;         /* a keyword only in legacy files */
} des_keyword;

/* The keyword spelled at s (up to end), or NULL. */
const des_keyword *des_keyword_match(const char *s, const char *end, int legacy);
const des_keyword *des_keyword_for(des_dir dir);
/* 1 when a legacy keyword (FLAGS:, LFLAGS:, BFLAGS:, FLOORCOL:, ROCKCOL:)
 * starts a line of data: the file is read with the old spellings. */
int des_looks_legacy(const char *data, size_t len);
/* "SUBST", "KFEAT", … (the keyword without its colon). */
const char *des_dir_name(des_dir dir);

#endif

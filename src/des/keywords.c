#include "des/keywords.h"
#include "des/lex.h"

#include <string.h>

#define KW(word, dir, state, form, lua, legacy) \
    {word, sizeof word - 1, dir, state, form, lua, legacy}

/* Order and states follow levcomp.lpp; the forms follow levcomp.ypp. */
static const des_keyword keywords[] = {
    KW("NAME:", DES_DIR_NAME, DES_ST_ARGUMENT, DES_FORM_NAME, NULL, 0),
    KW("default-depth:", DES_DIR_DEFAULT_DEPTH, DES_ST_ARGUMENT, DES_FORM_DEFDEPTH, NULL, 0),
    KW("DESC:", DES_DIR_DESC, DES_ST_ARGUMENT, DES_FORM_STRING, "desc", 0),
    KW("DEPTH:", DES_DIR_DEPTH, DES_ST_ARGUMENT, DES_FORM_STRING_OPT, "depth", 0),
    KW("ORIENT:", DES_DIR_ORIENT, DES_ST_ARGUMENT, DES_FORM_STRING_OPT, "orient", 0),
    KW("PLACE:", DES_DIR_PLACE, DES_ST_ARGUMENT, DES_FORM_STRING, "place", 0),
    KW("WELCOME:", DES_DIR_WELCOME, DES_ST_ARGUMENT, DES_FORM_STRING, "welcome", 0),
    KW("CHANCE:", DES_DIR_CHANCE, -1, DES_FORM_CHANCE, "chance", 0),
    KW("WEIGHT:", DES_DIR_WEIGHT, -1, DES_FORM_WEIGHT, "weight", 0),
    KW("TAGS:", DES_DIR_TAGS, DES_ST_KEYWORDS, DES_FORM_WORDS, "tags", 0),
    KW("SUBST:", DES_DIR_SUBST, DES_ST_ITEM_LIST, DES_FORM_LIST, "subst", 0),
    KW("NSUBST:", DES_DIR_NSUBST, DES_ST_ITEM_LIST, DES_FORM_LIST, "nsubst", 0),
    KW("COLOUR:", DES_DIR_COLOUR, DES_ST_ITEM_LIST, DES_FORM_LIST, "colour", 0),
    KW("LFLOORCOL:", DES_DIR_LFLOORCOL, DES_ST_ARGUMENT, DES_FORM_STRING_OPT, "lfloorcol", 0),
    KW("LROCKCOL:", DES_DIR_LROCKCOL, DES_ST_ARGUMENT, DES_FORM_STRING_OPT, "lrockcol", 0),
    KW("LFLOORTILE:", DES_DIR_LFLOORTILE, DES_ST_ARGUMENT, DES_FORM_STRING_OPT, "lfloortile", 0),
    KW("LROCKTILE:", DES_DIR_LROCKTILE, DES_ST_ARGUMENT, DES_FORM_STRING_OPT, "lrocktile", 0),
    KW("FTILE:", DES_DIR_FTILE, DES_ST_ITEM_LIST, DES_FORM_LIST, "ftile", 0),
    KW("RTILE:", DES_DIR_RTILE, DES_ST_ITEM_LIST, DES_FORM_LIST, "rtile", 0),
    KW("TILE:", DES_DIR_TILE, DES_ST_ITEM_LIST, DES_FORM_LIST, "tile", 0),
    KW("FHEIGHT:", DES_DIR_FHEIGHT, DES_ST_ITEM_LIST, DES_FORM_LIST, "fheight", 0),
    KW("MONS:", DES_DIR_MONS, DES_ST_MNAME, DES_FORM_MONS, "mons", 0),
    KW("ITEM:", DES_DIR_ITEM, DES_ST_ITEM_LIST, DES_FORM_LIST_OPT, "item", 0),
    KW("MARKER:", DES_DIR_MARKER, DES_ST_ARGUMENT, DES_FORM_MARKER, "marker", 0),
    KW("SHUFFLE:", DES_DIR_SHUFFLE, DES_ST_ITEM_LIST, DES_FORM_LIST, "shuffle", 0),
    KW("CLEAR:", DES_DIR_CLEAR, DES_ST_ARGUMENT, DES_FORM_STRING, "clear", 0),
    KW("ORDER:", DES_DIR_ORDER, -1, DES_FORM_ORDER, "order", 0),
    KW("KFEAT:", DES_DIR_KFEAT, DES_ST_ARGUMENT, DES_FORM_STRING_OPT, "kfeat", 0),
    KW("KITEM:", DES_DIR_KITEM, DES_ST_ARGUMENT, DES_FORM_STRING_OPT, "kitem", 0),
    KW("KMONS:", DES_DIR_KMONS, DES_ST_ARGUMENT, DES_FORM_STRING_OPT, "kmons", 0),
    KW("KMASK:", DES_DIR_KMASK, DES_ST_ARGUMENT, DES_FORM_STRING_OPT, "kmask", 0),
    KW("KPROP:", DES_DIR_KPROP, DES_ST_ARGUMENT, DES_FORM_STRING_OPT, "kprop", 0),
    KW("SUBVAULT:", DES_DIR_SUBVAULT, DES_ST_ARGUMENT, DES_FORM_SUBVAULT, "subvault", 0),
    /* Legacy spellings, lowered to their modern meaning: FLAGS was an
     * alias of TAGS; FLOORCOL/ROCKCOL became LFLOORCOL/LROCKCOL; the level
     * and branch flags keep their own calls for the runtime. */
    KW("FLAGS:", DES_DIR_FLAGS, DES_ST_KEYWORDS, DES_FORM_WORDS, "tags", 1),
    KW("LFLAGS:", DES_DIR_LFLAGS, DES_ST_ARGUMENT, DES_FORM_STRING, "lflags", 1),
    KW("BFLAGS:", DES_DIR_BFLAGS, DES_ST_ARGUMENT, DES_FORM_STRING, "bflags", 1),
    KW("FLOORCOL:", DES_DIR_FLOORCOL, DES_ST_ARGUMENT, DES_FORM_STRING_OPT, "lfloorcol", 1),
    KW("ROCKCOL:", DES_DIR_ROCKCOL, DES_ST_ARGUMENT, DES_FORM_STRING_OPT, "lrockcol", 1),
};

#define KEYWORD_COUNT (sizeof keywords / sizeof *keywords)

/* The keywords starting with each letter, as indexes into keywords[]
 * (-1 ends a list); the scanner asks at nearly every token. */
static const signed char *candidates(char c)
{
    static const signed char b[] = {35, -1}, cc[] = {7, 12, 25, -1},
                             d[] = {1, -1}, dd[] = {2, 3, -1}, f[] = {17, 20, 33, 36, -1},
                             i[] = {22, -1}, k[] = {27, 28, 29, 30, 31, -1},
                             l[] = {13, 14, 15, 16, 34, -1}, m[] = {21, 23, -1},
                             n[] = {0, 11, -1}, o[] = {4, 26, -1}, p[] = {5, -1},
                             r[] = {18, 37, -1}, sh[] = {10, 24, 32, -1}, t[] = {9, 19, -1},
                             w[] = {6, 8, -1};
    switch (c) {
    case 'B': return b;
    case 'C': return cc;
    case 'd': return d;
    case 'D': return dd;
    case 'F': return f;
    case 'I': return i;
    case 'K': return k;
    case 'L': return l;
    case 'M': return m;
    case 'N': return n;
    case 'O': return o;
    case 'P': return p;
    case 'R': return r;
    case 'S': return sh;
    case 'T': return t;
    case 'W': return w;
    default: return NULL;
    }
}

const des_keyword *des_keyword_match(const char *s, const char *end, int legacy)
{
    const signed char *list = s < end ? candidates(*s) : NULL;
    if (!list)
        return NULL;
    size_t avail = (size_t)(end - s);
    for (; *list >= 0; list++) {
        const des_keyword *kw = &keywords[*list];
        if ((!kw->legacy || legacy) && kw->len <= avail && memcmp(kw->word, s, kw->len) == 0)
            return kw;
    }
    return NULL;
}

const des_keyword *des_keyword_for(des_dir dir)
{
    for (size_t i = 0; i < KEYWORD_COUNT; i++)
        if (keywords[i].dir == dir)
            return &keywords[i];
    return NULL;
}

const char *des_dir_name(des_dir dir)
{
    static const char *const names[DES_DIR_COUNT] = {
        "NAME", "default-depth", "DESC", "DEPTH", "ORIENT", "PLACE",
        "WELCOME", "CHANCE", "WEIGHT", "TAGS", "SUBST", "NSUBST", "COLOUR",
        "LFLOORCOL", "LROCKCOL", "LFLOORTILE", "LROCKTILE", "FTILE", "RTILE",
        "TILE", "FHEIGHT", "MONS", "ITEM", "MARKER", "SHUFFLE", "CLEAR",
        "ORDER", "KFEAT", "KITEM", "KMONS", "KMASK", "KPROP", "SUBVAULT",
        "FLAGS", "LFLAGS", "BFLAGS", "FLOORCOL", "ROCKCOL",
    };
    return (unsigned)dir < DES_DIR_COUNT ? names[dir] : "?";
}

/* Old files spell some directives differently (FLAGS:, LFLAGS:, BFLAGS:,
 * FLOORCOL:, ROCKCOL:): one of them starting a line marks the file. */
static int starts_line(const char *data, size_t at)
{
    while (at > 0 && (data[at - 1] == ' ' || data[at - 1] == '\t'))
        at--;
    return at == 0 || data[at - 1] == '\n';
}

static int ends_with(const char *data, size_t at, const char *word)
{
    size_t n = strlen(word);
    return at >= n && memcmp(data + at - n, word, n) == 0 && starts_line(data, at - n);
}

int des_looks_legacy(const char *data, size_t len)
{
    static const char *const words[] = {"FLAGS", "LFLAGS", "BFLAGS", "FLOORCOL", "ROCKCOL"};
    for (const char *p = data, *end = data + len;
         (p = memchr(p, ':', (size_t)(end - p))) != NULL; p++) {
        size_t at = (size_t)(p - data);
        if (at < 5 || (p[-1] != 'S' && p[-1] != 'L'))
            continue;
        for (size_t w = 0; w < sizeof words / sizeof *words; w++)
            if (ends_with(data, at, words[w]))
                return 1;
    }
    return 0;
}

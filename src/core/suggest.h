/* "Did you mean": picks, among the names a context knows, the one closest
 * to a name a user wrote, so a misspelling is answered with a hint instead
 * of a bare "unknown". One picker for verbs, options, option values and
 * the games' vocabularies. */
#ifndef QG_CORE_SUGGEST_H
#define QG_CORE_SUGGEST_H

#include <stddef.h>

typedef struct qg_suggest {
    const char *word;
    size_t word_len;
    const char *best;     /* the closest candidate so far, or NULL */
    size_t best_len;
    unsigned best_distance;
} qg_suggest;

/* Starts a search for the candidate closest to word (len bytes). */
void qg_suggest_init(qg_suggest *s, const char *word, size_t len);
/* Offers one candidate; it is kept when it is a plausible misspelling of
 * the word and closer than the ones offered before (the first of equals
 * wins). The candidate must outlive the search. */
void qg_suggest_offer(qg_suggest *s, const char *candidate, size_t len);
/* Offers every string of a NULL-terminated array. */
void qg_suggest_offer_all(qg_suggest *s, const char *const *candidates);
/* The closest candidate (best_len bytes, not always NUL-terminated), or NULL
 * when none is close enough to be a hint. */
const char *qg_suggest_best(const qg_suggest *s);

/* Edit distance with adjacent transpositions counted as one edit, ignoring
 * ASCII case; any distance above cap is reported as cap + 1. */
unsigned qg_edit_distance(const char *a, size_t alen, const char *b, size_t blen, unsigned cap);

#endif

/* "Did you mean": a bounded edit distance and a picker over candidates. */
#include "core/suggest.h"

#include <ctype.h>

/* Names longer than this are compared by length only: a hint for a
 * 200-byte token would not help, and the table rows stay on the stack. */
enum { SUGGEST_MAX_LEN = 64 };

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
    unsigned m = a < b ? a : b;
    return m < c ? m : c;
}

static int same_letter(char a, char b)
{
    return tolower((unsigned char)a) == tolower((unsigned char)b);
}

unsigned qg_edit_distance(const char *a, size_t alen, const char *b, size_t blen, unsigned cap)
{
    size_t gap = alen > blen ? alen - blen : blen - alen;
    if (gap > cap || alen > SUGGEST_MAX_LEN || blen > SUGGEST_MAX_LEN)
        return cap + 1;
    /* Three rows of the optimal-string-alignment table: the one before the
     * previous is what a transposition looks back to. */
    unsigned rows[3][SUGGEST_MAX_LEN + 1];
    unsigned *older = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= blen; j++)
        prev[j] = (unsigned)j;
    for (size_t i = 1; i <= alen; i++) {
        cur[0] = (unsigned)i;
        unsigned row_min = cur[0];
        for (size_t j = 1; j <= blen; j++) {
            unsigned cost = same_letter(a[i - 1], b[j - 1]) ? 0 : 1;
            cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
            if (i > 1 && j > 1 && same_letter(a[i - 1], b[j - 2]) &&
                same_letter(a[i - 2], b[j - 1]) && older[j - 2] + 1 < cur[j])
                cur[j] = older[j - 2] + 1;
            if (cur[j] < row_min)
                row_min = cur[j];
        }
        if (row_min > cap)
            return cap + 1;
        unsigned *spare = older;
        older = prev;
        prev = cur;
        cur = spare;
    }
    return prev[blen] > cap ? cap + 1 : prev[blen];
}

/* How many edits still read as a misspelling of a word this long: one for
 * short words, a third of the letters for longer ones. */
static unsigned plausible_edits(size_t len)
{
    if (len < 4)
        return 1;
    return len < 9 ? 2 : (unsigned)(len / 3);
}

void qg_suggest_init(qg_suggest *s, const char *word, size_t len)
{
    s->word = word;
    s->word_len = len;
    s->best = NULL;
    s->best_len = 0;
    s->best_distance = plausible_edits(len) + 1;
}

void qg_suggest_offer(qg_suggest *s, const char *candidate, size_t len)
{
    if (s->best_distance == 0)
        return;
    unsigned d = qg_edit_distance(s->word, s->word_len, candidate, len, s->best_distance - 1);
    if (d < s->best_distance) {
        s->best = candidate;
        s->best_len = len;
        s->best_distance = d;
    }
}

void qg_suggest_offer_all(qg_suggest *s, const char *const *candidates)
{
    for (; *candidates; candidates++) {
        const char *c = *candidates;
        size_t len = 0;
        while (c[len])
            len++;
        qg_suggest_offer(s, c, len);
    }
}

const char *qg_suggest_best(const qg_suggest *s)
{
    return s->best;
}

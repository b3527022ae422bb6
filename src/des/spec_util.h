/* Small string helpers shared by the directive parsers: spans of the
 * argument (so errors keep their offsets), trimming and splitting. */
#ifndef QG_DES_SPEC_UTIL_H
#define QG_DES_SPEC_UTIL_H

#include <stddef.h>

#include "des/directives.h"

typedef struct des_span {
    const char *s;
    size_t len;
    size_t offset;   /* from the start of the whole argument */
} des_span;

des_span des_span_trim(des_span sp);
/* Splits sp on sep into trimmed, non-empty pieces (Crawl's split_string)
 * held in the arena; returns the count (*out NULL on no memory). */
size_t des_span_split(qg_arena *arena, des_span sp, char sep, des_span **out);
int des_span_eq(des_span sp, const char *word);
/* Crawl's parse_int: the whole span is a decimal integer. */
int des_span_int(des_span sp, int *value);

int des_fail(des_spec_error *err, size_t offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Glyph replacements ("a:5 bc"): each token "g:N" is glyph g with weight
 * N >= 1; any other token gives each of its bytes weight 10. */
int des_parse_glyphs(qg_arena *arena, des_span sp, des_glyph_choice **out,
                     size_t *count, des_spec_error *err);
/* One weighted alternative: removes "weight:N" / "w:N" (and, for
 * suffix_weight, a trailing ":N") from text. */
int des_parse_weighted(qg_arena *arena, des_span sp, int suffix_weight,
                       des_weighted *out);

#endif

#include "des/spec_util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

des_span des_span_trim(des_span sp)
{
    while (sp.len && is_blank(sp.s[0])) {
        sp.s++;
        sp.len--;
        sp.offset++;
    }
    while (sp.len && is_blank(sp.s[sp.len - 1]))
        sp.len--;
    return sp;
}

size_t des_span_split(qg_arena *arena, des_span sp, char sep, des_span **out)
{
    size_t most = 1;
    for (size_t i = 0; i < sp.len; i++)
        most += sp.s[i] == sep;
    *out = qg_arena_array(arena, most, sizeof **out);
    if (!*out)
        return 0;
    size_t count = 0, start = 0;
    for (size_t i = 0; i <= sp.len; i++) {
        if (i < sp.len && sp.s[i] != sep)
            continue;
        des_span piece = des_span_trim((des_span){sp.s + start, i - start, sp.offset + start});
        start = i + 1;
        if (piece.len)
            (*out)[count++] = piece;
    }
    return count;
}

int des_span_eq(des_span sp, const char *word)
{
    size_t n = strlen(word);
    return sp.len == n && memcmp(sp.s, word, n) == 0;
}

int des_span_int(des_span sp, int *value)
{
    char buf[32];
    if (!sp.len || sp.len >= sizeof buf)
        return 0;
    memcpy(buf, sp.s, sp.len);
    buf[sp.len] = '\0';
    char *end;
    errno = 0;
    long v = strtol(buf, &end, 10);
    if (errno || *end || end == buf || v > 2147483647L || v < -2147483647L)
        return 0;
    *value = (int)v;
    return 1;
}

int des_fail(des_spec_error *err, size_t offset, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        err->offset = offset;
    }
    return DES_PARSE_BAD;
}

int des_parse_glyphs(qg_arena *arena, des_span sp, des_glyph_choice **out,
                     size_t *count, des_spec_error *err)
{
    *count = 0;
    *out = qg_arena_array(arena, sp.len ? sp.len : 1, sizeof **out);
    if (!*out)
        return DES_PARSE_NOMEM;
    size_t i = 0;
    while (i < sp.len) {
        while (i < sp.len && (sp.s[i] == ' ' || sp.s[i] == '\t'))
            i++;
        size_t start = i;
        while (i < sp.len && sp.s[i] != ' ' && sp.s[i] != '\t')
            i++;
        des_span tok = {sp.s + start, i - start, sp.offset + start};
        if (!tok.len)
            continue;
        if (tok.len > 2 && tok.s[1] == ':') {
            int weight;
            des_span num = {tok.s + 2, tok.len - 2, tok.offset + 2};
            if (!des_span_int(num, &weight) || weight < 1)
                return des_fail(err, num.offset, "bad weight '%.*s' (want a number >= 1)",
                                (int)num.len, num.s);
            (*out)[*count].glyph = (unsigned char)tok.s[0];
            (*out)[(*count)++].weight = weight;
            continue;
        }
        for (size_t k = 0; k < tok.len; k++) {
            (*out)[*count].glyph = (unsigned char)tok.s[k];
            (*out)[(*count)++].weight = DES_DEFAULT_WEIGHT;
        }
    }
    return DES_PARSE_OK;
}

/* Finds "prefix<digits>" starting a word of text; removes it. */
static int take_number_tag(char *text, const char *prefix, int *value)
{
    size_t pl = strlen(prefix);
    for (char *p = text; (p = strstr(p, prefix)) != NULL; p++) {
        if (p != text && p[-1] != ' ')
            continue;
        char *q = p + pl, *end = q;
        while (*end >= '0' && *end <= '9')
            end++;
        if (end == q || (*end && *end != ' '))
            continue;
        *value = atoi(q);
        while (*end == ' ')
            end++;
        memmove(p, end, strlen(end) + 1);
        return 1;
    }
    return 0;
}

int des_parse_weighted(qg_arena *arena, des_span sp, int suffix_weight,
                       des_weighted *out)
{
    memset(out, 0, sizeof *out);
    out->text = qg_arena_strndup(arena, sp.s, sp.len);
    if (!out->text)
        return DES_PARSE_NOMEM;
    out->weight = DES_DEFAULT_WEIGHT;
    int w;
    if (take_number_tag(out->text, "weight:", &w) || take_number_tag(out->text, "w:", &w)) {
        out->weight = w;
    } else if (suffix_weight) {
        char *colon = strrchr(out->text, ':');
        if (colon && colon[1]) {
            char *end = colon + 1;
            while (*end >= '0' && *end <= '9')
                end++;
            if (!*end) {
                out->weight = atoi(colon + 1);
                *colon = '\0';
            }
        }
    }
    size_t n = strlen(out->text);
    while (n && out->text[n - 1] == ' ')
        out->text[--n] = '\0';
    return DES_PARSE_OK;
}

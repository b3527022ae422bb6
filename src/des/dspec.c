/* Directive argument parsers (see dspec.h). */
#include "des/dspec.h"
#include "core/buf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void trim(const char **s, size_t *len)
{
    while (*len && is_space(**s)) {
        (*s)++;
        (*len)--;
    }
    while (*len && is_space((*s)[*len - 1]))
        (*len)--;
}

const char *dspec_split_key(const char *s, size_t len, dspec_split *out)
{
    size_t sep = 0;
    for (size_t i = 1; i < len; i++) {
        if (s[i] == '=' || s[i] == ':') {
            sep = i;
            break;
        }
    }
    if (!sep)
        return "malformed declaration - must use = or :";
    out->key = s;
    out->key_len = sep;
    trim(&out->key, &out->key_len);
    out->sep = s[sep];
    out->arg = s + sep + 1;
    out->arg_len = len - sep - 1;
    trim(&out->arg, &out->arg_len);
    if (!out->key_len)
        return "no key defined";
    if (!out->arg_len)
        return "no substitute defined";
    return NULL;
}

void dspec_choices_free(dspec_choices *choices)
{
    for (size_t i = 0; i < choices->count; i++)
        free(choices->items[i].text);
    free(choices->items);
    memset(choices, 0, sizeof *choices);
}

static int add_choice(dspec_choices *out, char *text, int glyph, int weight)
{
    dspec_choice *c = QG_PUSH(out->items, out->count, out->cap);
    if (!c) {
        free(text);
        return 0;
    }
    c->text = text;
    c->glyph = glyph;
    c->weight = weight;
    return 1;
}

static int parse_weight(const char *s, size_t len, int *out)
{
    if (!len || len > 9)
        return 0;
    int v = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)s[i]))
            return 0;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 1;
}

const char *dspec_weighted_glyphs(const char *s, size_t len, dspec_choices *out)
{
    size_t i = 0;
    while (i < len) {
        while (i < len && is_space(s[i]))
            i++;
        size_t start = i;
        while (i < len && !is_space(s[i]))
            i++;
        size_t tlen = i - start;
        const char *tok = s + start;
        if (!tlen)
            break;
        if (tlen > 2 && tok[1] == ':') {
            int w;
            if (!parse_weight(tok + 2, tlen - 2, &w) || w < 1)
                return "invalid weight specifier";
            if (!add_choice(out, NULL, (unsigned char)tok[0], w))
                return "out of memory";
            continue;
        }
        for (size_t k = 0; k < tlen; k++)
            if (!add_choice(out, NULL, (unsigned char)tok[k], DSPEC_DEFAULT_WEIGHT))
                return "out of memory";
    }
    return NULL;
}

/* "w:N" / "weight:N" words are weights; with colon_weight, a last word
 * ending in ":N" gives its N. */
static int word_weight(const char *w, size_t len, int *weight)
{
    if (len > 2 && w[0] == 'w' && w[1] == ':')
        return parse_weight(w + 2, len - 2, weight);
    if (len > 7 && strncmp(w, "weight:", 7) == 0)
        return parse_weight(w + 7, len - 7, weight);
    return 0;
}

static const char *one_alternative(const char *s, size_t len, int colon_weight,
                                   int lower, dspec_choices *out)
{
    qg_buf text;
    qg_buf_init(&text);
    int weight = DSPEC_DEFAULT_WEIGHT;
    size_t i = 0;
    while (i < len) {
        while (i < len && is_space(s[i]))
            i++;
        size_t start = i;
        while (i < len && !is_space(s[i]))
            i++;
        if (i == start)
            break;
        if (word_weight(s + start, i - start, &weight))
            continue;
        if (text.len)
            qg_buf_putc(&text, ' ');
        qg_buf_append(&text, s + start, i - start);
    }
    if (colon_weight && text.len) {
        char *colon = strrchr(text.data, ':');
        int w;
        if (colon && parse_weight(colon + 1, strlen(colon + 1), &w)) {
            weight = w;
            text.len = (size_t)(colon - text.data);
            text.data[text.len] = '\0';
        }
    }
    if (text.failed) {
        qg_buf_free(&text);
        return "out of memory";
    }
    char *t = qg_buf_take(&text);
    if (!t)
        return "out of memory";
    if (lower)
        for (char *p = t; *p; p++)
            *p = (char)tolower((unsigned char)*p);
    if (!add_choice(out, t, 0, weight))
        return "out of memory";
    return NULL;
}

const char *dspec_alternatives(const char *s, size_t len, int colon_weight,
                               int lower, dspec_choices *out)
{
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != '/')
            continue;
        const char *err = one_alternative(s + start, i - start, colon_weight,
                                          lower, out);
        if (err)
            return err;
        start = i + 1;
    }
    return NULL;
}

int dspec_pick(const dspec_choices *choices,
               int (*chance)(void *rng, int x, int y), void *rng)
{
    int pick = -1, total = 0;
    for (size_t i = 0; i < choices->count; i++) {
        int w = choices->items[i].weight;
        total += w;
        if (w > 0 && chance(rng, w, total))
            pick = (int)i;
    }
    return pick;
}

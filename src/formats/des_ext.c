/* Words of #qg: lines: numbers, keywords and strings that keep every
 * byte. */
#include "formats/des_ext.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char hex[] = "0123456789ABCDEF";

void des_ext_put_string(qg_buf *out, const char *s)
{
    if (!s) {
        qg_buf_puts(out, " -");
        return;
    }
    qg_buf_puts(out, " :");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p <= ' ' || *p >= 0x7F || *p == '%') {
            qg_buf_putc(out, '%');
            qg_buf_putc(out, hex[*p >> 4]);
            qg_buf_putc(out, hex[*p & 15]);
        } else {
            qg_buf_putc(out, (char)*p);
        }
    }
}

void des_ext_put_cell(qg_buf *out, const qg_cell *c)
{
    qg_buf_printf(out, " %u %ld", (unsigned)c->glyph, (long)c->feature);
    des_ext_put_string(out, c->feature_name);
    qg_buf_printf(out, " %lu %lu %ld %ld %lu", (unsigned long)c->cave_info,
                  (unsigned long)c->vault_mask, (long)c->special, (long)c->mimic,
                  (unsigned long)c->mflag);
    int odds = c->feature_chance != 0;
    for (int s = 0; s < QG_SLOTS; s++) {
        const qg_thing *t = &c->things[s];
        const char *kind = qg_thing_kind_name(t->kind);
        qg_buf_printf(out, " %s %ld", kind ? kind : "none", (long)t->index);
        des_ext_put_string(out, t->name);
        odds |= t->chance || t->flags || t->depth;
    }
    /* chances and placing flags follow only where a cell has them */
    if (!odds)
        return;
    qg_buf_printf(out, " odds %ld", (long)c->feature_chance);
    for (int s = 0; s < QG_SLOTS; s++)
        qg_buf_printf(out, " %ld %lu %ld", (long)c->things[s].chance,
                      (unsigned long)c->things[s].flags, (long)c->things[s].depth);
}

static void skip_spaces(des_ext_words *w)
{
    while (w->p < w->end && *w->p == ' ')
        w->p++;
}

/* The next word: [*start, *start + *len). */
static int word(des_ext_words *w, const char **start, size_t *len)
{
    skip_spaces(w);
    *start = w->p;
    while (w->p < w->end && *w->p != ' ')
        w->p++;
    *len = (size_t)(w->p - *start);
    return *len > 0;
}

int des_ext_column(const des_ext_words *w)
{
    const char *p = w->p;
    while (p < w->end && *p == ' ')
        p++;
    return (int)(p - w->line) + 1;
}

int des_ext_number(des_ext_words *w, long *value)
{
    const char *p;
    size_t len;
    if (!word(w, &p, &len))
        return 0;
    size_t i = p[0] == '-';
    long long v = 0;
    if (i == len)
        return 0;
    for (; i < len; i++) {
        if (p[i] < '0' || p[i] > '9' || v > (long long)UINT32_MAX)
            return 0;
        v = v * 10 + (p[i] - '0');
    }
    *value = (long)(p[0] == '-' ? -v : v);
    return 1;
}

int des_ext_keyword(des_ext_words *w, char *buf, size_t size)
{
    const char *p;
    size_t len;
    if (!word(w, &p, &len) || len >= size)
        return 0;
    memcpy(buf, p, len);
    buf[len] = '\0';
    return 1;
}

static int hex_value(char c)
{
    const char *at = strchr(hex, c);
    return c && at ? (int)(at - hex) : -1;
}

int des_ext_string(des_ext_words *w, char **out)
{
    const char *p;
    size_t len;
    *out = NULL;
    if (!word(w, &p, &len))
        return 0;
    if (len == 1 && p[0] == '-')
        return 1;
    if (p[0] != ':')
        return 0;
    char *s = malloc(len);
    size_t n = 0;
    if (!s)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if (p[i] != '%') {
            s[n++] = p[i];
            continue;
        }
        int hi = i + 2 < len ? hex_value(p[i + 1]) : -1;
        int lo = i + 2 < len ? hex_value(p[i + 2]) : -1;
        if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
            free(s);
            return 0;
        }
        s[n++] = (char)(hi * 16 + lo);
        i += 2;
    }
    s[n] = '\0';
    *out = s;
    return 1;
}

/* Terrain tuples and byte-exact string escaping for TMX. */
#include "formats/tmx.h"

#include <string.h>

void tmx_terrain_of(const qg_cell *cell, tmx_terrain *out)
{
    out->feature = cell->feature;
    out->feature_name = cell->feature_name;
    out->cave_info = cell->cave_info;
    out->vault_mask = cell->vault_mask;
    out->special = cell->special;
    out->mimic = cell->mimic;
    out->mflag = cell->mflag;
    out->feature_chance = cell->feature_chance;
}

void tmx_terrain_default(tmx_terrain *out)
{
    memset(out, 0, sizeof *out);
    out->feature = -1;
}

static int same_name(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

int tmx_terrain_equal(const tmx_terrain *a, const tmx_terrain *b)
{
    return a->feature == b->feature && same_name(a->feature_name, b->feature_name) &&
           a->cave_info == b->cave_info && a->vault_mask == b->vault_mask &&
           a->special == b->special && a->mimic == b->mimic && a->mflag == b->mflag &&
           a->feature_chance == b->feature_chance;
}

int tmx_terrain_is_default(const tmx_terrain *t)
{
    tmx_terrain d;
    tmx_terrain_default(&d);
    return tmx_terrain_equal(t, &d);
}

/* The length of the valid UTF-8 sequence at s (XML characters only), or 0. */
static size_t utf8_char_len(const unsigned char *s, size_t left)
{
    if (s[0] >= 0x20 && s[0] < 0x7F)
        return 1;
    if (s[0] < 0xC2 || s[0] > 0xF4)
        return 0;
    size_t n = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : 2;
    if (n > left)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xF0 && s[1] < 0x90) ||
        (s[0] == 0xF4 && s[1] > 0x8F) || (s[0] == 0xED && s[1] > 0x9F) ||
        (s[0] == 0xEF && s[1] == 0xBF && s[2] >= 0xBE))
        return 0;
    return n;
}

int tmx_escape_bytes(qg_buf *out, const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        size_t n = u[i] == '\\' ? 0 : utf8_char_len(u + i, len - i);
        if (u[i] == '\\') {
            qg_buf_puts(out, "\\\\");
            i++;
        } else if (n == 0) {
            qg_buf_printf(out, "\\x%02X", u[i]);
            i++;
        } else {
            qg_buf_append(out, s + i, n);
            i += n;
        }
    }
    return !out->failed;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int tmx_unescape_bytes(qg_buf *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\\' && i + 1 < len && s[i + 1] == '\\') {
            qg_buf_putc(out, '\\');
            i++;
        } else if (s[i] == '\\' && i + 3 < len && s[i + 1] == 'x' &&
                   hex_digit(s[i + 2]) >= 0 && hex_digit(s[i + 3]) >= 0) {
            qg_buf_putc(out, hex_digit(s[i + 2]) * 16 + hex_digit(s[i + 3]));
            i += 3;
        } else {
            qg_buf_putc(out, (unsigned char)s[i]);
        }
    }
    return !out->failed;
}

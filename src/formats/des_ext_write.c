/* The #qg: lines of the .des writer (format in doc/des.md). */
#include "formats/des_ext.h"
#include "formats/des_write.h"

/* A cell that differs from the exact cell of its glyph. */
static int put_exception(void *user, int x, int y, const qg_cell *c)
{
    des_writer *w = user;
    unsigned char key = w->cells[(size_t)y * (size_t)qg_level_width(w->level) + (size_t)x];
    if (!key || qg_cell_same(c, &w->keys[key - 1].exact))
        return 0;
    qg_buf_printf(w->out, DES_EXT_PREFIX "cell %d %d", x, y);
    des_ext_put_cell(w->out, c);
    qg_buf_putc(w->out, '\n');
    return 0;
}

void des_put_extensions(des_writer *w)
{
    const qg_level *l = w->level;
    qg_buf *out = w->out;
    qg_buf_printf(out, DES_EXT_PREFIX "level %d %d 0 %d\n", qg_level_width(l), qg_level_height(l),
                  w->top);
    if (w->outside)
        qg_buf_printf(out, DES_EXT_PREFIX "outside %d\n", w->outside);
    if (qg_level_name(l)) {
        qg_buf_puts(out, DES_EXT_PREFIX "name");
        des_ext_put_string(out, qg_level_name(l));
        qg_buf_putc(out, '\n');
    }
    int x, y;
    if (qg_level_player_start(l, &x, &y))
        qg_buf_printf(out, DES_EXT_PREFIX "start %d %d\n", x, y);
    for (size_t i = 0; i < qg_level_property_count(l); i++) {
        const char *value;
        const char *key = qg_level_property(l, i, &value);
        qg_buf_puts(out, DES_EXT_PREFIX "prop");
        des_ext_put_string(out, key);
        des_ext_put_string(out, value);
        qg_buf_putc(out, '\n');
    }
    for (int i = 0; i < w->key_count; i++) {
        qg_buf_printf(out, DES_EXT_PREFIX "glyph %d", w->keys[i].glyph);
        des_ext_put_cell(out, &w->keys[i].exact);
        qg_buf_putc(out, '\n');
    }
    qg_level_foreach(l, put_exception, w);
    for (size_t i = 0; i < qg_level_marker_count(l); i++) {
        const char *spec = qg_level_marker(l, i, &x, &y);
        qg_buf_printf(out, DES_EXT_PREFIX "marker %d %d", x, y);
        des_ext_put_string(out, spec);
        qg_buf_putc(out, '\n');
    }
}

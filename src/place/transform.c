/* Mirroring and rotation as Crawl's map_def does them, kept as an integer
 * map from the transformed grid back to the source level, so that placing
 * never copies the level. */
#include "place/internal.h"
#include "core/level.h"

#include <stdlib.h>
#include <string.h>

void xform_identity(xform *t, int w, int h)
{
    *t = (xform){1, 0, 0, 0, 1, 0, w, h, 0};
}

void xform_apply(xform *t, unsigned op)
{
    xform n = *t;
    switch (op) {
    case QG_XFORM_HMIRROR:
        n.a = -t->a; n.c = t->a * (t->w - 1) + t->c;
        n.d = -t->d; n.f = t->d * (t->w - 1) + t->f;
        break;
    case QG_XFORM_VMIRROR:
        n.b = -t->b; n.c = t->b * (t->h - 1) + t->c;
        n.e = -t->e; n.f = t->e * (t->h - 1) + t->f;
        break;
    case QG_XFORM_ROTATE_CW: /* column i, read bottom to top, becomes row i */
        n.a = -t->b; n.b = t->a; n.c = t->b * (t->h - 1) + t->c;
        n.d = -t->e; n.e = t->d; n.f = t->e * (t->h - 1) + t->f;
        n.w = t->h; n.h = t->w;
        break;
    case QG_XFORM_ROTATE_CCW:
        n.a = t->b; n.b = -t->a; n.c = t->a * (t->w - 1) + t->c;
        n.d = t->e; n.e = -t->d; n.f = t->d * (t->w - 1) + t->f;
        n.w = t->h; n.h = t->w;
        break;
    default:
        return;
    }
    n.applied = t->applied | op;
    *t = n;
}

orient orient_after(orient o, unsigned op)
{
    static const orient hmirror[OR_COUNT] = {
        OR_NORTH, OR_SOUTH, OR_WEST, OR_EAST, OR_NORTHEAST, OR_NORTHWEST,
        OR_SOUTHEAST, OR_SOUTHWEST, OR_ENCOMPASS, OR_FLOAT, OR_CENTRE};
    static const orient vmirror[OR_COUNT] = {
        OR_SOUTH, OR_NORTH, OR_EAST, OR_WEST, OR_SOUTHWEST, OR_SOUTHEAST,
        OR_NORTHWEST, OR_NORTHEAST, OR_ENCOMPASS, OR_FLOAT, OR_CENTRE};
    static const orient clockwise[OR_COUNT] = {
        OR_EAST, OR_WEST, OR_SOUTH, OR_NORTH, OR_NORTHEAST, OR_SOUTHEAST,
        OR_NORTHWEST, OR_SOUTHWEST, OR_ENCOMPASS, OR_FLOAT, OR_CENTRE};
    static const orient anticlockwise[OR_COUNT] = {
        OR_WEST, OR_EAST, OR_NORTH, OR_SOUTH, OR_SOUTHWEST, OR_NORTHWEST,
        OR_SOUTHEAST, OR_NORTHEAST, OR_ENCOMPASS, OR_FLOAT, OR_CENTRE};
    if ((unsigned)o >= OR_COUNT)
        return o;
    switch (op) {
    case QG_XFORM_HMIRROR: return hmirror[o];
    case QG_XFORM_VMIRROR: return vmirror[o];
    case QG_XFORM_ROTATE_CW: return clockwise[o];
    case QG_XFORM_ROTATE_CCW: return anticlockwise[o];
    }
    return o;
}

int vmap_build(vmap *m, const qg_level *level, const xform *t)
{
    size_t n = (size_t)t->w * (size_t)t->h;
    int lw = qg_level_width(level);
    const unsigned char *glyph = qg_level_glyphs(level);
    const unsigned char *in_map = qg_level_in_map(level);
    m->level = level;
    m->t = *t;
    m->w = t->w;
    m->h = t->h;
    m->count = 0;
    m->part = malloc(n);
    m->cells = malloc(n * sizeof *m->cells);
    if (!m->part || !m->cells) {
        vmap_free(m);
        return 0;
    }
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++) {
            int src = xform_src(t, x, y, lw);
            int at = y * m->w + x;
            m->part[at] = in_map[src] && glyph[src] != ' ';
            if (m->part[at])
                m->cells[m->count++] = at;
        }
    return 1;
}

void vmap_free(vmap *m)
{
    free(m->part);
    free(m->cells);
    m->part = NULL;
    m->cells = NULL;
}

int vmap_on_edge(const vmap *m, int x, int y)
{
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    for (int k = 0; k < 4; k++) {
        int nx = x + dx[k], ny = y + dy[k];
        if (nx < 0 || ny < 0 || nx >= m->w || ny >= m->h || !m->part[ny * m->w + nx])
            return 1;
    }
    return 0;
}

unsigned char vmap_glyph(const vmap *m, int x, int y)
{
    return qg_level_glyphs(m->level)[xform_src(&m->t, x, y, qg_level_width(m->level))];
}

/* ---- a transformed copy ---------------------------------------------------- */

static const unsigned op_order[4] = {QG_XFORM_HMIRROR, QG_XFORM_VMIRROR,
                                     QG_XFORM_ROTATE_CW, QG_XFORM_ROTATE_CCW};

/* The transform's matrix is a signed permutation: its inverse is its
 * transpose. */
void xform_inverse(const xform *t, int sx, int sy, int *x, int *y)
{
    *x = t->a * (sx - t->c) + t->d * (sy - t->f);
    *y = t->b * (sx - t->c) + t->e * (sy - t->f);
}

static qg_status copy_extras(qg_level *dst, const qg_level *src, const xform *t,
                             orient o, int has_orient)
{
    qg_status st = QG_OK;
    int x, y;
    for (size_t i = 0; i < qg_level_marker_count(src) && st == QG_OK; i++) {
        int sx, sy;
        const char *spec = qg_level_marker(src, i, &sx, &sy);
        xform_inverse(t, sx, sy, &x, &y);
        st = qg_level_add_marker(dst, x, y, spec);
    }
    for (size_t i = 0; i < qg_level_property_count(src) && st == QG_OK; i++) {
        const char *value;
        const char *key = qg_level_property(src, i, &value);
        if (has_orient && strcmp(key, "orient") == 0)
            value = orient_name(o);
        st = qg_level_add_property(dst, key, value);
    }
    int sx, sy;
    if (qg_level_player_start(src, &sx, &sy)) {
        xform_inverse(t, sx, sy, &x, &y);
        qg_level_set_player_start(dst, x, y);
    }
    if (st == QG_OK && qg_level_name(src))
        st = qg_level_set_name(dst, qg_level_name(src));
    return st;
}

qg_level *qg_level_transformed(const qg_level *level, unsigned transform)
{
    if ((transform & QG_XFORM_ROTATE_CW) && (transform & QG_XFORM_ROTATE_CCW))
        return NULL;
    int minivault;
    orient o = OR_FLOAT;
    int has_orient = orient_parse(qg_level_get_property(level, "orient"), &o,
                                  &minivault);
    xform t;
    xform_identity(&t, qg_level_width(level), qg_level_height(level));
    for (int i = 0; i < 4; i++)
        if (transform & op_order[i]) {
            xform_apply(&t, op_order[i]);
            o = orient_after(o, op_order[i]);
        }
    qg_level *dst = qg_level_new(t.w, t.h);
    if (!dst)
        return NULL;
    qg_status st = QG_OK;
    qg_cell cell;
    for (int y = 0; y < t.h && st == QG_OK; y++)
        for (int x = 0; x < t.w && st == QG_OK; x++) {
            int src = xform_src(&t, x, y, qg_level_width(level));
            if (!qg_level_in_map(level)[src])
                continue;
            qg_level_cell(level, src % qg_level_width(level),
                          src / qg_level_width(level), &cell);
            st = qg_level_copy_cell(dst, x, y, &cell);
        }
    if (st == QG_OK)
        st = copy_extras(dst, level, &t, o, has_orient && !minivault);
    if (st != QG_OK) {
        qg_level_free(dst);
        return NULL;
    }
    return dst;
}

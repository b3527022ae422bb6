/* Turning a level by one of the eight transforms FrogComposband's
 * rooms.c numbers (transform_alloc): t & 3 quarter turns clockwise, then
 * a mirror left to right when t & 4, the result moved back to the origin. */
#include "core/level.h"

qg_status qg_level_copy_cell(qg_level *level, int x, int y, const qg_cell *c)
{
    qg_status st = qg_level_set_glyph(level, x, y, c->glyph);
    if (st == QG_OK)
        st = qg_level_set_feature(level, x, y, c->feature, c->feature_name);
    if (st == QG_OK)
        st = qg_level_set_cave_info(level, x, y, c->cave_info);
    if (st == QG_OK)
        st = qg_level_set_vault_mask(level, x, y, c->vault_mask);
    if (st == QG_OK)
        st = qg_level_set_special(level, x, y, c->special, c->mimic, c->mflag);
    if (st == QG_OK)
        st = qg_level_set_feature_chance(level, x, y, c->feature_chance);
    for (int s = 0; s < QG_SLOTS && st == QG_OK; s++)
        if (c->things[s].kind != QG_THING_NONE)
            st = qg_level_put_thing(level, x, y, (qg_slot)s, &c->things[s]);
    return st;
}

/* Where transform t takes (x, y) before the move to the origin. */
static void turn_point(int t, int x, int y, int *tx, int *ty)
{
    for (int i = 0; i < (t & 3); i++) {
        int keep = x;
        x = -y;
        y = keep;
    }
    if (t & 4)
        x = -x;
    *tx = x;
    *ty = y;
}

typedef struct turn {
    int t, dx, dy;
} turn;

static void turn_init(turn *tr, int t, int w, int h)
{
    int cx, cy;
    turn_point(t, w - 1, h - 1, &cx, &cy);
    tr->t = t;
    tr->dx = cx < 0 ? -cx : 0;
    tr->dy = cy < 0 ? -cy : 0;
}

static void turn_apply(const turn *tr, int x, int y, int *tx, int *ty)
{
    turn_point(tr->t, x, y, tx, ty);
    *tx += tr->dx;
    *ty += tr->dy;
}

static qg_status copy_extras(qg_level *dst, const qg_level *src, const turn *tr)
{
    qg_status st = QG_OK;
    int x, y, tx, ty;
    for (size_t i = 0; i < qg_level_marker_count(src) && st == QG_OK; i++) {
        const char *spec = qg_level_marker(src, i, &x, &y);
        turn_apply(tr, x, y, &tx, &ty);
        st = qg_level_add_marker(dst, tx, ty, spec);
    }
    for (size_t i = 0; i < qg_level_property_count(src) && st == QG_OK; i++) {
        const char *value;
        const char *key = qg_level_property(src, i, &value);
        st = qg_level_add_property(dst, key, value);
    }
    if (qg_level_player_start(src, &x, &y)) {
        turn_apply(tr, x, y, &tx, &ty);
        qg_level_set_player_start(dst, tx, ty);
    }
    if (st == QG_OK && qg_level_name(src))
        st = qg_level_set_name(dst, qg_level_name(src));
    qg_level_set_turns(dst, qg_level_turns(src, NULL), tr->t);
    return st;
}

qg_level *qg_level_turned(const qg_level *level, int t)
{
    if (t < 0 || t > 7)
        return NULL;
    int w = qg_level_width(level), h = qg_level_height(level);
    turn tr;
    turn_init(&tr, t, w, h);
    qg_level *dst = (t & 1) ? qg_level_new(h, w) : qg_level_new(w, h);
    if (!dst)
        return NULL;
    qg_status st = QG_OK;
    qg_cell cell;
    const unsigned char *in_map = qg_level_in_map(level);
    for (int y = 0; y < h && st == QG_OK; y++)
        for (int x = 0; x < w && st == QG_OK; x++) {
            if (!in_map[(size_t)y * (size_t)w + (size_t)x])
                continue;
            int tx, ty;
            qg_level_cell(level, x, y, &cell);
            turn_apply(&tr, x, y, &tx, &ty);
            st = qg_level_copy_cell(dst, tx, ty, &cell);
        }
    if (st == QG_OK)
        st = copy_extras(dst, level, &tr);
    if (st != QG_OK) {
        qg_level_free(dst);
        return NULL;
    }
    return dst;
}

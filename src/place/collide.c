/* Crawl's collision rules (_map_safe_vault_place) and the minivault
 * connectivity rule (_connected_minivault_place), over the game's cave. */
#include "place/internal.h"

static int near_vault(const qg_cave *cave, int hx, int hy)
{
    for (int y = hy - 1; y <= hy + 1; y++) {
        if (y < 0 || y >= cave->height)
            continue;
        for (int x = hx - 1; x <= hx + 1; x++)
            if (x >= 0 && x < cave->width &&
                (cave_mask(cave, y * cave->width + x) & QG_MASK_VAULT))
                return 1;
    }
    return 0;
}

/* Deep water needs water_ok; other see-through features (lava, stairs,
 * statues, altars, …) are never overwritten; walls, trees, floor,
 * shallow water and doors are. */
static int may_overwrite(uint32_t cls, int water_ok)
{
    if (cls & QG_FEAT_PROTECTED)
        return 0;
    if (cls & QG_FEAT_DEEP_WATER)
        return water_ok;
    if (cls & QG_FEAT_OPAQUE)
        return 1;
    return (cls & (QG_FEAT_FLOOR | QG_FEAT_SHALLOW | QG_FEAT_DOOR)) != 0;
}

static int cell_safe(const vault_job *job, int hx, int hy)
{
    const qg_cave *cave = job->cave;
    if (hx < 0 || hy < 0 || hx >= cave->width || hy >= cave->height)
        return 0;
    int at = hy * cave->width + hx;
    uint32_t cls = cave_class(cave, at);
    if (job->tags & TAG_OVERWRITE_FLOOR_CELL) {
        if ((cave_mask(cave, at) & QG_MASK_VAULT) || !(cls & QG_FEAT_FLOOR))
            return 0;
    } else if (near_vault(cave, hx, hy)) {
        return 0;
    }
    if (!may_overwrite(cls, (job->tags & TAG_WATER_OK) != 0))
        return 0;
    return !cave->occupied || !cave->occupied(cave->user, hx, hy);
}

int place_safe(const vault_job *job, int px, int py)
{
    const vmap *m = job->map;
    for (size_t i = 0; i < m->count; i++) {
        int at = m->cells[i];
        if (!cell_safe(job, px + at % m->w, py + at / m->w))
            return 0;
    }
    return 1;
}

int place_connected_minivault(const vault_job *job, int px, int py)
{
    const vmap *m = job->map;
    const qg_cave *cave = job->cave;
    int water_ok = (job->tags & TAG_WATER_OK) != 0;
    for (size_t i = 0; i < m->count; i++) {
        int hx = px + m->cells[i] % m->w, hy = py + m->cells[i] / m->w;
        if (hx < 0 || hy < 0 || hx >= cave->width || hy >= cave->height)
            continue;
        uint32_t cls = cave_class(cave, hy * cave->width + hx);
        if (!(cls & QG_FEAT_WALL) && may_overwrite(cls, water_ok))
            return 1;
    }
    return 0;
}

int cave_usable(const qg_cave *c)
{
    const qg_cave_access *a = c->access;
    return c->width > 0 && c->height > 0 && c->classify &&
           (c->feature || (a && a->get_feature && a->set_feature)) &&
           (c->vault_mask || (a && a->get_mask && a->set_mask));
}

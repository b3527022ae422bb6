/* Where a vault goes (_apply_vault_grid): flush to an edge for the edge
 * orients, centred for centre and encompass, searched for floats and
 * minivaults with Crawl's margins and number of tries. */
#include "place/internal.h"

enum {
    MINIVAULT_TRIES = 600,
    MINIVAULT_MARGIN = 4,   /* MAPGEN_BORDER * 2 */
    MINIVAULT_FIT = 2,      /* MAPGEN_BORDER */
    DOCK_BORDER = 6,
    FLOAT_BORDER = 13       /* MAPGEN_BORDER + 11 */
};

/* _fit_region_into_map_bounds */
static void fit_region(const qg_cave *cave, int w, int h, int margin, int *x, int *y)
{
    int x1 = margin, x2 = cave->width - 1 - margin;
    int y1 = margin, y2 = cave->height - 1 - margin;
    if (*x < x1) *x = x1;
    if (*y < y1) *y = y1;
    if (*x + w - 1 > x2) *x = x2 - w + 1;
    if (*y + h - 1 > y2) *y = y2 - h + 1;
}

static int fits(const vault_job *job, int x, int y)
{
    return x >= 0 && y >= 0 && x + job->map->w <= job->cave->width &&
           y + job->map->h <= job->cave->height;
}

static int acceptable(const vault_job *job, int x, int y)
{
    if (!fits(job, x, y))
        return 0;
    if (job->options->ignore_collisions || (job->tags & TAG_OVERWRITABLE))
        return 1;
    return place_safe(job, x, y);
}

static void edge_position(const vault_job *job, int *x, int *y)
{
    int W = job->cave->width, H = job->cave->height;
    int w = job->map->w, h = job->map->h;
    orient o = job->orient;
    *x = 0;
    *y = 0;
    if (o == OR_SOUTH || o == OR_SOUTHEAST || o == OR_SOUTHWEST)
        *y = H - h;
    if (o == OR_EAST || o == OR_NORTHEAST || o == OR_SOUTHEAST)
        *x = W - w;
    if ((o == OR_NORTH || o == OR_SOUTH || o == OR_ENCOMPASS || o == OR_CENTRE) && w < W)
        *x = (W - w) / 2;
    if ((o == OR_EAST || o == OR_WEST || o == OR_ENCOMPASS || o == OR_CENTRE) && h < H)
        *y = (H - h) / 2;
}

static int minivault_position(const vault_job *job, int *x, int *y)
{
    int W = job->cave->width, H = job->cave->height;
    for (int tries = 0; tries < MINIVAULT_TRIES; tries++) {
        int vx = qg_rng_range(job->rng, MINIVAULT_MARGIN, W - MINIVAULT_MARGIN - job->map->w);
        int vy = qg_rng_range(job->rng, MINIVAULT_MARGIN, H - MINIVAULT_MARGIN - job->map->h);
        fit_region(job->cave, job->map->w, job->map->h, MINIVAULT_FIT, &vx, &vy);
        if (fits(job, vx, vy) && place_connected_minivault(job, vx, vy) &&
            acceptable(job, vx, vy)) {
            *x = vx;
            *y = vy;
            return 1;
        }
    }
    return 0;
}

/* A side whose outermost row or column is all solid wall or tree. */
static int solid_side(const vmap *m, int side)
{
    int horizontal = side < 2;
    int n = horizontal ? m->w : m->h;
    for (int i = 0; i < n; i++) {
        int x = horizontal ? i : (side == 2 ? m->w - 1 : 0);
        int y = horizontal ? (side == 0 ? 0 : m->h - 1) : i;
        unsigned char g = vmap_glyph(m, x, y);
        if (!m->part[y * m->w + x] || (g != 'x' && g != 'c' && g != 'b' &&
                                       g != 'v' && g != 't' && g != 'X'))
            return 0;
    }
    return 1;
}

/* map_def::float_dock: picks uniformly among the sides (and corners) that
 * are solid and allowed, then puts the map 6 cells from that edge. */
static int dock_position(const vault_job *job, int *x, int *y)
{
    static const orient order[8] = {OR_NORTH, OR_SOUTH, OR_EAST, OR_WEST,
                                    OR_NORTHEAST, OR_SOUTHEAST, OR_NORTHWEST,
                                    OR_SOUTHWEST};
    const vmap *m = job->map;
    int W = job->cave->width, H = job->cave->height;
    int solid[4] = {solid_side(m, 0), solid_side(m, 1), solid_side(m, 2), solid_side(m, 3)};
    int ok[8] = {solid[0] && m->w > W * 2 / 3, solid[1] && m->w > W * 2 / 3,
                 solid[2] && m->h > H * 2 / 3, solid[3] && m->h > H * 2 / 3,
                 solid[0] && solid[2], solid[1] && solid[2],
                 solid[0] && solid[3], solid[1] && solid[3]};
    int chosen = -1, seen = 0;
    for (int i = 0; i < 8; i++)
        if (ok[i] && qg_rng_one_chance_in(job->rng, ++seen))
            chosen = i;
    if (chosen < 0)
        return 0;
    orient o = order[chosen];
    int left = DOCK_BORDER, right = W - DOCK_BORDER - m->w;
    int top = DOCK_BORDER, bottom = H - DOCK_BORDER - m->h;
    *x = (W - m->w) / 2;
    *y = (H - m->h) / 2;
    if (o == OR_NORTH || o == OR_NORTHEAST || o == OR_NORTHWEST) *y = top;
    if (o == OR_SOUTH || o == OR_SOUTHEAST || o == OR_SOUTHWEST) *y = bottom;
    if (o == OR_WEST || o == OR_NORTHWEST || o == OR_SOUTHWEST) *x = left;
    if (o == OR_EAST || o == OR_NORTHEAST || o == OR_SOUTHEAST) *x = right;
    return 1;
}

static void random_float_position(const vault_job *job, int *x, int *y)
{
    int W = job->cave->width, H = job->cave->height;
    int w = job->map->w, h = job->map->h;
    int hb = FLOAT_BORDER, vb = FLOAT_BORDER;
    if (W - 2 * hb < w)
        hb = (W - w) / 2 - 1;
    if (H - 2 * vb < h)
        vb = (H - h) / 2 - 1;
    *x = qg_rng_range(job->rng, hb, W - hb - w);
    *y = qg_rng_range(job->rng, vb, H - vb - h);
}

int place_find_position(const vault_job *job, int *px, int *py)
{
    int x, y;
    if (job->orient != OR_FLOAT) {
        edge_position(job, &x, &y);
    } else if (job->options->has_position) {
        x = job->options->x - job->map->w / 2;
        y = job->options->y - job->map->h / 2;
        fit_region(job->cave, job->map->w, job->map->h,
                   job->minivault ? MINIVAULT_FIT : 0, &x, &y);
    } else if (job->minivault) {
        if (!minivault_position(job, &x, &y))
            return 0;
    } else if (!qg_rng_coinflip(job->rng) || !dock_position(job, &x, &y)) {
        random_float_position(job, &x, &y);
    }
    if (!acceptable(job, x, y))
        return 0;
    *px = x;
    *py = y;
    return 1;
}

/* make_irregular_box{x1, y1, x2, y2, floor, wall, door, door_count, div_x,
 * div_y, in_x, in_y}: a room whose walls are split into up to div_x (top
 * and bottom) and div_y (sides) stretches, each set back from the box
 * edge by less than in_x / in_y, as Crawl's dgn-irregular-box.cc draws
 * it: corners first, then divisions, set-backs, walls joining them, doors
 * on wall cells that are not corners, and a retry while the outline
 * crosses itself. A box too small for that gets a plain one. */
#include "lua/builder.h"

enum { MIN_SEPARATION = 2, MIN_SIZE = MIN_SEPARATION * 2 + 1 };
enum { UNSET = 0, OUTSIDE = 1 };

typedef struct ints {
    int *v;
    int n;
} ints;

typedef struct drawing {
    lua_State *L;
    qg_rng *rng;
    char *g;           /* size_x * size_y, column-major as Crawl's */
    int w, h;
    int *cells;        /* wall cells doors may go in: x, y pairs */
    int cell_count, cell_cap;
    char nowhere;      /* where a cell off the grid is read and written */
} drawing;

static char *at(drawing *d, int x, int y)
{
    if (x < 0 || y < 0 || x >= d->w || y >= d->h)
        return &d->nowhere;
    return &d->g[x * d->h + y];
}

static void put_wall(drawing *d, int x, int y, char wall, int door_spot)
{
    *at(d, x, y) = wall;
    if (door_spot && x >= 0 && y >= 0 && x < d->w && y < d->h &&
        d->cell_count < d->cell_cap) {
        d->cells[2 * d->cell_count] = x;
        d->cells[2 * d->cell_count + 1] = y;
        d->cell_count++;
    }
}

static void plain_box(lrt_map *map, qg_rng *rng, const lrt_box *b, char floor, char wall,
                      char door, int door_count, int *cells)
{
    int n = 0;
    for (int x = b->x1 + 1; x < b->x2; x++)
        for (int y = b->y1 + 1; y < b->y2; y++)
            lrt_set_cell(map, x, y, floor);
    for (int x = b->x1; x <= b->x2; x++) {
        lrt_set_cell(map, x, b->y1, wall);
        lrt_set_cell(map, x, b->y2, wall);
        cells[n++] = x, cells[n++] = b->y1;
        cells[n++] = x, cells[n++] = b->y2;
    }
    for (int y = b->y1 + 1; y < b->y2; y++) {
        lrt_set_cell(map, b->x1, y, wall);
        lrt_set_cell(map, b->x2, y, wall);
        cells[n++] = b->x1, cells[n++] = y;
        cells[n++] = b->x2, cells[n++] = y;
    }
    n /= 2;
    for (int i = 0; i < door_count && n > 0; i++) {
        int k = qg_rng_below(rng, n);
        lrt_set_cell(map, cells[2 * k], cells[2 * k + 1], door);
        cells[2 * k] = cells[2 * (n - 1)];
        cells[2 * k + 1] = cells[2 * (n - 1) + 1];
        n--;
    }
}

static void force_sum_below(qg_rng *rng, int *a, int *b, int sum)
{
    if (sum <= 0)
        return;
    while (*a + *b >= sum) {
        if (qg_rng_below(rng, 2) == 0)
            *a = qg_rng_below(rng, *a);
        else
            *b = qg_rng_below(rng, *b);
    }
}

/* Sorted values from lo to hi with up to count more between them, each
 * MIN_SEPARATION from the others. */
static ints divisions(drawing *d, int lo, int hi, int count)
{
    ints r = {lrt_scratch(d->L, (size_t)count + 2, sizeof(int)), 2};
    r.v[0] = lo;
    r.v[1] = hi;
    for (int i = 0; i < count; i++) {
        lrt_charge(d->L, (size_t)r.n);
        int chosen = qg_rng_range(d->rng, lo, hi);
        for (int j = 0; j < r.n; j++) {
            if (chosen >= r.v[j] + MIN_SEPARATION)
                continue;
            if (chosen > r.v[j] - MIN_SEPARATION)
                break;
            for (int k = r.n; k > j; k--)
                r.v[k] = r.v[k - 1];
            r.v[j] = chosen;
            r.n++;
            break;
        }
    }
    return r;
}

/* count set-backs: first and last given, the rest random below most, one
 * of them (at random) made 0. */
static ints setbacks(drawing *d, int first, int last, int most, int count)
{
    if (count < 1)
        count = 1;
    ints r = {lrt_scratch(d->L, (size_t)count, sizeof(int)), count};
    r.v[0] = first;
    for (int i = 1; i < count; i++)
        r.v[i] = qg_rng_below(d->rng, most);
    r.v[count - 1] = last;
    r.v[qg_rng_below(d->rng, count)] = 0;
    return r;
}

/* One side: along the side (horizontal for the top and bottom), the
 * stretches between divisions at their set-backs, joined at each
 * division; far sides count from the far edge. */
static void draw_side(drawing *d, const ints *div, const ints *in, int horizontal, int far,
                      char wall)
{
    int extent = horizontal ? d->h : d->w;
    for (int i = 0; i < in->n; i++) {
        int depth = far ? extent - 1 - in->v[i] : in->v[i];
        if (i > 0) {
            int prev = far ? extent - 1 - in->v[i - 1] : in->v[i - 1];
            int lo = depth < prev ? depth : prev, hi = depth < prev ? prev : depth;
            for (int k = lo + 1; k < hi; k++)
                put_wall(d, horizontal ? div->v[i] : k, horizontal ? k : div->v[i], wall, 1);
        }
        int a = div->v[i], b = i + 1 < div->n ? div->v[i + 1] : a;
        put_wall(d, horizontal ? a : depth, horizontal ? depth : a, wall, 0);
        put_wall(d, horizontal ? b : depth, horizontal ? depth : b, wall, 0);
        for (int k = a + 1; k < b; k++)
            put_wall(d, horizontal ? k : depth, horizontal ? depth : k, wall, 1);
    }
}

static void flood(drawing *d, int sx, int sy, char from, char to, int *stack)
{
    if (*at(d, sx, sy) != from || from == to)
        return;
    int top = 0;
    *at(d, sx, sy) = to;
    stack[top++] = sx, stack[top++] = sy;
    while (top) {
        int y = stack[--top], x = stack[--top];
        static const int steps[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (int s = 0; s < 4; s++) {
            int nx = x + steps[s][0], ny = y + steps[s][1];
            if (nx < 0 || ny < 0 || nx >= d->w || ny >= d->h || *at(d, nx, ny) != from)
                continue;
            *at(d, nx, ny) = to;
            stack[top++] = nx, stack[top++] = ny;
        }
    }
}

/* Each edge cell inwards in a straight line, while unset, becomes
 * outside. */
static void fill_outside(drawing *d)
{
    for (int x = 0; x < d->w; x++) {
        for (int y = 0; y < d->h && (*at(d, x, y) == UNSET || *at(d, x, y) == OUTSIDE); y++)
            *at(d, x, y) = OUTSIDE;
        for (int y = d->h - 1; y >= 0 && (*at(d, x, y) == UNSET || *at(d, x, y) == OUTSIDE); y--)
            *at(d, x, y) = OUTSIDE;
    }
    for (int y = 0; y < d->h; y++) {
        for (int x = 0; x < d->w && (*at(d, x, y) == UNSET || *at(d, x, y) == OUTSIDE); x++)
            *at(d, x, y) = OUTSIDE;
        for (int x = d->w - 1; x >= 0 && (*at(d, x, y) == UNSET || *at(d, x, y) == OUTSIDE); x--)
            *at(d, x, y) = OUTSIDE;
    }
}

/* One attempt at the outline; 1 when no cell is left unset. */
static int try_outline(drawing *d, int div_x, int div_y, int in_x, int in_y, char floor,
                       char wall, char door, int door_count, int *stack)
{
    qg_rng *rng = d->rng;
    for (int i = 0; i < d->w * d->h; i++)
        d->g[i] = UNSET;
    d->cell_count = 0;
    int tl_x = qg_rng_below(rng, in_x), tl_y = qg_rng_below(rng, in_y);
    int tr_x = qg_rng_below(rng, in_x), tr_y = qg_rng_below(rng, in_y);
    int bl_x = qg_rng_below(rng, in_x), bl_y = qg_rng_below(rng, in_y);
    int br_x = qg_rng_below(rng, in_x), br_y = qg_rng_below(rng, in_y);
    force_sum_below(rng, &tl_x, &tr_x, d->w - MIN_SIZE);
    force_sum_below(rng, &bl_x, &br_x, d->w - MIN_SIZE);
    force_sum_below(rng, &tl_y, &bl_y, d->h - MIN_SIZE);
    force_sum_below(rng, &tr_y, &br_y, d->h - MIN_SIZE);
    ints di_t = divisions(d, tl_x, d->w - 1 - tr_x, div_x);
    ints di_b = divisions(d, bl_x, d->w - 1 - br_x, div_x);
    ints di_l = divisions(d, tl_y, d->h - 1 - bl_y, div_y);
    ints di_r = divisions(d, tr_y, d->h - 1 - br_y, div_y);
    ints in_t = setbacks(d, tl_y, tr_y, in_y, di_t.n - 1);
    ints in_b = setbacks(d, bl_y, br_y, in_y, di_b.n - 1);
    ints in_l = setbacks(d, tl_x, bl_x, in_x, di_l.n - 1);
    ints in_r = setbacks(d, tr_x, br_x, in_x, di_r.n - 1);
    /* the corners again, in case a set-back of 0 moved one */
    di_t.v[0] = in_l.v[0];
    di_t.v[di_t.n - 1] = d->w - 1 - in_r.v[0];
    di_b.v[0] = in_l.v[in_l.n - 1];
    di_b.v[di_b.n - 1] = d->w - 1 - in_r.v[in_r.n - 1];
    di_l.v[0] = in_t.v[0];
    di_l.v[di_l.n - 1] = d->h - 1 - in_b.v[0];
    di_r.v[0] = in_t.v[in_t.n - 1];
    di_r.v[di_r.n - 1] = d->h - 1 - in_b.v[in_b.n - 1];
    draw_side(d, &di_t, &in_t, 1, 0, wall);
    draw_side(d, &di_b, &in_b, 1, 1, wall);
    draw_side(d, &di_l, &in_l, 0, 0, wall);
    draw_side(d, &di_r, &in_r, 0, 1, wall);
    for (int i = 0; i < door_count && d->cell_count > 0; i++) {
        int k = qg_rng_below(rng, d->cell_count);
        *at(d, d->cells[2 * k], d->cells[2 * k + 1]) = door;
        d->cells[2 * k] = d->cells[2 * (d->cell_count - 1)];
        d->cells[2 * k + 1] = d->cells[2 * (d->cell_count - 1) + 1];
        d->cell_count--;
    }
    flood(d, in_l.v[0] + 1, in_t.v[0] + 1, UNSET, floor, stack);
    fill_outside(d);
    for (int i = 0; i < d->w * d->h; i++)
        if (d->g[i] == UNSET)
            return 0;
    return 1;
}

int lrt_l_make_irregular_box(lua_State *L)
{
    lrt_map *map = lrt_builder_args(L);
    lrt_box b;
    if (!lrt_arg_box(L, map, &b, 0))
        return 0;
    char floor = lrt_arg_char(L, "floor", '.'), wall = lrt_arg_char(L, "wall", 'x');
    char door = lrt_arg_char(L, "door", '+');
    int door_count = lrt_arg_int(L, "door_count", 1);
    int div_x = lrt_arg_int(L, "div_x", 1), div_y = lrt_arg_int(L, "div_y", 1);
    int in_x = lrt_arg_int(L, "in_x", 10000), in_y = lrt_arg_int(L, "in_y", 10000);
    if (map->width <= 0 || map->height <= 0)
        return 0;
    if (b.x1 < 0)
        b.x1 = 0;
    if (b.x2 >= map->width)
        b.x2 = map->width - 1;
    if (b.y1 < 0)
        b.y1 = 0;
    if (b.y2 >= map->height)
        b.y2 = map->height - 1;
    div_x = div_x < 0 ? 0 : div_x > LRT_MAX_WIDTH ? LRT_MAX_WIDTH : div_x;
    div_y = div_y < 0 ? 0 : div_y > LRT_MAX_HEIGHT ? LRT_MAX_HEIGHT : div_y;
    door_count = door_count < 0 ? 0 : door_count;
    int w = b.x2 - b.x1 + 1, h = b.y2 - b.y1 + 1;
    if (w < 1 || h < 1)
        return 0;
    in_x = in_x < 0 ? 0 : in_x > (w - 1) / 2 - 1 ? (w - 1) / 2 - 1 : in_x;
    in_y = in_y < 0 ? 0 : in_y > (h - 1) / 2 - 1 ? (h - 1) / 2 - 1 : in_y;
    qg_rng *rng = &lrt_runtime(L)->rng;
    /* stretches run along each side; the joins between them, at most a
     * quarter of the box per side */
    int cell_cap = w * h + 2 * (w + h) + 8;
    int *cells = lrt_scratch(L, (size_t)cell_cap * 2, sizeof *cells);
    if (w < MIN_SIZE || h < MIN_SIZE) {
        plain_box(map, rng, &b, floor, wall, door, door_count, cells);
        return 0;
    }
    drawing d = {L, rng, lrt_scratch(L, (size_t)w * h, 1), w, h, cells, 0, cell_cap, 0};
    int *stack = lrt_scratch(L, (size_t)w * h * 2, sizeof *stack);
    int top = lua_gettop(L);
    do {
        lua_settop(L, top);   /* the last attempt's lists */
        lrt_charge(L, (size_t)w * h);
    } while (!try_outline(&d, div_x, div_y, in_x, in_y, floor, wall, door, door_count, stack));
    for (int x = 0; x < w; x++)
        for (int y = 0; y < h; y++)
            if (*at(&d, x, y) != OUTSIDE)
                lrt_set_cell(map, b.x1 + x, b.y1 + y, *at(&d, x, y));
    return 0;
}

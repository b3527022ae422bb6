/* Crawl's dgn-layouts.cc: the "basic" rooms-and-corridors level, the
 * bigger room and the chaotic city, with the rooms, pools, rivers and
 * lakes they share. */
#include "lua/layout.h"

#include <stdint.h>
#include <string.h>

/* A rectangle given as Crawl's dgn_region(x, y, width, height): its last
 * cell is pos + size - 1. */
typedef struct region {
    int x, y, w, h;
} region;

static int is_wall(lrt_layout *lay, int x, int y)
{
    return lay->cls.wall[*lrt_at(lay, x, y)];
}

static int is_solid(lrt_layout *lay, int x, int y)
{
    return lay->cls.solid[*lrt_at(lay, x, y)];
}

/* No lava in the Crypt or the Tomb (nor, for rooms, Cocytus). */
static unsigned char no_crypt_lava(lrt_layout *lay, unsigned char feature, int cocytus)
{
    int cold = lrt_layout_in_branch(lay, "Crypt") || lrt_layout_in_branch(lay, "Tomb") ||
               (cocytus && lrt_layout_in_branch(lay, "Coc"));
    return feature == G_LAVA && cold ? G_SHALLOW : feature;
}

/* ---- rooms ------------------------------------------------------------------ */

/* _octa_room: the region with its corners cut at 45 degrees (oblique_max
 * cells deep), its walls made type. */
static void octa_room(lrt_layout *lay, region r, int oblique_max, unsigned char type)
{
    type = no_crypt_lava(lay, type, 1);
    int x2 = r.x + r.w - 1, y2 = r.y + r.h - 1, oblique = oblique_max;
    for (int x = r.x; x < x2; x++) {
        for (int y = r.y + oblique; y < y2 - oblique; y++) {
            if (x < 0 || y < 0 || x >= GXM || y >= GYM)
                continue;
            unsigned char *g = lrt_at(lay, x, y);
            if (lay->cls.wall[*g])
                *g = type;
            if (*g == G_FLOOR && type == G_SHALLOW)
                *g = G_SHALLOW;
            if (*g == G_DOOR && !lay->cls.solid[type])
                *g = G_FLOOR;
        }
        if (x > x2 - oblique_max)
            oblique += 2;
        if (oblique > 0)
            oblique--;
    }
}

/* _random_wall: metal, crystal, rock or stone (Crawl draws over the wall
 * features from metal to stone and draws again on slime). */
static unsigned char random_wall(lrt_layout *lay)
{
    static const unsigned char walls[5] = {G_METAL, G_CRYSTAL, G_ROCK, 0, G_STONE};
    int w;
    do
        w = qg_rng_range(lay->rng, 0, 4);
    while (!walls[w]);
    return walls[w];
}

/* _box_room_door_spot: 2 when a door beside this wall cell, set in rock,
 * forces a door here (made), 1 when a door fits (wall on two opposite
 * sides, open ground on the others), else 0. */
static int box_door_spot(lrt_layout *lay, int x, int y)
{
    if ((*lrt_at(lay, x - 1, y) == G_DOOR && is_wall(lay, x - 1, y - 1) &&
         is_wall(lay, x - 1, y + 1)) ||
        (*lrt_at(lay, x + 1, y) == G_DOOR && is_wall(lay, x + 1, y - 1) &&
         is_wall(lay, x + 1, y + 1)) ||
        (*lrt_at(lay, x, y - 1) == G_DOOR && is_wall(lay, x - 1, y - 1) &&
         is_wall(lay, x + 1, y - 1)) ||
        (*lrt_at(lay, x, y + 1) == G_DOOR && is_wall(lay, x - 1, y + 1) &&
         is_wall(lay, x + 1, y + 1))) {
        *lrt_at(lay, x, y) = G_DOOR;
        return 2;
    }
    int n = is_wall(lay, x, y - 1), s = is_wall(lay, x, y + 1);
    int e = is_wall(lay, x - 1, y), w = is_wall(lay, x + 1, y);
    return n == s && e == w && n != e;
}

/* _box_room_doors: with new_doors 0, the doors the box had to take;
 * otherwise up to new_doors doors on random good spots of its sides. */
static int box_doors(lrt_layout *lay, int bx1, int bx2, int by1, int by2, int new_doors)
{
    int good[200];
    lrt_pos where[200];
    int placed = new_doors, count = 0;
    if (2 * (bx2 - bx1 + by2 - by1) > 200)
        return 0;
    for (int i = bx1 + 1; i < bx2; i++) {
        where[count] = (lrt_pos){i, by1};
        good[count++] = box_door_spot(lay, i, by1);
        where[count] = (lrt_pos){i, by2};
        good[count++] = box_door_spot(lay, i, by2);
    }
    for (int i = by1 + 1; i < by2; i++) {
        where[count] = (lrt_pos){bx1, i};
        good[count++] = box_door_spot(lay, bx1, i);
        where[count] = (lrt_pos){bx2, i};
        good[count++] = box_door_spot(lay, bx2, i);
    }
    if (!new_doors) {
        for (int i = 0; i < count; i++)
            placed += good[i] == 2;
        return placed;
    }
    int spots = 0;
    for (int i = 0; i < count; i++)
        spots += good[i] == 1;
    if (new_doors > spots)
        new_doors = spots;
    while (new_doors > 0 && count > 0) {
        lrt_charge(lay->L, 1);
        int spot = qg_rng_below(lay->rng, count);
        if (good[spot] != 1)
            continue;
        *lrt_at(lay, where[spot].x, where[spot].y) = G_DOOR;
        good[spot] = 2;
        new_doors--;
    }
    return placed;
}

/* _box_room: the box's floor edge made wall, with one to three doors. */
static void box_room(lrt_layout *lay, int bx1, int bx2, int by1, int by2, unsigned char wall)
{
    static const int door_counts[3][2] = {{54, 2}, {23, 1}, {23, 3}};
    wall = no_crypt_lava(lay, wall, 0);
    lrt_replace_area(lay, bx1, by1, bx2, by1, G_FLOOR, wall);
    lrt_replace_area(lay, bx1, by2, bx2, by2, G_FLOOR, wall);
    lrt_replace_area(lay, bx1, by1 + 1, bx1, by2 - 1, G_FLOOR, wall);
    lrt_replace_area(lay, bx2, by1 + 1, bx2, by2 - 1, G_FLOOR, wall);
    int placed = box_doors(lay, bx1, bx2, by1, by2, 0);
    int doors = lrt_choose_weighted(lay->rng, door_counts, 3);
    if ((bx2 - bx1) * (by2 - by1) < 36 && doors > 1)
        doors--;
    doors -= placed;
    if (doors > 0)
        box_doors(lay, bx1, bx2, by1, by2, doors);
}

static int good_door_spot(lrt_layout *lay, int x, int y)
{
    unsigned char g = *lrt_at(lay, x, y);
    return !lay->cls.solid[g] || g == G_DOOR;
}

/* _make_room: floor over the box, when its edge meets open ground in at
 * least one and at most max_doors places; doors where corridors run into
 * its sides, each with doorlevel chances in 10. */
static int make_room(lrt_layout *lay, int sx, int sy, int ex, int ey, int max_doors,
                     int doorlevel)
{
    int find = 0, diag = 0;
    for (int x = sx; x <= ex; x++)
        find += good_door_spot(lay, x, sy) + good_door_spot(lay, x, ey);
    for (int y = sy + 1; y < ey; y++)
        find += good_door_spot(lay, sx, y) + good_door_spot(lay, ex, y);
    diag = good_door_spot(lay, sx, sy) + good_door_spot(lay, ex, sy) +
           good_door_spot(lay, sx, ey) + good_door_spot(lay, ex, ey);
    if ((diag + find > 1 && max_doors == 1) || find == 0 || find > max_doors)
        return 0;
    for (int x = sx; x <= ex; x++)
        for (int y = sy; y <= ey; y++)
            if (lay->cls.to_floor[*lrt_at(lay, x, y)])
                *lrt_at(lay, x, y) = G_FLOOR;
    for (int y = sy + 1; y < ey; y++) {
        if (*lrt_at(lay, sx - 1, y) == G_FLOOR && is_solid(lay, sx - 1, y - 1) &&
            is_solid(lay, sx - 1, y + 1) && qg_rng_x_chance_in_y(lay->rng, doorlevel, 10))
            *lrt_at(lay, sx - 1, y) = G_DOOR;
        if (*lrt_at(lay, ex + 1, y) == G_FLOOR && is_solid(lay, ex + 1, y - 1) &&
            is_solid(lay, ex + 1, y + 1) && qg_rng_x_chance_in_y(lay->rng, doorlevel, 10))
            *lrt_at(lay, ex + 1, y) = G_DOOR;
    }
    for (int x = sx + 1; x < ex; x++) {
        if (*lrt_at(lay, x, sy - 1) == G_FLOOR && is_solid(lay, x - 1, sy - 1) &&
            is_solid(lay, x + 1, sy - 1) && qg_rng_x_chance_in_y(lay->rng, doorlevel, 10))
            *lrt_at(lay, x, sy - 1) = G_DOOR;
        if (*lrt_at(lay, x, ey + 1) == G_FLOOR && is_solid(lay, x - 1, ey + 1) &&
            is_solid(lay, x + 1, ey + 1) && qg_rng_x_chance_in_y(lay->rng, doorlevel, 10))
            *lrt_at(lay, x, ey + 1) = G_DOOR;
    }
    return 1;
}

/* _make_random_rooms: num rooms, a room that does not fit being tried
 * again (and given up after 30 misses). */
static void make_random_rooms(lrt_layout *lay, int num, int max_doors, int door_level,
                              int max_x, int max_y, int max_room_size)
{
    int time_run = 0;
    for (int i = 0; i < num; i++) {
        lrt_charge(lay->L, 64);
        int sx = 8 + qg_rng_below(lay->rng, max_x);
        int sy = 8 + qg_rng_below(lay->rng, max_y);
        int ex = sx + 2 + qg_rng_below(lay->rng, max_room_size);
        int ey = sy + 2 + qg_rng_below(lay->rng, max_room_size);
        if (!make_room(lay, sx, sy, ex, ey, max_doors, door_level)) {
            time_run++;
            i--;
        }
        if (time_run > 30) {
            time_run = 0;
            i++;
        }
    }
}

/* ---- water -------------------------------------------------------------------- */

/* _place_pool: a rounded pool of type over the floor of the box; its
 * edges are Crawl's bytes, which wrap below zero as Crawl's do. */
static void place_pool(lrt_layout *lay, unsigned char type, uint8_t x1, uint8_t y1,
                       uint8_t x2, uint8_t y2)
{
    type = no_crypt_lava(lay, type, 0);
    if (x1 >= x2 - 4 || y1 >= y2 - 4)
        return;
    uint8_t left = (uint8_t)(x1 + 2 + qg_rng_below(lay->rng, x2 - x1));
    uint8_t right = (uint8_t)(x2 - 2 - qg_rng_below(lay->rng, x2 - x1));
    for (int j = y1 + 1; j < y2 - 1; j++) {
        for (int i = x1 + 1; i < x2 - 1; i++)
            if (i >= left && i <= right && *lrt_at(lay, i, j) == G_FLOOR)
                *lrt_at(lay, i, j) = type;
        if (j - y1 < (y2 - y1) / 2 || qg_rng_one_chance_in(lay->rng, 4)) {
            if (left > x1 + 1)
                left = (uint8_t)(left - qg_rng_below(lay->rng, 3));
            if (right < x2 - 1)
                right = (uint8_t)(right + qg_rng_below(lay->rng, 3));
        }
        if (left < x2 - 1 && (j - y1 >= (y2 - y1) / 2 || left <= x1 + 2 ||
                              qg_rng_one_chance_in(lay->rng, 4)))
            left = (uint8_t)(left + qg_rng_below(lay->rng, 3));
        if (right > x1 + 1 && (j - y1 >= (y2 - y1) / 2 || right >= x2 - 2 ||
                               qg_rng_one_chance_in(lay->rng, 4)))
            right = (uint8_t)(right - qg_rng_below(lay->rng, 3));
    }
}

/* _many_pools: twenty-odd pools where a box of floor is free. */
static void many_pools(lrt_layout *lay, unsigned char type)
{
    if (lrt_layout_in_branch(lay, "Coc"))
        type = G_DEEP;
    else if (lrt_layout_in_branch(lay, "Geh"))
        type = G_LAVA;
    else if (lrt_layout_in_branch(lay, "Crypt"))
        return;
    int wanted = 20 + lrt_random2avg(lay->rng, 9, 2), pools = 0;
    for (int timeout = 0; pools < wanted && timeout < 30000; timeout++) {
        int i = qg_rng_range(lay->rng, 2, GXM - 2 - 21);
        int j = qg_rng_range(lay->rng, 2, GYM - 2 - 21);
        int k = i + 2 + lrt_roll_dice(lay->rng, 2, 9);
        int l = j + 2 + lrt_roll_dice(lay->rng, 2, 9);
        if ((k - i) * (l - j) - lrt_count_in_box(lay, i, j, k, l, G_FLOOR) == 0) {
            place_pool(lay, type, (uint8_t)i, (uint8_t)j, (uint8_t)k, (uint8_t)l);
            pools++;
        }
    }
}

/* _may_overwrite_pos: not stairs, shops or portals. */
static int may_overwrite(lrt_layout *lay, int x, int y)
{
    unsigned char g = *lrt_at(lay, x, y);
    const char *name = lrt_level_feature(lay->level, g);
    static const char *const kept[] = {"stairs", "hatch", "enter_", "exit_", "shop",
                                       "stone_arch", "portal", NULL};
    for (int i = 0; kept[i]; i++)
        if (strstr(name, kept[i]))
            return 0;
    return 1;
}

static int cold_branch(lrt_layout *lay)
{
    return lrt_layout_in_branch(lay, "Crypt") || lrt_layout_in_branch(lay, "Tomb");
}

/* _build_river: a winding band two to six cells wide across the level. */
static void build_river(lrt_layout *lay, unsigned char type)
{
    if (cold_branch(lay))
        return;
    int width = 3 + qg_rng_below(lay->rng, 4);
    int y = 10 - width + lrt_random2avg(lay->rng, GYM - 10, 3);
    for (int i = 5; i < GXM - 5; i++) {
        if (qg_rng_one_chance_in(lay->rng, 3))
            y++;
        if (qg_rng_one_chance_in(lay->rng, 3))
            y--;
        if (qg_rng_coinflip(lay->rng))
            width++;
        if (qg_rng_coinflip(lay->rng))
            width--;
        width = width < 2 ? 2 : width > 6 ? 6 : width;
        for (int j = y; j < y + width; j++)
            if (j >= 5 && j <= GYM - 5 && !qg_rng_one_chance_in(lay->rng, 200) &&
                may_overwrite(lay, i, j))
                *lrt_at(lay, i, j) = width == 2 && type == G_DEEP && qg_rng_coinflip(lay->rng)
                                         ? G_SHALLOW : type;
    }
}

/* _build_lake: a blob whose rows widen, then narrow. */
static void build_lake(lrt_layout *lay, unsigned char type)
{
    if (cold_branch(lay))
        return;
    int x1 = 5 + qg_rng_below(lay->rng, GXM - 30), y1 = 5 + qg_rng_below(lay->rng, GYM - 30);
    int x2 = x1 + 4 + qg_rng_below(lay->rng, 16), y2 = y1 + 8 + qg_rng_below(lay->rng, 12);
    int top = y1, bottom = y2;
    for (int j = top; j < bottom; j++) {
        if (qg_rng_coinflip(lay->rng))
            x1 += qg_rng_below(lay->rng, 3);
        if (qg_rng_coinflip(lay->rng))
            x1 -= qg_rng_below(lay->rng, 3);
        if (qg_rng_coinflip(lay->rng))
            x2 += qg_rng_below(lay->rng, 3);
        if (qg_rng_coinflip(lay->rng))
            x2 -= qg_rng_below(lay->rng, 3);
        if (j - top < (bottom - top) / 2) {
            x2 += qg_rng_below(lay->rng, 3);
            x1 -= qg_rng_below(lay->rng, 3);
        } else {
            x2 -= qg_rng_below(lay->rng, 3);
            x1 += qg_rng_below(lay->rng, 3);
        }
        for (int i = x1; i < x2; i++)
            if (j >= 5 && j <= GYM - 5 && i >= 5 && i <= GXM - 5 &&
                !qg_rng_one_chance_in(lay->rng, 200) && may_overwrite(lay, i, j))
                *lrt_at(lay, i, j) = type;
    }
}

/* ---- layout_basic ------------------------------------------------------------ */

static int trail_dir(qg_rng *rng, int pos, int bound, int margin)
{
    int dir = pos < margin ? 1 : pos > bound - margin ? -1 : 0;
    if (dir == 0 || qg_rng_x_chance_in_y(rng, 2, 5))
        dir = qg_rng_coinflip(rng) ? -1 : 1;
    return dir;
}

/* _make_trail: a corridor wandering from a random start in the box
 * (xs, ys) + [0, xr) x [0, yr); begin and end stay (0, 0) when it gives
 * up. */
static void make_trail(lrt_layout *lay, int xs, int xr, int ys, int yr, int corrlength,
                       int intersect_chance, int no_corr, lrt_pos *begin, lrt_pos *end)
{
    int finish = 0, length = 0, tries = 200, starts = 0;
    lrt_pos pos;
    do {
        if (++starts > GXM * GYM)
            return;
        pos.x = xs + qg_rng_below(lay->rng, xr);
        pos.y = ys + qg_rng_below(lay->rng, yr);
    } while (*lrt_at(lay, pos.x, pos.y) != G_ROCK && *lrt_at(lay, pos.x, pos.y) != G_FLOOR);
    *begin = pos;
    while (finish < no_corr) {
        if (!tries--)
            return;
        lrt_pos dir = {0, 0};
        if (qg_rng_coinflip(lay->rng))
            dir.x = trail_dir(lay->rng, pos.x, GXM, 15);
        else
            dir.y = trail_dir(lay->rng, pos.y, GYM, 15);
        if (dir.x == 0 && dir.y == 0)
            continue;
        if (dir.x == 0 || length == 0)
            length = qg_rng_below(lay->rng, corrlength) + 2;
        for (int bi = 0; bi < length; bi++) {
            if (pos.x < 1 + 4)
                dir = (lrt_pos){1, 0};
            if (pos.x > GXM - 2 - 4)
                dir = (lrt_pos){-1, 0};
            if (pos.y < 1 + 4)
                dir = (lrt_pos){0, 1};
            if (pos.y > GYM - 2 - 4)
                dir = (lrt_pos){0, -1};
            if (*lrt_at(lay, pos.x + 2 * dir.x, pos.y + 2 * dir.y) == G_FLOOR &&
                !qg_rng_one_chance_in(lay->rng, intersect_chance))
                break;
            pos.x += dir.x;
            pos.y += dir.y;
            if (*lrt_at(lay, pos.x, pos.y) == G_ROCK)
                *lrt_at(lay, pos.x, pos.y) = G_FLOOR;
        }
        if (finish == no_corr - 1 && *lrt_at(lay, pos.x, pos.y) != G_FLOOR)
            finish -= 2;
        finish++;
    }
    *end = pos;
}

/* is_valid_shaft_level: a level of a branch of the dungeon proper with
 * another level below it. */
static int shaft_level(lrt_layout *lay)
{
    static const char *const apart[] = {"Abyss", "Pan", "Zig", "Lab", "Bazaar", "Trove",
                                        "Sewer", "Ossuary", "Bailey", "IceCv", "Volcano",
                                        "WizLab", "Desolation", "Gauntlet", "Arena", NULL};
    for (int i = 0; apart[i]; i++)
        if (lrt_layout_in_branch(lay, apart[i]))
            return 0;
    return lay->depth < lrt_branch_depth(lay->rt, lay->branch);
}

/* _big_room: sometimes an octagonal hall, then a big room of floor (or,
 * deep down, water or lava), chequered or with nested rooms inside. */
static void big_room(lrt_layout *lay, int level)
{
    qg_rng *rng = lay->rng;
    unsigned char floor = G_FLOOR, second = G_FLOOR;
    if (qg_rng_one_chance_in(rng, 4)) {
        int oblique = 5 + qg_rng_below(rng, 20);
        region r = {8 + qg_rng_below(rng, 30), 8 + qg_rng_below(rng, 22),
                    21 + qg_rng_below(rng, 10), 21 + qg_rng_below(rng, 8)};
        if (!qg_rng_one_chance_in(rng, 5) || level < 8 + qg_rng_below(rng, 8)) {
            octa_room(lay, r, oblique, G_FLOOR);
            return;
        }
        floor = G_LAVA;
        if (level > 7)
            floor = qg_rng_x_chance_in_y(rng, 14, level) ? G_DEEP : G_LAVA;
        octa_room(lay, r, oblique, floor);
    }
    region r = {8 + qg_rng_below(rng, 30), 8 + qg_rng_below(rng, 22),
                21 + qg_rng_below(rng, 10), 21 + qg_rng_below(rng, 8)};
    if (level > 7 && qg_rng_one_chance_in(rng, 4))
        floor = qg_rng_x_chance_in_y(rng, 14, level) ? G_DEEP : G_LAVA;
    int x2 = r.x + r.w - 1, y2 = r.y + r.h - 1;
    lrt_replace_area(lay, r.x, r.y, x2, y2, G_ROCK, floor);
    lrt_replace_area(lay, r.x, r.y, x2, y2, G_DOOR, floor);
    if (floor == G_FLOOR)
        second = random_wall(lay);
    if (cold_branch(lay)) {
        floor = floor == G_LAVA ? G_SHALLOW : floor;
        second = second == G_LAVA ? G_SHALLOW : second;
    }
    if (qg_rng_one_chance_in(rng, 4)) {
        for (int x = r.x; x <= x2; x++)
            for (int y = r.y; y <= y2; y++)
                if (*lrt_at(lay, x, y) == floor)
                    *lrt_at(lay, x, y) = (x + y) % 2 ? second : floor;
    } else if (qg_rng_one_chance_in(rng, 6)) {
        int i = r.x, j = r.y, k = x2, l = y2;
        for (;;) {
            i += 2 + qg_rng_below(rng, 3);
            j += 2 + qg_rng_below(rng, 3);
            k -= 2 + qg_rng_below(rng, 3);
            l -= 2 + qg_rng_below(rng, 3);
            if (i >= k - 3 || j >= l - 3)
                break;
            box_room(lay, i, k, j, l, G_STONE);
        }
    }
}

/* _diamond_rooms: one to ten diamonds of water (or, deeper, lava or
 * wall). */
static void diamond_rooms(lrt_layout *lay, int level)
{
    qg_rng *rng = lay->rng;
    int count = 1 + qg_rng_below(rng, 10);
    unsigned char type = G_DEEP;
    if (lrt_layout_in_branch(lay, "Dis") || lrt_layout_in_branch(lay, "Tar"))
        return;
    if (level > 5 + qg_rng_below(rng, 5) && qg_rng_coinflip(rng))
        type = G_SHALLOW;
    if (level > 10 + qg_rng_below(rng, 5) && qg_rng_coinflip(rng))
        type = G_DEEP;
    if (level > 17 && qg_rng_coinflip(rng))
        type = G_LAVA;
    if (level > 10 && qg_rng_one_chance_in(rng, 15))
        type = qg_rng_coinflip(rng) ? G_STONE : G_ROCK;
    if (level > 12 && qg_rng_one_chance_in(rng, 20))
        type = G_METAL;
    if (lrt_layout_in_branch(lay, "Geh"))
        type = G_LAVA;
    else if (lrt_layout_in_branch(lay, "Coc"))
        type = G_DEEP;
    for (int i = 0; i < count; i++) {
        region r = {8 + qg_rng_below(rng, 43), 8 + qg_rng_below(rng, 35),
                    6 + qg_rng_below(rng, 15), 6 + qg_rng_below(rng, 10)};
        octa_room(lay, r, r.w / 2, type);
    }
}

/* _builder_extras: sometimes many pools, else sometimes a river or a
 * lake (always one in Gehenna and Cocytus). */
static void builder_extras(lrt_layout *lay, int level)
{
    qg_rng *rng = lay->rng;
    if (level > 6 && qg_rng_one_chance_in(rng, 10)) {
        unsigned char pool = level < 11 || qg_rng_coinflip(rng) ? G_DEEP : G_LAVA;
        if (qg_rng_one_chance_in(rng, 15))
            pool = G_TREE;
        many_pools(lay, pool);
        return;
    }
    unsigned char river = qg_rng_one_chance_in(rng, 5 + level) ? G_SHALLOW : G_DEEP;
    if (level > 11 &&
        (qg_rng_one_chance_in(rng, 5) || (level > 15 && !qg_rng_one_chance_in(rng, 5))))
        river = G_LAVA;
    int hell = lrt_layout_in_branch(lay, "Geh") ? G_LAVA
             : lrt_layout_in_branch(lay, "Coc") ? G_DEEP : 0;
    if (hell) {
        river = (unsigned char)hell;
        if (qg_rng_coinflip(rng))
            build_river(lay, river);
        else
            build_lake(lay, river);
    }
    if (level > 8 && qg_rng_one_chance_in(rng, 16))
        build_river(lay, river);
    else if (level > 8 && qg_rng_one_chance_in(rng, 12))
        build_lake(lay, river != G_SHALLOW ? river : G_DEEP);
}

/* layout_basic(): three trails of corridor with stone stairs at their
 * ends, joined, maybe a dead end ending in a shaft, maybe a big room and
 * diamonds, then rooms and water. */
int lrt_l_layout_basic(lua_State *L)
{
    lrt_layout lay;
    lrt_layout_begin(L, &lay);
    qg_rng *rng = lay.rng;
    int level = lay.absdepth0;
    int corrlength = 2 + qg_rng_below(rng, 14);
    int no_corr = qg_rng_one_chance_in(rng, 100) ? 500 + qg_rng_below(rng, 500)
                                                 : 30 + qg_rng_below(rng, 200);
    int intersect = qg_rng_one_chance_in(rng, 20) ? 400 : qg_rng_below(rng, 20);
    static const int trails[3][4] = {{35, 30, 35, 20}, {10, 15, 10, 15}, {50, 20, 10, 15}};
    static const unsigned char stairs[3][2] = {{G_DOWN_I, G_UP_I}, {G_DOWN_II, G_UP_II},
                                               {G_DOWN_III, G_UP_III}};
    lrt_pos joined[4];
    int njoined = 0;
    for (int t = 0; t < 3; t++) {
        lrt_pos begin = {0, 0}, end = {0, 0};
        make_trail(&lay, trails[t][0], trails[t][1], trails[t][2], trails[t][3], corrlength,
                   intersect, no_corr, &begin, &end);
        if ((begin.x || begin.y) && (end.x || end.y)) {
            *lrt_at(&lay, begin.x, begin.y) = stairs[t][0];
            *lrt_at(&lay, end.x, end.y) = stairs[t][1];
            joined[njoined++] = begin;
        }
    }
    if (shaft_level(&lay) && !qg_rng_one_chance_in(rng, 4)) {
        lrt_pos begin = {0, 0}, end = {0, 0};
        make_trail(&lay, 50, 20, 40, 20, corrlength, intersect, no_corr, &begin, &end);
        if (end.x || end.y) {
            if (begin.x || begin.y)
                joined[njoined++] = begin;
            *lrt_at(&lay, end.x, end.y) = !qg_rng_one_chance_in(rng, 3)
                                              ? lrt_layout_glyph(&lay, "shaft") : G_FLOOR;
        }
    }
    for (int a = 0; a < njoined; a++)
        for (int b = a + 1; b < njoined; b++)
            lrt_join_the_dots(&lay, joined[a], joined[b]);
    if (level > 1 && qg_rng_one_chance_in(rng, 16))
        big_room(&lay, level);
    if (qg_rng_below(rng, level) > 6 && qg_rng_one_chance_in(rng, 3))
        diamond_rooms(&lay, level);
    int doorlevel = qg_rng_below(rng, 11);
    int roomsize = 4 + qg_rng_below(rng, 5) + qg_rng_below(rng, 6);
    const int room_counts[3][2] = {{636, 5 + lrt_random2avg(rng, 29, 2)}, {49, 100}, {15, 1}};
    int rooms = lrt_choose_weighted(rng, room_counts, 3);
    make_random_rooms(&lay, rooms, 2 + qg_rng_below(rng, 8), doorlevel, 50, 40, roomsize);
    make_random_rooms(&lay, 1 + qg_rng_below(rng, 3), 1, doorlevel, 55, 45, 6);
    builder_extras(&lay, level);
    return 0;
}

/* layout_bigger_room(): one open hall with pools (or trees), sometimes a
 * river or a lake, and stairs. */
int lrt_l_layout_bigger_room(lua_State *L)
{
    lrt_layout lay;
    lrt_layout_begin(L, &lay);
    lrt_replace_area(&lay, 10, 10, GXM - 11, GYM - 11, G_ROCK, G_FLOOR);
    unsigned char pool = qg_rng_one_chance_in(lay.rng, 15) ? G_TREE : G_DEEP;
    many_pools(&lay, pool);
    if (qg_rng_one_chance_in(lay.rng, 3)) {
        if (qg_rng_coinflip(lay.rng))
            build_river(&lay, G_DEEP);
        else
            build_lake(&lay, G_DEEP);
    }
    lrt_place_stone_stairs(&lay, 1);
    return 0;
}

/* layout_chaotic_city([wall]): thousands of tries at boxes of wall (a
 * third of them hollow, with doors) on an open floor, never touching, and
 * sometimes an octagonal market square. */
int lrt_l_layout_chaotic_city(lua_State *L)
{
    lrt_layout lay;
    lrt_layout_begin(L, &lay);
    qg_rng *rng = lay.rng;
    int forced = !lua_isnoneornil(L, 2);
    unsigned char drawing = G_ROCK;
    if (forced)
        drawing = lrt_layout_glyph(&lay, lrt_feature_arg(L, 2));
    static const int box_counts[5][2] = {{32, 4000}, {24, 3000}, {16, 5000}, {8, 2000},
                                         {1, 1000}};
    static const int first_walls[3][2] = {{10, G_ROCK}, {5, G_STONE}, {3, G_METAL}};
    static const int later_walls[3][2] = {{261, G_ROCK}, {116, G_STONE}, {40, G_METAL}};
    int boxes = lrt_choose_weighted(rng, box_counts, 5);
    if (!forced)
        drawing = (unsigned char)lrt_choose_weighted(rng, first_walls, 3);
    lrt_replace_area(&lay, 10, 10, GXM - 10, GYM - 10, G_ROCK, G_FLOOR);
    for (int i = 0; i < boxes; i++) {
        int w = 3 + qg_rng_below(rng, 7) + qg_rng_below(rng, 5);
        int h = 3 + qg_rng_below(rng, 7) + qg_rng_below(rng, 5);
        int x1 = 11 + qg_rng_below(rng, GXM - 21 - w), y1 = 11 + qg_rng_below(rng, GYM - 21 - h);
        int x2 = x1 + w, y2 = y1 + h;
        int area = (x2 + 2 - (x1 - 1)) * (y2 + 2 - (y1 - 1));
        if (area - lrt_count_in_box(&lay, x1 - 1, y1 - 1, x2 + 2, y2 + 2, G_FLOOR))
            continue;
        if (!forced && qg_rng_one_chance_in(rng, 3))
            drawing = (unsigned char)lrt_choose_weighted(rng, later_walls, 3);
        if (qg_rng_one_chance_in(rng, 3))
            box_room(&lay, x1, x2, y1, y2, drawing);
        else
            lrt_replace_area(&lay, x1, y1, x2, y2, G_FLOOR, drawing);
    }
    if (qg_rng_one_chance_in(rng, 4)) {
        int oblique = 0;
        if (!qg_rng_one_chance_in(rng, 4))
            oblique = 5 + qg_rng_below(rng, 20);
        unsigned char square = G_FLOOR;
        if (qg_rng_one_chance_in(rng, 10))
            square = qg_rng_coinflip(rng) ? G_DEEP : G_LAVA;
        octa_room(&lay, (region){25, 25, 31, 21}, oblique, square);
    }
    return 0;
}

/* Crawl's layout builders (l-dgnbld.cc) as the runtime gives them: each
 * one's outcome on small maps, its arguments read as Crawl reads them,
 * and the same layout for the same seed. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"
#include "lua_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef test_runtime fixture;

/* The glyph rows of main (run on an empty map) resolved with seed, one
 * string per call site (copied: th_glyphs has one buffer). */
static char *layout(fixture *f, const char *main, unsigned long long seed)
{
    th_map *m = th_map_new("layout", NULL, main);
    qg_level *level = NULL;
    qg_status st = th_resolve(f->rt, m, seed, "D:3", &level, f->diags);
    if (st != QG_OK)
        qg_diags_print(f->diags, stderr);
    assert_int_equal(st, QG_OK);
    char *g = strdup(th_glyphs(level));
    qg_level_free(level);
    th_map_free(m);
    return g;
}

/* The compile-time run of main fails with an error saying why. */
static void assert_refused(fixture *f, const char *main, const char *why)
{
    th_map *m = th_map_new("refused", NULL, main);
    qg_diags_clear(f->diags);
    assert_int_not_equal(th_compile(f->rt, m, f->diags), QG_OK);
    if (!test_diags_contain(f->diags, QG_ERROR, why)) {
        qg_diags_print(f->diags, stderr);
        fail_msg("no error saying '%s'", why);
    }
    th_map_free(m);
}

static int count_char(const char *s, char c)
{
    int n = 0;
    for (; *s; s++)
        n += *s == c;
    return n;
}

static int width_of(const char *g)
{
    return (int)strcspn(g, "\n");
}

static char at(const char *g, int x, int y)
{
    return g[y * (width_of(g) + 1) + x];
}

/* Cells of glyphs in set reachable from (x, y) over them, 8 ways. */
static int reachable(const char *g, int x, int y, const char *set)
{
    int w = width_of(g), h = (int)(strlen(g) + 1) / (w + 1), n = 0, top = 0;
    char *seen = calloc((size_t)w * h, 1);
    int *stack = malloc(sizeof *stack * 2 * (size_t)w * h);
    seen[y * w + x] = 1;
    stack[top++] = x, stack[top++] = y;
    while (top) {
        int cy = stack[--top], cx = stack[--top];
        n++;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int nx = cx + dx, ny = cy + dy;
                if (nx < 0 || ny < 0 || nx >= w || ny >= h || seen[ny * w + nx] ||
                    !strchr(set, at(g, nx, ny)))
                    continue;
                seen[ny * w + nx] = 1;
                stack[top++] = nx, stack[top++] = ny;
            }
    }
    free(seen);
    free(stack);
    return n;
}

static void spotty_map_opens_spots_inside_its_border(void **state)
{
    fixture *f = *state;
    const char *lua = "extend_map{width = 30, height = 20, fill = 'x'}\n"
                      "mapgrd[15][10] = '.'\n"
                      "spotty_map{iterations = 200}\n";
    char *g = layout(f, lua, 7), *again = layout(f, lua, 7), *other = layout(f, lua, 8);
    assert_string_equal(g, again);
    assert_string_not_equal(g, other);
    assert_true(count_char(g, '.') > 40);
    for (int y = 0; y < 20; y++)
        for (int x = 0; x < 30; x++)
            if (x < 3 || y < 3 || x > 26 || y > 16)
                assert_int_equal(at(g, x, y), 'x');
    /* boxy spots are 3x3 grown from the open cell: one cave */
    assert_int_equal(reachable(g, 15, 10, "."), count_char(g, '.'));
    free(g);
    free(again);
    free(other);
}

static void spotty_map_refuses_a_box_too_small(void **state)
{
    fixture *f = *state;
    char *g = layout(f, "extend_map{width = 8, height = 8, fill = 'x'}\n"
                        "spotty_map{iterations = 100}\n", 1);
    assert_int_equal(count_char(g, 'x'), 64);
    free(g);
}

static void smear_map_grows_beside_what_is_there(void **state)
{
    fixture *f = *state;
    char *g = layout(f, "extend_map{width = 20, height = 20, fill = '.'}\n"
                        "mapgrd[10][10] = 'x'\n"
                        "smear_map{iterations = 30, boxy = true}\n", 3);
    int walls = count_char(g, 'x');
    assert_true(walls > 1 && walls <= 31);
    /* boxy: every new cell touches the growth orthogonally */
    assert_int_equal(reachable(g, 10, 10, "x"), walls);
    free(g);
}

static void join_the_dots_carves_a_corridor(void **state)
{
    fixture *f = *state;
    char *g = layout(f, "extend_map{width = 12, height = 10, fill = 'x'}\n"
                        "join_the_dots{x1 = 1, y1 = 1, x2 = 10, y2 = 8}\n", 5);
    assert_int_equal(at(g, 1, 1), '.');
    assert_int_equal(at(g, 10, 8), '.');
    /* orthogonal steps only: 9 + 7 moves */
    assert_int_equal(count_char(g, '.'), 17);
    assert_int_equal(reachable(g, 1, 1, "."), 17);
    free(g);
    g = layout(f, "extend_map{width = 12, height = 5, fill = 'x'}\n"
                  "join_the_dots{x1 = 0, y1 = 2, x2 = 11, y2 = 2, force_straight = true,"
                  " thickness = 3}\n", 1);
    /* never the map's edge */
    assert_string_equal(g, "xxxxxxxxxxxx\nx..........x\nx..........x\nx..........x\n"
                           "xxxxxxxxxxxx");
    free(g);
}

static void make_round_box_draws_a_tower_with_doors(void **state)
{
    fixture *f = *state;
    char *g = layout(f, "extend_map{width = 9, height = 9, fill = '.'}\n"
                        "assert(make_round_box{x1 = 1, y1 = 1, x2 = 7, y2 = 7, door_count = 2})\n",
                     4);
    assert_int_equal(at(g, 4, 4), '.');
    assert_int_equal(at(g, 1, 1), '.');   /* outside the ellipse */
    assert_int_equal(count_char(g, '+'), 2);
    assert_int_equal(at(g, 4, 1) == 'x' || at(g, 4, 1) == '+', 1);
    free(g);
    /* no passable ground outside: no door fits, and the room is vetoed */
    g = layout(f, "extend_map{width = 9, height = 9, fill = 'c'}\n"
                  "assert(make_round_box{x1 = 1, y1 = 1, x2 = 7, y2 = 7,"
                  " veto_if_no_doors = true} == false)\n", 4);
    assert_int_equal(count_char(g, 'c'), 81);
    free(g);
}

static void make_irregular_box_closes_a_room(void **state)
{
    fixture *f = *state;
    const char *lua = "extend_map{width = 24, height = 18, fill = ' '}\n"
                      "make_irregular_box{x1 = 0, y1 = 0, x2 = 23, y2 = 17,"
                      " div_x = 4, div_y = 3, in_x = 4, in_y = 3, door_count = 1}\n";
    for (unsigned long long s = 1; s <= 10; s++) {
        char *g = layout(f, lua, s);
        assert_int_equal(count_char(g, '+'), 1);
        /* the floor is closed in: no floor cell on the edge or beside outside */
        int w = 24, h = 18;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                if (at(g, x, y) != '.')
                    continue;
                assert_true(x > 0 && y > 0 && x < w - 1 && y < h - 1);
                assert_int_not_equal(at(g, x - 1, y), ' ');
                assert_int_not_equal(at(g, x + 1, y), ' ');
                assert_int_not_equal(at(g, x, y - 1), ' ');
                assert_int_not_equal(at(g, x, y + 1), ' ');
            }
        int floor = count_char(g, '.');
        assert_true(floor > 0);
        for (int i = 0; g[i]; i++)
            if (g[i] == '.') {
                assert_int_equal(reachable(g, i % (w + 1), i / (w + 1), "."), floor);
                break;
            }
        free(g);
    }
    /* too small for set-backs: a plain box */
    char *g = layout(f, "extend_map{width = 4, height = 4, fill = ' '}\n"
                        "make_irregular_box{door_count = 0}\n", 1);
    assert_string_equal(g, "xxxx\nx..x\nx..x\nxxxx");
    free(g);
}

static void connect_adjacent_rooms_opens_straight_walls(void **state)
{
    fixture *f = *state;
    char *g = layout(f, "map('xxxxxxx')\nmap('x..x..x')\nmap('x..x..x')\nmap('xxxxxxx')\n"
                        "connect_adjacent_rooms{min = 200, max = 200}\n", 2);
    /* one cell of the wall between the rooms is opened: the other then no
     * longer stands in a whole wall; the outer walls have floor on one
     * side only */
    assert_int_equal(count_char(g, '.'), 9);
    assert_true((at(g, 3, 1) == '.') != (at(g, 3, 2) == '.'));
    free(g);
}

static void remove_disconnected_doors_keeps_real_doors(void **state)
{
    fixture *f = *state;
    char *g = layout(f, "map('xxxxxxx')\nmap('x.+.x+x')\nmap('xxxxxxx')\n"
                        "remove_disconnected_doors{}\n", 1);
    /* a door between two floors stays; one walled in becomes floor */
    assert_string_equal(g, "xxxxxxx\nx.+.x.x\nxxxxxxx");
    free(g);
}

static void add_windows_cuts_straight_walls(void **state)
{
    fixture *f = *state;
    char *g = layout(f, "map('.....')\nmap('xxxxx')\nmap('.....')\nadd_windows{}\n", 1);
    assert_string_equal(g, ".....\nxmmmx\n.....");
    free(g);
}

static void widen_paths_at_full_chance(void **state)
{
    fixture *f = *state;
    char *g = layout(f, "map('xxxxx')\nmap('x...x')\nmap('xxxxx')\nmap('xxxxx')\n"
                        "widen_paths{find = 'x', percent = 100}\n", 1);
    /* every inner wall beside floor; the map's edge stays */
    assert_string_equal(g, "xxxxx\nx...x\nx...x\nxxxxx");
    free(g);
}

/* Found by fuzz_lua: a percent past 100 (or below 0) made the chances
 * overflow an int; it reads as certain (or never). */
static void widen_paths_percent_outside_0_to_100(void **state)
{
    fixture *f = *state;
    const char *rows = "map('xxxxxxx')\nmap('x.x.x.x')\nmap('xxxxxxx')\nmap('xxxxxxx')\n";
    char lua[256];
    snprintf(lua, sizeof lua, "%swiden_paths{find = 'x', percent = 100}\n", rows);
    char *full = layout(f, lua, 1);
    snprintf(lua, sizeof lua, "%swiden_paths{find = 'x', percent = 1010}\n", rows);
    char *over = layout(f, lua, 1);
    assert_string_equal(over, full);
    snprintf(lua, sizeof lua, "%swiden_paths{find = 'x', percent = -100000000}\n", rows);
    char *under = layout(f, lua, 1);
    assert_string_equal(under, "xxxxxxx\nx.x.x.x\nxxxxxxx\nxxxxxxx");
    free(full);
    free(over);
    free(under);
}

static void add_pools_fills_pools_between_paths(void **state)
{
    fixture *f = *state;
    const char *lua = "extend_map{width = 30, height = 20, fill = '.'}\n"
                      "add_pools{pool_size = 40, contents = {w = 1, l = 1}}\n";
    char *g = layout(f, lua, 9), *again = layout(f, lua, 9);
    assert_string_equal(g, again);
    assert_true(count_char(g, 'w') + count_char(g, 'l') > 100);
    assert_true(count_char(g, '.') > 0);
    /* paths part the pools: no two different pool glyphs touch */
    for (int y = 0; y < 20; y++)
        for (int x = 0; x + 1 < 30; x++)
            assert_false(strchr("wl", at(g, x, y)) && strchr("wl", at(g, x + 1, y)) &&
                         at(g, x, y) != at(g, x + 1, y));
    free(g);
    free(again);
}

static void delve_digs_one_cave(void **state)
{
    fixture *f = *state;
    const char *lua = "extend_map{width = 40, height = 20, fill = 'x'}\n"
                      "mapgrd[20][10] = '.'\n"
                      "delve(2, 3, 0, 150)\n";
    char *g = layout(f, lua, 11), *again = layout(f, lua, 11);
    assert_string_equal(g, again);
    assert_int_equal(count_char(g, '.'), 151);
    assert_int_equal(reachable(g, 20, 10, "."), 151);
    free(g);
    free(again);
    assert_refused(f, "extend_map{width = 5, height = 5}\ndelve(4, 3)\n", "ngb_min");
}

static void farthest_from_finds_the_far_end(void **state)
{
    fixture *f = *state;
    char *g = layout(f, "map('xxxxxxxxxx')\nmap('x@.......x')\nmap('xxxxxxxxxx')\n"
                        "local x, y = farthest_from('@')\nmapgrd[x][y] = '>'\n"
                        "assert(farthest_from('Q') == nil)\n", 1);
    assert_string_equal(g, "xxxxxxxxxx\nx@......>x\nxxxxxxxxxx");
    free(g);
}

static void fill_disconnected_fills_zones_without_an_exit(void **state)
{
    fixture *f = *state;
    char *g = layout(f, "map('xxxxxxx')\nmap('x.@x..x')\nmap('xxxxxxx')\n"
                        "fill_disconnected{}\n", 1);
    assert_string_equal(g, "xxxxxxx\nx.@xxxx\nxxxxxxx");
    free(g);
}

static void octa_room_cuts_the_corners(void **state)
{
    fixture *f = *state;
    char *g = layout(f, "extend_map{width = 7, height = 7, fill = '.'}\n"
                        "octa_room{oblique = 2}\n", 1);
    assert_string_equal(g, "xx...xx\nx.....x\n.......\n.......\n.......\nx.....x\nxx...xx");
    free(g);
}

static void arguments_are_read_as_crawl_reads_them(void **state)
{
    fixture *f = *state;
    assert_refused(f, "extend_map{width = 3, height = 3}\nfill_area{fill = 'xy'}\n",
                   "'fill' has more than one character.");
    assert_refused(f, "extend_map{width = 3, height = 3}\nfill_area{x1 = 'a'}\n",
                   "'x1' in table, but not an int.");
    assert_refused(f, "extend_map{width = 3, height = 3}\nspotty_map{boxy = 1}\n",
                   "'boxy' in table, but not a bool.");
    assert_refused(f, "extend_map{width = 3, height = 3}\nmake_circle{}\n",
                   "Invalid x coordinate: -1");
    assert_refused(f, "extend_map{width = 3, height = 3}\nreplace_first{find = 'x'}\n",
                   "Invalid xdir: 2");
    assert_refused(f, "extend_map{width = 5, height = 5}\n"
                      "connect_adjacent_rooms{min = 3, max = 2}\n",
                   "Invalid max connections: 2 (min is 3)");
    char *g = layout(f, "extend_map{width = 4, height = 3, fill = '.'}\n"
                        "fill_area{x1 = 3, y1 = 2, x2 = 0, y2 = 0, fill = 'w', border = 'c'}\n", 1);
    assert_string_equal(g, "cccc\ncwwc\ncccc");
    free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spotty_map_opens_spots_inside_its_border),
        cmocka_unit_test(spotty_map_refuses_a_box_too_small),
        cmocka_unit_test(smear_map_grows_beside_what_is_there),
        cmocka_unit_test(join_the_dots_carves_a_corridor),
        cmocka_unit_test(make_round_box_draws_a_tower_with_doors),
        cmocka_unit_test(make_irregular_box_closes_a_room),
        cmocka_unit_test(connect_adjacent_rooms_opens_straight_walls),
        cmocka_unit_test(remove_disconnected_doors_keeps_real_doors),
        cmocka_unit_test(add_windows_cuts_straight_walls),
        cmocka_unit_test(widen_paths_at_full_chance),
        cmocka_unit_test(widen_paths_percent_outside_0_to_100),
        cmocka_unit_test(add_pools_fills_pools_between_paths),
        cmocka_unit_test(delve_digs_one_cave),
        cmocka_unit_test(farthest_from_finds_the_far_end),
        cmocka_unit_test(fill_disconnected_fills_zones_without_an_exit),
        cmocka_unit_test(octa_room_cuts_the_corners),
        cmocka_unit_test(arguments_are_read_as_crawl_reads_them),
    };
    return cmocka_run_group_tests_name("lua_layout", tests, test_runtime_setup,
                                       test_runtime_teardown);
}

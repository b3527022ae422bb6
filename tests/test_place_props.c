/* Properties over many seeds: vaults never overlap or touch, every
 * connected exit really reaches the level's floor, masks and cave_info
 * mark exactly the vault cells, things come out as requests. */
#include "testutil.h"
#include "placefix.h"

#include <stdlib.h>
#include <string.h>

enum { W = 80, H = 70, SEEDS = 60 };

static const char *const shapes[][6] = {
    {"xxxxxxx", "x.....x", "x..1..@", "x.....x", "xxxxxxx", NULL},
    {"  x  ", " x.x ", "x.%.x", " x.x ", "  x  ", NULL},
    {"......", ".wwww.", ".w$$w.", ".wwww.", "......", NULL},
    {"xxx+xxx", "x.....x", "x..>..x", "xxxxxxx", NULL},
};
static const char *const orients[] = {NULL, "float", NULL, "float"};

static qg_level *shape(size_t i)
{
    int n = 0;
    while (shapes[i][n])
        n++;
    qg_level *l = fix_level(shapes[i], n, orients[i], NULL);
    for (int y = 0; y < n; y++)
        for (int x = 0; shapes[i][y][x]; x++)
            if (shapes[i][y][x] == '1')
                qg_level_set_thing(l, x, y, QG_SLOT_MONSTER, QG_THING_RANDOM, 0, NULL);
            else if (shapes[i][y][x] == '%' || shapes[i][y][x] == '$')
                qg_level_set_thing(l, x, y, QG_SLOT_OBJECT, QG_THING_RANDOM, 0, NULL);
    return l;
}

static size_t things_in(size_t i)
{
    size_t n = 0;
    for (int y = 0; shapes[i][y]; y++)
        for (int x = 0; shapes[i][y][x]; x++)
            n += strchr("1%$", shapes[i][y][x]) != NULL;
    return n;
}

static int walkable(const qg_cave *c, int at)
{
    uint32_t cls = c->classify(c->user, c->feature[at]);
    return !(cls & (QG_FEAT_SOLID | QG_FEAT_DEEP_WATER | QG_FEAT_LAVA));
}

/* From the exit, over walkable cells, to a floor cell outside every vault. */
static int reaches_level_floor(const qg_cave *c, int x, int y)
{
    static int queue[W * H];
    static unsigned char seen[W * H];
    memset(seen, 0, sizeof seen);
    size_t head = 0, tail = 0;
    queue[tail++] = y * W + x;
    seen[y * W + x] = 1;
    while (head < tail) {
        int at = queue[head++];
        if (!(c->vault_mask[at] & QG_MASK_VAULT) &&
            (c->classify(c->user, c->feature[at]) & QG_FEAT_FLOOR))
            return 1;
        static const int d[4][2] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};
        for (int k = 0; k < 4; k++) {
            int nx = at % W + d[k][0], ny = at / W + d[k][1];
            if (nx < 0 || ny < 0 || nx >= W || ny >= H)
                continue;
            int n = ny * W + nx;
            if (seen[n] || !walkable(c, n) || (c->vault_mask[n] & QG_MASK_VAULT))
                continue;
            seen[n] = 1;
            queue[tail++] = n;
        }
    }
    return 0;
}

static void vaults_never_touch_and_exits_connect(void **state)
{
    (void)state;
    size_t placed = 0, exits = 0, connected = 0;
    for (unsigned long long seed = 1; seed <= SEEDS; seed++) {
        qg_host *host = qg_host_generate(W, H, seed);
        qg_cave *cave = qg_host_cave(host);
        static int owner[W * H];
        memset(owner, 0, sizeof owner);
        for (int v = 0; v < 12; v++) {
            size_t kind = (size_t)v % 4;
            qg_level *l = shape(kind);
            qg_place_options o = {.seed = seed * 100 + (unsigned long long)v};
            qg_placement p = {0};
            qg_status st = qg_place_vault(cave, l, &o, &p, NULL);
            assert_true(st == QG_OK || st == QG_ERR_NOTFOUND);
            if (st == QG_OK) {
                placed++;
                assert_int_equal(p.request_count, things_in(kind));
                for (int y = p.y; y < p.y + p.height; y++)
                    for (int x = p.x; x < p.x + p.width; x++) {
                        int at = y * W + x;
                        if (!(cave->vault_mask[at] & QG_MASK_VAULT) || owner[at])
                            continue;
                        owner[at] = v + 1;
                        assert_true(cave->cave_info[at] & QG_INFO_ICKY);
                    }
                for (size_t e = 0; e < p.exit_count; e++) {
                    exits++;
                    if (!p.exits[e].connected)
                        continue;
                    connected++;
                    assert_true(reaches_level_floor(cave, p.exits[e].x, p.exits[e].y));
                }
            }
            qg_placement_clear(&p);
            qg_level_free(l);
        }
        /* no vault cell has a neighbour of another vault */
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int me = owner[y * W + x];
                if (!me)
                    continue;
                for (int ny = y - 1; ny <= y + 1; ny++)
                    for (int nx = x - 1; nx <= x + 1; nx++)
                        if (nx >= 0 && ny >= 0 && nx < W && ny < H && owner[ny * W + nx])
                            assert_int_equal(owner[ny * W + nx], me);
                assert_int_equal((cave->cave_info[y * W + x] & QG_INFO_ICKY) != 0, 1);
            }
        for (int i = 0; i < W * H; i++)
            assert_int_equal((cave->vault_mask[i] & QG_MASK_VAULT) != 0, owner[i] != 0);
        qg_host_free(host);
    }
    print_message("placed %zu of %d vaults; %zu of %zu exits connected\n",
                  placed, SEEDS * 12, connected, exits);
    assert_true(placed > (size_t)SEEDS * 6);
    assert_true(connected * 10 >= exits * 9);
}

static void host_is_deterministic_and_has_floor(void **state)
{
    (void)state;
    qg_host *a = qg_host_generate(W, H, 5), *b = qg_host_generate(W, H, 5);
    qg_host *c = qg_host_generate(W, H, 6);
    int differ = 0, floor = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            assert_int_equal(qg_host_glyph(a, x, y), qg_host_glyph(b, x, y));
            differ |= qg_host_glyph(a, x, y) != qg_host_glyph(c, x, y);
            floor += qg_host_glyph(a, x, y) == '.';
            if (x == 0 || y == 0 || x == W - 1 || y == H - 1)
                assert_int_equal(qg_host_glyph(a, x, y), 'X');
        }
    assert_true(differ);
    assert_true(floor > W * H / 10);
    qg_host_free(a);
    qg_host_free(b);
    qg_host_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vaults_never_touch_and_exits_connect),
        cmocka_unit_test(host_is_deterministic_and_has_floor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

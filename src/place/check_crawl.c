/* The placement rules of the game a branch table is of (Crawl 0.28,
 * current Crawl: the two agree on each rule here), each checked where the
 * game's own code enforces it, and said as what the game then does. */
#include "place/internal.h"
#include "des/branches.h"

#include <stdlib.h>
#include <string.h>

/* A cell of the map (not ' '), beside its CRAWL_* facts. */
enum { IN_MAP = 1u << 15 };

/* The check and the facts of each of its cells, read once. */
typedef struct crawl_check {
    place_check *c;
    int w, h;
    unsigned *cells;
} crawl_check;

static unsigned at(const crawl_check *k, int x, int y)
{
    return k->cells[y * k->w + x];
}

static int read_cells(crawl_check *k, place_check *c)
{
    k->c = c;
    k->w = c->w;
    k->h = c->h;
    k->cells = malloc(((size_t)c->w * (size_t)c->h + 1) * sizeof *k->cells);
    if (!k->cells)
        return 0;
    qg_cell cell;
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) {
            qg_level_cell(c->level, x, y, &cell);
            k->cells[y * c->w + x] =
                cell.in_map && cell.glyph != ' ' ? IN_MAP | crawl_feature(&cell) : 0;
        }
    return 1;
}

/* maps.cc _apply_vault_grid: where the map's top-left corner lands on the
 * GXM x GYM level; 0 for a map that floats (kept MAPGEN_BORDER or more
 * from the level's edge: _fit_region_into_map_bounds, float_place). */
static int fixed_corner(const place_check *c, int *sx, int *sy)
{
    orient o = c->orient;
    if (o == OR_FLOAT)
        return 0;
    *sx = *sy = 0;
    if (o == OR_SOUTH || o == OR_SOUTHEAST || o == OR_SOUTHWEST)
        *sy = GYM - c->h;
    if (o == OR_EAST || o == OR_NORTHEAST || o == OR_SOUTHEAST)
        *sx = GXM - c->w;
    if ((o == OR_NORTH || o == OR_SOUTH || o == OR_ENCOMPASS || o == OR_CENTRE) && c->w < GXM)
        *sx = (GXM - c->w) / 2;
    if ((o == OR_EAST || o == OR_WEST || o == OR_ENCOMPASS || o == OR_CENTRE) && c->h < GYM)
        *sy = (GYM - c->h) / 2;
    return 1;
}

/* dungeon.cc _builder_assertions: every cell on the level's outermost row
 * and column (outside in_bounds) must be feat_is_valid_border -- a wall, a
 * tree or one of the endless seas -- or the game dies with "invalid map
 * border" (Crawl builds with ASSERTS unless NOASSERTS is given; Debian's
 * crawl 0.28 dies so on a north map with floor on its first row). A map
 * along a level edge puts its own cells there; its ' ' cells keep the
 * level's rock. A pure subvault (TAGS: unrand, which maps.cc never picks
 * for a level by itself) lands inside the map that places it, wherever
 * its ORIENT says. The first offending cell of each side is told. */
static void check_border(crawl_check *k)
{
    place_check *c = k->c;
    int sx, sy;
    if ((c->tags & TAG_UNRAND) || !fixed_corner(c, &sx, &sy))
        return;
    int told[4] = {0, 0, 0, 0};
    static const char *const sides[4] = {"north", "south", "west", "east"};
    for (int y = 0; y < k->h; y++)
        for (int x = 0; x < k->w; x++) {
            int lx = sx + x, ly = sy + y;
            int side = ly == 0 ? 0 : ly == GYM - 1 ? 1 : lx == 0 ? 2 : lx == GXM - 1 ? 3 : -1;
            unsigned f = at(k, x, y);
            if (side < 0 || told[side] || !(f & IN_MAP) || (f & CRAWL_BORDER))
                continue;
            told[side] = 1;
            place_diag(c->diags, QG_ERROR, c->level,
                       "ORIENT: %s map '%s' puts cell %d,%d (glyph '%c') on the level's %s "
                       "border, which must be a wall, a tree or an endless sea: Crawl dies "
                       "there with \"invalid map border\" (dungeon.cc _builder_assertions)",
                       orient_name(c->orient), c->name, x, y,
                       qg_level_glyphs(c->level)[y * k->w + x], sides[side]);
            c->errors++;
        }
}

/* map_def::has_exit's test: the map's own edge, or a neighbour that is not
 * a cell of the map. */
static int on_map_edge(const crawl_check *k, int x, int y)
{
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    for (int i = 0; i < 4; i++) {
        int nx = x + dx[i], ny = y + dy[i];
        if (nx < 0 || ny < 0 || nx >= k->w || ny >= k->h || !(at(k, nx, ny) & IN_MAP))
            return 1;
    }
    return 0;
}

/* mapdef.cc map_def::has_exit, which validate_map_def asks of every map
 * but an encompass, unrand, dummy or no_exits one: a stair (not a hatch)
 * anywhere, or on the map's edge an '@', '=' or '+', a cell that is not
 * solid, or a closed door. Without one the game refuses to load the map. */
static void check_has_exit(crawl_check *k)
{
    place_check *c = k->c;
    if (c->orient == OR_ENCOMPASS || (c->tags & (TAG_UNRAND | TAG_DUMMY | TAG_NO_EXITS)))
        return;
    const unsigned char *glyphs = qg_level_glyphs(c->level);
    for (int y = 0; y < k->h; y++)
        for (int x = 0; x < k->w; x++) {
            unsigned f = at(k, x, y);
            unsigned char g = glyphs[y * k->w + x];
            if (!(f & IN_MAP))
                continue;
            if ((f & CRAWL_STAIR) ||
                ((g == '@' || g == '=' || g == '+' || !(f & CRAWL_SOLID) ||
                  (f & CRAWL_CLOSED_DOOR)) && on_map_edge(k, x, y)))
                return;
        }
    place_diag(c->diags, QG_ERROR, c->level,
               "map '%s' has no exit: Crawl refuses to load it (\"has no (possible) exits; "
               "use TAGS: no_exits if this is intentional\", mapdef.cc map_def::has_exit)",
               c->name);
    c->errors++;
}

static int bit_count(unsigned bits)
{
    int n = 0;
    for (; bits; bits &= bits - 1)
        n++;
    return n;
}

/* A map made only for the tutorial (a tag starting "tutorial": maps.cc
 * map_selector::accept) is built outside the standard level generation,
 * which alone fixes stairs up (dungeon.cc game_standard_levelgen). */
static int tutorial_only(const place_check *c)
{
    const char *tags = qg_level_get_property(c->level, "tags");
    for (const char *t = tags; t && (t = strstr(t, "tutorial")); t += 8)
        if (t == tags || t[-1] == ' ')
            return 1;
    return 0;
}

static void count_stairs(const crawl_check *k, int *up, int *down)
{
    *up = *down = 0;
    for (int i = 0; i < k->w * k->h; i++) {
        *up += (k->cells[i] & CRAWL_UP) != 0;
        *down += (k->cells[i] & CRAWL_DOWN) != 0;
    }
}

static void tell_stairs(place_check *c, const char *way, int have, int need)
{
    const stair_rule *r = &c->stairs;
    const char *game = qg_branches_game(r->branches);
    char levels[48];
    if (r->levels == 1)
        snprintf(levels, sizeof levels, "the level");
    else
        snprintf(levels, sizeof levels, "all %zu levels", r->levels);
    if (have == 0)
        place_diag(c->diags, QG_WARNING, c->level,
                   "encompass map '%s' has no stone stair %s, which %s its DEPTH and PLACE "
                   "hold in %s need%s: Crawl adds none (dungeon.cc _fixup_stone_stairs) and "
                   "throws away each level it builds with the map "
                   "(_fixup_interlevel_connectivity)",
                   c->name, way, levels, game, r->levels == 1 ? "s" : "");
    else
        place_diag(c->diags, QG_WARNING, c->level,
                   "encompass map '%s' has %d of the %d stone stairs %s %s its DEPTH and "
                   "PLACE hold in %s ha%s: Crawl puts the other %d on random floor cells of "
                   "the map (dungeon.cc _fixup_stone_stairs)",
                   c->name, have, need, way, levels, game, r->levels == 1 ? "s" : "ve",
                   need - have);
}

/* dungeon.cc _fixup_stone_stairs: a level has 3 stone stairs up (1 on a
 * branch's first level and in a hell) and 3 down (1 in a hell, none on a
 * branch's last level), what a map lacks being added on random floor --
 * none when it has no stair of that way, and then
 * _fixup_interlevel_connectivity throws the level away. Only the number
 * counts: Crawl renumbers the stairs it keeps. Which levels need what is
 * the branch table's (des_branch_stairs). Returns 1 when the map has all
 * it needs and a down stair is among them. */
static int check_encompass_stairs(crawl_check *k)
{
    place_check *c = k->c;
    const stair_rule *r = &c->stairs;
    if ((c->tags & TAG_OVERWRITABLE) || tutorial_only(c))
        return 0;
    int up, down;
    count_stairs(k, &up, &down);
    if (!r->levels) {
        if (up < 3 || down < 3)
            place_diag(c->diags, QG_NOTE, c->level,
                       "encompass map '%s' has %d stone stair%s up and %d down; its DEPTH and "
                       "PLACE hold no level of %s, so how many it must place is not known",
                       c->name, up, up == 1 ? "" : "s", down, qg_branches_game(r->branches));
        return 0;
    }
    int need_up = bit_count(r->required & DES_UP_ALL);
    int need_down = bit_count(r->required & DES_DOWN_ALL);
    if (up < need_up)
        tell_stairs(c, "up", up, need_up);
    if (down < need_down)
        tell_stairs(c, "down", down, need_down);
    return up >= need_up && down >= need_down && need_down > 0;
}

/* The level's regions as dungeon.cc _dgn_fill_zone makes them for
 * _fixup_interlevel_connectivity: cells dgn_square_travel_ok passes,
 * joined to their eight neighbours. Returns the region of each cell (0:
 * none), or NULL when out of memory. */
static int *travel_regions(const crawl_check *k)
{
    size_t n = (size_t)k->w * (size_t)k->h;
    int *region = calloc(n + 1, sizeof *region), *queue = malloc((n + 1) * sizeof *queue);
    if (!region || !queue) {
        free(region);
        free(queue);
        return NULL;
    }
    int next = 0;
    for (size_t start = 0; start < n; start++) {
        if (region[start] || !(k->cells[start] & CRAWL_TRAVEL))
            continue;
        size_t head = 0, tail = 0;
        region[start] = ++next;
        queue[tail++] = (int)start;
        while (head < tail) {
            int cell = queue[head++], x = cell % k->w, y = cell / k->w;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = x + dx, ny = y + dy;
                    if (nx < 0 || ny < 0 || nx >= k->w || ny >= k->h ||
                        region[ny * k->w + nx] || !(at(k, nx, ny) & CRAWL_TRAVEL))
                        continue;
                    region[ny * k->w + nx] = next;
                    queue[tail++] = ny * k->w + nx;
                }
        }
    }
    free(queue);
    return region;
}

/* dungeon.cc _fixup_interlevel_connectivity (a connected branch, not at
 * its last level): unless some stone stair up shares its region with a
 * stone stair down, the level is thrown away. Checked when the map has
 * all its stairs, so that none is added at random. */
static void check_stairs_connected(crawl_check *k)
{
    int *region = travel_regions(k);
    if (!region)
        return;
    size_t n = (size_t)k->w * (size_t)k->h;
    int joined = 0;
    for (size_t u = 0; u < n && !joined; u++)
        for (size_t d = 0; (k->cells[u] & CRAWL_UP) && d < n && !joined; d++)
            joined = (k->cells[d] & CRAWL_DOWN) && region[d] == region[u];
    free(region);
    if (!joined)
        place_diag(k->c->diags, QG_WARNING, k->c->level,
                   "encompass map '%s': no stone stair up can be walked to a stone stair down, "
                   "so Crawl throws away each level it builds with the map "
                   "(dungeon.cc _fixup_interlevel_connectivity)",
                   k->c->name);
}

void check_crawl_rules(place_check *c)
{
    crawl_check k;
    if (!read_cells(&k, c)) {
        place_diag(c->diags, QG_ERROR, c->level, "out of memory checking map '%s'", c->name);
        c->errors++;
        return;
    }
    check_border(&k);
    check_has_exit(&k);
    if (c->orient == OR_ENCOMPASS && check_encompass_stairs(&k))
        check_stairs_connected(&k);
    free(k.cells);
}

/* Validation of resolved maps: the Lua helpers has_exit_from_glyph and
 * glyphs_connected, and the checks designers are asked to pass. */
#include "place/internal.h"
#include "des/branches.h"

#include <stdlib.h>
#include <string.h>

/* A walkability view of a level: cells of the map, what is walkable
 * (doors are; deep water and lava are not), and what is on the edge. */
typedef struct walk_grid {
    int w, h;
    unsigned char *part, *walk;
    int *queue;
    unsigned char *seen;
} walk_grid;

static void walk_free(walk_grid *g)
{
    free(g->part);
    free(g->walk);
    free(g->queue);
    free(g->seen);
}

static int walk_build(walk_grid *g, const qg_level *level)
{
    g->w = qg_level_width(level);
    g->h = qg_level_height(level);
    size_t n = (size_t)g->w * (size_t)g->h;
    g->part = calloc(n, 1);
    g->walk = calloc(n, 1);
    g->queue = malloc(n * sizeof *g->queue);
    g->seen = calloc(n, 1);
    if (!g->part || !g->walk || !g->queue || !g->seen) {
        walk_free(g);
        return 0;
    }
    qg_cell c;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            qg_level_cell(level, x, y, &c);
            size_t at = (size_t)y * (size_t)g->w + (size_t)x;
            g->part[at] = c.in_map && c.glyph != ' ';
            uint32_t cls = qg_cell_class(&c);
            g->walk[at] = g->part[at] &&
                !(cls & (QG_FEAT_SOLID | QG_FEAT_DEEP_WATER | QG_FEAT_LAVA));
        }
    return 1;
}

static const int dx4[4] = {0, 1, 0, -1}, dy4[4] = {-1, 0, 1, 0};

static int on_edge(const walk_grid *g, int at)
{
    int x = at % g->w, y = at / g->w;
    for (int k = 0; k < 4; k++) {
        int nx = x + dx4[k], ny = y + dy4[k];
        if (nx < 0 || ny < 0 || nx >= g->w || ny >= g->h || !g->part[ny * g->w + nx])
            return 1;
    }
    return 0;
}

/* Walks from the start cells; returns the first cell for which goal says
 * yes, or -1. */
static int walk_search(walk_grid *g, const int *starts, size_t nstarts,
                       int (*goal)(const walk_grid *g, int at, const void *ctx),
                       const void *ctx)
{
    size_t head = 0, tail = 0;
    memset(g->seen, 0, (size_t)g->w * (size_t)g->h);
    for (size_t i = 0; i < nstarts; i++) {
        g->seen[starts[i]] = 1;
        g->queue[tail++] = starts[i];
    }
    while (head < tail) {
        int at = g->queue[head++];
        if (goal(g, at, ctx))
            return at;
        int x = at % g->w, y = at / g->w;
        for (int k = 0; k < 4; k++) {
            int nx = x + dx4[k], ny = y + dy4[k];
            if (nx < 0 || ny < 0 || nx >= g->w || ny >= g->h)
                continue;
            int n = ny * g->w + nx;
            if (g->seen[n] || (!g->walk[n] && !goal(g, n, ctx)))
                continue;
            g->seen[n] = 1;
            g->queue[tail++] = n;
        }
    }
    return -1;
}

static int goal_edge(const walk_grid *g, int at, const void *ctx)
{
    (void)ctx;
    return g->walk[at] && on_edge(g, at);
}

static int goal_cell(const walk_grid *g, int at, const void *ctx)
{
    (void)g;
    return at == *(const int *)ctx;
}

static int first_glyph(const qg_level *level, unsigned char glyph)
{
    int n = qg_level_width(level) * qg_level_height(level);
    const unsigned char *g = qg_level_glyphs(level), *in = qg_level_in_map(level);
    for (int i = 0; i < n; i++)
        if (in[i] && g[i] == glyph)
            return i;
    return -1;
}

int qg_level_has_exit_from_glyph(const qg_level *level, unsigned char glyph)
{
    int n = qg_level_width(level) * qg_level_height(level);
    const unsigned char *g = qg_level_glyphs(level), *in = qg_level_in_map(level);
    size_t count = 0;
    for (int i = 0; i < n; i++)
        count += in[i] && g[i] == glyph;
    if (!count)
        return 0;
    int *starts = malloc(count * sizeof *starts);
    walk_grid grid;
    if (!starts || !walk_build(&grid, level)) {
        free(starts);
        return 0;
    }
    count = 0;
    for (int i = 0; i < n; i++)
        if (in[i] && g[i] == glyph)
            starts[count++] = i;
    int found = walk_search(&grid, starts, count, goal_edge, NULL) >= 0;
    free(starts);
    walk_free(&grid);
    return found;
}

int qg_level_glyphs_connected(const qg_level *level, unsigned char g1, unsigned char g2)
{
    int from = first_glyph(level, g1), to = first_glyph(level, g2);
    if (from < 0 || to < 0)
        return 0;
    walk_grid grid;
    if (!walk_build(&grid, level))
        return 0;
    int found = walk_search(&grid, &from, 1, goal_cell, &to) >= 0;
    walk_free(&grid);
    return found;
}

/* ---- the designer checks ---------------------------------------------------- */

enum { GXM = 80, GYM = 70, MAPGEN_BORDER = 2, PADDING = 6 };

/* The stone stairs an encompass map must place: all six by the seed's
 * rule alone (no branch table), else those every level its DEPTH and
 * PLACE hold has (levels 0: they hold none of the table's levels). */
typedef struct stair_rule {
    const qg_branches *branches;
    unsigned required;
    size_t levels;
    int islanded;       /* the levels may have no stair of one way */
} stair_rule;

typedef struct checker {
    const qg_level *level;
    qg_diags *diags;
    size_t errors;
    const char *name;
    orient orient;
    int minivault;
    unsigned tags;
    int w, h;
    stair_rule stairs;
} checker;

static void check_size(checker *c)
{
    int maxw = GXM, maxh = GYM;
    if (c->minivault) {
        maxw = GXM - 2 * MAPGEN_BORDER;
        maxh = GYM - 2 * MAPGEN_BORDER;
    }
    if (c->w > maxw || c->h > maxh) {
        place_diag(c->diags, QG_ERROR, c->level, "map '%s' is too large: %dx%d (the limit is %dx%d)",
                   c->name, c->w, c->h, maxw, maxh);
        c->errors++;
        return;
    }
    switch (c->orient) {
    case OR_NORTH: case OR_SOUTH:
        maxw = GXM;
        maxh = GYM * 2 / 3;
        break;
    case OR_EAST: case OR_WEST:
        maxw = GXM * 2 / 3;
        maxh = GYM;
        break;
    case OR_ENCOMPASS:
        return;
    default:
        maxw = GXM * 2 / 3;
        maxh = GYM * 2 / 3;
    }
    if (c->w > maxw || c->h > maxh) {
        place_diag(c->diags, QG_ERROR, c->level,
                   "map '%s' is too large for ORIENT: %s: %dx%d (the limit is %dx%d)",
                   c->name, orient_name(c->orient), c->w, c->h, maxw, maxh);
        c->errors++;
    }
}

static const char *const side_names[4] = {"north", "south", "east", "west"};

/* Side 0..3 = N, S, E, W: PADDING rows or columns of wall from that edge. */
static int side_padded(const checker *c, int side, int *bx, int *by)
{
    int depth_max = side < 2 ? c->h : c->w;
    int len = side < 2 ? c->w : c->h;
    qg_cell cell;
    for (int d = 0; d < PADDING && d < depth_max; d++)
        for (int i = 0; i < len; i++) {
            int x = side < 2 ? i : (side == 2 ? c->w - 1 - d : d);
            int y = side < 2 ? (side == 0 ? d : c->h - 1 - d) : i;
            qg_level_cell(c->level, x, y, &cell);
            if (!cell.in_map || cell.glyph == ' ' || !(qg_cell_class(&cell) & QG_FEAT_WALL)) {
                *bx = x;
                *by = y;
                return 0;
            }
        }
    return 1;
}

/* Seed 000, section D "ORIENT": "if your map is ORIENT: north, you must
 * have a 6 deep border of rock wall ... along the northern, eastern, and
 * western edges of the map"; a corner map borders its two level edges,
 * an encompass map all four. Every edge short of it is reported. */
static void check_padding(checker *c)
{
    enum { N = 1, S = 2, E = 4, W = 8 };
    static const unsigned sides_of[OR_COUNT] = {
        N | E | W, S | E | W, E | N | S, W | N | S, N | W, N | E, S | W, S | E,
        N | S | E | W, 0, 0};
    unsigned sides = sides_of[c->orient];
    for (int s = 0; s < 4; s++) {
        int x, y;
        if ((sides & (1u << s)) && !side_padded(c, s, &x, &y))
            place_diag(c->diags, QG_WARNING, c->level,
                       "ORIENT: %s map '%s' needs %d rows of wall padding along its %s edge (cell %d,%d is not wall)",
                       orient_name(c->orient), c->name, PADDING, side_names[s], x, y);
    }
}

static int is_stair_glyph(unsigned char g)
{
    return g && strchr("{}()[]<>", g) != NULL;
}

static const char stair_glyphs[6] = {'{', '(', '[', '}', ')', ']'};

/* The stone stairs of the map, as DES_* bits; a branch exit ("exit_*")
 * counts as an up stair. */
static unsigned stairs_found(const checker *c, int *exit)
{
    static const char *const names[6] = {
        "stone_stairs_up_i", "stone_stairs_up_ii", "stone_stairs_up_iii",
        "stone_stairs_down_i", "stone_stairs_down_ii", "stone_stairs_down_iii"};
    unsigned found = 0;
    *exit = 0;
    qg_cell cell;
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) {
            qg_level_cell(c->level, x, y, &cell);
            if (!cell.in_map)
                continue;
            for (int i = 0; i < 6; i++)
                if (cell.feature_name ? strcmp(cell.feature_name, names[i]) == 0
                                      : cell.glyph == (unsigned char)stair_glyphs[i])
                    found |= 1u << i;
            if (cell.feature_name && strncmp(cell.feature_name, "exit_", 5) == 0)
                *exit = 1;
        }
    return found;
}

/* Seed 000, section D: "You do not have to place all of the stairs unless
 * the level is full screen, in which case you must place all except the
 * extra stairs" -- the stairs the level has. dungeon.cc _fixup_stone_stairs
 * gives a level three up and three down stone stairs, one up on a branch's
 * first level (made its exit: any up stair or an exit will do, the one
 * left is made _I) and no down on its last; a portal, the Abyss or
 * Pandemonium has none. It adds what a map lacks at random, so an
 * encompass map must place them itself -- except an overwritable layout,
 * whose floor the level builder still places stairs on (Crawl keeps such
 * layouts out of MMT_VAULT, as vault.c does), and, in an islanded branch
 * (the Tomb), a way with no stair at all: Crawl leaves it so and the map
 * goes on by hatches. */
static void check_encompass_stairs(checker *c)
{
    if (c->tags & TAG_OVERWRITABLE)
        return;
    int exit;
    unsigned found = stairs_found(c, &exit);
    const stair_rule *rule = &c->stairs;
    unsigned required = rule->branches && rule->levels ? rule->required : DES_STAIRS_ALL;
    if ((required & DES_UP_ALL) == DES_UP_I && ((found & DES_UP_ALL) || exit))
        found |= DES_UP_I;
    if (rule->islanded && rule->levels)
        for (unsigned way = DES_UP_ALL; way; way = way == DES_UP_ALL ? DES_DOWN_ALL : 0)
            if (!(found & way))
                required &= ~way;
    char missing[8];
    size_t n = 0;
    for (int i = 0; i < 6; i++)
        if ((required & ~found) & (1u << i))
            missing[n++] = stair_glyphs[i];
    missing[n] = '\0';
    if (!n)
        return;
    if (!rule->branches)
        place_diag(c->diags, QG_WARNING, c->level,
                   "encompass map '%s' lacks the stairs %s (a full-level map must place all but < and >)",
                   c->name, missing);
    else if (!rule->levels)
        place_diag(c->diags, QG_NOTE, c->level,
                   "encompass map '%s' lacks the stairs %s; its DEPTH and PLACE hold no level "
                   "of %s, so which stairs it must place is not known", c->name, missing,
                   qg_branches_game(rule->branches));
    else
        place_diag(c->diags, QG_WARNING, c->level,
                   "encompass map '%s' lacks the stairs %s, which all %zu level%s its DEPTH "
                   "and PLACE hold in %s have (a full-level map must place them)",
                   c->name, missing, rule->levels, rule->levels == 1 ? "" : "s",
                   qg_branches_game(rule->branches));
}

static int is_hatch(const qg_cell *cell)
{
    if (cell->feature_name)
        return strstr(cell->feature_name, "hatch") != NULL;
    return cell->glyph == '<' || cell->glyph == '>';
}

/* mapdef.cc map_def::has_exit: a non-hatch stair, or a walkable cell, door
 * or '@' on the map's edge. Seed 000, section D "Features" ('@'): a float
 * map without one "will be isolated" -- placed sealed, which is told; Crawl
 * itself wants TAGS: no_exits then. */
static void check_has_exit(checker *c, const walk_grid *g)
{
    if (c->orient == OR_ENCOMPASS || (c->tags & (TAG_UNRAND | TAG_DUMMY | TAG_NO_EXITS)))
        return;
    qg_cell cell;
    for (int at = 0; at < c->w * c->h; at++) {
        if (!g->part[at])
            continue;
        qg_level_cell(c->level, at % c->w, at / c->w, &cell);
        uint32_t cls = qg_cell_class(&cell);
        if (((cls & QG_FEAT_STAIRS) && !is_hatch(&cell)) ||
            (on_edge(g, at) && (!(cls & QG_FEAT_SOLID) || (cls & QG_FEAT_DOOR))))
            return;
    }
    if (c->orient == OR_FLOAT && !c->minivault) {
        place_diag(c->diags, QG_WARNING, c->level,
                   "map '%s' has no exit: it is placed isolated, as the seed documents "
                   "say; Crawl refuses such a map unless it has TAGS: no_exits",
                   c->name);
        return;
    }
    place_diag(c->diags, QG_ERROR, c->level, "map '%s' has no exit", c->name);
    c->errors++;
}

static void check_reachable(checker *c, walk_grid *g)
{
    const unsigned char *glyph = qg_level_glyphs(c->level);
    int first = -1;
    for (int at = 0; at < c->w * c->h; at++) {
        if (!g->part[at])
            continue;
        if (glyph[at] == '@' && !on_edge(g, at))
            place_diag(c->diags, QG_WARNING, c->level,
                       "exit '@' of map '%s' at %d,%d is inside the map, where no corridor can reach it",
                       c->name, at % c->w, at / c->w);
        if (!is_stair_glyph(glyph[at]))
            continue;
        int reached;
        if (c->orient == OR_ENCOMPASS) {
            if (first < 0) {
                first = at;
                continue;
            }
            reached = walk_search(g, &first, 1, goal_cell, &at) >= 0;
        } else {
            reached = walk_search(g, &at, 1, goal_edge, NULL) >= 0;
        }
        if (!reached)
            place_diag(c->diags, QG_WARNING, c->level,
                       c->orient == OR_ENCOMPASS
                           ? "stairs '%c' of map '%s' at %d,%d cannot be reached from the other stairs"
                           : "stairs '%c' of map '%s' at %d,%d cannot be reached from the map's edge",
                       glyph[at], c->name, at % c->w, at / c->w);
    }
}

static size_t check_placement(const qg_level *level, const stair_rule *stairs,
                              qg_diags *diags)
{
    checker c = {level, diags, 0, qg_level_name(level) ? qg_level_name(level) : "",
                 OR_FLOAT, 0, 0, qg_level_width(level), qg_level_height(level), *stairs};
    if (!orient_parse(qg_level_get_property(level, "orient"), &c.orient, &c.minivault)) {
        place_diag(diags, QG_ERROR, level, "map '%s' has an unknown ORIENT '%s'", c.name,
                   qg_level_get_property(level, "orient"));
        return 1;
    }
    c.tags = tags_parse(qg_level_get_property(level, "tags"));
    if (c.tags & TAG_MINIVAULT)
        c.minivault = 1;
    check_size(&c);
    if (orient_is_edge(c.orient) || c.orient == OR_ENCOMPASS)
        check_padding(&c);
    if (c.orient == OR_ENCOMPASS)
        check_encompass_stairs(&c);
    walk_grid g;
    if (!walk_build(&g, level)) {
        place_diag(diags, QG_ERROR, level, "out of memory checking map '%s'", c.name);
        return c.errors + 1;
    }
    check_has_exit(&c, &g);
    check_reachable(&c, &g);
    walk_free(&g);
    return c.errors;
}

size_t qg_level_check_placement(const qg_level *level, qg_diags *diags)
{
    stair_rule seed = {NULL, DES_STAIRS_ALL, 0, 0};
    return check_placement(level, &seed, diags);
}

size_t qg_level_check_placement_at(const qg_level *level, const qg_branches *branches,
                                   const char *depth, const char *place, qg_diags *diags)
{
    stair_rule rule = {branches, DES_STAIRS_ALL, 0, 0};
    if (branches)
        rule.required = des_branches_common_stairs(branches, depth, place, &rule.levels,
                                                   &rule.islanded);
    return check_placement(level, &rule, diags);
}

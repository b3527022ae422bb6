/* The placement rules of the seed documents (Crawl 0.4 and 0.5, read with
 * --legacy): what a designer of that era was asked to pass. */
#include "place/internal.h"
#include "des/branches.h"

#include <string.h>

enum { PADDING = 6 };

static const char *const side_names[4] = {"north", "south", "east", "west"};

/* Side 0..3 = N, S, E, W: PADDING rows or columns of wall from that edge. */
static int side_padded(const place_check *c, int side, int *bx, int *by)
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
static void check_padding(place_check *c)
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

/* The stone stairs of the map, as DES_* bits. */
static unsigned stairs_found(const place_check *c)
{
    static const char *const names[6] = {
        "stone_stairs_up_i", "stone_stairs_up_ii", "stone_stairs_up_iii",
        "stone_stairs_down_i", "stone_stairs_down_ii", "stone_stairs_down_iii"};
    unsigned found = 0;
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
        }
    return found;
}

/* Seed 000, section D: "You do not have to place all of the stairs unless
 * the level is full screen, in which case you must place all except the
 * extra stairs". An overwritable layout is exempt: the level builder
 * still places stairs on its floor. */
static void check_encompass_stairs(place_check *c)
{
    if (c->tags & TAG_OVERWRITABLE)
        return;
    unsigned missing_bits = DES_STAIRS_ALL & ~stairs_found(c);
    char missing[8];
    size_t n = 0;
    for (int i = 0; i < 6; i++)
        if (missing_bits & (1u << i))
            missing[n++] = stair_glyphs[i];
    missing[n] = '\0';
    if (n)
        place_diag(c->diags, QG_WARNING, c->level,
                   "encompass map '%s' lacks the stairs %s (a full-level map must place all but < and >)",
                   c->name, missing);
}

static int is_hatch(const qg_cell *cell)
{
    if (cell->feature_name)
        return strstr(cell->feature_name, "hatch") != NULL;
    return cell->glyph == '<' || cell->glyph == '>';
}

static int is_teleport_trap(const qg_cell *cell)
{
    return cell->feature_name && strstr(cell->feature_name, "teleport") &&
           strstr(cell->feature_name, "trap");
}

/* What gets a player into a map with no way in on its edge: a stair (the
 * player arrives on it) or a teleport trap inside (a player teleported in
 * is taken out by it, and the seed-era vaults sealed around one --
 * lemuel_jelly_drop_b, lemuel_golem_globe -- are made to be entered so). */
static int has_way_in(const place_check *c, const walk_grid *g)
{
    qg_cell cell;
    for (int at = 0; at < c->w * c->h; at++) {
        if (!g->part[at])
            continue;
        qg_level_cell(c->level, at % c->w, at / c->w, &cell);
        uint32_t cls = qg_cell_class(&cell);
        if (((cls & QG_FEAT_STAIRS) && !is_hatch(&cell)) || is_teleport_trap(&cell) ||
            (walk_on_edge(g, at) && (!(cls & QG_FEAT_SOLID) || (cls & QG_FEAT_DOOR))))
            return 1;
    }
    return 0;
}

/* Seed 000, section D "Features" ('@'): a map without one "will be
 * isolated". Crawl 0.4 and 0.5 check no exit when they load a map: such a
 * map is placed sealed (dungeon.cc _pick_float_exits finds none), which is
 * told. A map of one cell, or a transparent one, stands in the level's
 * own floor and needs none. */
static void check_isolated(place_check *c, const walk_grid *g)
{
    if (c->orient == OR_ENCOMPASS || (c->tags & (TAG_UNRAND | TAG_DUMMY | TAG_NO_EXITS |
                                                 TAG_TRANSPARENT)) ||
        c->w * c->h == 1 || has_way_in(c, g))
        return;
    place_diag(c->diags, QG_WARNING, c->level,
               "map '%s' has no exit: it is placed isolated, as the seed documents "
               "say; Crawl 0.28 and later refuse such a map unless it has TAGS: no_exits",
               c->name);
}

static void check_reachable(place_check *c, walk_grid *g)
{
    const unsigned char *glyph = qg_level_glyphs(c->level);
    int first = -1;
    for (int at = 0; at < c->w * c->h; at++) {
        if (!g->part[at])
            continue;
        if (glyph[at] == '@' && !walk_on_edge(g, at))
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
            reached = walk_search(g, &first, 1, walk_goal_cell, &at) >= 0;
        } else {
            reached = walk_search(g, &at, 1, walk_goal_edge, NULL) >= 0;
        }
        if (!reached)
            place_diag(c->diags, QG_WARNING, c->level,
                       c->orient == OR_ENCOMPASS
                           ? "stairs '%c' of map '%s' at %d,%d cannot be reached from the other stairs"
                           : "stairs '%c' of map '%s' at %d,%d cannot be reached from the map's edge",
                       glyph[at], c->name, at % c->w, at / c->w);
    }
}

void check_seed_rules(place_check *c, walk_grid *g)
{
    if (orient_is_edge(c->orient) || c->orient == OR_ENCOMPASS)
        check_padding(c);
    if (c->orient == OR_ENCOMPASS)
        check_encompass_stairs(c);
    check_isolated(c, g);
    check_reachable(c, g);
}

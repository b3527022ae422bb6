/* The checks a resolved map is asked to pass before a game places it: its
 * size for its ORIENT (every era), then the rules of its era -- the seed
 * documents' when no branch table is given, else those of the game the
 * table is of. */
#include "place/internal.h"
#include "des/branches.h"

/* mapdef.cc map_def::validate_map_def: a minivault within the level less
 * MAPGEN_BORDER on each side, any other map within the level, and the
 * share of it each ORIENT may take. */
static void check_size(place_check *c)
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

static size_t check_placement(const qg_level *level, const stair_rule *stairs,
                              qg_diags *diags)
{
    place_check c = {level, diags, 0, qg_level_name(level) ? qg_level_name(level) : "",
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
    if (stairs->branches) {
        check_crawl_rules(&c);
        return c.errors;
    }
    walk_grid g;
    if (!walk_build(&g, level)) {
        place_diag(diags, QG_ERROR, level, "out of memory checking map '%s'", c.name);
        return c.errors + 1;
    }
    check_seed_rules(&c, &g);
    walk_free(&g);
    return c.errors;
}

size_t qg_level_check_placement(const qg_level *level, qg_diags *diags)
{
    stair_rule seed = {NULL, DES_STAIRS_ALL, 0};
    return check_placement(level, &seed, diags);
}

size_t qg_level_check_placement_at(const qg_level *level, const qg_branches *branches,
                                   const char *depth, const char *place, qg_diags *diags)
{
    stair_rule rule = {branches, DES_STAIRS_ALL, 0};
    if (branches)
        rule.required = des_branches_common_stairs(branches, depth, place, &rule.levels);
    return check_placement(level, &rule, diags);
}

/* What Crawl says of a map cell's feature, for the checks that follow the
 * game's own rules: the flags of feature-data.h and the predicates of
 * terrain.cc and travel.cc, by the feature's vault name, as Crawl 0.28 and
 * current Crawl have them (current Crawl adds the metal and Zot statues,
 * the spike launcher and the frigid wall, named here too). A cell known by
 * its glyph alone takes the feature Crawl's glyph table gives it. */
#include "place/internal.h"
#include "des/glyphs.h"

#include <string.h>

static int named(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(name, *list) == 0)
            return 1;
    return 0;
}

static int starts(const char *name, const char *head)
{
    return strncmp(name, head, strlen(head)) == 0;
}

/* FFT_WALL: every wall's vault name ends in "wall" ("rock_wall", current
 * Crawl's "frigid wall"), and no other feature's does. */
static int is_wall(const char *name)
{
    size_t n = strlen(name);
    return n >= 4 && strcmp(name + n - 4, "wall") == 0;
}

/* feat_is_tree */
static const char *const trees[] = {"tree", "mangrove", "demonic_tree", "petrified_tree",
                                    NULL};
/* feat_is_valid_border, besides walls and trees */
static const char *const seas[] = {"open_sea", "endless_lava", "endless_salt", NULL};
/* feat_is_closed_door; the sealed ones travel cannot pass (feat_is_sealed) */
static const char *const closed_doors[] = {"closed_door", "runed_door", "closed_clear_door",
                                           "runed_clear_door", NULL};
static const char *const sealed_doors[] = {"sealed_door", "sealed_clear_door", NULL};
/* FFT_SOLID, besides walls, trees, seas and closed doors */
static const char *const other_solids[] = {"unseen", "iron_grate", "orcish_idol",
                                           "granite_statue", "metal_statue", "zot_statue",
                                           "malign_gateway", "spike_launcher", NULL};
/* the traps dgn_square_travel_ok keeps travel off */
static const char *const untravelled_traps[] = {
    "trap_teleport_permanent", "permanent teleport trap", "trap_dispersal", "dispersal trap",
    NULL};

/* feat_is_stair: stone stairs, hatches, branch and portal entrances and
 * exits, and the gates (the Abyss's stair, Pandemonium's transit); a shop
 * is not one. */
static unsigned stair_kind(const char *name)
{
    if (starts(name, "stone_stairs_up_"))
        return CRAWL_STAIR | CRAWL_UP;
    if (starts(name, "stone_stairs_down_"))
        return CRAWL_STAIR | CRAWL_DOWN;
    if (starts(name, "escape_hatch_"))
        return CRAWL_HATCH;
    if (starts(name, "exit_"))
        return CRAWL_STAIR | CRAWL_EXIT;
    if ((starts(name, "enter_") && strcmp(name, "enter_shop") != 0) ||
        strcmp(name, "abyssal_stair") == 0 || strcmp(name, "transit_pandemonium") == 0)
        return CRAWL_STAIR;
    return 0;
}

static unsigned flags_of(const char *name)
{
    unsigned f = stair_kind(name);
    if (is_wall(name) || named(name, trees) || named(name, seas))
        f |= CRAWL_SOLID | CRAWL_BORDER;
    else if (named(name, closed_doors))
        f |= CRAWL_SOLID | CRAWL_CLOSED_DOOR | CRAWL_TRAVEL;
    else if (named(name, sealed_doors))
        f |= CRAWL_SOLID | CRAWL_CLOSED_DOOR;
    else if (named(name, other_solids))
        f |= CRAWL_SOLID;
    /* feat_has_solid_floor: not solid, nor deep water, nor lava */
    else if (strcmp(name, "deep_water") != 0 && strcmp(name, "lava") != 0 &&
             !named(name, untravelled_traps))
        f |= CRAWL_TRAVEL;
    return f;
}

unsigned crawl_feature(const qg_cell *cell)
{
    const char *name = cell->feature_name;
    if (!name || !*name)
        name = des_glyph_info(cell->glyph)->feature;
    return name ? flags_of(name) : 0;
}

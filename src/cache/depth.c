/* Crawl's depth_ranges::is_usable_in over the .des front end's own DEPTH
 * parser: a place ("D:5", "Lair:$", "Zot", or a bare absolute depth) is
 * usable when some range holds it and no deny range ("!") does. "$" is a
 * branch's last level: a numbered place is never known to be past it, so
 * "Br:a-$" holds every level from a on, and "Br:$" holds only "Br:$". A
 * whole-branch place ("Zot") is held by any range of that branch. */
#include "cache/depth.h"
#include "des/directives.h"

#include <string.h>
#include <strings.h>

static int holds(const des_range *r, const des_range *p)
{
    if (r->any_branch)
        return 1;
    if (r->absolute != p->absolute ||
        (!r->absolute && strcasecmp(r->branch, p->branch) != 0))
        return 0;
    if (p->lo == 1 && p->hi == -1)
        return 1;
    if (p->lo == -1 || r->lo == -1)
        return p->lo == -1 && r->hi == -1;
    return p->lo >= r->lo && (r->hi == -1 || p->lo <= r->hi);
}

int qgc_depth_matches(const char *ranges, const char *place)
{
    if (!ranges || !place)
        return 0;
    qg_arena arena;
    qg_arena_init(&arena);
    des_ranges have, want;
    des_spec_error err;
    int usable = 0;
    if (des_parse_ranges(&arena, ranges, strlen(ranges), &have, &err) == DES_PARSE_OK &&
        des_parse_ranges(&arena, place, strlen(place), &want, &err) == DES_PARSE_OK &&
        want.count == 1 && !want.items[0].deny && !want.items[0].any_branch) {
        for (size_t i = 0; i < have.count; i++) {
            if (!holds(&have.items[i], &want.items[0]))
                continue;
            if (have.items[i].deny) {
                usable = 0;
                break;
            }
            usable = 1;
        }
    }
    qg_arena_free(&arena);
    return usable;
}

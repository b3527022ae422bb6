/* A game's branch table (lib/des/vocab/<game>/branches.txt), shared by the
 * Lua runtime (you.branch, you.absdepth, dgn.br_depth...), the place checks
 * (--place, DEPTH, PLACE) and the placement check (which stairs a map's
 * levels have). */
#ifndef QG_DES_BRANCHES_H
#define QG_DES_BRANCHES_H

#include "questgrid/des.h"

typedef struct des_branch {
    const char *name;       /* the abbreviation: "D", "Lair", "IceCv" */
    int levels;
    int absdepth;           /* you.absdepth() on level N is absdepth + N */
    int stairs;             /* DES_STAIRS_* */
    const char *aliases[4]; /* the short and long names */
    size_t alias_count;
} des_branch;

struct qg_branches {
    char *label;            /* the game, or the file parsed */
    char *text;
    des_branch *items;
    size_t count, cap;
};

/* Crawl's branch_by_abbrevname (DEPTH, PLACE): the abbreviation, exact
 * case. NULL when there is none. */
const des_branch *des_branch_by_abbrev(const qg_branches *t, const char *name, size_t len);
/* you.in_branch's lookup (and --place's): the abbreviation, the short or
 * the long name, any case. */
const des_branch *des_branch_by_any_name(const qg_branches *t, const char *name, size_t len);
/* The branch name closest to name, for a hint; NULL when none is close. */
const char *des_branch_closest(const qg_branches *t, const char *name, size_t len,
                               size_t *best_len);

/* branches.txt's STAIRS: none; stone; hell (stone, one of each way);
 * islanded (Crawl fixes no stairs: the Tomb). */
enum { DES_STAIRS_NONE, DES_STAIRS_STONE, DES_STAIRS_HELL, DES_STAIRS_ISLANDED };

/* The stone stairs of a level, as bits; the stairs of one way are nested
 * (I, then II and III), so that their number is what counts. */
enum {
    DES_UP_I = 1, DES_UP_II = 2, DES_UP_III = 4,
    DES_DOWN_I = 8, DES_DOWN_II = 16, DES_DOWN_III = 32,
    DES_UP_ALL = 7, DES_DOWN_ALL = 56, DES_STAIRS_ALL = 63
};
/* The stone stairs level depth of b has after dungeon.cc
 * _fixup_stone_stairs: 3 up (1 on level 1 and in a hell), 3 down (1 in a
 * hell, none on the last level); none where Crawl fixes none. */
unsigned des_branch_stairs(const des_branch *b, int depth);

/* The stairs every level held by depth or place (a map's DEPTH and PLACE
 * lists, "D:2-4, !D:3, Lair, 5-10"; either may be NULL) has; *levels says
 * how many levels of the table they hold (0: none, and the stairs are
 * DES_STAIRS_ALL). */
unsigned des_branches_common_stairs(const qg_branches *t, const char *depth, const char *place,
                                    size_t *levels);

/* The levels a map belongs on, for resolving it where the game would:
 * the first level of each range of its PLACE, then of its DEPTH, in the
 * order written (one a "!" range denies passed over), each once, at most
 * max ("D:14", "Depths:2"). */
#define DES_PLACE_SIZE 40
size_t des_branches_home_levels(const qg_branches *t, const char *depth, const char *place,
                                char (*out)[DES_PLACE_SIZE], size_t max);

#endif

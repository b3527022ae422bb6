/* The level around the map: Crawl's env.grid, the 80x70 dungeon that its
 * level-wide layouts (layout_basic, layout_shoals, …) build and that
 * dgn.grid reads and writes. It starts as rock, as a fresh Crawl level
 * does, lives for one run of a map, and when a map with no grid of its
 * own has built it, the level is what the map resolves to. Cells hold
 * glyphs: a feature with a .des glyph of its own is that glyph, any other
 * (mangrove, open_sea, shaft, …) a private glyph named in the level. */
#ifndef QG_LUA_LEVEL_H
#define QG_LUA_LEVEL_H

#include "lua/rt.h"

/* Maps a level builder may place on one level. */
#define LRT_LEVEL_MAPS 128

typedef struct lrt_level {
    unsigned char grid[LRT_MAX_HEIGHT][LRT_MAX_WIDTH];
    char *names[LRT_GLYPHS];   /* the feature of a private glyph, else NULL */
    int built;                 /* written by a layout, dgn.grid or a placed map */
    /* maps drawn on the level (dgn.place_map, dgn.reuse_map), owned by the
     * run (run_maps.c): a cell one drew holds its glyph, owner its index
     * + 1 and inner which of its merged subvaults the glyph belongs to */
    lrt_map *placed[LRT_LEVEL_MAPS];
    size_t placed_count;
    unsigned char owner[LRT_MAX_HEIGHT][LRT_MAX_WIDTH];
    unsigned char inner[LRT_MAX_HEIGHT][LRT_MAX_WIDTH];
    lrt_map *marks;            /* the placed maps' marks, at level cells */
    char feature[96];          /* a cell's feature name, as last asked for */
} lrt_level;

/* What the layouts ask of a feature, per glyph. */
typedef struct lrt_feature_class {
    unsigned char wall[LRT_GLYPHS];     /* Crawl's feat_is_wall */
    unsigned char solid[LRT_GLYPHS];    /* feat_is_solid */
    unsigned char to_floor[LRT_GLYPHS]; /* numbered up to DNGN_FLOOR: a room
                                           may be carved through it */
} lrt_feature_class;

/* The running operation's level, made (all rock) on first use; raises a
 * Lua error when memory runs out. */
lrt_level *lrt_level_get(lua_State *L);
/* Frees the level at the end of a run (not the maps placed on it). */
void lrt_level_free(qg_runtime *rt);
/* Draws a resolved map on the level with its top left at (x, y): every
 * cell of it that is not outside (' ') and lies on the level, and its
 * marks. Raises a Lua error past LRT_LEVEL_MAPS maps. */
void lrt_level_place(lua_State *L, lrt_level *level, lrt_map *map, int x, int y);
/* The feature of a level cell, whoever drew it (valid until the next
 * call for the level). */
const char *lrt_level_cell_feature(lrt_level *level, int x, int y);
/* The Crawl feature a level glyph stands for. */
const char *lrt_level_feature(const lrt_level *level, unsigned char glyph);
/* The glyph for a feature: its own .des glyph, else a private one (raises
 * a Lua error when the private glyphs run out). */
unsigned char lrt_level_glyph(lua_State *L, lrt_level *level, const char *feature);
void lrt_level_classes(const lrt_level *level, lrt_feature_class *cls);
/* features.c: feature-name tests shared with feat.* (the words Crawl's
 * feature names carry). */
int lrt_feature_is_wall(const char *name);
int lrt_feature_is_solid(const char *name);
/* A feature argument at index i: a name, or a number dgn.feature_number
 * gave. */
const char *lrt_feature_arg(lua_State *L, int i);
/* Pushes dgn.feature_number(name). */
int lrt_push_feature_number(lua_State *L, const char *name);
/* feat.*'s argument: the feature at x, y on the level when given two
 * numbers, else a feature argument at index 1. */
const char *lrt_feature_of_args(lua_State *L);
/* When the map has no grid and the level was built: the level becomes the
 * map's grid, each glyph keeping the feature it had on the level, the
 * maps placed on it becoming the map's subvaults (taken from the run). 0
 * when out of memory or past the subvault limit. */
int lrt_level_into_map(qg_runtime *rt, lrt_map *map);
/* walkable.c: the cells of a map a creature walks over (Crawl's flood
 * for has_exit_from, points_connected): lrt_walkable_tables leaves on the
 * stack, and returns, a table per glyph for the map and each subvault
 * merged into it. */
unsigned char *lrt_walkable_tables(lua_State *L, const lrt_map *map);
int lrt_walkable(const lrt_map *map, const unsigned char *tables, int x, int y);
/* The feature a glyph of the map will be: its KFEAT's first alternative,
 * floor under a KMONS or KITEM, else the glyph's own. */
const char *lrt_glyph_feature(const lrt_map *map, unsigned char glyph, char *buf,
                              size_t size);
/* run_maps.c: the maps a run resolves for its level builders (kept by
 * level_maps.c, the Lua objects for them in the registry under
 * RUN_MAPS_KEY), freed at the run's end unless the level's result took
 * them. */
#define RUN_MAPS_KEY "questgrid.run_maps"
struct lrt_run_map {
    lrt_map *map;
    void *ref;        /* the Lua object that reaches it */
    int resolved;     /* 0 for a map as the corpus gives it (a mapdef) */
};
void lrt_run_maps_release(qg_runtime *rt, const lrt_map *map);
void lrt_run_maps_free(qg_runtime *rt);
/* level_maps.c */
void lrt_open_level_maps(lua_State *L);
/* After the library is loaded: its dgn.hook notes post_place hooks on the
 * map (lrt_map.post_place). */
void lrt_watch_place_hooks(lua_State *L);
/* dgn.grid, dgn.is_passable, dgn.terrain_changed over the level. */
void lrt_open_level(lua_State *L);

#endif

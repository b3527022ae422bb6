/* What Crawl's layout builders (l-dgnbld.cc) share: their named arguments,
 * read from the table at index 2 as Crawl reads them (a wrong type is an
 * error naming the key), the box they work on, and glyph sets. Every
 * builder is map-bound: the map is argument 1. */
#ifndef QG_LUA_BUILDER_H
#define QG_LUA_BUILDER_H

#include "lua/rt.h"

typedef struct lrt_box {
    int x1, y1, x2, y2;
} lrt_box;

/* The map, with index 2 made a table (an empty one when the call gave
 * none); charges the map's area to the budget. */
lrt_map *lrt_builder_args(lua_State *L);
int lrt_arg_int(lua_State *L, const char *key, int def);
char lrt_arg_char(lua_State *L, const char *key, char def);
/* The string is left on the stack, which keeps it alive. */
const char *lrt_arg_str(lua_State *L, const char *key, const char *def);
int lrt_arg_bool(lua_State *L, const char *key, int def);
/* x1, y1, x2, y2 (defaults: the whole map), swapped into order; 1 when at
 * least one cell lies border cells inside each edge (Crawl's _coords). */
int lrt_arg_box(lua_State *L, const lrt_map *map, lrt_box *box, int border);
/* The box pulled in so that it keeps off the map's outermost cells, as the
 * builders that look at neighbours do. */
void lrt_box_inside_border(const lrt_map *map, lrt_box *box);
/* Crawl's _valid_coord: raises "Invalid x coordinate: N" (or y). */
void lrt_check_coord(lua_State *L, const lrt_map *map, int x, int y);
/* A set of glyphs as a table, looked up in one step: the builders test
 * cell after cell against glyphs a caller names, and a string search for
 * each cell was a fifth of a delve. 0 (a cell outside the map) is in no
 * set. */
typedef struct lrt_glyphs {
    unsigned char in[LRT_GLYPHS];
} lrt_glyphs;

/* The set of the bytes of chars (up to its NUL); 1 when chars is not
 * empty. */
int lrt_glyphs_of(lrt_glyphs *set, const char *chars);
static inline int lrt_glyph_in(const lrt_glyphs *set, char c)
{
    return set->in[(unsigned char)c];
}
/* lrt_arg_str's string as a set; 1 when it is not empty. */
int lrt_arg_glyphs(lua_State *L, const char *key, const char *def, lrt_glyphs *set);
/* count elements of size bytes, zeroed, in a userdata pushed on the stack
 * (freed with the stack however the call ends); the allocation is charged
 * to the budget. Raises an error past the memory cap. */
void *lrt_scratch(lua_State *L, size_t count, size_t size);
/* Crawl's Compass: N, NE, E, SE, S, SW, W, NW. */
extern const int lrt_compass[8][2];

/* The builders that carve layouts: api_layout.c registers them with
 * these, written in files of their own. */
int lrt_l_delve(lua_State *L);
int lrt_l_make_irregular_box(lua_State *L);
int lrt_l_add_pools(lua_State *L);

#endif

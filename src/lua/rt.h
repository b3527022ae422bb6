/* Internals of the sandboxed Lua runtime for .des maps: the state, the map
 * being built (what the map-bound functions write into) and the pieces each
 * API family file registers. */
#ifndef QG_LUA_RT_H
#define QG_LUA_RT_H

#include "questgrid/lua.h"
#include "core/buf.h"
#include "core/rng.h"

#include <lua.h>
#include <lauxlib.h>

#define LRT_DEFAULT_MEMORY (64u * 1024u * 1024u)
#define LRT_DEFAULT_INSTRUCTIONS 10000000ul
#define LRT_HOOK_STEP 1000
/* Crawl's GXM x GYM; a map may not grow past it. */
#define LRT_MAX_WIDTH 80
#define LRT_MAX_HEIGHT 70
/* _write_vault tries a map this many times before giving up. */
#define LRT_RESOLVE_TRIES 25
#define LRT_GLYPHS 256

/* A per-glyph keyed spec (KFEAT / KMONS / KITEM / KMASK). */
typedef struct lrt_keyed {
    char *feat, *mons, *item;
    int feat_fixed, mons_fixed, item_fixed;
    uint32_t mask_set, mask_clear;
} lrt_keyed;

/* A MARKER, lua_marker or overlay (COLOUR, FTILE, …) fixed to a cell. */
typedef struct lrt_mark {
    int x, y;
    char *spec;
} lrt_mark;

typedef struct lrt_strs {
    char **items;
    size_t count, cap;
} lrt_strs;

/* The map being built by one run of its chunks. */
typedef struct lrt_map {
    const char *name;
    const char *file;
    int line;
    int validating;
    /* grid: height rows of width bytes (space = outside) */
    char *grid;
    int width, height;
    lrt_strs tags, depths, places, mons, items, subvaults;
    char *orient, *desc;
    lrt_strs chance_ranges, weight_ranges; /* "value (ranges)" */
    long chance, weight;                   /* defaults; -1 = none */
    char *lfloorcol, *lrockcol, *lfloortile, *lrocktile;
    int order, has_order;
    lrt_keyed *keyed[LRT_GLYPHS];
    lrt_mark *marks;
    size_t mark_count, mark_cap;
} lrt_map;

struct qg_runtime {
    lua_State *L;
    size_t mem_used, mem_limit;
    unsigned long instr_limit, instr_used;
    int budget_exhausted;
    qg_rng rng;
    const qg_context *context;
    const char *place;       /* resolved place "Br:n" */
    lrt_map *map;            /* the map being run, or NULL */
    char **lua_paths;
    size_t lua_path_count;
    qg_mapdef **maps;
    size_t map_count, map_cap;
    qg_diags *diags;         /* where the current operation reports */
    char *default_depth;     /* default-depth of the file being added */
};

/* sandbox.c */
lua_State *lrt_state_new(qg_runtime *rt);
void lrt_budget_reset(qg_runtime *rt);
/* Loads text-only Lua (never binary chunks) with env as its _ENV when
 * env_index is not 0. Returns a lua_load status; on error the message is
 * on the stack. */
int lrt_load(lua_State *L, const char *code, size_t len, const char *chunkname,
             int env_index);
/* Calls the function below nargs arguments with a traceback handler;
 * returns the status and leaves nresults or an error message. */
int lrt_pcall(lua_State *L, int nargs, int nresults);
/* Rewrites "CHUNK:n:" references in msg to "file:line (map NAME)". */
char *lrt_rewrite_error(const char *msg, const char *chunkname,
                        const char *file, int first_line, const char *map);
void lrt_open_sandbox(lua_State *L, qg_runtime *rt);

/* env.c */
void lrt_push_map(lua_State *L, lrt_map *map);
lrt_map *lrt_check_map(lua_State *L, int index);
/* Pushes the environment of the running map (created on first use). */
void lrt_push_env(lua_State *L, qg_runtime *rt, lrt_map *map);
void lrt_drop_env(lua_State *L);
void lrt_open_env(lua_State *L);
qg_runtime *lrt_runtime(lua_State *L);

/* map.c */
lrt_map *lrt_map_new(const char *name, const char *file, int line);
void lrt_map_free(lrt_map *map);
int lrt_strs_add(lrt_strs *strs, const char *s, size_t len);
void lrt_strs_free(lrt_strs *strs);
int lrt_map_add_row(lrt_map *map, const char *row, size_t len);
int lrt_map_resize(lrt_map *map, int width, int height, char fill);
char lrt_cell(const lrt_map *map, int x, int y);
void lrt_set_cell(lrt_map *map, int x, int y, char glyph);
int lrt_map_add_mark(lrt_map *map, int x, int y, const char *spec);
lrt_keyed *lrt_map_keyed(lrt_map *map, unsigned char glyph);
/* luaL_error with the map's name, for argument errors. */
int lrt_map_error(lua_State *L, lrt_map *map, const char *fmt, ...);

/* API families: each registers its functions into the dgn table (map
 * bound, map first) or its own global table. */
void lrt_open_header(lua_State *L);
void lrt_open_grid(lua_State *L);
void lrt_open_transforms(lua_State *L);
void lrt_open_keyed(lua_State *L);
void lrt_open_builder(lua_State *L);
void lrt_open_dgn(lua_State *L);
void lrt_open_crawl(lua_State *L);
void lrt_open_you(lua_State *L);
/* Adds fns to the table on top of the stack, each with the runtime as
 * upvalue. */
void lrt_register(lua_State *L, const luaL_Reg *fns);

/* context.c: answers to you.* and dgn.* about the place. */
const char *lrt_branch(const qg_runtime *rt, char *buf, size_t size);
int lrt_depth(const qg_runtime *rt);
int lrt_branch_depth(const char *branch);
int lrt_absdepth(const qg_runtime *rt);

#endif

/* Internals of the sandboxed Lua runtime for .des maps: the state, the map
 * being built (what the map-bound functions write into) and the pieces each
 * API family file registers. */
#ifndef QG_LUA_RT_H
#define QG_LUA_RT_H

#include "questgrid/lua.h"
#include "core/buf.h"
#include "core/rng.h"
#include "lua/budget.h"

#include <lua.h>
#include <lauxlib.h>

#define LRT_DEFAULT_MEMORY (64u * 1024u * 1024u)
#define LRT_DEFAULT_INSTRUCTIONS 10000000ul
/* One compile or resolve of a map (all its chunks, validate re-tries and
 * subvaults) may spend this many chunk budgets in all. */
#define LRT_OPERATION_BUDGETS 4
/* A map that builds the whole level (ORIENT: encompass, tagged layout)
 * does a level's work: Crawl's Lua level builders charge up to about 0.55
 * G instructions (layout_cave_town, in one chunk: 82 million steps of
 * ipairs, about 3 s). Its whole resolution, all chunks and tries, may
 * spend this many chunk budgets: 1 G instructions, a few seconds of CPU
 * (its time limit, 8 s, is the last line). */
#define LRT_LEVEL_BUDGET_SCALE 100
#define LRT_LEVEL_OPERATION_BUDGETS 100
/* Crawl's GXM x GYM; a map may not grow past it. */
#define LRT_MAX_WIDTH 80
#define LRT_MAX_HEIGHT 70
/* _write_vault tries a map this many times before giving up. */
#define LRT_RESOLVE_TRIES 25
/* Maps resolved one inside another at once: the map and its subvaults
 * (subvault.c nests them 8 deep at most) or the maps a builder places. */
#define LRT_RESOLVING_MAX 16
#define LRT_GLYPHS 256
/* The preludes a runtime keeps compiled (qg_runtime_run_kept_prelude), in
 * bytes of their source: a compiled prelude takes about three times its
 * source, and each thread of a compile keeps its own. Crawl's preludes
 * are 0.35 MB (0.28) to 0.4 MB (master); past the bound a prelude is
 * compiled each time it runs, so that memory does not grow with the
 * corpus. */
#define LRT_KEPT_PRELUDE_BYTES (1024u * 1024u)
/* What one map may accumulate in C memory, outside the Lua allocator's
 * cap: entries per list (tags, depths, slots, …) and marks. */
#define LRT_MAX_ENTRIES 4096
#define LRT_MAX_MARKS (LRT_MAX_WIDTH * LRT_MAX_HEIGHT * 8)

/* A per-glyph keyed spec: the KFEAT / KMONS / KITEM argument as given
 * ("keys = value", parsed again when the level is built) and the KMASK
 * bits. */
typedef struct lrt_keyed {
    char *feat, *mons, *item;
    uint32_t mask_set, mask_clear;
} lrt_keyed;

/* A MARKER, lua_marker or overlay (COLOUR, FTILE, …) fixed to a cell;
 * spec is one of the map's mark_specs. */
typedef struct lrt_mark {
    int x, y;
    const char *spec;
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
    int nesting;             /* subvaults enclosing it (0 for the map resolved) */
    int post_place;          /* it set a post_place hook (run on the game's level) */
    int asked_mask;          /* it asked for the shape a SUBVAULT gives, not being one */
    /* the definition run, when it is a .des map (NULL at compile time) */
    const struct qg_mapdef *def;
    int legacy;              /* its glyphs mean what the seed documents say */
    /* grid: height rows of width bytes (space = outside) */
    char *grid;
    int width, height;
    size_t grid_cap;         /* bytes allocated for grid */
    lrt_strs tags, depths, places, mons, items, subvaults;
    lrt_strs level_keys, level_values; /* level properties the map sets */
    char *orient, *desc;
    lrt_strs chance_ranges, weight_ranges; /* "value (ranges)" */
    long chance, weight;                   /* defaults; -1 = none */
    char *lfloorcol, *lrockcol, *lfloortile, *lrocktile;
    int order, has_order;
    /* subvaults merged into the grid: cell_sub[i] is 0, or 1 + the index in
     * subs of the map whose keyed specs and slots the cell's glyph uses */
    struct lrt_map **subs;
    size_t sub_count, sub_cap;
    unsigned char *cell_sub;
    /* when the map is resolved as a subvault: the shape it must fill */
    unsigned char *sv_mask;
    int sv_width, sv_height;
    lrt_keyed *keyed[LRT_GLYPHS];
    lrt_mark *marks;
    size_t mark_count, mark_cap;
    /* the marks' texts, each kept once for the run of marks that share it
     * (an overlay writes one value over many cells) */
    char **mark_specs;
    size_t mark_spec_count, mark_spec_cap;
} lrt_map;

/* Blocks of up to LRT_POOL_MAX bytes, in size classes LRT_POOL_STEP
 * apart, from slabs of one class each (alloc.c). */
#define LRT_POOL_STEP 16
#define LRT_POOL_MAX 512
#define LRT_POOL_STRANDED 16
typedef struct lrt_slab lrt_slab;
typedef struct lrt_pool {
    lrt_slab *partial[LRT_POOL_MAX / LRT_POOL_STEP + 1]; /* with a free block */
    lrt_slab *newest;        /* every slab in use, newest first */
    lrt_slab *spare;         /* empty slabs kept for the next ones */
    int spare_count;
    lrt_slab *reserve;       /* kept for blocks that must be had */
    void *stranded[LRT_POOL_STRANDED]; /* malloc's, at a pooled size */
    int stranded_count;
    size_t mapped;           /* bytes of slabs mapped, spares and reserve too */
} lrt_pool;

struct qg_runtime {
    lua_State *L;
    size_t mem_used, mem_limit;
    int mem_capped;          /* the operation asked for more than mem_limit */
    size_t mem_collected;    /* mem_used after the last full collection */
    lrt_pool pool;
    unsigned long instr_limit, instr_used;
    int level_operation;        /* the operation builds a whole level */
    unsigned long long op_used; /* instructions of the current operation */
    int budget_exhausted;
    struct lrt_watch *watch;    /* the operation's CPU time; NULL: no limit */
    unsigned long time_limit_ms, level_time_limit_ms;
    /* The compile-time runs of one file share the map's time limit
     * (budget.c): the file they charge, the seconds its runs have spent,
     * the milliseconds they may (growing with each map),
     * whether the current operation charges it, whether the file's time
     * left is less than the operation's own, and whether none was left
     * when it started. */
    char *clock_file;
    double clock_used, clock_allowed_ms;
    int op_on_clock, op_cut_by_clock, clock_spent;
    int lua_depth;
    double entered_cpu;
    qg_rng rng;
    const qg_context *context;
    const char *place;       /* resolved place "Br:n" */
    const qg_branches *branches;  /* the game's (qg_runtime_options.branches) */
    qg_branches *own_branches;    /* questgrid's, when none was given */
    lrt_map *map;            /* the map being run, or NULL */
    struct lrt_level *level; /* the level around it (level.h), or NULL */
    struct lrt_run_map *run_maps; /* maps resolved for level builders */
    size_t run_map_count, run_map_cap;
    char *builder_error;     /* why the last of them failed */
    /* the questions about the game so far that the current resolution
     * asked and had answered as for a fresh game (names kept alive by the
     * functions' upvalues) */
    const char *asked[16];
    size_t asked_count;
    /* the map the environment in the registry was made for, and the
     * userdata through which its bound functions reach it */
    lrt_map *env_map;
    struct lrt_map_ref *env_ref;
    char **lua_paths;
    size_t lua_path_count;
    qg_mapdef **maps;
    size_t map_count, map_cap;
    size_t kept_prelude_bytes;  /* of the preludes kept compiled */
    /* why the last resolution gave no level when the map is not at fault
     * (LRT_NO_GRID_*, LRT_VETOED), else 0 */
    int no_level;
    int ignore_veto;         /* a resolution that runs no veto chunk */
    /* a map resolved through a map that uses it: the SUBVAULT of any tag
     * it has picks it (home.c), or NULL */
    const qg_mapdef *forced;
    /* the maps being resolved, outermost first: a SUBVAULT that picks one
     * of them would place a map inside itself */
    const qg_mapdef *resolving[LRT_RESOLVING_MAX];
    int resolving_count;
    size_t map_runs;         /* maps run so far: each one and subvault, every try */
    int unprovided;          /* it called a function questgrid lacks */
};

/* Why a map that ran drew no grid: the dummy Crawl picks to place
 * nothing, a map whose post_place hook does its work on the game's
 * level, one that takes its shape from the SUBVAULT placing it. */
enum {
    LRT_NO_GRID_OTHER = 1, LRT_NO_GRID_DUMMY, LRT_NO_GRID_POST_PLACE, LRT_NO_GRID_SHAPE,
    LRT_VETOED               /* its veto chunk refused it */
};

/* Glyphs a map's inhabitants can walk over (Crawl's traversable_glyphs):
 * connectivity tests and the builder's passable defaults. */
#define LRT_TRAVERSABLE ".+=w@{}()[]<>BC^TUVY$%*|Odefghijk0123456789"

/* The runtime a state belongs to (lrt_state_new keeps it in the state's
 * extra space): every file reads it, so it is inline. */
static inline qg_runtime *lrt_runtime(lua_State *L)
{
    return *(qg_runtime **)lua_getextraspace(L);
}

/* Crawl's luaL_checkint: any number, truncated (maps pass width / 2). */
static inline lua_Integer lrt_checkint(lua_State *L, int index)
{
    lua_Number n = luaL_checknumber(L, index);
    if (n != n)
        return 0;
    if (n > 2147483647.0)
        return 2147483647;
    if (n < -2147483648.0)
        return -2147483647 - 1;
    return (lua_Integer)n;
}

/* alloc.c: the state's allocator (a lua_Alloc, ud the runtime), with the
 * memory cap; the pool is freed after the state is closed. */
void *lrt_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
void lrt_pool_free(lrt_pool *pool);

/* sandbox.c */
lua_State *lrt_state_new(qg_runtime *rt);
/* Pushes one of questgrid's own Lua texts, compiled, as a function named
 * name; raises the error when it does not compile. */
void lrt_load_builtin(lua_State *L, const char *code, size_t len, const char *name);
/* budget.c: the limits from the options (0: the default) and the
 * environment; starts the operation watch. */
qg_status lrt_budget_init(qg_runtime *rt, unsigned long instruction_limit);
/* Sets the count hook on a state. */
void lrt_budget_hook(lua_State *L);
/* Fresh budget for a chunk; lrt_operation_start also for a whole compile
 * or resolve. */
void lrt_budget_reset(qg_runtime *rt);
void lrt_operation_start(qg_runtime *rt);
/* An operation that runs a file's Lua at compile time (its prelude, a
 * map's validation): it shares one time limit with the file's other
 * compile-time runs since the file began (lrt_file_begin). */
void lrt_compile_operation_start(qg_runtime *rt, const char *file);
/* A file's compile-time runs begin (its prelude is about to run, or a
 * kept one): the file's clock starts from nothing. */
void lrt_file_begin(qg_runtime *rt);
/* What a failed run of Lua (a lua_pcall status) is: a map that spent its
 * memory or instruction budget QG_ERR_LIMIT, the machine's memory
 * QG_ERR_NOMEM, else QG_ERR_LUA; and its message, the budget named when
 * that was spent (buf holds it). */
qg_status lrt_error_status(const qg_runtime *rt, int status);
const char *lrt_error_text(const qg_runtime *rt, int status, const char *msg, char *buf,
                           size_t size);
/* The same for the resolution of a map that builds the whole level. */
void lrt_level_operation_start(qg_runtime *rt);
/* Charges work done in C (cells visited, entries scanned) to the chunk's
 * instruction budget, so that a loop of cheap-looking calls stops as an
 * endless Lua loop does; raises the budget error when it is spent or the
 * operation is out of time. */
void lrt_charge(lua_State *L, size_t work);
/* The same where no error may be raised (outside Lua, the allocator): 0
 * (and the budget marked spent) when the operation's budget or time is
 * exceeded; the next charge raises the error. */
int lrt_spend(qg_runtime *rt, size_t work);
/* Pushes the table of chunks kept compiled of a kind ("library",
 * "preludes"), or with kind NULL the table of the kinds; a return to a
 * saved state (saved.c) leaves it alone. */
void lrt_push_kept(lua_State *L, const char *kind);
/* Lua starts and stops running on the calling thread (for the time
 * limit); lrt_pcall calls them. */
void lrt_enter(qg_runtime *rt);
void lrt_leave(qg_runtime *rt);
/* Loads text-only Lua (never binary chunks) with env as its _ENV when
 * env_index is not 0. Returns a lua_load status; on error the message is
 * on the stack. */
int lrt_load(lua_State *L, const char *code, size_t len, const char *chunkname,
             int env_index);
/* Charges an error raised and caught (budget.h). */
void lrt_charge_error(lua_State *L);
/* Calls the function below nargs arguments with a traceback handler;
 * returns the status and leaves nresults or an error message. */
int lrt_pcall(lua_State *L, int nargs, int nresults);
/* Calls fn with ud as its one argument (a light userdata) under lrt_pcall.
 * Every entry into Lua from C goes through it or lrt_pcall, so that no
 * error (a game library's metamethod, running out of memory) reaches the
 * panic handler. Returns the status; on error the message (with its
 * traceback) is on top of the stack. */
int lrt_protect(lua_State *L, lua_CFunction fn, void *ud);
/* Rewrites "CHUNK:n:" references in msg to "file:line (map NAME)". */
char *lrt_rewrite_error(const char *msg, const char *chunkname,
                        const char *file, int first_line, const char *map);
void lrt_open_sandbox(lua_State *L, qg_runtime *rt);
/* charged.c: every C function of the libraries opened so far charged
 * (budget.h); ipairs, utf8.codes and coroutine.wrap handing out charged
 * functions. */
void lrt_charge_libraries(lua_State *L);
void lrt_charge_iterators(lua_State *L);
/* pattern.c: string.find, match, gmatch and gsub with every step of the
 * matcher charged. */
void lrt_open_patterns(lua_State *L);
/* Replaces a shared library table on top of the stack by the read-only
 * view maps get of it; other values are left as they are. */
void lrt_map_view(lua_State *L);
#define LRT_LIBRARY_VIEWS "questgrid.library_views"

/* unprovided.c: what an error about a missing function adds when the
 * runtime has no game library (the function may be the library's): a
 * hint naming --lua-path, else "". */
const char *lrt_no_library_hint(const qg_runtime *rt);
/* Marks the run as failed for want of the game's library (rt->unprovided)
 * when none was given and the error is a global that is not there: what
 * the library defines (callback, a setup function), not the map's fault. */
void lrt_mark_unprovided(qg_runtime *rt, int status, const char *msg);

/* env.c */
void lrt_push_map(lua_State *L, lrt_map *map);
/* The Lua object lrt_push_map made (its userdata) no longer reaches its
 * map; NULL is ignored. */
void lrt_map_ref_forget(void *ref);
lrt_map *lrt_check_map(lua_State *L, int index);
/* Pushes the environment of the running map (created on first use). */
void lrt_push_env(lua_State *L, qg_runtime *rt, lrt_map *map);
void lrt_drop_env(lua_State *L);
/* The part of lrt_drop_env that runs no Lua (so cannot fail): the map
 * object invalidated and the runtime's record of it cleared. */
void lrt_forget_env(qg_runtime *rt);
/* Pushes env[name] and returns 1 when that is a dgn function bound to the
 * map, looking it up as Lua would (env at absolute index env); else pushes
 * nothing and returns 0. The lookup runs no Lua. */
int lrt_env_directive(lua_State *L, int env, const char *name, size_t len);
/* The C function that env[name] calls as a directive, as
 * lrt_env_directive finds it, without binding it (NULL for none, or a
 * directive in Lua). */
lua_CFunction lrt_env_directive_cfunction(lua_State *L, int env, const char *name,
                                          size_t len);
/* Sets the running map's environment aside (for a subvault's run) and
 * brings it back. */
typedef struct lrt_env_saved {
    int env, map_ud;              /* registry references */
    struct lrt_map_ref *map_ref;
    lrt_map *map;
} lrt_env_saved;
void lrt_env_save(lua_State *L, lrt_env_saved *saved);
void lrt_env_restore(lua_State *L, const lrt_env_saved *saved);
void lrt_open_env(lua_State *L);

/* library.c: the game's Lua library. lrt_load_library runs its entry
 * files (protected: the argument is a library_load); lrt_load_loadmaps
 * runs dlua/loadmaps.lua. */
typedef struct library_load {
    qg_runtime *rt;
    qg_diags *diags;   /* notes on optional files skipped */
} library_load;
void lrt_open_library(lua_State *L);
int lrt_load_library(lua_State *L);
int lrt_load_loadmaps(lua_State *L);

/* chunk.c: reports the Lua error on top of the stack, raised while
 * doing what for map outside its chunks' own protected runs, as a
 * diagnostic at the map; clears the stack; returns the status to give. */
qg_status lrt_report_lua_error(qg_runtime *rt, const lrt_map *map, const char *what,
                               int status, qg_diags *diags);

/* map.c */
lrt_map *lrt_map_new(const char *name, const char *file, int line);
void lrt_map_free(lrt_map *map);
/* 0 when out of memory or when the list is full (LRT_MAX_ENTRIES). */
int lrt_strs_add(lrt_strs *strs, const char *s, size_t len);
void lrt_strs_free(lrt_strs *strs);
int lrt_map_add_row(lrt_map *map, const char *row, size_t len);
int lrt_map_resize(lrt_map *map, int width, int height, char fill);
/* A cell of the grid, 0 outside it; the builders read cell after cell,
 * so it is inline. */
static inline char lrt_cell(const lrt_map *map, int x, int y)
{
    if (x < 0 || y < 0 || x >= map->width || y >= map->height)
        return 0;
    return map->grid[(size_t)y * map->width + x];
}
void lrt_set_cell(lrt_map *map, int x, int y, char glyph);
/* 0 when out of memory or past LRT_MAX_MARKS. */
int lrt_map_add_mark(lrt_map *map, int x, int y, const char *spec);
void lrt_map_clear_marks(lrt_map *map);
lrt_keyed *lrt_map_keyed(lrt_map *map, unsigned char glyph);
/* Grid, marks and subvault cells turned (clockwise or not) or mirrored
 * (left-right with horizontal, else top-bottom); 0 when out of memory. */
int lrt_map_rotate(lrt_map *map, int clockwise);
int lrt_map_mirror(lrt_map *map, int horizontal);
/* luaL_error with the map's name, for argument errors. */
int lrt_map_error(lua_State *L, lrt_map *map, const char *fmt, ...);
/* The error of a des_parse_* call (DES_PARSE_BAD or DES_PARSE_NOMEM). */
struct des_spec_error;
int lrt_parse_error(lua_State *L, lrt_map *map, const char *what, int result,
                    const struct des_spec_error *err);
/* Crawl's weighted reservoir pick (total += w; x_chance_in_y(w, total)
 * takes the item) over n int weights, the first at first_weight and each
 * stride bytes after the previous; -1 when every weight is 0. */
int lrt_pick_weighted(qg_rng *rng, const void *first_weight, size_t stride, size_t n);

/* dgn.map(map, ...): rows, cells and lines of the grid. */
int lrt_map_fn(lua_State *L);

/* API families: each registers its functions into the dgn table (map
 * bound, map first) or its own global table. */
void lrt_open_header(lua_State *L);
void lrt_open_transforms(lua_State *L);
void lrt_open_keyed(lua_State *L);
void lrt_open_builder(lua_State *L);
void lrt_open_layout(lua_State *L);
void lrt_open_dgn(lua_State *L);
void lrt_open_crawl(lua_State *L);
void lrt_open_you(lua_State *L);
void lrt_open_level(lua_State *L);
void lrt_open_noise(lua_State *L);

/* Records that a question about the game so far (its name, which must
 * outlive the resolution) got a fresh game's answer. */
void lrt_note_asked(qg_runtime *rt, const char *name);

/* context.c: answers to you.* and dgn.* about the place, from the game's
 * branch table: given, or questgrid's own of the newest game. */
qg_status lrt_set_branches(qg_runtime *rt, const qg_branches *given, qg_diags *diags);
const char *lrt_branch(const qg_runtime *rt, char *buf, size_t size);
int lrt_depth(const qg_runtime *rt);
/* The levels of a branch named any way you.in_branch takes; -1 when the
 * table has no such branch. */
int lrt_branch_depth(const qg_runtime *rt, const char *branch);
int lrt_absdepth(const qg_runtime *rt);
/* Raises "bad argument #arg: 'name' matches no branches" with a hint. */
int lrt_branch_error(lua_State *L, int arg, const char *name);

#endif

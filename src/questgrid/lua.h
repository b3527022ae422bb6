/* The sandboxed Lua 5.4 runtime for .des maps: compile-time evaluation
 * (index fields) and seeded resolution into levels.
 *
 * A map's chunks run in a per-map environment as Crawl's do: every dgn.*
 * function is bound to the map (kfeat(...) is dgn.kfeat(map, ...)), _G is
 * the environment, mapgrd[x][y] reads and writes the grid, and other names
 * fall back to the globals (the game's Lua library, the files' global
 * preludes). The sandbox has no io, os, package, debug, require, dofile or
 * loadfile, loads text chunks only, caps memory (memory_limit) and the
 * instructions of each chunk run (instruction_limit, which also pays for
 * the C work of the map functions); neither limit can be caught by the
 * map's own pcall. All randomness (crawl.random2, math.random, ...) comes
 * from the project's generator, and pairs() visits keys in a fixed order:
 * the same seed and context give the same level on every machine. */
#ifndef QUESTGRID_LUA_H
#define QUESTGRID_LUA_H

#include <questgrid/core.h>
#include <questgrid/des.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct qg_runtime_options {
    const char *const *lua_paths; /* game Lua libraries (Crawl: dat/dlua) */
    size_t lua_path_count;
    size_t memory_limit;          /* bytes; 0 = default (64 MiB) */
    unsigned long instruction_limit; /* per chunk run; 0 = default (10 M);
                                        100 times that when resolving a map
                                        that builds the whole level (ORIENT:
                                        encompass, tagged layout). All work
                                        is charged in instructions' worth
                                        (allocation, C calls, patterns, ...);
                                        an operation may also take at most
                                        2 s of CPU (7 s for a whole level;
                                        the compile-time runs of one file,
                                        its prelude and every map's
                                        validation, share 2 s and 1 ms a
                                        map),
                                        QUESTGRID_LUA_TIME_LIMIT seconds when
                                        that is set (0: no time limit) */
    /* the game's branch table (qg_branches_load), which must outlive the
     * runtime; NULL = questgrid's own table of the newest game (found with
     * qg_data_find; the runtime is not made, with the reason, without it) */
    const qg_branches *branches;
} qg_runtime_options;

/* Where and for whom a map is resolved: answered to you.* and dgn.*. */
typedef struct qg_context {
    const char *place;   /* "D:5"; NULL = "D:1" (qg_branches_check_place) */
    int xl;              /* experience level; 0 = 1 */
    const qg_vars *vars; /* further you.* answers by name, or NULL */
} qg_context;

typedef struct qg_runtime qg_runtime;

qg_runtime *qg_runtime_new(const qg_runtime_options *options, qg_diags *diags);
void qg_runtime_free(qg_runtime *rt);

/* The .des files the game's Lua library loads, in its order (Crawl:
 * dlua/loadmaps.lua; names relative to the library's data directory, e.g.
 * "des/altar/altar.des"). Free each name and the array with free(). */
qg_status qg_runtime_library_des_files(qg_runtime *rt, char ***files, size_t *count,
                                       qg_diags *diags);

/* The data directory of the game's first Lua library (the directory
 * holding its dlua/), where the names qg_runtime_library_des_files gives
 * are; NULL when the runtime has no library. Free with free(). */
char *qg_runtime_library_data_dir(const qg_runtime *rt);

/* Runs the global prelude of a .des file's text (len bytes; path names
 * it) without reading its maps: a file of the game's library whose maps
 * the caller does not want, run for what it defines for the others. */
qg_status qg_runtime_run_text_prelude(qg_runtime *rt, const char *path, const char *text,
                                     size_t len, qg_diags *diags);

/* True when the last prelude, compile or resolution failed calling what
 * the game's Lua library provides (a function, a crawl_require'd file)
 * and the runtime was given no library: not the map's fault. */
int qg_runtime_lacks_library(const qg_runtime *rt);

/* The maps the runtime has run since it was made, every try of each map
 * resolved and of each subvault inside it: the work its resolutions did,
 * counted (a batch's total grows with its maps and their subvaults). */
size_t qg_runtime_map_runs(const qg_runtime *rt);

/* Adds a parsed file's maps to the runtime (which takes them over and frees
 * the file) and runs its global prelude. A prelude that failed calling
 * what the game's Lua library provides (a function, a crawl_require'd
 * file) when the runtime was given none: QG_ERR_NOTFOUND, the file not at
 * fault; so too qg_runtime_run_prelude. */
qg_status qg_runtime_add_file(qg_runtime *rt, qg_des_file *file, qg_diags *diags);
/* Runs a parsed file's global prelude only: for runtimes that compile maps
 * they do not hold (qg_runtime_compile_map takes any .des definition),
 * such as several runtimes sharing one parse of the files. */
qg_status qg_runtime_run_prelude(qg_runtime *rt, const qg_des_file *file, qg_diags *diags);
/* For a compile that runs each file from the state the game's library
 * left, so that what one file's Lua defines or changes reaches no other
 * file whatever the order or thread the files run in. qg_runtime_save
 * remembers the state as it is (call it once the library is loaded);
 * qg_runtime_restore returns to it: the globals and every table and
 * function the state held then are as they were, what was made since is
 * dropped, and library files crawl_required since are forgotten (kept
 * compiled: requiring one again runs it without reading it). */
qg_status qg_runtime_save(qg_runtime *rt, qg_diags *diags);
qg_status qg_runtime_restore(qg_runtime *rt, qg_diags *diags);
/* Runs a global prelude (qg_des_global_prelude) kept compiled under key,
 * the caller's number for its file: the first run compiles and keeps it
 * (while the kept preludes hold less than 1 MiB of source), and a later
 * run may pass prelude NULL. QG_ERR_NOTFOUND (and nothing run) when
 * prelude is NULL and nothing is kept under key. Kept preludes survive
 * qg_runtime_restore. */
qg_status qg_runtime_run_kept_prelude(qg_runtime *rt, size_t key,
                                      const qg_des_chunk *prelude, qg_diags *diags);
size_t qg_runtime_map_count(const qg_runtime *rt);
qg_mapdef *qg_runtime_map(const qg_runtime *rt, size_t index);
qg_mapdef *qg_runtime_find_map(const qg_runtime *rt, const char *name);

/* Runs a map's chunks as Crawl's compiler does (is_validating() true) and
 * stores the index fields as the map's properties: "tags" (sorted, space
 * separated), "depth", "place", "orient", "chance", "weight", "order",
 * "desc", "width", "height". */
qg_status qg_runtime_compile_map(qg_runtime *rt, qg_mapdef *def, qg_diags *diags);

/* Resolves a map with the project's RNG seeded by seed in the context:
 * runs the chunks again, applies every transform, validates (with Crawl's
 * 25 tries), runs the epilogue and builds the level: features by Crawl
 * name, QG_MASK_* vault masks (tags, KMASK, KPROP no_tele_into, exits),
 * monsters and items as QG_THING_NAME specs with weights resolved (or
 * QG_THING_RANDOM for 0, 8, 9, %, *), markers and overlays as cell
 * markers ("feat:...", "lua", "colour:red", "kprop:bloody", ...), and the
 * level properties "orient" and "tags". A vetoed map, a map that never
 * validates (QG_ERR_LIMIT) and a map without a grid are errors. The map
 * need not have been compiled first; the maps it places by tag (SUBVAULT,
 * dgn.map_by_tag) are found by their compiled tags, so compile those. */
qg_status qg_runtime_resolve(qg_runtime *rt, const qg_mapdef *def,
                             unsigned long long seed, const qg_context *context,
                             qg_level **out, qg_diags *diags);

/* Reports, as an error at the line, every SUBVAULT line of the runtime's
 * maps that can place its own map inside itself: a tag it picks is had
 * by a map whose SUBVAULT lines lead back (the maps' compiled tags, so
 * compile them first). Found in time linear in the maps, their tags and
 * their SUBVAULT lines; a resolution also stops at the first SUBVAULT
 * that picks a map being resolved around it. Returns the number of
 * errors. */
size_t qg_runtime_check_cycles(qg_runtime *rt, qg_diags *diags);

/* Where qg_runtime_resolve_home resolved a map, and what a map is that
 * has no grid by design. */
typedef struct qg_home {
    char place[40];      /* the level it was resolved at ("D:14") */
    const char *inside;  /* a map that takes its shape from the SUBVAULT
                            placing it: the map it was resolved inside
                            (the level is that map's), else NULL */
    const char *what;    /* a map with no grid by design (a dummy; a map
                            whose post_place hook places other maps on the
                            game's level): what it is, with *out NULL and
                            QG_OK; else NULL */
    int unprovided;      /* it failed calling a function of the game that
                            questgrid does not provide: not the map's
                            fault */
} qg_home;

/* Resolves a map where it belongs, as a batch over many maps must: at
 * context->place when one is given, else at the levels its PLACE and
 * DEPTH name (the first level of each range, in the order written, up to
 * four), the first where it resolves; where it resolves nowhere, with the
 * diagnostics of the first. A map that takes its shape from a SUBVAULT
 * is resolved inside a map whose SUBVAULT (or subvault("K : tag") call)
 * picks it by a tag it has, named for it with the property "placed in";
 * a map with no grid by design gives QG_OK, no level and home->what. Its
 * subvaults are the runtime's maps, so compile those first. */
qg_status qg_runtime_resolve_home(qg_runtime *rt, const qg_mapdef *def, unsigned long long seed,
                                  const qg_context *context, qg_home *home, qg_level **out,
                                  qg_diags *diags);

#ifdef __cplusplus
}
#endif
#endif

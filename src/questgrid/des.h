/* Crawl .des front end: reading, lowering to Lua chunks exactly as Crawl's
 * level compiler does, and structured directives. */
#ifndef QUESTGRID_DES_H
#define QUESTGRID_DES_H

#include <questgrid/core.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum qg_chunk_kind {
    QG_CHUNK_PRELUDE = 0,
    QG_CHUNK_MAPCHUNK,
    QG_CHUNK_MAIN,
    QG_CHUNK_VALIDATE,
    QG_CHUNK_VETO,
    QG_CHUNK_EPILOGUE,
    QG_CHUNK_KINDS
} qg_chunk_kind;

/* One lowered chunk: Lua source whose line k (1-based) comes from .des line
 * first_line + k - 1, as Crawl's dlua_chunk aligns it. */
typedef struct qg_des_chunk {
    const char *code;
    size_t len;
    int first_line;
    const char *file;
} qg_des_chunk;

/* "prelude", "mapchunk", "main", "validate", "veto", "epilogue". */
const char *qg_chunk_kind_name(qg_chunk_kind kind);

typedef struct qg_des_options {
    int legacy;            /* 1: read FLAGS/LFLAGS/BFLAGS/FLOORCOL/ROCKCOL and
                              CHANCE-as-weight (Crawl 0.3-0.4); 0: detect per file */
} qg_des_options;

/* Map names seen so far, to diagnose a name defined twice across files. */
typedef struct qg_des_names qg_des_names;
qg_des_names *qg_des_names_new(void);
void qg_des_names_free(qg_des_names *names);

typedef struct qg_des_file qg_des_file;

/* Parses a .des file held in memory (len bytes; need not be NUL-terminated).
 * Every error of the file is reported; *out is set even when there are
 * errors (holding the maps that could be read). names may be NULL. */
qg_status qg_des_parse(const char *path, const char *data, size_t len,
                       const qg_des_options *options, qg_des_names *names,
                       qg_des_file **out, qg_diags *diags);
qg_status qg_des_load(const char *path, const qg_des_options *options,
                      qg_des_names *names, qg_des_file **out, qg_diags *diags);
/* The same, but each map is handed to each(user, def) as soon as it is
 * read, instead of kept (each owns def: qg_mapdef_free it), so that
 * memory holds one map at a time however many the file has. The file
 * given back holds the global prelude and no maps. */
typedef void (*qg_des_each_map)(void *user, qg_mapdef *def);
qg_status qg_des_parse_each(const char *path, const char *data, size_t len,
                            const qg_des_options *options, qg_des_names *names,
                            qg_des_each_map each, void *user, qg_des_file **out,
                            qg_diags *diags);
qg_status qg_des_load_each(const char *path, const qg_des_options *options,
                           qg_des_names *names, qg_des_each_map each, void *user,
                           qg_des_file **out, qg_diags *diags);
void qg_des_file_free(qg_des_file *file);

const char *qg_des_file_path(const qg_des_file *file);
size_t qg_des_map_count(const qg_des_file *file);
/* The i-th map as a definition (owned by the file). */
qg_mapdef *qg_des_map(const qg_des_file *file, size_t index);
/* Removes the i-th map from the file and hands it to the caller. */
qg_mapdef *qg_des_take_map(qg_des_file *file, size_t index);
/* The file's global prelude (Lua before the first map or after a
 * default-depth), or NULL when empty. */
const qg_des_chunk *qg_des_global_prelude(const qg_des_file *file);

/* A chunk of a .des map definition, or NULL when empty or not a .des map. */
const qg_des_chunk *qg_des_map_chunk(const qg_mapdef *def, qg_chunk_kind kind);
/* 1 when the map has Lua of its own (':' lines or {{ }} blocks), whose
 * run may change what its directives declare; 0 for a declarative map. */
int qg_des_map_has_lua(const qg_mapdef *def);
/* 1 when the map was read as seed-era (Crawl 0.3-0.5: --legacy, or its
 * file uses that era's keywords), whose rules the placement check then
 * applies; 0 otherwise. */
int qg_des_map_is_legacy(const qg_mapdef *def);
/* Appends the map in the exact format of Crawl's -dump-maps output. */
qg_status qg_des_dump_map(const qg_mapdef *def, FILE *out);

/* What each glyph of a .des map means as declared, without running Lua:
 * its K* specs, SUBST/NSUBST/SHUFFLE/CLEAR/MARKER directives, its MONS or
 * ITEM slot, and Crawl's built-in meaning. fn is called once per glyph,
 * in order of first appearance in the rows, then for glyphs that only
 * substitutions produce. */
typedef void (*qg_des_legend_fn)(void *user, unsigned char glyph, const char *meaning);
qg_status qg_des_legend(const qg_mapdef *def, qg_des_legend_fn fn, void *user);

/* The names a game's maps may use (features, monsters, items), read from
 * lib/des/vocab/<game>/, each list made from the game's own source tables. */
typedef struct qg_des_vocab qg_des_vocab;

/* Loads the vocabulary of game (NULL: the newest, the last line of
 * games.txt) from dir, a directory holding games.txt and one subdirectory
 * per game (questgrid's own: qg_data_find("des/vocab", ...)). An unknown game is an error naming the games
 * there, with the closest as a hint. */
qg_status qg_des_vocab_load(const char *dir, const char *game, qg_des_vocab **out,
                           qg_diags *diags);
void qg_des_vocab_free(qg_des_vocab *vocab);
const char *qg_des_vocab_game(const qg_des_vocab *vocab);

/* Checks every name the maps of file declare; data (len bytes) is the
 * file's text, for the line and caret of each diagnostic. Maps read with
 * the seed-era (Crawl 0.3-0.5) syntax are checked only when seed_era is
 * set (a note says so otherwise: their names are of another game).
 * Returns the number of errors added. */
size_t qg_des_check_names(const qg_des_vocab *vocab, const qg_des_file *file,
                          const char *data, size_t len, int seed_era, qg_diags *diags);

/* A game's branch table (lib/des/vocab/<game>/branches.txt, made from
 * Crawl's branch-data.h): each branch's place name, levels, absolute depth,
 * whether its levels have stone stairs, and the other names you.in_branch
 * takes. The Lua runtime answers you.branch, you.absdepth, dgn.br_depth...
 * from it, places are checked against it, and the placement check asks it
 * which stairs a map's levels have. */
typedef struct qg_branches qg_branches;

/* Loads the table of game (NULL: the newest) from dir, picked as
 * qg_des_vocab_load picks a vocabulary. */
qg_status qg_branches_load(const char *dir, const char *game, qg_branches **out,
                           qg_diags *diags);
/* Reads a table in branches.txt's form held in memory (len bytes); path
 * names it in diagnostics and stands for its game. */
qg_status qg_branches_parse(const char *path, const char *text, size_t len, qg_branches **out,
                            qg_diags *diags);
void qg_branches_free(qg_branches *branches);
/* The game the table is of (the path of a parsed one). */
const char *qg_branches_game(const qg_branches *branches);
/* Checks a place as qg_context takes it: "Branch" or "Branch:N", the
 * branch by its place name or another of its names (any case) and N
 * within its levels. QG_ERR_INVALID after an error (with a did-you-mean
 * hint) otherwise. */
qg_status qg_branches_check_place(const qg_branches *branches, const char *place,
                                  qg_diags *diags);
/* The branch table of the vocabulary's game, loaded with it (owned by the
 * vocabulary); check_names also checks the branches of DEPTH and PLACE
 * against it. */
const qg_branches *qg_des_vocab_branches(const qg_des_vocab *vocab);

/* A Crawl data tree (a directory holding des/ and dlua/, as Debian's
 * /usr/share/crawl/dat or a source tree's crawl-ref/source/dat) and its
 * game, told from the data itself: each game of games.txt lists in
 * <game>/markers.txt the files, Lua functions and words that its release
 * and the releases since the game before it added ("has") or dropped
 * ("lacks"). A marker that holds puts the data at that game or later, one
 * that fails before it; the game is the one every marker agrees on. */
typedef struct qg_des_game {
    char *game;      /* the game of games.txt, or NULL when not told */
    char *data_dir;  /* the data tree, or NULL when path is in none */
    char *des_dir;   /* the .des directory path is in or is, or NULL */
    char *lua_dir;   /* the Lua library used: --lua-path's first, else
                        the tree's dlua, or NULL */
    char *why;       /* the markers that told the game, or why none was */
} qg_des_game;

/* Detects the data tree and game of path (a .des file or a directory);
 * dir is questgrid's vocabulary directory (qg_data_find("des/vocab")),
 * lua_paths the Lua libraries the caller was given (their markers are
 * read there instead of the tree's dlua). QG_OK whether or not a game was
 * told (see out->game); an error only for a vocabulary that cannot be
 * read. Free with qg_des_game_clear. */
qg_status qg_des_detect_game(const char *dir, const char *path, const char *const *lua_paths,
                             size_t lua_path_count, qg_des_game *out, qg_diags *diags);
void qg_des_game_clear(qg_des_game *game);

#ifdef __cplusplus
}
#endif
#endif

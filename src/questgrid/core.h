/* questgrid core: status codes, diagnostics, vocabulary, variables,
 * map definitions (as authored) and levels (resolved).
 *
 * Every object is opaque and owned by whoever created it; every call that
 * can fail returns a qg_status and reports details into a qg_diags list.
 * The library keeps no global mutable state. */
#ifndef QUESTGRID_CORE_H
#define QUESTGRID_CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define QG_VERSION_STRING "0.1.0"
#define QG_VERSION_NUMBER 0x000100

/* ---- status ---------------------------------------------------------- */

typedef enum qg_status {
    QG_OK = 0,
    QG_ERR_PARSE,     /* the input has errors; see the diagnostics */
    QG_ERR_NOMEM,     /* an allocation failed or a memory cap was hit */
    QG_ERR_IO,        /* a file could not be read or written */
    QG_ERR_NOTFOUND,  /* a file, map, quest or name does not exist */
    QG_ERR_INVALID,   /* an argument is out of range */
    QG_ERR_LIMIT,     /* a size, depth, time or instruction limit was hit */
    QG_ERR_LUA,       /* a map's Lua failed */
    QG_ERR_CORRUPT    /* a cache or binary file fails its checks */
} qg_status;

const char *qg_status_string(qg_status status);
const char *qg_version(void);

/* ---- diagnostics ----------------------------------------------------- */

typedef enum qg_severity { QG_NOTE = 0, QG_WARNING = 1, QG_ERROR = 2 } qg_severity;

typedef struct qg_diag {
    qg_severity severity;
    const char *file;        /* may be "" when not tied to a file */
    int line;                /* 1-based; 0 when unknown */
    int col;                 /* 1-based byte column; 0 when unknown */
    const char *message;     /* at most QG_DIAG_MESSAGE_MAX bytes and a note */
    const char *source_line; /* the offending line without its newline, or NULL;
                                of a longer line than QG_DIAG_SOURCE_MAX bytes,
                                that many bytes of it around col */
    size_t source_len;       /* its length in bytes (it may hold NUL bytes) */
    size_t source_from;      /* where in the line source_line starts (0-based) */
} qg_diag;

/* What a diagnostic keeps of its message and of its line: a hostile file
 * may make both megabytes long, many times over. */
#define QG_DIAG_MESSAGE_MAX 4096
#define QG_DIAG_SOURCE_MAX 512

typedef struct qg_diags qg_diags;

qg_diags *qg_diags_new(void);
void qg_diags_free(qg_diags *diags);
size_t qg_diags_count(const qg_diags *diags);
size_t qg_diags_count_severity(const qg_diags *diags, qg_severity severity);
const qg_diag *qg_diags_get(const qg_diags *diags, size_t index);
void qg_diags_clear(qg_diags *diags);
/* Adds a diagnostic; source_line (len bytes, need not be NUL-terminated)
 * is copied (QG_DIAG_SOURCE_MAX bytes of it around col when longer); file
 * and the formatted message are copied, a control byte of the message
 * other than newline and tab (a NUL formatted by %c, say) becoming \xNN,
 * and a message longer than QG_DIAG_MESSAGE_MAX cut there. */
void qg_diags_add(qg_diags *diags, qg_severity severity, const char *file,
                  int line, int col, const char *source_line, size_t len,
                  const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 8, 9)))
#endif
    ;
/* Prints "file:line:col: error: message", the line and a caret under col.
 * Bytes that are not printable ASCII are shown as \xNN. */
/* The same with a va_list, for a caller's own reporting helpers. */
void qg_diags_vadd(qg_diags *diags, qg_severity severity, const char *file,
                   int line, int col, const char *source_line, size_t len,
                   const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 8, 0)))
#endif
    ;
/* Writes a diagnostic with one write: a run of thousands is not thousands
 * of writes per line. */
void qg_diag_print(const qg_diag *diag, FILE *out);
void qg_diags_print(const qg_diags *diags, FILE *out);

/* Reporting in constant memory: with a sink, each diagnostic added is
 * passed to fn at once instead of being kept (the counts are kept). */
typedef void (*qg_diag_sink)(void *user, const qg_diag *diag);
void qg_diags_set_sink(qg_diags *diags, qg_diag_sink fn, void *user);
/* Keeps (or passes on) only diagnostics of severity min or above, and
 * none once max_errors errors have been (0: no limit). The others are
 * counted, by severity, and dropped before their message is made. */
void qg_diags_set_filter(qg_diags *diags, qg_severity min, size_t max_errors);
/* Keeps (or passes on) at most max_others warnings and notes (0: no
 * limit); the rest are counted, as the filter's. */
void qg_diags_set_other_limit(qg_diags *diags, size_t max_others);
/* How many diagnostics the filter dropped; how many of them were warnings
 * and notes past their limit; and whether it has dropped an error for the
 * limit (what compilers call too many errors). */
size_t qg_diags_dropped(const qg_diags *diags);
size_t qg_diags_dropped_others(const qg_diags *diags);
int qg_diags_over_limit(const qg_diags *diags);

/* ---- variables (quest conditionals, resolution context) --------------- */

typedef struct qg_vars qg_vars;

qg_vars *qg_vars_new(void);
void qg_vars_free(qg_vars *vars);
/* Names are given without the leading '$'. Setting a name again replaces it. */
qg_status qg_vars_set(qg_vars *vars, const char *name, const char *value);
qg_status qg_vars_set_int(qg_vars *vars, const char *name, long value);
const char *qg_vars_get(const qg_vars *vars, const char *name);
size_t qg_vars_count(const qg_vars *vars);
const char *qg_vars_name_at(const qg_vars *vars, size_t index);
/* Parses "NAME=VALUE" as given on a command line. */
qg_status qg_vars_set_assignment(qg_vars *vars, const char *assignment);

/* ---- vocabulary (lib/edit names of indices) -------------------------- */

typedef enum qg_vocab_kind {
    QG_VOCAB_FEATURE = 0, /* f_info.txt */
    QG_VOCAB_MONSTER,     /* r_info.txt */
    QG_VOCAB_OBJECT,      /* k_info.txt */
    QG_VOCAB_ARTIFACT,    /* a_info.txt */
    QG_VOCAB_EGO,         /* e_info.txt */
    QG_VOCAB_KINDS
} qg_vocab_kind;

typedef struct qg_vocab qg_vocab;

qg_vocab *qg_vocab_new(void);
void qg_vocab_free(qg_vocab *vocab);
/* Reads f_info/r_info/k_info/a_info.txt from dir (those present). An entry
 * "N:idx:text" gives index idx the tag or name text; a later "E:" line (as
 * in Hengband) gives the English name. */
qg_status qg_vocab_load_dir(qg_vocab *vocab, const char *dir, qg_diags *diags);
qg_status qg_vocab_load_file(qg_vocab *vocab, qg_vocab_kind kind,
                             const char *path, qg_diags *diags);
/* How a variant's vocabulary file numbers and names its entries. */
typedef struct qg_vocab_format {
    const char *record;      /* the key that starts an entry ("N", "name") */
    int ordinal;             /* entries are numbered 0, 1, … in file order;
                                else "N:index:text" */
    int star_next;           /* "N:*:text" is the previous index plus one */
    int name_ends_at_colon;  /* "N:1:Poison:Red": the text stops at ':' */
    const char *name_key;    /* a later line giving the display name ("E",
                                "name"), or NULL */
    const char *numbers_key; /* a line whose first two numbers an entry
                                keeps ("I": tval and sval), or NULL */
    const char *words_keys;  /* the keys of lines whose '|'-separated words
                                an entry keeps ("F T"), or NULL */
    const char *words;       /* the words it keeps, space-separated, at
                                most 32 ("DEPRECATED FULL_NAME"), or NULL */
} qg_vocab_format;
/* Reads one file per kind from dir (names NULL or absent are skipped; at
 * least one must be there), each in its format. A name may list
 * alternatives, "A|B": the first present is read. A .jsonc (or .json)
 * file is read as Hengband 3's definition lists are (MonraceDefinitions
 * .jsonc …: comments and trailing commas allowed; each entry's "id", its
 * Japanese name as the tag and English name as the name, its symbol). */
qg_status qg_vocab_load_files(qg_vocab *vocab, const char *dir,
                              const char *const files[QG_VOCAB_KINDS],
                              const qg_vocab_format formats[QG_VOCAB_KINDS],
                              qg_diags *diags);
qg_status qg_vocab_add(qg_vocab *vocab, qg_vocab_kind kind, int index,
                       const char *tag, const char *name);
/* The display name (E: name, else N: text) of an index, or NULL. */
const char *qg_vocab_name(const qg_vocab *vocab, qg_vocab_kind kind, int index);
/* The N: text of an index (a tag in Hengband files), or NULL. */
const char *qg_vocab_tag(const qg_vocab *vocab, qg_vocab_kind kind, int index);
/* Looks an index up by its tag or name (case-sensitive on tags, then
 * case-insensitive on names); -1 when absent. */
int qg_vocab_lookup(const qg_vocab *vocab, qg_vocab_kind kind, const char *text);
/* Looks an index up by its tag alone, byte for byte, as the games'
 * f_tag_to_index does; -1 when absent. */
int qg_vocab_lookup_tag(const qg_vocab *vocab, qg_vocab_kind kind, const char *tag);
size_t qg_vocab_size(const qg_vocab *vocab, qg_vocab_kind kind);
/* The highest index with an entry, or -1. */
int qg_vocab_max_index(const qg_vocab *vocab, qg_vocab_kind kind);
/* The tag or name closest to text (a likely misspelling of it), or NULL. */
const char *qg_vocab_closest(const qg_vocab *vocab, qg_vocab_kind kind, const char *text);
/* The name of the file kind was read from (the alternative found), or
 * NULL when none was. */
const char *qg_vocab_source(const qg_vocab *vocab, qg_vocab_kind kind);
/* How the game draws an index (its G:char:colour line): 1 and the glyph
 * and colour letter (Angband's "dwsorgbuDWvyRGBU"), or 0 when the file
 * gives none. */
int qg_vocab_look(const qg_vocab *vocab, qg_vocab_kind kind, int index, char *glyph,
                  char *colour);
/* Sets how the game draws an index (colour 0: none). */
qg_status qg_vocab_set_look(qg_vocab *vocab, qg_vocab_kind kind, int index, char glyph,
                            char colour);
/* The first two numbers of an index's numbers_key line (an object's tval
 * and sval): 1 and out, or 0 when the file gives none. */
int qg_vocab_numbers(const qg_vocab *vocab, qg_vocab_kind kind, int index, int32_t out[2]);
/* Whether an index's words_keys lines name word, one of the format's
 * words (a monster's DEPRECATED flag, an ego's BODY_ARMOR type). */
int qg_vocab_has_word(const qg_vocab *vocab, qg_vocab_kind kind, int index, const char *word);

/* ---- questgrid's own data (the bundled lib/edit, lib/des, …) ----------- */

/* Finds name, a file or directory relative to the data directory
 * ("edit", "edit/mapping.txt", "des/vocab"), in these places in turn:
 *  1. each directory of $QUESTGRID_DATA (a colon-separated list);
 *  2. the source tree's lib/, when the running program lives in the
 *     build tree (an uninstalled build);
 *  3. PREFIX/share/questgrid of the prefix the program runs from (an
 *     installed tree moved elsewhere as a whole);
 *  4. the data directory chosen by configure (datadir/questgrid).
 * On success *path holds the first match (free with free()). Otherwise
 * *path is NULL, an error naming every place looked is added to diags and
 * QG_ERR_NOTFOUND returned. */
qg_status qg_data_find(const char *name, char **path, qg_diags *diags);

/* ---- cell flags: one vocabulary for cave_info and vault masks --------- */

/* Angband cave_info bits, assigned exactly as written; other bits kept. */
#define QG_INFO_MARK 0x0001u
#define QG_INFO_GLOW 0x0002u
#define QG_INFO_ICKY 0x0004u
#define QG_INFO_ROOM 0x0008u
#define QG_INFO_INNER 0x0800u /* inner wall of a room (Hengband's CAVE_INNER) */
#define QG_INFO_OUTER 0x1000u /* outer wall of a room (CAVE_OUTER) */

/* Crawl map masks (MMT_* bits in Crawl's order) plus per-cell properties. */
#define QG_MASK_VAULT          0x0001u
#define QG_MASK_NO_ITEM_GEN    0x0002u
#define QG_MASK_NO_MONSTER_GEN 0x0004u
#define QG_MASK_NO_POOL_FIXUP  0x0008u
#define QG_MASK_NO_TELE_CLOSET 0x0010u /* KMASK allow_tele_closets */
#define QG_MASK_NO_WALL_FIXUP  0x0020u
#define QG_MASK_OPAQUE         0x0040u
#define QG_MASK_NO_TRAP_GEN    0x0080u
#define QG_MASK_PASSABLE       0x0100u
#define QG_MASK_NO_TELE_INTO   0x0200u /* KPROP no_tele_into */
#define QG_MASK_EXIT           0x0400u /* an exit cell of a placed vault */
#define QG_MASK_NO_SECRET_DOORS 0x0800u /* seed-era KMASK/tag no_secret_doors */

/* "vault", "no_item_gen", … → bit; 0 when unknown. */
uint32_t qg_mask_from_name(const char *name);
const char *qg_mask_name(uint32_t single_bit);
/* "MARK", "GLOW", "ICKY", "ROOM", "INNER", "OUTER" → bit; 0 when unknown. */
uint32_t qg_info_from_name(const char *name);
const char *qg_info_name(uint32_t single_bit);

/* ---- things on cells -------------------------------------------------- */

typedef enum qg_thing_kind {
    QG_THING_NONE = 0,
    QG_THING_INDEX,   /* index into the vocabulary */
    QG_THING_RANDOM,  /* random; index holds the out-of-depth offset */
    QG_THING_CLONE,   /* Hengband cN: clone of index */
    QG_THING_REWARD,  /* Hengband '!': the quest's reward */
    QG_THING_NAME,    /* a name or spec text (Crawl "orc warrior") */
    QG_THING_TAG,     /* a vocabulary tag (Hengband trap "TRAP_PIT") */
    QG_THING_FORMATION /* a member of a FrogComposband FORMATION room's ten
                          monsters, index its rank (0 the strongest) */
} qg_thing_kind;

/* A random thing may be one of a kind: a summon type ("ORC"), a monster
 * symbol ("o") or an object type ("POTION") in its name. */
typedef struct qg_thing {
    qg_thing_kind kind;
    int32_t index;
    const char *name; /* owned by the level or definition holding it */
    int32_t chance;   /* the percent chance the game rolls for it (1-99);
                         0: it always comes */
    uint32_t flags;   /* QG_THING_AWAKE, …: how the game places it */
    int32_t depth;    /* levels out of depth it is made at (DEPTH+n) when
                         given by index; a random thing has them in index */
} qg_thing;

/* How a monster is placed (FrogComposband's MON() options). */
#define QG_THING_AWAKE     0x01u /* awake (NO_SLEEP) */
#define QG_THING_ALONE     0x02u /* without its group or escort (NO_GROUP) */
#define QG_THING_FRIENDLY  0x04u /* friendly to the player (FRIENDLY) */
#define QG_THING_HASTED    0x08u /* hasted (HASTE) */
#define QG_THING_NO_UNIQUE 0x10u /* a random monster that is not a unique (NO_UNIQUE) */
#define QG_THING_UNTRAPPED 0x20u /* an object that comes only when the cell's trap,
                                    which may come, does not */
/* "AWAKE", … → bit, 0 when unknown; a single bit → its name, or NULL. */
uint32_t qg_thing_flag_from_name(const char *name);
const char *qg_thing_flag_name(uint32_t single_bit);

typedef enum qg_slot {
    QG_SLOT_MONSTER = 0,
    QG_SLOT_OBJECT,
    QG_SLOT_EGO,
    QG_SLOT_ARTIFACT,
    QG_SLOT_TRAP,
    QG_SLOTS
} qg_slot;

/* ---- levels (resolved) ------------------------------------------------ */

typedef struct qg_level qg_level;

typedef struct qg_cell {
    unsigned char glyph;      /* the glyph the cell came from; ' ' outside the map */
    int in_map;               /* 0 for cells the map leaves untouched */
    int32_t feature;          /* vocabulary index, or -1 when only named */
    const char *feature_name; /* f_info tag/name or Crawl feature name, or NULL */
    uint32_t cave_info;
    uint32_t vault_mask;
    qg_thing things[QG_SLOTS];
    int32_t special;          /* quest number, building, ToME special */
    int32_t mimic;            /* ToME mimic, Hengband trap mimic */
    uint32_t mflag;           /* ToME monster flags */
    int32_t feature_chance;   /* the percent chance of the feature (1-99):
                                 otherwise the game lays its floor; 0: always */
} qg_cell;

qg_level *qg_level_new(int width, int height);
void qg_level_free(qg_level *level);
int qg_level_width(const qg_level *level);
int qg_level_height(const qg_level *level);
const char *qg_level_name(const qg_level *level);
qg_status qg_level_set_name(qg_level *level, const char *name);

/* Plain arrays, row-major, width × height entries. Vault masks and
 * specials are NULL while no cell of the level has one (all zero). */
const unsigned char *qg_level_glyphs(const qg_level *level);
const int32_t *qg_level_features(const qg_level *level);
const uint32_t *qg_level_cave_info(const qg_level *level);
const uint32_t *qg_level_vault_masks(const qg_level *level);
const int32_t *qg_level_specials(const qg_level *level);
/* 1 for cells set by a writer (part of the map), 0 for the others. */
const unsigned char *qg_level_in_map(const qg_level *level);

/* Fills *out with the cell at (x, y); QG_ERR_INVALID when outside. The
 * pointers in *out stay valid while the level is not changed. */
qg_status qg_level_cell(const qg_level *level, int x, int y, qg_cell *out);
/* 1 when two cells hold the same: extent, glyph, feature (index and
 * name), flags, masks, things, special, mimic and mflag. */
int qg_cell_same(const qg_cell *a, const qg_cell *b);
/* Calls fn for every in-map cell in row-major order; a non-zero return
 * from fn stops the walk and is returned. */
int qg_level_foreach(const qg_level *level,
                     int (*fn)(void *user, int x, int y, const qg_cell *cell),
                     void *user);

/* Like qg_level_foreach, but only for the cells holding a thing, a mimic
 * or monster flags: quick on large levels with few things. */
int qg_level_foreach_content(const qg_level *level,
                             int (*fn)(void *user, int x, int y, const qg_cell *cell),
                             void *user);

/* Writers used by front ends and hosts. Strings are copied. */
qg_status qg_level_set_glyph(qg_level *level, int x, int y, unsigned char glyph);
qg_status qg_level_set_feature(qg_level *level, int x, int y, int32_t index,
                               const char *name);
qg_status qg_level_set_cave_info(qg_level *level, int x, int y, uint32_t info);
qg_status qg_level_set_vault_mask(qg_level *level, int x, int y, uint32_t mask);
qg_status qg_level_set_thing(qg_level *level, int x, int y, qg_slot slot,
                             qg_thing_kind kind, int32_t index, const char *name);
qg_status qg_level_set_special(qg_level *level, int x, int y, int32_t special,
                               int32_t mimic, uint32_t mflag);
/* A thing with its chance and flags (qg_level_set_thing sets none). */
qg_status qg_level_put_thing(qg_level *level, int x, int y, qg_slot slot, const qg_thing *thing);
qg_status qg_level_set_feature_chance(qg_level *level, int x, int y, int32_t chance);
/* A cell set by any writer above counts as in the map. */
qg_status qg_level_clear_cell(qg_level *level, int x, int y);

void qg_level_set_player_start(qg_level *level, int x, int y);
/* 1 and the position when the level has a player start, else 0. */
int qg_level_player_start(const qg_level *level, int *x, int *y);

/* How the game turns the level when it builds it. Transform t (0-7) is
 * t & 3 quarter turns clockwise, then, when t & 4, a mirror left to right
 * (FrogComposband's transform_alloc_room numbers them so). choices has
 * bit t set for each transform the game may pick at random: 1 (only 0) for
 * a level the game never turns, 0 when nothing says. applied is the one
 * the level was turned by, or -1. */
#define QG_TURNS_NONE 0x01u  /* never turned */
#define QG_TURNS_ANY 0xFFu   /* any of the eight */
void qg_level_set_turns(qg_level *level, unsigned choices, int applied);
unsigned qg_level_turns(const qg_level *level, int *applied);
/* A new level: level turned by transform t (cells, things, markers,
 * player start, properties and turns, applied t); NULL when memory fails
 * or t is not 0-7. */
qg_level *qg_level_turned(const qg_level *level, int t);

/* Markers (Crawl MARKER specs, quest gates, …) attached to cells. */
qg_status qg_level_add_marker(qg_level *level, int x, int y, const char *spec);
size_t qg_level_marker_count(const qg_level *level);
const char *qg_level_marker(const qg_level *level, size_t index, int *x, int *y);

/* Free-form properties carried with the level (quest header fields, tags,
 * orient, …): an ordered list of key/value strings; keys may repeat. */
qg_status qg_level_add_property(qg_level *level, const char *key, const char *value);
size_t qg_level_property_count(const qg_level *level);
const char *qg_level_property(const qg_level *level, size_t index, const char **value);
/* The first value of key, or NULL. */
const char *qg_level_get_property(const qg_level *level, const char *key);

/* ---- map definitions (as authored) ------------------------------------ */

typedef enum qg_format {
    QG_FORMAT_UNKNOWN = 0,
    QG_FORMAT_FD,   /* Angband-family F:/D: file */
    QG_FORMAT_DES,  /* Crawl .des map */
    QG_FORMAT_TMX,  /* Tiled */
    QG_FORMAT_XP    /* REXPaint */
} qg_format;

typedef enum qg_map_kind {
    QG_KIND_UNKNOWN = 0,
    QG_KIND_QUEST,
    QG_KIND_TOWN,
    QG_KIND_WILDERNESS,
    QG_KIND_VAULT,
    QG_KIND_MINIVAULT,
    QG_KIND_LAYOUT,
    QG_KIND_OTHER,
    QG_KIND_ROOM,     /* a room template (added last: caches keep the numbers) */
    QG_KIND_SKIPPED   /* a cache's entry of a map its compile left out
                         (--keep-going), its "skipped" property saying why */
} qg_map_kind;

const char *qg_format_name(qg_format format);
qg_format qg_format_from_name(const char *name);
/* From a file name's extension (.des, .txt, .map, .tmx, .xp). */
qg_format qg_format_from_path(const char *path);
const char *qg_map_kind_name(qg_map_kind kind);
/* The kind a name gives ("quest", "town", "room", …); QG_KIND_UNKNOWN for
 * any other name. */
qg_map_kind qg_map_kind_from_name(const char *name);

typedef struct qg_mapdef qg_mapdef;

qg_mapdef *qg_mapdef_new(qg_format format, const char *name);
void qg_mapdef_free(qg_mapdef *def);
qg_format qg_mapdef_format(const qg_mapdef *def);
const char *qg_mapdef_name(const qg_mapdef *def);
qg_map_kind qg_mapdef_kind(const qg_mapdef *def);
const char *qg_mapdef_file(const qg_mapdef *def);
int qg_mapdef_line(const qg_mapdef *def);
/* Glyph rows as authored (bytes; rows may differ in length). */
size_t qg_mapdef_row_count(const qg_mapdef *def);
const char *qg_mapdef_row(const qg_mapdef *def, size_t index, size_t *len, int *line);
int qg_mapdef_width(const qg_mapdef *def);  /* the longest row */
/* Ordered key/value metadata (tags, depth, place, orient, chance, weight,
 * quest number, …); keys may repeat. */
size_t qg_mapdef_property_count(const qg_mapdef *def);
const char *qg_mapdef_property(const qg_mapdef *def, size_t index, const char **value);
const char *qg_mapdef_get_property(const qg_mapdef *def, const char *key);

#ifdef __cplusplus
}
#endif
#endif

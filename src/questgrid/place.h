/* The placement engine: puts resolved levels (quest levels from F:/D: files,
 * vaults from .des files) into a game's own dungeon grid.
 *
 * The game keeps its world: it hands the engine a qg_cave describing its
 * grid (plain arrays it owns) and a few callbacks saying what its features
 * are. Monsters, objects, artifacts, traps, specials and markers are not
 * created by the engine; they come back as placement requests. */
#ifndef QUESTGRID_PLACE_H
#define QUESTGRID_PLACE_H

#include <questgrid/core.h>
#include <questgrid/des.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- what a feature is ------------------------------------------------- */

#define QG_FEAT_FLOOR      0x0001u /* plain floor: corridors end on it */
#define QG_FEAT_WALL       0x0002u /* a wall (rock, stone, metal, …) */
#define QG_FEAT_PERMANENT  0x0004u /* never carved through by corridors */
#define QG_FEAT_DOOR       0x0008u /* a door, open or closed */
#define QG_FEAT_SHALLOW    0x0010u /* shallow water */
#define QG_FEAT_DEEP_WATER 0x0020u
#define QG_FEAT_LAVA       0x0040u
#define QG_FEAT_SOLID      0x0080u /* blocks movement (walls, trees, statues) */
#define QG_FEAT_OPAQUE     0x0100u /* blocks sight */
#define QG_FEAT_STAIRS     0x0200u /* stairs, hatches, portals */
#define QG_FEAT_TREE       0x0400u
#define QG_FEAT_PROTECTED  0x0800u /* the game forbids overwriting it */

/* The class of a level's cell from its Crawl glyph (the .des glyph table)
 * and, when present, its feature name (Crawl names such as "rock_wall",
 * "deep_water", or Angband f_info names such as "granite wall"). */
uint32_t qg_cell_class(const qg_cell *cell);
uint32_t qg_feature_name_class(const char *name);
uint32_t qg_glyph_class(unsigned char glyph);

/* ---- the game's dungeon ------------------------------------------------ */

/* The game's own accessors, for grids that are not plain arrays (such as
 * Angband's cave[y][x] structs). Each field is read and written through
 * its array in qg_cave when that is given, else through these. */
typedef struct qg_cave_access {
    int32_t (*get_feature)(void *user, int x, int y);
    void (*set_feature)(void *user, int x, int y, int32_t feature);
    uint32_t (*get_info)(void *user, int x, int y);   /* NULL: no cave_info */
    void (*set_info)(void *user, int x, int y, uint32_t info);
    uint32_t (*get_mask)(void *user, int x, int y);
    void (*set_mask)(void *user, int x, int y, uint32_t mask);
    void (*set_special)(void *user, int x, int y, int32_t special); /* or NULL */
} qg_cave_access;

typedef struct qg_cave {
    int width, height;
    int32_t *feature;     /* width × height, row-major: the game's feature ids */
    uint32_t *cave_info;  /* width × height, or NULL */
    uint32_t *vault_mask; /* width × height (QG_MASK_*), or NULL */
    int32_t *special;     /* width × height, or NULL; specials are also requested */
    /* QG_FEAT_* bits of one of the game's features. Required. */
    uint32_t (*classify)(void *user, int32_t feature);
    /* The game's feature for a level cell. NULL: the level's feature index
     * is the game's (F:/D: levels indexing the game's own f_info). A
     * negative result leaves the host cell's feature as it was. */
    int32_t (*translate)(void *user, const qg_cell *cell);
    /* Non-zero when a monster or an item stands on (x, y); NULL: never. */
    int (*occupied)(void *user, int x, int y);
    int32_t floor_feature; /* what corridors are carved into */
    void *user;
    /* For the fields whose array is NULL (feature and vault mask need one
     * or the other); may be NULL when the arrays are given. */
    const qg_cave_access *access;
} qg_cave;

/* ---- placement requests --------------------------------------------------- */

typedef enum qg_request_kind {
    QG_REQ_MONSTER = QG_SLOT_MONSTER,
    QG_REQ_OBJECT = QG_SLOT_OBJECT,
    QG_REQ_EGO = QG_SLOT_EGO,
    QG_REQ_ARTIFACT = QG_SLOT_ARTIFACT,
    QG_REQ_TRAP = QG_SLOT_TRAP,
    QG_REQ_SPECIAL,  /* special / mimic of a cell (quest entrance, building, gate) */
    QG_REQ_MARKER    /* a marker spec of the level */
} qg_request_kind;

/* One thing the game is asked to create. Strings point into the level
 * placed, and stay valid while that level is unchanged. */
typedef struct qg_request {
    qg_request_kind kind;
    int x, y;           /* host coordinates */
    qg_thing thing;     /* index, random (index = out-of-depth offset),
                           clone, reward, name or tag; as the source said */
    int asleep;         /* 1 asleep (Angband quest monsters, ToME N:1),
                           0 awake (ToME N:0), -1 the game decides (Crawl) */
    int32_t special;    /* QG_REQ_SPECIAL: special value */
    int32_t mimic;
    uint32_t mflag;     /* ToME mflag (2 = MFLAG_QUEST) */
    const char *marker; /* QG_REQ_MARKER: the spec */
} qg_request;

/* Returns 0 to go on; anything else stops placing, which then fails with
 * QG_ERR_INVALID. */
typedef int (*qg_request_fn)(void *user, const qg_request *request);

/* ---- subvaults ----------------------------------------------------------- */

/* Resolves a random map carrying tag to fit in width × height (the box of
 * the key glyph); returns a new level owned by the caller of the engine
 * (the engine frees it with qg_level_free), or NULL when none is found. */
typedef qg_level *(*qg_subvault_fn)(void *user, const char *tag, int width,
                                    int height, unsigned long long seed);

/* ---- placing ------------------------------------------------------------- */

#define QG_XFORM_HMIRROR 0x1u
#define QG_XFORM_VMIRROR 0x2u
#define QG_XFORM_ROTATE_CW 0x4u
#define QG_XFORM_ROTATE_CCW 0x8u

typedef struct qg_place_options {
    unsigned long long seed;
    int has_position;     /* 1: x, y below are used */
    int x, y;             /* fixed level: its origin (default 0,0);
                             float vault: the centre wanted */
    int tries;            /* vault attempts; 0 = Crawl's 25 */
    int fixed_transform;  /* 1: apply `transform` instead of random ones */
    unsigned transform;   /* QG_XFORM_* (mirrors first, then one rotation) */
    int no_connect;       /* 1: carve no corridors from the exits */
    int ignore_collisions;/* 1: skip the safe-place check */
    qg_request_fn request;
    void *request_user;
    qg_subvault_fn subvault;
    void *subvault_user;
} qg_place_options;

typedef struct qg_exit {
    int x, y;           /* host coordinates */
    int connected;      /* 1 when a corridor joins it to the level's floor */
} qg_exit;

/* What a placement did. Zero-initialise, pass to a placing call, free the
 * arrays with qg_placement_clear (the struct itself is the caller's). */
typedef struct qg_placement {
    int x, y, width, height; /* host rectangle the level occupies */
    const char *orient;      /* after transforms (static string) */
    unsigned transform;      /* QG_XFORM_* applied */
    qg_exit *exits;
    size_t exit_count, exit_cap;
    qg_request *requests;
    size_t request_count, request_cap;
    int has_player_start, player_x, player_y;
    int level_width, level_height; /* fixed levels: the size P: gives
                                      (the loader's cur_wid / cur_hgt) */
    int tries_used;
    qg_level *owned;         /* a level made while placing (subvaults merged);
                                requests may point into it */
} qg_placement;

void qg_placement_clear(qg_placement *placement);

/* Places a vault with Crawl's rules (ORIENT, transforms, position search,
 * collisions, exits and corridors, vault masks, ICKY). Each of the tries
 * draws new transforms and a new position (minivaults search 600
 * positions per try). QG_ERR_NOTFOUND when no place is found (the cave is
 * then unchanged), QG_ERR_LIMIT when the vault is larger than the cave,
 * QG_ERR_INVALID when a request callback refuses (what was drawn stays). */
qg_status qg_place_vault(qg_cave *cave, const qg_level *level,
                         const qg_place_options *options,
                         qg_placement *out, qg_diags *diags);

/* Places a fixed or quest level at its origin with the Angband loaders'
 * rules: features, cave_info assigned as written, specials, things; ICKY
 * cells are marked QG_MASK_VAULT. Cells outside the cave are reported and
 * left out. */
qg_status qg_place_fixed(qg_cave *cave, const qg_level *level,
                         const qg_place_options *options,
                         qg_placement *out, qg_diags *diags);

/* qg_place_vault for levels with an "orient" or "tags" property (resolved
 * .des maps), qg_place_fixed otherwise. */
qg_status qg_place(qg_cave *cave, const qg_level *level,
                   const qg_place_options *options, qg_placement *out,
                   qg_diags *diags);

/* A transformed copy of a level (cells, things, markers, player start and
 * properties; "orient" follows the transform). */
qg_level *qg_level_transformed(const qg_level *level, unsigned transform);

/* Merges the level's "subvault" properties ("K : tag / tag:20") into it
 * with Crawl's rules, resolving maps through fn. */
qg_status qg_level_resolve_subvaults(qg_level *level, qg_subvault_fn fn,
                                     void *user, unsigned long long seed,
                                     qg_diags *diags);

/* ---- validation ---------------------------------------------------------- */

/* 1 when some cell with this glyph can walk (doors count, deep water and
 * lava do not) to a walkable cell on the map's edge; 0 otherwise. */
int qg_level_has_exit_from_glyph(const qg_level *level, unsigned char glyph);
/* 1 when the first cell (row-major) of g1 can walk to the first of g2. */
int qg_level_glyphs_connected(const qg_level *level, unsigned char g1,
                              unsigned char g2);

/* Checks a resolved vault by the seed documents' rules (Crawl 0.4 and
 * 0.5): unreachable stairs and exits, edge-ORIENT maps without their 6
 * deep wall padding, maps over the size limit of their ORIENT, encompass
 * maps without all stairs, maps placed isolated. Diagnostics carry the
 * level's "file" and "line" properties. Returns the number of errors
 * added. */
size_t qg_level_check_placement(const qg_level *level, qg_diags *diags);
/* The same by the rules of the game branches is of (Crawl 0.28, current
 * Crawl), each where that game enforces it: the size limits, a map's
 * cells on the level's border (walls, trees or seas only), the exit
 * map_def::has_exit asks for, and for an encompass map made for the
 * levels its DEPTH and PLACE lists hold (", "-separated ranges, as the
 * map's "depth" and "place" properties have them; either may be NULL) the
 * number of stone stairs each way every one of those levels has, and one
 * up stair that walks to a down one. A note says so when they hold no
 * level of the table. With branches NULL, the seed documents' rules. */
size_t qg_level_check_placement_at(const qg_level *level, const qg_branches *branches,
                                   const char *depth, const char *place, qg_diags *diags);

/* ---- a simple host dungeon (rooms and corridors) --------------------------- */

typedef struct qg_host qg_host;

/* A seeded dungeon of rooms joined by corridors, walled by permanent rock. */
qg_host *qg_host_generate(int width, int height, unsigned long long seed);
void qg_host_free(qg_host *host);
/* The host as a cave (valid while the host lives); its features keep the
 * glyph of what was placed so that it can be printed. */
qg_cave *qg_host_cave(qg_host *host);
/* Writes the grid (one row per line) and a legend. */
void qg_host_print(const qg_host *host, FILE *out);
/* The same, with the grid in ANSI colours when colour is not 0. */
void qg_host_print_with(const qg_host *host, int colour, FILE *out);
/* The display glyph of a host cell. */
unsigned char qg_host_glyph(const qg_host *host, int x, int y);

#ifdef __cplusplus
}
#endif
#endif

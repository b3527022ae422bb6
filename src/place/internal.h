/* Shared pieces of the placement engine. */
#ifndef QG_PLACE_INTERNAL_H
#define QG_PLACE_INTERNAL_H

#include "questgrid/place.h"
#include "core/rng.h"

/* ---- the game's cave: a field's array, else the game's accessor --------- */

/* 1 when the cave can be placed into: a size, classify, and a way to read
 * and write features and vault masks. */
int cave_usable(const qg_cave *c);

static inline int32_t cave_feature(const qg_cave *c, int at)
{
    return c->feature ? c->feature[at]
                      : c->access->get_feature(c->user, at % c->width, at / c->width);
}

static inline void cave_set_feature(qg_cave *c, int at, int32_t f)
{
    if (c->feature)
        c->feature[at] = f;
    else
        c->access->set_feature(c->user, at % c->width, at / c->width, f);
}

static inline uint32_t cave_class(const qg_cave *c, int at)
{
    return c->classify(c->user, cave_feature(c, at));
}

static inline uint32_t cave_mask(const qg_cave *c, int at)
{
    return c->vault_mask ? c->vault_mask[at]
                         : c->access->get_mask(c->user, at % c->width, at / c->width);
}

static inline void cave_set_mask(qg_cave *c, int at, uint32_t m)
{
    if (c->vault_mask)
        c->vault_mask[at] = m;
    else
        c->access->set_mask(c->user, at % c->width, at / c->width, m);
}

static inline int cave_has_info(const qg_cave *c)
{
    return c->cave_info || (c->access && c->access->get_info && c->access->set_info);
}

/* Only when cave_has_info. */
static inline uint32_t cave_info(const qg_cave *c, int at)
{
    return c->cave_info ? c->cave_info[at]
                        : c->access->get_info(c->user, at % c->width, at / c->width);
}

static inline void cave_set_info(qg_cave *c, int at, uint32_t info)
{
    if (c->cave_info)
        c->cave_info[at] = info;
    else
        c->access->set_info(c->user, at % c->width, at / c->width, info);
}

static inline void cave_set_special(qg_cave *c, int at, int32_t special)
{
    if (c->special)
        c->special[at] = special;
    else if (c->access && c->access->set_special)
        c->access->set_special(c->user, at % c->width, at / c->width, special);
}

/* ---- ORIENT and tags ---------------------------------------------------- */

typedef enum orient {
    OR_NORTH = 0, OR_SOUTH, OR_EAST, OR_WEST,
    OR_NORTHWEST, OR_NORTHEAST, OR_SOUTHWEST, OR_SOUTHEAST,
    OR_ENCOMPASS, OR_FLOAT, OR_CENTRE, OR_COUNT
} orient;

/* "" or NULL gives OR_FLOAT and *minivault = 1; unknown names return 0. */
int orient_parse(const char *name, orient *out, int *minivault);
const char *orient_name(orient o);
int orient_is_edge(orient o);

enum {
    TAG_NO_HMIRROR = 1u << 0, TAG_NO_VMIRROR = 1u << 1, TAG_NO_ROTATE = 1u << 2,
    TAG_TRANSPARENT = 1u << 3, TAG_OVERWRITABLE = 1u << 4,
    TAG_NO_MONSTER_GEN = 1u << 5, TAG_NO_ITEM_GEN = 1u << 6,
    TAG_NO_POOL_FIXUP = 1u << 7, TAG_NO_WALL_FIXUP = 1u << 8,
    TAG_NO_TRAP_GEN = 1u << 9, TAG_ALLOW_TELE_CLOSETS = 1u << 10,
    TAG_WATER_OK = 1u << 11, TAG_NO_EXITS = 1u << 12, TAG_UNRAND = 1u << 13,
    TAG_LAYOUT = 1u << 14, TAG_PASSABLE = 1u << 15,
    TAG_OVERWRITE_FLOOR_CELL = 1u << 16, TAG_MINIVAULT = 1u << 17,
    TAG_NO_TELE_INTO = 1u << 18, TAG_DUMMY = 1u << 19
};

/* The known tags of a space-separated list. */
unsigned tags_parse(const char *tags);
/* The vault mask bits the tags give every cell (not VAULT nor OPAQUE). */
uint32_t tags_mask(unsigned tags);

/* ---- transforms -------------------------------------------------------------- */

/* Maps a cell (x, y) of the transformed map to the source level's
 * (ax + by + c, dx + ey + f); w × h is the transformed size. */
typedef struct xform {
    int a, b, c, d, e, f;
    int w, h;
    unsigned applied;
} xform;

void xform_identity(xform *t, int w, int h);
void xform_apply(xform *t, unsigned op); /* one QG_XFORM_* bit */
static inline int xform_src(const xform *t, int x, int y, int lw)
{
    return (t->d * x + t->e * y + t->f) * lw + (t->a * x + t->b * y + t->c);
}
/* Where a source cell (sx, sy) lands in the transformed map. */
void xform_inverse(const xform *t, int sx, int sy, int *x, int *y);
orient orient_after(orient o, unsigned op);

/* ---- the transformed view of a level being placed ------------------------- */

typedef struct vmap {
    const qg_level *level;
    xform t;
    int w, h;
    unsigned char *part;  /* w × h: 1 for cells of the map */
    int *cells;           /* indices (y * w + x) of the map's cells */
    size_t count;
} vmap;

int vmap_build(vmap *m, const qg_level *level, const xform *t);
void vmap_free(vmap *m);
/* A cell of the map orthogonally next to a space or the outside. */
int vmap_on_edge(const vmap *m, int x, int y);
unsigned char vmap_glyph(const vmap *m, int x, int y);

/* ---- collision rules and position search ------------------------------------ */

typedef struct vault_job {
    qg_cave *cave;
    const vmap *map;
    orient orient;
    int minivault;
    unsigned tags;
    const qg_place_options *options;
    qg_rng *rng;
} vault_job;

int place_safe(const vault_job *job, int px, int py);
int place_connected_minivault(const vault_job *job, int px, int py);
/* Finds the top-left corner for the job's orient; 0 when none is found. */
int place_find_position(const vault_job *job, int *px, int *py);

/* ---- exits and corridors -------------------------------------------------- */

/* Collects the exits of a vault placed at (px, py) into out: '@' cells and
 * '=' '+' edge cells, else edge cells picked as _pick_float_exits does. */
qg_status exits_find(const vault_job *job, int px, int py, qg_placement *out);

/* Working memory for corridor searches over one cave. */
typedef struct path_scratch {
    int *parent;       /* cell we came from */
    uint32_t *stamp;   /* == current stamp: visited in this search */
    int *queue;        /* BFS queue */
    uint64_t *heap;    /* best-first open list: key << 32 | cell */
    size_t heap_count;
    uint32_t current;
} path_scratch;

int path_scratch_init(path_scratch *s, const qg_cave *cave);
void path_scratch_free(path_scratch *s);
/* Carves a corridor from the exit (x, y) to the nearest floor outside
 * every vault (join_the_dots); 1 on success. */
int exit_connect(qg_cave *cave, path_scratch *s, int x, int y);

/* ---- requests ---------------------------------------------------------------- */

typedef struct request_sink {
    const qg_place_options *options;
    qg_placement *out;
    int default_asleep;
    int failed;          /* a callback refused or memory ran out */
} request_sink;

int request_emit(request_sink *sink, const qg_request *request);
/* Emits the things of one cell placed at (hx, hy). */
int request_things(request_sink *sink, const qg_cell *cell, int hx, int hy);
/* Emits its special, mimic and monster flags, when it has any. */
int request_special(request_sink *sink, const qg_cell *cell, int hx, int hy);
/* Emits the level's markers, each mapped through fn to host coordinates. */
int request_markers(request_sink *sink, const qg_level *level,
                    void (*map)(const void *ctx, int lx, int ly, int *hx, int *hy),
                    const void *ctx);

/* ---- Crawl's features (crawl_feat.c) ---------------------------------------- */

enum {
    CRAWL_SOLID = 1u << 0,       /* FFT_SOLID (feat_is_solid) */
    CRAWL_CLOSED_DOOR = 1u << 1, /* feat_is_closed_door */
    CRAWL_BORDER = 1u << 2,      /* feat_is_valid_border: walls, trees, the seas */
    CRAWL_STAIR = 1u << 3,       /* feat_is_stair, hatches aside */
    CRAWL_HATCH = 1u << 4,       /* feat_is_escape_hatch */
    CRAWL_UP = 1u << 5,          /* a stone stair up */
    CRAWL_DOWN = 1u << 6,        /* a stone stair down */
    CRAWL_EXIT = 1u << 7,        /* a branch or portal exit ("exit_*") */
    CRAWL_TRAVEL = 1u << 8       /* dgn_square_travel_ok: a level's regions hold these */
};
/* The CRAWL_* facts of the cell's feature (its name, else its glyph's). */
unsigned crawl_feature(const qg_cell *cell);

/* ---- walking a level (validate.c) --------------------------------------------- */

/* A walkability view of a level: cells of the map, what is walkable
 * (doors are; deep water and lava are not), and what is on the edge. */
typedef struct walk_grid {
    int w, h;
    unsigned char *part, *walk;
    int *queue;
    unsigned char *seen;
} walk_grid;

int walk_build(walk_grid *g, const qg_level *level);
void walk_free(walk_grid *g);
/* A cell of the map orthogonally next to a cell outside it. */
int walk_on_edge(const walk_grid *g, int at);
/* Walks (orthogonally) from the start cells; returns the first cell for
 * which goal says yes, or -1. */
int walk_search(walk_grid *g, const int *starts, size_t nstarts,
                int (*goal)(const walk_grid *g, int at, const void *ctx), const void *ctx);
/* Goals: a walkable cell on the edge; the cell *(const int *)ctx. */
int walk_goal_edge(const walk_grid *g, int at, const void *ctx);
int walk_goal_cell(const walk_grid *g, int at, const void *ctx);

/* ---- the designer checks (check.c; the rules of an era: check_seed.c,
 * check_crawl.c) ------------------------------------------------------------------ */

enum { GXM = 80, GYM = 70, MAPGEN_BORDER = 2 };

/* The stone stairs an encompass map's levels have: with no branch table,
 * all six (the seed documents); else those every level its DEPTH and
 * PLACE hold has in the table (levels 0: they hold none of its levels). */
typedef struct stair_rule {
    const qg_branches *branches;
    unsigned required;      /* DES_* stair bits (des/branches.h) */
    size_t levels;
} stair_rule;

typedef struct place_check {
    const qg_level *level;
    qg_diags *diags;
    size_t errors;
    const char *name;
    orient orient;
    int minivault;
    unsigned tags;
    int w, h;
    stair_rule stairs;
} place_check;

/* The seed documents' rules (Crawl 0.4 and 0.5): 6 deep wall padding,
 * every stair reachable, '@' on the edge, all six stairs on a full level. */
void check_seed_rules(place_check *c, walk_grid *g);
/* The rules of the game whose branch table c->stairs holds (Crawl 0.28,
 * current Crawl), each where that game enforces it. */
void check_crawl_rules(place_check *c);

/* ---- shared helpers ----------------------------------------------------------- */

int placement_add_exit(qg_placement *out, int x, int y);
void place_diag(qg_diags *diags, qg_severity sev, const qg_level *level,
                const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif

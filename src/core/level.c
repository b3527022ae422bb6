/* A resolved level: plain per-cell arrays for what every cell has, and a
 * sparse side table for what few cells have (monsters, objects, …). */
#include "questgrid/core.h"
#include "core/buf.h"
#include "core/level.h"
#include "core/props.h"
#include "core/strpool.h"

#include <stdlib.h>
#include <string.h>

typedef struct contents {
    qg_thing_kind kind[QG_SLOTS];
    int32_t index[QG_SLOTS];
    uint32_t name[QG_SLOTS];
    int32_t chance[QG_SLOTS];
    uint32_t flags[QG_SLOTS];
    int32_t depth[QG_SLOTS];
    int32_t mimic;
    uint32_t mflag;
    int32_t feature_chance;
} contents;

typedef struct marker {
    int x, y;
    char *spec;
} marker;

struct qg_level {
    int width, height;
    char *name;
    unsigned char *glyph;
    unsigned char *in_map;
    int32_t *feature;
    uint32_t *feature_name; /* strpool ids */
    uint32_t *cave_info;
    /* Most levels have no masks, specials or things: these three arrays
     * stay NULL (all zero) until a cell gets one. */
    uint32_t *vault_mask;
    int32_t *special;
    uint32_t *content;      /* 0 = none, else 1 + index into extra */
    contents *extra;
    size_t extra_count, extra_cap;
    marker *markers;
    size_t marker_count, marker_cap;
    qg_props props;
    int has_start, start_x, start_y;
    unsigned turns;         /* qg_level_set_turns */
    int turned;
    qg_strpool names;
};

/* The arrays every cell uses live in one block: one allocation per level,
 * laid out widest type first so every array stays aligned. */
static int alloc_cells(qg_level *level, size_t n)
{
    size_t words = 3 * n * sizeof(uint32_t);
    unsigned char *block = malloc(words + 2 * n);
    if (!block)
        return 0;
    level->feature = (int32_t *)block;
    level->feature_name = (uint32_t *)(block + 1 * n * sizeof(uint32_t));
    level->cave_info = (uint32_t *)(block + 2 * n * sizeof(uint32_t));
    level->glyph = block + words;
    level->in_map = block + words + n;
    memset(level->feature, 0xff, n * sizeof(int32_t)); /* -1: no feature */
    memset(level->feature_name, 0, 2 * n * sizeof(uint32_t));
    memset(level->glyph, ' ', n);
    memset(level->in_map, 0, n);
    return 1;
}

/* An array for one of the fields that start out NULL, all zero. */
static void *zeroed_cells(const qg_level *level)
{
    return calloc((size_t)level->width * (size_t)level->height, sizeof(uint32_t));
}

qg_level *qg_level_new(int width, int height)
{
    if (width <= 0 || height <= 0 || (size_t)width * (size_t)height > QG_LEVEL_MAX_CELLS)
        return NULL;
    qg_level *level = calloc(1, sizeof *level);
    if (!level)
        return NULL;
    level->width = width;
    level->height = height;
    level->turned = -1;
    qg_strpool_init(&level->names);
    if (!alloc_cells(level, (size_t)width * (size_t)height)) {
        free(level);
        return NULL;
    }
    return level;
}

void qg_level_free(qg_level *level)
{
    if (!level)
        return;
    free(level->name);
    free(level->feature);
    free(level->vault_mask);
    free(level->special);
    free(level->content);
    free(level->extra);
    for (size_t i = 0; i < level->marker_count; i++)
        free(level->markers[i].spec);
    free(level->markers);
    qg_props_free(&level->props);
    qg_strpool_free(&level->names);
    free(level);
}

int qg_level_width(const qg_level *level) { return level->width; }
int qg_level_height(const qg_level *level) { return level->height; }
const char *qg_level_name(const qg_level *level) { return level->name; }

qg_status qg_level_set_name(qg_level *level, const char *name)
{
    char *copy = qg_strdup(name);
    if (name && !copy)
        return QG_ERR_NOMEM;
    free(level->name);
    level->name = copy;
    return QG_OK;
}

const unsigned char *qg_level_glyphs(const qg_level *l) { return l->glyph; }
const int32_t *qg_level_features(const qg_level *l) { return l->feature; }
const uint32_t *qg_level_cave_info(const qg_level *l) { return l->cave_info; }
const uint32_t *qg_level_vault_masks(const qg_level *l) { return l->vault_mask; }
const int32_t *qg_level_specials(const qg_level *l) { return l->special; }
const unsigned char *qg_level_in_map(const qg_level *l) { return l->in_map; }

static int cell_index(const qg_level *level, int x, int y, size_t *at)
{
    if (x < 0 || y < 0 || x >= level->width || y >= level->height)
        return 0;
    *at = (size_t)y * (size_t)level->width + (size_t)x;
    return 1;
}

static void fill_cell(const qg_level *level, size_t at, qg_cell *out)
{
    memset(out, 0, sizeof *out);
    out->glyph = level->glyph[at];
    out->in_map = level->in_map[at];
    out->feature = level->feature[at];
    out->feature_name = qg_strpool_get(&level->names, level->feature_name[at]);
    out->cave_info = level->cave_info[at];
    out->vault_mask = level->vault_mask ? level->vault_mask[at] : 0;
    out->special = level->special ? level->special[at] : 0;
    if (!level->content || !level->content[at])
        return;
    const contents *c = &level->extra[level->content[at] - 1];
    for (int s = 0; s < QG_SLOTS; s++) {
        out->things[s].kind = c->kind[s];
        out->things[s].index = c->index[s];
        out->things[s].name = qg_strpool_get(&level->names, c->name[s]);
        out->things[s].chance = c->chance[s];
        out->things[s].flags = c->flags[s];
        out->things[s].depth = c->depth[s];
    }
    out->mimic = c->mimic;
    out->mflag = c->mflag;
    out->feature_chance = c->feature_chance;
}

qg_status qg_level_cell(const qg_level *level, int x, int y, qg_cell *out)
{
    size_t at;
    if (!cell_index(level, x, y, &at))
        return QG_ERR_INVALID;
    fill_cell(level, at, out);
    return QG_OK;
}

static int same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

int qg_cell_same(const qg_cell *a, const qg_cell *b)
{
    if (a->in_map != b->in_map || a->glyph != b->glyph || a->feature != b->feature ||
        !same_text(a->feature_name, b->feature_name) || a->cave_info != b->cave_info ||
        a->vault_mask != b->vault_mask || a->special != b->special || a->mimic != b->mimic ||
        a->mflag != b->mflag || a->feature_chance != b->feature_chance)
        return 0;
    for (int s = 0; s < QG_SLOTS; s++)
        if (a->things[s].kind != b->things[s].kind || a->things[s].index != b->things[s].index ||
            !same_text(a->things[s].name, b->things[s].name) ||
            a->things[s].chance != b->things[s].chance || a->things[s].flags != b->things[s].flags ||
            a->things[s].depth != b->things[s].depth)
            return 0;
    return 1;
}

int qg_level_foreach(const qg_level *level,
                     int (*fn)(void *user, int x, int y, const qg_cell *cell),
                     void *user)
{
    qg_cell cell;
    size_t at = 0;
    for (int y = 0; y < level->height; y++)
        for (int x = 0; x < level->width; x++, at++) {
            if (!level->in_map[at])
                continue;
            fill_cell(level, at, &cell);
            int r = fn(user, x, y, &cell);
            if (r)
                return r;
        }
    return 0;
}

/* Non-zero when one of the n ids is; in eight lanes so that it vectorises. */
static uint32_t any_content(const uint32_t *restrict ids, size_t n)
{
    uint32_t lanes[8] = {0}, any = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; k++)
            lanes[k] |= ids[i + k];
    for (; i < n; i++)
        any |= ids[i];
    for (int k = 0; k < 8; k++)
        any |= lanes[k];
    return any;
}

int qg_level_foreach_content(const qg_level *level,
                             int (*fn)(void *user, int x, int y, const qg_cell *cell),
                             void *user)
{
    enum { BLOCK = 32 };
    qg_cell cell;
    size_t n = level->content ? (size_t)level->width * (size_t)level->height : 0;
    for (size_t start = 0; start < n; start += BLOCK) {
        size_t end = start + BLOCK < n ? start + BLOCK : n;
        if (!any_content(level->content + start, end - start))
            continue;
        for (size_t at = start; at < end; at++) {
            if (!level->content[at] || !level->in_map[at])
                continue;
            fill_cell(level, at, &cell);
            int r = fn(user, (int)(at % (size_t)level->width),
                       (int)(at / (size_t)level->width), &cell);
            if (r)
                return r;
        }
    }
    return 0;
}

#define CELL_OR_FAIL(level, x, y, at)      \
    size_t at;                             \
    if (!cell_index(level, x, y, &at))     \
        return QG_ERR_INVALID;             \
    level->in_map[at] = 1

qg_status qg_level_set_glyph(qg_level *level, int x, int y, unsigned char glyph)
{
    CELL_OR_FAIL(level, x, y, at);
    level->glyph[at] = glyph;
    return QG_OK;
}

qg_status qg_level_set_feature(qg_level *level, int x, int y, int32_t index,
                               const char *name)
{
    CELL_OR_FAIL(level, x, y, at);
    uint32_t id = qg_strpool_intern(&level->names, name, name ? strlen(name) : 0);
    if (id == QG_STRPOOL_FAIL)
        return QG_ERR_NOMEM;
    level->feature[at] = index;
    level->feature_name[at] = id;
    return QG_OK;
}

qg_status qg_level_set_cave_info(qg_level *level, int x, int y, uint32_t info)
{
    CELL_OR_FAIL(level, x, y, at);
    level->cave_info[at] = info;
    return QG_OK;
}

qg_status qg_level_set_vault_mask(qg_level *level, int x, int y, uint32_t mask)
{
    CELL_OR_FAIL(level, x, y, at);
    if (!mask && !level->vault_mask)
        return QG_OK;
    if (!level->vault_mask && !(level->vault_mask = zeroed_cells(level)))
        return QG_ERR_NOMEM;
    level->vault_mask[at] = mask;
    return QG_OK;
}

static contents *contents_of(qg_level *level, size_t at)
{
    if (!level->content && !(level->content = zeroed_cells(level)))
        return NULL;
    if (level->content[at])
        return &level->extra[level->content[at] - 1];
    if (level->extra_count >= UINT32_MAX - 1)
        return NULL;
    contents *c = QG_PUSH(level->extra, level->extra_count, level->extra_cap);
    if (!c)
        return NULL;
    memset(c, 0, sizeof *c);
    level->content[at] = (uint32_t)level->extra_count;
    return c;
}

qg_status qg_level_set_thing(qg_level *level, int x, int y, qg_slot slot,
                             qg_thing_kind kind, int32_t index, const char *name)
{
    uint32_t id = qg_strpool_intern(&level->names, name, name ? strlen(name) : 0);
    if (id == QG_STRPOOL_FAIL)
        return QG_ERR_NOMEM;
    return qg_level_set_thing_id(level, x, y, slot, kind, index, id);
}

qg_status qg_level_set_thing_id(qg_level *level, int x, int y, qg_slot slot,
                                qg_thing_kind kind, int32_t index, uint32_t name)
{
    if ((unsigned)slot >= QG_SLOTS || (name && name >= level->names.count))
        return QG_ERR_INVALID;
    CELL_OR_FAIL(level, x, y, at);
    if (kind == QG_THING_NONE && (!level->content || !level->content[at]))
        return QG_OK;
    contents *c = contents_of(level, at);
    if (!c)
        return QG_ERR_NOMEM;
    c->kind[slot] = kind;
    c->index[slot] = index;
    c->name[slot] = name;
    c->chance[slot] = 0;
    c->flags[slot] = 0;
    c->depth[slot] = 0;
    return QG_OK;
}

qg_status qg_level_put_thing(qg_level *level, int x, int y, qg_slot slot, const qg_thing *t)
{
    qg_status st = qg_level_set_thing(level, x, y, slot, t->kind, t->index, t->name);
    if (st != QG_OK || (!t->chance && !t->flags && !t->depth) || t->kind == QG_THING_NONE)
        return st;
    contents *c = &level->extra[level->content[(size_t)y * (size_t)level->width + (size_t)x] - 1];
    c->chance[slot] = t->chance;
    c->flags[slot] = t->flags;
    c->depth[slot] = t->depth;
    return QG_OK;
}

qg_status qg_level_set_feature_chance(qg_level *level, int x, int y, int32_t chance)
{
    CELL_OR_FAIL(level, x, y, at);
    if (!chance && (!level->content || !level->content[at]))
        return QG_OK;
    contents *c = contents_of(level, at);
    if (!c)
        return QG_ERR_NOMEM;
    c->feature_chance = chance;
    return QG_OK;
}

qg_status qg_level_set_special(qg_level *level, int x, int y, int32_t special,
                               int32_t mimic, uint32_t mflag)
{
    CELL_OR_FAIL(level, x, y, at);
    if (special || level->special) {
        if (!level->special && !(level->special = zeroed_cells(level)))
            return QG_ERR_NOMEM;
        level->special[at] = special;
    }
    if (!mimic && !mflag && (!level->content || !level->content[at]))
        return QG_OK;
    contents *c = contents_of(level, at);
    if (!c)
        return QG_ERR_NOMEM;
    c->mimic = mimic;
    c->mflag = mflag;
    return QG_OK;
}

qg_status qg_level_clear_cell(qg_level *level, int x, int y)
{
    size_t at;
    if (!cell_index(level, x, y, &at))
        return QG_ERR_INVALID;
    level->glyph[at] = ' ';
    level->in_map[at] = 0;
    level->feature[at] = -1;
    level->feature_name[at] = 0;
    level->cave_info[at] = 0;
    if (level->vault_mask)
        level->vault_mask[at] = 0;
    if (level->special)
        level->special[at] = 0;
    if (level->content && level->content[at])
        memset(&level->extra[level->content[at] - 1], 0, sizeof(contents));
    return QG_OK;
}

void qg_level_set_turns(qg_level *level, unsigned choices, int applied)
{
    level->turns = choices & QG_TURNS_ANY;
    level->turned = applied >= 0 && applied < 8 ? applied : -1;
}

unsigned qg_level_turns(const qg_level *level, int *applied)
{
    if (applied)
        *applied = level->turned;
    return level->turns;
}

void qg_level_set_player_start(qg_level *level, int x, int y)
{
    level->has_start = 1;
    level->start_x = x;
    level->start_y = y;
}

int qg_level_player_start(const qg_level *level, int *x, int *y)
{
    if (!level->has_start)
        return 0;
    if (x)
        *x = level->start_x;
    if (y)
        *y = level->start_y;
    return 1;
}

qg_status qg_level_add_marker(qg_level *level, int x, int y, const char *spec)
{
    char *copy = qg_strdup(spec ? spec : "");
    marker *m = copy ? QG_PUSH(level->markers, level->marker_count, level->marker_cap) : NULL;
    if (!m) {
        free(copy);
        return QG_ERR_NOMEM;
    }
    m->x = x;
    m->y = y;
    m->spec = copy;
    return QG_OK;
}

size_t qg_level_marker_count(const qg_level *level)
{
    return level->marker_count;
}

const char *qg_level_marker(const qg_level *level, size_t index, int *x, int *y)
{
    if (index >= level->marker_count)
        return NULL;
    if (x)
        *x = level->markers[index].x;
    if (y)
        *y = level->markers[index].y;
    return level->markers[index].spec;
}

qg_status qg_level_add_property(qg_level *level, const char *key, const char *value)
{
    return qg_props_add(&level->props, key, value);
}

size_t qg_level_property_count(const qg_level *level)
{
    return level->props.count;
}

const char *qg_level_property(const qg_level *level, size_t index, const char **value)
{
    return qg_props_at(&level->props, index, value);
}

const char *qg_level_get_property(const qg_level *level, const char *key)
{
    return qg_props_get(&level->props, key);
}

uint32_t qg_level_intern(qg_level *level, const char *name)
{
    return qg_strpool_intern(&level->names, name, name ? strlen(name) : 0);
}

size_t qg_level_put_row(qg_level *level, int y, int x0, const unsigned char *glyphs,
                        size_t n, const qg_row_legend *legend, size_t *others)
{
    if (y < 0 || y >= level->height || x0 >= level->width)
        return 0;
    size_t skip = x0 < 0 ? (size_t)-x0 : 0;
    if (skip >= n)
        return 0;
    size_t x = (size_t)x0 + skip;
    size_t count = (size_t)level->width - x < n - skip ? (size_t)level->width - x : n - skip;
    size_t at = (size_t)y * (size_t)level->width + x;
    const unsigned char *g = glyphs + skip;
    /* Local pointers: the stores cannot alias the level's own fields. */
    int32_t *restrict feature = level->feature + at;
    uint32_t *restrict name = level->feature_name + at;
    uint32_t *restrict info = level->cave_info + at;
    size_t listed = 0;
    int unplaced = 0;
    for (size_t i = 0; i < count; i++) {
        unsigned char c = g[i];
        unsigned char use = legend->use[c];
        if (use != 1) {
            others[listed++] = skip + i;
            if (!use) {
                unplaced = 1;
                continue;
            }
        }
        feature[i] = legend->feature[c];
        name[i] = legend->name_id[c];
        info[i] = legend->info[c];
    }
    if (!unplaced) {
        memcpy(level->glyph + at, g, count);
        memset(level->in_map + at, 1, count);
        return listed;
    }
    for (size_t i = 0; i < count; i++)
        if (legend->use[g[i]]) {
            level->glyph[at + i] = g[i];
            level->in_map[at + i] = 1;
        }
    return listed;
}

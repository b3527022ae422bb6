/* Tiled TMX reader, part 2: a tmx_doc into a level. Each glyph's terrain
 * comes from its tile's properties, "cell" objects override single cells,
 * and objects put things, markers and the player start on cells. */
#include "formats/tmx_doc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GID_FLAGS 0xF0000000u

/* A tile's terrain, read once from its properties. */
typedef struct tile_terrain {
    uint32_t gid;
    tmx_terrain terrain;
    char *name;
} tile_terrain;

typedef struct builder {
    tmx_doc *doc;
    qg_level *level;
    qg_buf scratch;
    tile_terrain *tiles;    /* sorted by gid; the last definition of a gid wins */
    size_t tile_count;
} builder;

/* A property value as level bytes (undoing the writer's escapes). */
static const char *unescaped(builder *b, const char *text)
{
    qg_buf_reset(&b->scratch);
    tmx_unescape_bytes(&b->scratch, text, strlen(text));
    return b->scratch.data ? b->scratch.data : "";
}

static int prop_int(builder *b, const tmx_prop *p, long long lo, long long hi,
                    long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(p->value, &end, 10);
    if (errno || end == p->value || *end || v < lo || v > hi) {
        tmx_report(b->doc, QG_ERROR, p->line, 1,
                   "property %s=\"%s\" is not a whole number in %lld..%lld", p->name,
                   p->value, lo, hi);
        return 0;
    }
    *out = v;
    return 1;
}

static void not_carried(builder *b, const tmx_prop *p, const char *owner)
{
    tmx_report(b->doc, QG_WARNING, p->line, 1,
               "property '%s' of %s is not carried into the level", p->name, owner);
}

/* Applies one terrain property; 0 when p is not a terrain property. */
static int terrain_property(builder *b, const tmx_prop *p, tmx_terrain *t, char **name)
{
    static const char *const ints[] = {"feature", "cave_info", "vault_mask", "special",
                                       "mimic", "mflag", "feature_chance"};
    if (strcmp(p->name, "feature_name") == 0) {
        free(*name);
        *name = qg_strdup(unescaped(b, p->value));
        return 1;
    }
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
        if (strcmp(p->name, ints[i]) != 0)
            continue;
        long long v;
        int is_unsigned = i == 1 || i == 2 || i == 5;
        if (!prop_int(b, p, is_unsigned ? 0 : INT32_MIN,
                      is_unsigned ? UINT32_MAX : INT32_MAX, &v))
            return 1;
        switch (i) {
        case 0: t->feature = (int32_t)v; break;
        case 1: t->cave_info = (uint32_t)v; break;
        case 2: t->vault_mask = (uint32_t)v; break;
        case 3: t->special = (int32_t)v; break;
        case 4: t->mimic = (int32_t)v; break;
        case 5: t->mflag = (uint32_t)v; break;
        default: t->feature_chance = (int32_t)v; break;
        }
        return 1;
    }
    return 0;
}

/* Reads terrain properties; *name (malloc'd) holds the feature name. */
static void read_terrain(builder *b, const tmx_props *props, const char *owner,
                         tmx_terrain *t, char **name)
{
    tmx_terrain_default(t);
    *name = NULL;
    for (size_t i = 0; i < props->count; i++)
        if (!terrain_property(b, &props->items[i], t, name))
            not_carried(b, &props->items[i], owner);
    t->feature_name = *name;
}

static qg_status apply_terrain(qg_level *level, int x, int y, const tmx_terrain *t)
{
    qg_status s = qg_level_set_feature(level, x, y, t->feature, t->feature_name);
    if (s == QG_OK)
        s = qg_level_set_cave_info(level, x, y, t->cave_info);
    if (s == QG_OK)
        s = qg_level_set_vault_mask(level, x, y, t->vault_mask);
    if (s == QG_OK)
        s = qg_level_set_special(level, x, y, t->special, t->mimic, t->mflag);
    if (s == QG_OK)
        s = qg_level_set_feature_chance(level, x, y, t->feature_chance);
    return s;
}

static const tmx_tileset *tileset_of(const tmx_doc *doc, uint32_t gid)
{
    const tmx_tileset *best = NULL;
    for (size_t i = 0; i < doc->tileset_count; i++)
        if (doc->tilesets[i].firstgid <= gid &&
            (!best || doc->tilesets[i].firstgid > best->firstgid))
            best = &doc->tilesets[i];
    return best;
}

static int by_gid(const void *a, const void *b)
{
    uint32_t x = ((const tile_terrain *)a)->gid, y = ((const tile_terrain *)b)->gid;
    return x < y ? -1 : x > y;
}

/* Reads every tile's properties once (reporting them once, not per cell). */
static qg_status read_tiles(builder *b)
{
    const tmx_doc *doc = b->doc;
    b->tiles = calloc(doc->tile_count ? doc->tile_count : 1, sizeof *b->tiles);
    if (!b->tiles)
        return QG_ERR_NOMEM;
    for (size_t i = 0; i < doc->tile_count; i++) {
        size_t at = b->tile_count;
        for (size_t j = 0; j < b->tile_count; j++)
            if (b->tiles[j].gid == doc->tiles[i].gid)
                at = j;
        if (at == b->tile_count)
            b->tile_count++;
        free(b->tiles[at].name);
        b->tiles[at].gid = doc->tiles[i].gid;
        read_terrain(b, &doc->tiles[i].props, "a tile", &b->tiles[at].terrain,
                     &b->tiles[at].name);
    }
    qsort(b->tiles, b->tile_count, sizeof *b->tiles, by_gid);
    return QG_OK;
}

static const tile_terrain *tile_of(const builder *b, uint32_t gid)
{
    tile_terrain key = {.gid = gid};
    return bsearch(&key, b->tiles, b->tile_count, sizeof *b->tiles, by_gid);
}

static qg_status place_cell(builder *b, int x, int y, uint32_t gid)
{
    tmx_doc *doc = b->doc;
    const tmx_tileset *set = tileset_of(doc, gid);
    uint32_t local = set ? gid - set->firstgid : gid;
    if (!set || local > 255) {
        tmx_report(doc, QG_ERROR, doc->terrain_line, 1,
                   "tile %u at (%d,%d) is not a glyph (a cp437 tileset has 256 tiles)",
                   (unsigned)gid, x, y);
        return QG_ERR_PARSE;
    }
    qg_status s = qg_level_set_glyph(b->level, x, y, (unsigned char)local);
    const tile_terrain *tile = tile_of(b, gid);
    if (s != QG_OK || !tile)
        return s;
    return apply_terrain(b->level, x, y, &tile->terrain);
}

static qg_status place_terrain(builder *b)
{
    tmx_doc *doc = b->doc;
    size_t flipped = 0;
    qg_status status = QG_OK;
    for (int y = 0; y < doc->height; y++)
        for (int x = 0; x < doc->width; x++) {
            uint32_t gid = doc->gids[(size_t)y * (size_t)doc->width + (size_t)x];
            if (gid & GID_FLAGS)
                flipped++;
            gid &= ~GID_FLAGS;
            qg_status s = gid ? place_cell(b, x, y, gid) : QG_OK;
            if (s != QG_OK && status == QG_OK)
                status = s;
        }
    if (flipped)
        tmx_report(doc, QG_WARNING, doc->terrain_line, 1,
                   "%zu flipped or rotated tiles are read unflipped "
                   "(glyphs have no orientation)", flipped);
    return status;
}

/* A pixel position as a cell coordinate; far-off or non-numeric positions
 * become -1 (off the map) rather than overflow. */
static int cell_of(double pixels, int tile)
{
    double cell = floor(pixels / tile);
    return isfinite(cell) && cell >= -1.0 && cell < 1e9 ? (int)cell : -1;
}

/* The cell an object stands on: a point's own cell, else its centre's. */
static void object_cell(const tmx_doc *doc, const tmx_object *o, int *x, int *y)
{
    double cx = o->x, cy = o->y;
    if (!o->is_point) {
        cx += o->width / 2;
        cy += o->has_gid ? -o->height / 2 : o->height / 2;
    }
    *x = cell_of(cx, doc->tile_width);
    *y = cell_of(cy, doc->tile_height);
}

static int in_map(const builder *b, int x, int y)
{
    qg_cell cell;
    return qg_level_cell(b->level, x, y, &cell) == QG_OK && cell.in_map;
}

static qg_status place_thing(builder *b, const tmx_object *o, qg_slot slot, int x, int y)
{
    qg_thing_kind kind = QG_THING_NONE;
    long long index = 0, chance = 0, flags = 0, depth = 0;
    const tmx_prop *kind_prop = NULL;
    char *name = NULL;
    for (size_t i = 0; i < o->props.count; i++) {
        const tmx_prop *p = &o->props.items[i];
        if (strcmp(p->name, "kind") == 0) {
            kind = qg_thing_kind_from_name(p->value);
            kind_prop = p;
        } else if (strcmp(p->name, "index") == 0) {
            prop_int(b, p, INT32_MIN, INT32_MAX, &index);
        } else if (strcmp(p->name, "chance") == 0) {
            prop_int(b, p, 0, 100, &chance);
        } else if (strcmp(p->name, "flags") == 0) {
            prop_int(b, p, 0, UINT32_MAX, &flags);
        } else if (strcmp(p->name, "depth") == 0) {
            prop_int(b, p, INT32_MIN, INT32_MAX, &depth);
        } else if (strcmp(p->name, "name") == 0) {
            free(name);
            name = qg_strdup(unescaped(b, p->value));
        } else {
            not_carried(b, p, o->type);
        }
    }
    if (!kind_prop)
        kind = name ? QG_THING_NAME : QG_THING_INDEX;
    else if (kind == QG_THING_NONE)
        tmx_report(b->doc, QG_ERROR, kind_prop->line, 1,
                   "kind '%s' is not one of index, random, clone, reward, name, tag, formation",
                   kind_prop->value);
    qg_cell cell;
    qg_level_cell(b->level, x, y, &cell);
    if (cell.things[slot].kind != QG_THING_NONE)
        tmx_report(b->doc, QG_WARNING, o->line, 1,
                   "a second %s on cell (%d,%d) replaces the first", o->type, x, y);
    qg_thing thing = {kind, (int32_t)index, name, (int32_t)chance, (uint32_t)flags,
                      (int32_t)depth};
    qg_status s = kind == QG_THING_NONE ? QG_ERR_PARSE
                                        : qg_level_put_thing(b->level, x, y, slot, &thing);
    free(name);
    return s;
}

static qg_status place_marker(builder *b, const tmx_object *o, int x, int y)
{
    const char *spec = NULL;
    for (size_t i = 0; i < o->props.count; i++) {
        if (strcmp(o->props.items[i].name, "spec") == 0)
            spec = o->props.items[i].value;
        else
            not_carried(b, &o->props.items[i], "a marker");
    }
    if (!spec) {
        tmx_report(b->doc, QG_ERROR, o->line, 1, "marker object without a 'spec' property");
        return QG_ERR_PARSE;
    }
    return qg_level_add_marker(b->level, x, y, unescaped(b, spec));
}

static qg_status place_object(builder *b, const tmx_object *o)
{
    int x, y;
    object_cell(b->doc, o, &x, &y);
    qg_slot slot = qg_slot_from_name(o->type);
    int on_map = in_map(b, x, y);
    if (strcmp(o->type, TMX_OBJECT_MARKER) == 0)
        return place_marker(b, o, x, y);
    if (strcmp(o->type, TMX_OBJECT_START) == 0) {
        qg_level_set_player_start(b->level, x, y);
        return QG_OK;
    }
    if (slot == QG_SLOTS && strcmp(o->type, TMX_OBJECT_CELL) != 0) {
        tmx_report(b->doc, QG_WARNING, o->line, 1,
                   "object of type '%s' is not carried into the level (known types: "
                   "monster, object, ego, artifact, trap, marker, player_start, cell)",
                   o->type);
        return QG_OK;
    }
    if (!on_map) {
        tmx_report(b->doc, QG_ERROR, o->line, 1,
                   "the %s at cell (%d,%d) is not on a cell of the map", o->type, x, y);
        return QG_ERR_PARSE;
    }
    if (slot != QG_SLOTS)
        return place_thing(b, o, slot, x, y);
    tmx_terrain t;
    char *name;
    read_terrain(b, &o->props, "a cell object", &t, &name);
    qg_status s = apply_terrain(b->level, x, y, &t);
    free(name);
    return s;
}

/* "key#N" is the N-th value of a repeated key (Tiled's names are unique). */
static size_t base_key_len(const qg_level *level, const char *key)
{
    const char *hash = strrchr(key, '#');
    size_t len = strlen(key);
    if (!hash || hash == key || !hash[1] || strspn(hash + 1, "0123456789") != strlen(hash + 1))
        return len;
    size_t base = (size_t)(hash - key);
    for (size_t i = 0; i < qg_level_property_count(level); i++) {
        const char *value;
        const char *k = qg_level_property(level, i, &value);
        if (strlen(k) == base && memcmp(k, key, base) == 0)
            return base;
    }
    return len;
}

static qg_status place_properties(builder *b)
{
    const tmx_props *props = &b->doc->map_props;
    for (size_t i = 0; i < props->count; i++) {
        const tmx_prop *p = &props->items[i];
        char *key = qg_strdup(unescaped(b, p->name));
        if (!key)
            return QG_ERR_NOMEM;
        qg_status s;
        if (strcmp(key, TMX_LEVEL_NAME_PROPERTY) == 0) {
            s = qg_level_set_name(b->level, unescaped(b, p->value));
        } else {
            key[base_key_len(b->level, key)] = '\0';
            s = qg_level_add_property(b->level, key, unescaped(b, p->value));
        }
        free(key);
        if (s != QG_OK)
            return s;
    }
    return QG_OK;
}

qg_status tmx_build(tmx_doc *doc, qg_level **out)
{
    builder b;
    memset(&b, 0, sizeof b);
    b.doc = doc;
    qg_buf_init(&b.scratch);
    b.level = qg_level_new(doc->width, doc->height);
    if (!b.level)
        return QG_ERR_NOMEM;
    qg_status status = place_properties(&b);
    if (status == QG_OK)
        status = read_tiles(&b);
    if (status == QG_OK)
        status = place_terrain(&b);
    /* the level holds the terrain now: its gids make room for the things */
    free(doc->gids);
    doc->gids = NULL;
    for (size_t i = 0; i < doc->object_count; i++) {
        qg_status s = place_object(&b, &doc->objects[i]);
        if (s != QG_OK && status == QG_OK)
            status = s;
    }
    if (b.scratch.failed && status == QG_OK)
        status = QG_ERR_NOMEM;
    qg_buf_free(&b.scratch);
    for (size_t i = 0; i < b.tile_count; i++)
        free(b.tiles[i].name);
    free(b.tiles);
    if (status == QG_OK && doc->errors)
        status = QG_ERR_PARSE;
    if (status != QG_OK) {
        qg_level_free(b.level);
        return status;
    }
    *out = b.level;
    return QG_OK;
}

qg_status qg_tmx_read(const char *path, const char *data, size_t len,
                      qg_level **out, qg_diags *diags)
{
    tmx_doc doc;
    memset(&doc, 0, sizeof doc);
    doc.path = path ? path : "";
    doc.data = data;
    doc.len = len;
    doc.diags = diags;
    *out = NULL;
    qg_status status = tmx_parse(&doc);
    if (status == QG_OK)
        status = tmx_build(&doc, out);
    tmx_doc_free(&doc);
    return status;
}

/* Tiled TMX reader, part 1: expat events into a tmx_doc. DOCTYPE is
 * refused outright, so no entity (internal or external) is ever expanded;
 * elements the reader does not know are skipped with their children. */
#include "formats/tmx_doc.h"

#include <expat.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64
#define MAX_MAP_CELLS (16u * 1024u * 1024u)
/* The longest attribute value read: a map's values are numbers, names
 * and short texts. */
#define MAX_ATTRIBUTE (1u << 20)

typedef enum element {
    EL_UNKNOWN = 0, EL_MAP, EL_PROPERTIES, EL_PROPERTY, EL_TILESET, EL_TILE,
    EL_LAYER, EL_DATA, EL_DATA_TILE, EL_GROUP, EL_OBJECTGROUP, EL_OBJECT,
    EL_POINT
} element;

typedef struct reader {
    tmx_doc *doc;
    XML_Parser parser;
    element stack[MAX_DEPTH];
    int depth;
    int refused;            /* stopped on purpose (DOCTYPE, limits) */
    tmx_props *props;       /* where <property> elements go, or NULL */
    tmx_prop *text_prop;    /* a property whose value is its text */
    int layer_chosen;       /* this <layer> is the terrain layer */
    int terrain_by_name;    /* the terrain layer was named "terrain" */
    int layer_line;
    char *encoding, *compression;
    qg_buf text;            /* character data being collected */
    int collecting;
    uint32_t *tile_gids;    /* <tile gid> children of <data> */
    size_t tile_gid_count, tile_gid_cap;
} reader;

static int line_now(reader *r)
{
    return (int)XML_GetCurrentLineNumber(r->parser);
}

static int col_now(reader *r)
{
    return (int)XML_GetCurrentColumnNumber(r->parser) + 1;
}

static void source_line(const tmx_doc *doc, int line, const char **start, size_t *len)
{
    const char *p = doc->data, *end = doc->data + doc->len;
    for (int l = 1; l < line && p < end; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    *start = p;
    *len = (size_t)((nl ? nl : end) - p);
    if (*len && p[*len - 1] == '\r')
        (*len)--;
}

static void vreport(tmx_doc *doc, qg_severity severity, int line, int col,
                    const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 0)))
#endif
    ;

static void vreport(tmx_doc *doc, qg_severity severity, int line, int col,
                    const char *fmt, va_list ap)
{
    qg_buf message;
    qg_buf_init(&message);
    qg_buf_vprintf(&message, fmt, ap);
    const char *text = NULL;
    size_t len = 0;
    if (line > 0)
        source_line(doc, line, &text, &len);
    qg_diags_add(doc->diags, severity, doc->path, line, col, text, len, "%s",
                 message.data ? message.data : "out of memory");
    qg_buf_free(&message);
    if (severity == QG_ERROR)
        doc->errors++;
}

void tmx_report(tmx_doc *doc, qg_severity severity, int line, int col,
                const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(doc, severity, line, col, fmt, ap);
    va_end(ap);
}

static void error_here(reader *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void error_here(reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(r->doc, QG_ERROR, line_now(r), col_now(r), fmt, ap);
    va_end(ap);
}

static const char *attr(const XML_Char **atts, const char *name)
{
    for (size_t i = 0; atts[i]; i += 2)
        if (strcmp(atts[i], name) == 0)
            return atts[i + 1];
    return NULL;
}

/* A required or optional integer attribute in [lo, hi]. */
static int int_attr(reader *r, const XML_Char **atts, const char *name, long lo,
                    long hi, long fallback, long *out)
{
    const char *text = attr(atts, name);
    if (!text) {
        *out = fallback;
        return 1;
    }
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end || v < lo || v > hi) {
        tmx_report(r->doc, QG_ERROR, line_now(r), col_now(r),
                   "attribute %s=\"%s\" is not a number in %ld..%ld", name, text, lo, hi);
        return 0;
    }
    *out = v;
    return 1;
}

static double real_attr(const XML_Char **atts, const char *name)
{
    const char *text = attr(atts, name);
    return text ? strtod(text, NULL) : 0.0;
}

static void refuse(reader *r)
{
    r->refused = 1;
    XML_StopParser(r->parser, XML_FALSE);
}

static void on_doctype(void *user, const XML_Char *name, const XML_Char *sysid,
                       const XML_Char *pubid, int has_internal_subset)
{
    reader *r = user;
    error_here(r, "DOCTYPE declarations are not accepted in TMX files (<!DOCTYPE %s>)",
               name);
    refuse(r);
}

static void start_map(reader *r, const XML_Char **atts)
{
    tmx_doc *doc = r->doc;
    long w, h, tw, th, inf;
    if (!int_attr(r, atts, "width", 1, 1 << 16, 0, &w) ||
        !int_attr(r, atts, "height", 1, 1 << 16, 0, &h) ||
        !int_attr(r, atts, "tilewidth", 1, 1 << 16, QG_TILE_SIZE, &tw) ||
        !int_attr(r, atts, "tileheight", 1, 1 << 16, QG_TILE_SIZE, &th) ||
        !int_attr(r, atts, "infinite", 0, 1, 0, &inf))
        return;
    if (!w || !h) {
        error_here(r, "<map> needs width and height");
        return;
    }
    if ((unsigned long)w * (unsigned long)h > MAX_MAP_CELLS) {
        tmx_report(doc, QG_ERROR, line_now(r), col_now(r),
                   "a %ld×%ld map is larger than questgrid reads (%u cells)", w, h,
                   MAX_MAP_CELLS);
        refuse(r);
        return;
    }
    const char *orientation = attr(atts, "orientation");
    if (orientation && strcmp(orientation, "orthogonal") != 0)
        error_here(r, "only orthogonal maps can be read (this one is %s)", orientation);
    doc->width = (int)w;
    doc->height = (int)h;
    doc->tile_width = (int)tw;
    doc->tile_height = (int)th;
    doc->infinite = (int)inf;
    if (inf)
        error_here(r, "infinite maps cannot be read; "
                      "turn off Map > Map Properties > Infinite in Tiled");
}

static void start_property(reader *r, const XML_Char **atts)
{
    if (!r->props)
        return;
    const char *name = attr(atts, "name");
    if (!name) {
        error_here(r, "<property> without a name");
        return;
    }
    tmx_prop *p = QG_PUSH(r->props->items, r->props->count, r->props->cap);
    if (!p) {
        refuse(r);
        return;
    }
    const char *value = attr(atts, "value");
    const char *type = attr(atts, "type");
    p->name = qg_strdup(name);
    p->type = qg_strdup(type ? type : "string");
    p->value = value ? qg_strdup(value) : NULL;
    p->line = line_now(r);
    if (!p->name || !p->type || (value && !p->value)) {
        refuse(r);
        return;
    }
    if (!value) {
        r->text_prop = p;
        r->collecting = 1;
        qg_buf_reset(&r->text);
    }
}

static void start_tileset(reader *r, const XML_Char **atts)
{
    long firstgid;
    if (!int_attr(r, atts, "firstgid", 1, INT_MAX, 1, &firstgid))
        return;
    tmx_doc *doc = r->doc;
    tmx_tileset *t = QG_PUSH(doc->tilesets, doc->tileset_count, doc->tileset_cap);
    if (!t) {
        refuse(r);
        return;
    }
    const char *source = attr(atts, "source");
    t->firstgid = (uint32_t)firstgid;
    t->source = source ? qg_strdup(source) : NULL;
    t->line = line_now(r);
    if (source)
        tmx_report(doc, QG_WARNING, t->line, col_now(r),
                   "the tiles of external tileset '%s' are read as glyphs "
                   "(gid - firstgid); its tile properties are not read", source);
}

static void start_tile(reader *r, const XML_Char **atts)
{
    tmx_doc *doc = r->doc;
    long id;
    if (!doc->tileset_count || !int_attr(r, atts, "id", 0, INT_MAX, 0, &id))
        return;
    tmx_tile *t = QG_PUSH(doc->tiles, doc->tile_count, doc->tile_cap);
    if (!t) {
        refuse(r);
        return;
    }
    memset(t, 0, sizeof *t);
    t->gid = doc->tilesets[doc->tileset_count - 1].firstgid + (uint32_t)id;
    t->line = line_now(r);
    r->props = &t->props;
}

/* The terrain is the layer named "terrain", else the first tile layer. */
static void start_layer(reader *r, const XML_Char **atts)
{
    const char *name = attr(atts, "name");
    int named = name && strcmp(name, TMX_TERRAIN_LAYER) == 0;
    r->layer_chosen = !r->terrain_by_name && (named || !r->doc->gids);
    if (!r->layer_chosen || r->doc->gids)
        tmx_report(r->doc, QG_WARNING, line_now(r), col_now(r),
                   "%s tile layer is not read: only one layer holds the terrain "
                   "(the one named '" TMX_TERRAIN_LAYER "', else the first)",
                   r->layer_chosen ? "an earlier" : "this");
    if (r->layer_chosen) {
        r->terrain_by_name = named;
        r->layer_line = line_now(r);
    }
}

static void start_data(reader *r, const XML_Char **atts)
{
    if (!r->layer_chosen)
        return;
    const char *encoding = attr(atts, "encoding");
    const char *compression = attr(atts, "compression");
    free(r->encoding);
    free(r->compression);
    r->encoding = encoding ? qg_strdup(encoding) : NULL;
    r->compression = compression ? qg_strdup(compression) : NULL;
    r->collecting = 1;
    r->tile_gid_count = 0;
    qg_buf_reset(&r->text);
}

static void start_data_tile(reader *r, const XML_Char **atts)
{
    if (!r->layer_chosen)
        return;
    uint32_t *slot = QG_PUSH(r->tile_gids, r->tile_gid_count, r->tile_gid_cap);
    const char *text = attr(atts, "gid");
    char *end = NULL;
    unsigned long gid = text ? strtoul(text, &end, 10) : 0;
    if (!slot || (text && (*end || text[0] == '-' || gid > UINT32_MAX))) {
        error_here(r, "bad tile gid '%s'", text ? text : "");
        return;
    }
    *slot = (uint32_t)gid;
}

static void start_object(reader *r, const XML_Char **atts)
{
    tmx_doc *doc = r->doc;
    tmx_object *o = QG_PUSH(doc->objects, doc->object_count, doc->object_cap);
    if (!o) {
        refuse(r);
        return;
    }
    memset(o, 0, sizeof *o);
    const char *type = attr(atts, "type");
    if (!type || !type[0])
        type = attr(atts, "class");
    o->type = qg_strdup(type ? type : "");
    o->x = real_attr(atts, "x");
    o->y = real_attr(atts, "y");
    o->width = real_attr(atts, "width");
    o->height = real_attr(atts, "height");
    o->has_gid = attr(atts, "gid") != NULL;
    o->line = line_now(r);
    r->props = &o->props;
}

static element classify(element parent, const char *name)
{
    static const struct { element parent; const char *name; element el; } table[] = {
        {EL_MAP, "properties", EL_PROPERTIES}, {EL_TILE, "properties", EL_PROPERTIES},
        {EL_OBJECT, "properties", EL_PROPERTIES}, {EL_PROPERTIES, "property", EL_PROPERTY},
        {EL_MAP, "tileset", EL_TILESET}, {EL_TILESET, "tile", EL_TILE},
        {EL_MAP, "layer", EL_LAYER}, {EL_GROUP, "layer", EL_LAYER},
        {EL_LAYER, "data", EL_DATA}, {EL_DATA, "tile", EL_DATA_TILE},
        {EL_MAP, "group", EL_GROUP}, {EL_GROUP, "group", EL_GROUP},
        {EL_MAP, "objectgroup", EL_OBJECTGROUP}, {EL_GROUP, "objectgroup", EL_OBJECTGROUP},
        {EL_OBJECTGROUP, "object", EL_OBJECT}, {EL_OBJECT, "point", EL_POINT},
    };
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (table[i].parent == parent && strcmp(table[i].name, name) == 0)
            return table[i].el;
    return EL_UNKNOWN;
}

static int attribute_too_long(reader *r, const XML_Char **atts)
{
    for (size_t i = 0; atts[i]; i += 2)
        if (strlen(atts[i + 1]) > MAX_ATTRIBUTE) {
            error_here(r, "the attribute value is longer than %u bytes (attribute '%.64s')",
                       MAX_ATTRIBUTE, atts[i]);
            refuse(r);
            return 1;
        }
    return 0;
}

static void on_start(void *user, const XML_Char *name, const XML_Char **atts)
{
    reader *r = user;
    element parent = r->depth ? r->stack[r->depth - 1] : EL_UNKNOWN;
    element el = EL_UNKNOWN;
    if (attribute_too_long(r, atts))
        return;
    if (r->depth == 0) {
        if (strcmp(name, "map") != 0) {
            error_here(r, "not a Tiled map: the root element is <%s>, not <map>", name);
            refuse(r);
            return;
        }
        el = EL_MAP;
    } else if (parent != EL_UNKNOWN) {
        el = classify(parent, name);
    }
    if (r->depth >= MAX_DEPTH) {
        error_here(r, "elements nest deeper than %d levels", MAX_DEPTH);
        refuse(r);
        return;
    }
    r->stack[r->depth++] = el;
    switch (el) {
    case EL_MAP: start_map(r, atts); break;
    case EL_PROPERTIES:
        if (parent == EL_MAP)
            r->props = &r->doc->map_props;
        break;
    case EL_PROPERTY: start_property(r, atts); break;
    case EL_TILESET: start_tileset(r, atts); break;
    case EL_TILE: start_tile(r, atts); break;
    case EL_LAYER: start_layer(r, atts); break;
    case EL_DATA: start_data(r, atts); break;
    case EL_DATA_TILE: start_data_tile(r, atts); break;
    case EL_OBJECT: start_object(r, atts); break;
    case EL_POINT: r->doc->objects[r->doc->object_count - 1].is_point = 1; break;
    default:
        break;
    }
}

static void on_text(void *user, const XML_Char *s, int len)
{
    reader *r = user;
    if (r->collecting && !qg_buf_append(&r->text, s, (size_t)len))
        refuse(r);
}

/* Layer data: csv, base64 (raw, zlib or gzip) or <tile> elements. */
static int decode_data(reader *r, uint32_t *gids, size_t need);

static void end_data(reader *r)
{
    tmx_doc *doc = r->doc;
    r->collecting = 0;
    if (!r->layer_chosen || !doc->width || doc->infinite)
        return;
    size_t need = (size_t)doc->width * (size_t)doc->height;
    uint32_t *gids = calloc(need, sizeof *gids);
    if (!gids) {
        refuse(r);
        return;
    }
    int decoded = decode_data(r, gids, need);
    /* a layer's text is as large as the grid: not kept for the objects */
    qg_buf_free(&r->text);
    qg_buf_init(&r->text);
    if (!decoded) {
        free(gids);
        return;
    }
    free(doc->gids);
    doc->gids = gids;
    doc->terrain_line = r->layer_line;
}

/* An object's few properties in an array of their number, not of the
 * eight a growing array starts with: a map has a hundred thousand objects. */
static void fit_props(tmx_props *props)
{
    if (props->count == props->cap)
        return;
    tmx_prop *fitted = props->count ? realloc(props->items, props->count * sizeof *fitted) : NULL;
    if (fitted || !props->count) {
        if (!props->count)
            free(props->items);
        props->items = fitted;
        props->cap = props->count;
    }
}

static void on_end(void *user, const XML_Char *name)
{
    reader *r = user;
    if (!r->depth)
        return;
    element el = r->stack[--r->depth];
    if (el == EL_DATA) {
        end_data(r);
    } else if (el == EL_PROPERTY && r->text_prop) {
        r->text_prop->value = qg_strdup(r->text.data ? r->text.data : "");
        r->text_prop = NULL;
        r->collecting = 0;
    } else if (el == EL_PROPERTIES || el == EL_TILE || el == EL_OBJECT) {
        if (el == EL_PROPERTIES && r->props)
            fit_props(r->props);
        r->props = NULL;
    } else if (el == EL_LAYER) {
        r->layer_chosen = 0;
    }
}

static int decode_csv(reader *r, uint32_t *gids, size_t need)
{
    const char *p = r->text.data ? r->text.data : "";
    size_t n = 0;
    for (;;) {
        while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
            p++;
        if (!*p)
            break;
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || v > UINT32_MAX) {
            error_here(r, "bad number in CSV layer data near '%.12s'", p);
            return 0;
        }
        if (n < need)
            gids[n] = (uint32_t)v;
        n++;
        p = end;
        while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
            p++;
        if (*p == ',')
            p++;
    }
    if (n != need) {
        tmx_report(r->doc, QG_ERROR, r->layer_line, 1,
                   "the terrain layer has %zu tiles; the map needs %zu", n, need);
        return 0;
    }
    return 1;
}

static int decode_base64(reader *r, uint32_t *gids, size_t need)
{
    qg_buf raw, inflated;
    qg_buf_init(&raw);
    qg_buf_init(&inflated);
    const char *comp = r->compression;
    int ok = qg_base64_decode(&raw, r->text.data ? r->text.data : "", r->text.len);
    if (!ok) {
        error_here(r, "layer data is not valid base64");
    } else if (comp && strcmp(comp, "zlib") != 0 && strcmp(comp, "gzip") != 0) {
        error_here(r, "layer compression '%s' is not supported (use zlib or gzip)", comp);
        ok = 0;
    } else if (comp) {
        size_t rest = 0;
        qg_status s = qg_inflate(&inflated, raw.data, raw.len, need * 4, &rest);
        if (s != QG_OK) {
            error_here(r, "layer data does not inflate to the map's size (%s)",
                       qg_status_string(s));
            ok = 0;
        } else if (rest) {
            error_here(r, "%zu bytes of layer data follow its %s stream", rest, comp);
            ok = 0;
        }
    }
    const qg_buf *bytes = comp ? &inflated : &raw;
    if (ok && bytes->len != need * 4) {
        tmx_report(r->doc, QG_ERROR, r->layer_line, 1,
                   "the terrain layer has %zu bytes; the map needs %zu", bytes->len,
                   need * 4);
        ok = 0;
    }
    for (size_t i = 0; ok && i < need; i++) {
        const unsigned char *b = (const unsigned char *)bytes->data + 4 * i;
        gids[i] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                  (uint32_t)b[3] << 24;
    }
    qg_buf_free(&raw);
    qg_buf_free(&inflated);
    return ok;
}

static int decode_data(reader *r, uint32_t *gids, size_t need)
{
    const char *enc = r->encoding;
    if (enc && strcmp(enc, "csv") == 0)
        return decode_csv(r, gids, need);
    if (enc && strcmp(enc, "base64") == 0)
        return decode_base64(r, gids, need);
    if (enc) {
        error_here(r, "layer encoding '%s' is not supported (use csv or base64)", enc);
        return 0;
    }
    if (r->tile_gid_count != need) {
        tmx_report(r->doc, QG_ERROR, r->layer_line, 1,
                   "the terrain layer has %zu tiles; the map needs %zu",
                   r->tile_gid_count, need);
        return 0;
    }
    memcpy(gids, r->tile_gids, need * sizeof *gids);
    return 1;
}

static qg_status run_parser(reader *r)
{
    tmx_doc *doc = r->doc;
    XML_SetUserData(r->parser, r);
    XML_SetElementHandler(r->parser, on_start, on_end);
    XML_SetCharacterDataHandler(r->parser, on_text);
    XML_SetStartDoctypeDeclHandler(r->parser, on_doctype);
    XML_SetParamEntityParsing(r->parser, XML_PARAM_ENTITY_PARSING_NEVER);
    if (doc->len > INT_MAX) {
        tmx_report(doc, QG_ERROR, 0, 0, "file too large");
        return QG_ERR_LIMIT;
    }
    /* All at once: expat (2.5, without reparse deferral) scans a token
     * that a piece leaves unfinished again with every piece after it, so
     * pieces made one long token quadratic. It copies the file once. */
    enum XML_Status st = XML_Parse(r->parser, doc->data, (int)doc->len, 1);
    if (st == XML_STATUS_ERROR && !r->refused)
        tmx_report(doc, QG_ERROR, line_now(r), col_now(r), "XML: %s",
                   XML_ErrorString(XML_GetErrorCode(r->parser)));
    if (st == XML_STATUS_ERROR || doc->errors)
        return r->refused && !doc->errors ? QG_ERR_NOMEM : QG_ERR_PARSE;
    if (!doc->width) {
        tmx_report(doc, QG_ERROR, 1, 1, "no <map> element");
        return QG_ERR_PARSE;
    }
    if (!doc->gids) {
        tmx_report(doc, QG_ERROR, 1, 1, "the map has no tile layer to read terrain from");
        return QG_ERR_PARSE;
    }
    return QG_OK;
}

qg_status tmx_parse(tmx_doc *doc)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.doc = doc;
    qg_buf_init(&r.text);
    r.parser = XML_ParserCreate("UTF-8");
    if (!r.parser)
        return QG_ERR_NOMEM;
    qg_status status = run_parser(&r);
    XML_ParserFree(r.parser);
    qg_buf_free(&r.text);
    free(r.encoding);
    free(r.compression);
    free(r.tile_gids);
    return status;
}

static void props_free(tmx_props *props)
{
    for (size_t i = 0; i < props->count; i++) {
        free(props->items[i].name);
        free(props->items[i].type);
        free(props->items[i].value);
    }
    free(props->items);
}

void tmx_doc_free(tmx_doc *doc)
{
    props_free(&doc->map_props);
    for (size_t i = 0; i < doc->tileset_count; i++)
        free(doc->tilesets[i].source);
    free(doc->tilesets);
    for (size_t i = 0; i < doc->tile_count; i++)
        props_free(&doc->tiles[i].props);
    free(doc->tiles);
    free(doc->gids);
    for (size_t i = 0; i < doc->object_count; i++) {
        free(doc->objects[i].type);
        props_free(&doc->objects[i].props);
    }
    free(doc->objects);
}

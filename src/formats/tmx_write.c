/* Tiled TMX writer: a level as one terrain tile layer, a cp437 tileset whose tiles carry each glyph's terrain, and one object layer for
 * what stands on cells. Attributes follow Tiled's own order and always
 * include nextlayerid and nextobjectid. */
#include "formats/tmx.h"

#include <stdlib.h>
#include <string.h>

typedef struct tmx_writer {
    const qg_level *level;
    const qg_write_options *options;
    qg_buf *out;
    int width, height;
    int has_legend[256];
    tmx_terrain legend[256];
    int next_object;
} tmx_writer;

/* Writes a level string as an XML attribute value or text. */
static void put_text(qg_buf *out, const char *s)
{
    qg_buf bytes;
    qg_buf_init(&bytes);
    tmx_escape_bytes(&bytes, s, strlen(s));
    for (size_t i = 0; i < bytes.len; i++) {
        switch (bytes.data[i]) {
        case '&': qg_buf_puts(out, "&amp;"); break;
        case '<': qg_buf_puts(out, "&lt;"); break;
        case '>': qg_buf_puts(out, "&gt;"); break;
        case '"': qg_buf_puts(out, "&quot;"); break;
        default: qg_buf_putc(out, bytes.data[i]);
        }
    }
    if (bytes.failed)
        out->failed = 1;
    qg_buf_free(&bytes);
}

static void put_string_property(qg_buf *out, const char *indent, const char *name,
                                const char *value)
{
    qg_buf_printf(out, "%s<property name=\"", indent);
    put_text(out, name);
    qg_buf_puts(out, "\" value=\"");
    put_text(out, value);
    qg_buf_puts(out, "\"/>\n");
}

static void put_int_property(qg_buf *out, const char *indent, const char *name,
                             long long value)
{
    qg_buf_printf(out, "%s<property name=\"%s\" type=\"int\" value=\"%lld\"/>\n",
                  indent, name, value);
}

static void put_terrain_properties(qg_buf *out, const char *indent,
                                   const tmx_terrain *t)
{
    if (t->feature != -1)
        put_int_property(out, indent, "feature", t->feature);
    if (t->feature_name)
        put_string_property(out, indent, "feature_name", t->feature_name);
    if (t->cave_info)
        put_int_property(out, indent, "cave_info", t->cave_info);
    if (t->vault_mask)
        put_int_property(out, indent, "vault_mask", t->vault_mask);
    if (t->special)
        put_int_property(out, indent, "special", t->special);
    if (t->mimic)
        put_int_property(out, indent, "mimic", t->mimic);
    if (t->mflag)
        put_int_property(out, indent, "mflag", t->mflag);
    if (t->feature_chance)
        put_int_property(out, indent, "feature_chance", t->feature_chance);
}

/* Repeated keys get "#2", "#3", … so that Tiled (whose property names are
 * unique) keeps them all. */
static void put_map_properties(tmx_writer *w)
{
    const qg_level *level = w->level;
    size_t count = qg_level_property_count(level);
    const char *name = qg_level_name(level);
    if (!name && count == 0)
        return;
    qg_buf_puts(w->out, " <properties>\n");
    if (name)
        put_string_property(w->out, "  ", TMX_LEVEL_NAME_PROPERTY, name);
    for (size_t i = 0; i < count; i++) {
        const char *value;
        const char *key = qg_level_property(level, i, &value);
        int seen = 0;
        for (size_t j = 0; j < i; j++) {
            const char *other_value;
            if (strcmp(qg_level_property(level, j, &other_value), key) == 0)
                seen++;
        }
        if (!seen) {
            put_string_property(w->out, "  ", key, value);
            continue;
        }
        qg_buf numbered;
        qg_buf_init(&numbered);
        qg_buf_printf(&numbered, "%s#%d", key, seen + 1);
        put_string_property(w->out, "  ", numbered.failed ? key : numbered.data, value);
        if (numbered.failed)
            w->out->failed = 1;
        qg_buf_free(&numbered);
    }
    qg_buf_puts(w->out, " </properties>\n");
}

/* The terrain of a glyph is that of its first cell in row-major order;
 * other cells with a different terrain become "cell" objects. */
static int learn_legend(void *user, int x, int y, const qg_cell *cell)
{
    tmx_writer *w = user;
    if (!w->has_legend[cell->glyph]) {
        w->has_legend[cell->glyph] = 1;
        tmx_terrain_of(cell, &w->legend[cell->glyph]);
    }
    return 0;
}

static void put_tileset(tmx_writer *w)
{
    qg_buf *out = w->out;
    qg_buf_printf(out,
                  " <tileset firstgid=\"1\" name=\"" TMX_TILESET_NAME "\" tilewidth=\"%d\""
                  " tileheight=\"%d\" tilecount=\"256\" columns=\"%d\">\n",
                  QG_TILE_SIZE, QG_TILE_SIZE, QG_TILESET_COLUMNS);
    const char *source = w->options ? w->options->tileset_source : NULL;
    qg_buf_puts(out, "  <image source=\"");
    put_text(out, source ? source : QG_TILESET_IMAGE);
    qg_buf_printf(out, "\" width=\"%d\" height=\"%d\"/>\n", QG_TILESET_PIXELS,
                  QG_TILESET_PIXELS);
    for (int g = 0; g < 256; g++) {
        if (!w->has_legend[g] || tmx_terrain_is_default(&w->legend[g]))
            continue;
        qg_buf_printf(out, "  <tile id=\"%d\">\n   <properties>\n", g);
        put_terrain_properties(out, "    ", &w->legend[g]);
        qg_buf_puts(out, "   </properties>\n  </tile>\n");
    }
    qg_buf_puts(out, " </tileset>\n");
}

static uint32_t gid_at(const tmx_writer *w, const unsigned char *glyphs, int x, int y)
{
    qg_cell cell;
    qg_level_cell(w->level, x, y, &cell);
    return cell.in_map ? (uint32_t)glyphs[(size_t)y * (size_t)w->width + (size_t)x] + 1u : 0u;
}

static void put_layer_data(tmx_writer *w)
{
    const unsigned char *glyphs = qg_level_glyphs(w->level);
    qg_buf *out = w->out;
    if (!w->options || w->options->tmx_encoding == QG_TMX_CSV) {
        qg_buf_puts(out, "  <data encoding=\"csv\">\n");
        for (int y = 0; y < w->height; y++) {
            for (int x = 0; x < w->width; x++)
                qg_buf_printf(out, "%u%s", (unsigned)gid_at(w, glyphs, x, y),
                              x + 1 < w->width || y + 1 < w->height ? "," : "");
            qg_buf_putc(out, '\n');
        }
        qg_buf_puts(out, "</data>\n");
        return;
    }
    size_t n = (size_t)w->width * (size_t)w->height;
    unsigned char *raw = malloc(n * 4);
    qg_buf packed;
    qg_buf_init(&packed);
    if (!raw) {
        out->failed = 1;
        return;
    }
    for (int y = 0; y < w->height; y++)
        for (int x = 0; x < w->width; x++) {
            uint32_t gid = gid_at(w, glyphs, x, y);
            unsigned char *p = raw + 4 * ((size_t)y * (size_t)w->width + (size_t)x);
            p[0] = (unsigned char)gid;
            p[1] = (unsigned char)(gid >> 8);
            p[2] = (unsigned char)(gid >> 16);
            p[3] = (unsigned char)(gid >> 24);
        }
    if (!qg_deflate(&packed, raw, n * 4, 0))
        out->failed = 1;
    qg_buf_puts(out, "  <data encoding=\"base64\" compression=\"zlib\">\n   ");
    qg_base64_encode(out, (const unsigned char *)packed.data, packed.len);
    qg_buf_puts(out, "\n  </data>\n");
    qg_buf_free(&packed);
    free(raw);
}

static void open_object(tmx_writer *w, const char *type, const char *name, int x, int y)
{
    qg_buf_printf(w->out, "  <object id=\"%d\" name=\"", w->next_object++);
    put_text(w->out, name ? name : "");
    qg_buf_printf(w->out, "\" type=\"%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\">\n",
                  type, x * QG_TILE_SIZE, y * QG_TILE_SIZE, QG_TILE_SIZE, QG_TILE_SIZE);
}

static const char *thing_label(const tmx_writer *w, qg_slot slot, const qg_thing *t)
{
    static const qg_vocab_kind vocab_of[QG_SLOTS] = {
        QG_VOCAB_MONSTER, QG_VOCAB_OBJECT, QG_VOCAB_EGO, QG_VOCAB_ARTIFACT,
        QG_VOCAB_KINDS};
    const qg_vocab *vocab = w->options ? w->options->vocab : NULL;
    if (vocab && t->kind == QG_THING_INDEX && vocab_of[slot] != QG_VOCAB_KINDS) {
        const char *name = qg_vocab_name(vocab, vocab_of[slot], t->index);
        if (name)
            return name;
    }
    return t->name;
}

static void put_thing(tmx_writer *w, int x, int y, qg_slot slot, const qg_thing *t)
{
    open_object(w, qg_slot_name(slot), thing_label(w, slot, t), x, y);
    qg_buf_puts(w->out, "   <properties>\n");
    put_string_property(w->out, "    ", "kind", qg_thing_kind_name(t->kind));
    if (t->index)
        put_int_property(w->out, "    ", "index", t->index);
    if (t->name)
        put_string_property(w->out, "    ", "name", t->name);
    if (t->chance)
        put_int_property(w->out, "    ", "chance", t->chance);
    if (t->flags)
        put_int_property(w->out, "    ", "flags", t->flags);
    if (t->depth)
        put_int_property(w->out, "    ", "depth", t->depth);
    qg_buf_puts(w->out, "   </properties>\n  </object>\n");
}

static int put_cell_objects(void *user, int x, int y, const qg_cell *cell)
{
    tmx_writer *w = user;
    tmx_terrain t;
    tmx_terrain_of(cell, &t);
    if (!tmx_terrain_equal(&t, &w->legend[cell->glyph])) {
        open_object(w, TMX_OBJECT_CELL, NULL, x, y);
        qg_buf_puts(w->out, "   <properties>\n");
        put_terrain_properties(w->out, "    ", &t);
        qg_buf_puts(w->out, "   </properties>\n  </object>\n");
    }
    for (int s = 0; s < QG_SLOTS; s++)
        if (cell->things[s].kind != QG_THING_NONE)
            put_thing(w, x, y, (qg_slot)s, &cell->things[s]);
    return 0;
}

static void put_objects(tmx_writer *w)
{
    qg_buf *out = w->out;
    qg_buf_puts(out, " <objectgroup id=\"2\" name=\"" TMX_THINGS_LAYER "\">\n");
    int sx, sy;
    if (qg_level_player_start(w->level, &sx, &sy))
        qg_buf_printf(out, "  <object id=\"%d\" name=\"start\" type=\"" TMX_OBJECT_START
                           "\" x=\"%d\" y=\"%d\">\n   <point/>\n  </object>\n",
                      w->next_object++, sx * QG_TILE_SIZE + QG_TILE_SIZE / 2,
                      sy * QG_TILE_SIZE + QG_TILE_SIZE / 2);
    qg_level_foreach(w->level, put_cell_objects, w);
    for (size_t i = 0; i < qg_level_marker_count(w->level); i++) {
        int mx, my;
        const char *spec = qg_level_marker(w->level, i, &mx, &my);
        open_object(w, TMX_OBJECT_MARKER, NULL, mx, my);
        qg_buf_puts(out, "   <properties>\n");
        put_string_property(out, "    ", "spec", spec);
        qg_buf_puts(out, "   </properties>\n  </object>\n");
    }
    qg_buf_puts(out, " </objectgroup>\n");
}

static int count_objects(void *user, int x, int y, const qg_cell *cell)
{
    tmx_writer *w = user;
    tmx_terrain t;
    tmx_terrain_of(cell, &t);
    if (!tmx_terrain_equal(&t, &w->legend[cell->glyph]))
        w->next_object++;
    for (int s = 0; s < QG_SLOTS; s++)
        if (cell->things[s].kind != QG_THING_NONE)
            w->next_object++;
    return 0;
}

static int next_object_id(tmx_writer *w)
{
    w->next_object = 1 + qg_level_player_start(w->level, NULL, NULL) +
                     (int)qg_level_marker_count(w->level);
    qg_level_foreach(w->level, count_objects, w);
    int next = w->next_object;
    w->next_object = 1;
    return next;
}

qg_status qg_tmx_write(const qg_level *level, const qg_write_options *options,
                       char **out, size_t *len, qg_diags *diags)
{
    tmx_writer w;
    memset(&w, 0, sizeof w);
    w.level = level;
    w.options = options;
    w.width = qg_level_width(level);
    w.height = qg_level_height(level);
    qg_level_foreach(level, learn_legend, &w);
    qg_buf buf;
    qg_buf_init(&buf);
    w.out = &buf;
    qg_buf_printf(&buf,
                  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                  "<map version=\"1.8\" tiledversion=\"1.8.2\" orientation=\"orthogonal\""
                  " renderorder=\"right-down\" width=\"%d\" height=\"%d\" tilewidth=\"%d\""
                  " tileheight=\"%d\" infinite=\"0\" nextlayerid=\"3\" nextobjectid=\"%d\">\n",
                  w.width, w.height, QG_TILE_SIZE, QG_TILE_SIZE, next_object_id(&w));
    put_map_properties(&w);
    put_tileset(&w);
    qg_buf_printf(&buf, " <layer id=\"1\" name=\"" TMX_TERRAIN_LAYER "\" width=\"%d\" height=\"%d\">\n",
                  w.width, w.height);
    put_layer_data(&w);
    qg_buf_puts(&buf, " </layer>\n");
    put_objects(&w);
    qg_buf_puts(&buf, "</map>\n");
    if (buf.failed) {
        qg_buf_free(&buf);
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0, "out of memory writing TMX");
        return QG_ERR_NOMEM;
    }
    *len = buf.len;
    *out = qg_buf_take(&buf);
    return QG_OK;
}

/* The JSON documents of --format json (doc/json.md). jansson builds them:
 * it keeps members in the order they are set, refuses text that is not
 * UTF-8 (so names from Latin-1 files are cleaned first, never written
 * broken) and writes straight to a stream. */
#define _POSIX_C_SOURCE 200809L
#include "cli/json.h"
#include "formats/formats.h"

#include <stdlib.h>
#include <string.h>

json_t *cli_json_text(const char *text)
{
    if (!text)
        return json_null();
    json_t *s = json_string(text);
    if (s)
        return s;
    qg_buf b;
    qg_buf_init(&b);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p < 0x80)
            qg_buf_putc(&b, *p);
        else
            qg_buf_put_utf8(&b, 0xFFFD);
    }
    s = json_stringn(b.data ? b.data : "", b.len);
    qg_buf_free(&b);
    return s;
}

json_t *cli_json_glyph(unsigned char glyph)
{
    qg_buf b;
    qg_buf_init(&b);
    qg_buf_put_utf8(&b, qg_cp437_unicode(glyph));
    json_t *s = json_stringn(b.data ? b.data : "", b.len);
    qg_buf_free(&b);
    return s;
}

json_t *cli_json_document(const char *schema)
{
    json_t *doc = json_object();
    json_object_set_new(doc, "schema", json_string(schema));
    json_object_set_new(doc, "questgrid", json_string(qg_version()));
    return doc;
}

static const char *const slot_arrays[QG_SLOTS] = {"monsters", "objects", "egos", "artifacts",
                                                  "traps"};
static const int slot_vocab[QG_SLOTS] = {QG_VOCAB_MONSTER, QG_VOCAB_OBJECT, QG_VOCAB_EGO,
                                         QG_VOCAB_ARTIFACT, QG_VOCAB_FEATURE};

static json_t *thing(int x, int y, int slot, const qg_thing *t, const qg_vocab *vocab)
{
    json_t *o = json_object();
    json_object_set_new(o, "x", json_integer(x));
    json_object_set_new(o, "y", json_integer(y));
    json_object_set_new(o, "kind", json_string(qg_thing_kind_name(t->kind)));
    int indexed = t->kind == QG_THING_INDEX || t->kind == QG_THING_CLONE ||
                  t->kind == QG_THING_RANDOM || t->kind == QG_THING_FORMATION ||
                  (t->kind == QG_THING_TAG && t->index >= 0);
    json_object_set_new(o, "index", indexed ? json_integer(t->index) : json_null());
    const char *name = t->name;
    if (!name && (t->kind == QG_THING_INDEX || t->kind == QG_THING_CLONE) && slot_vocab[slot] >= 0)
        name = qg_vocab_name(vocab, (qg_vocab_kind)slot_vocab[slot], t->index);
    json_object_set_new(o, "name", cli_json_text(name));
    json_object_set_new(o, "chance", json_integer(t->chance));
    json_object_set_new(o, "depth", json_integer(t->depth));
    json_t *flags = json_array();
    for (int i = 0; i < 32; i++)
        if (t->flags & (1u << i))
            json_array_append_new(flags, cli_json_text(qg_thing_flag_name(1u << i)));
    json_object_set_new(o, "flags", flags);
    return o;
}

static json_t *cell_object(int x, int y, const qg_cell *c, const qg_vocab *vocab)
{
    json_t *o = json_object();
    json_object_set_new(o, "x", json_integer(x));
    json_object_set_new(o, "y", json_integer(y));
    json_object_set_new(o, "glyph", cli_json_glyph(c->glyph));
    json_object_set_new(o, "feature", c->feature >= 0 ? json_integer(c->feature) : json_null());
    const char *name = c->feature_name;
    if (!name && c->feature >= 0)
        name = qg_vocab_name(vocab, QG_VOCAB_FEATURE, c->feature);
    json_object_set_new(o, "feature_name", cli_json_text(name));
    json_object_set_new(o, "cave_info", json_integer(c->cave_info));
    json_object_set_new(o, "vault_mask", json_integer(c->vault_mask));
    json_object_set_new(o, "special", json_integer(c->special));
    json_object_set_new(o, "mimic", json_integer(c->mimic));
    json_object_set_new(o, "mflag", json_integer(c->mflag));
    json_object_set_new(o, "feature_chance", json_integer(c->feature_chance));
    return o;
}

typedef struct level_doc {
    json_t *doc;
    json_t *cells;
    json_t *things[QG_SLOTS];
    const qg_vocab *vocab;
} level_doc;

static int add_cell(void *user, int x, int y, const qg_cell *cell)
{
    level_doc *d = user;
    json_array_append_new(d->cells, cell_object(x, y, cell, d->vocab));
    for (int s = 0; s < QG_SLOTS; s++)
        if (cell->things[s].kind != QG_THING_NONE)
            json_array_append_new(d->things[s], thing(x, y, s, &cell->things[s], d->vocab));
    return 0;
}

static json_t *rows(const qg_level *level)
{
    json_t *rows = json_array();
    const unsigned char *glyphs = qg_level_glyphs(level);
    const unsigned char *in_map = qg_level_in_map(level);
    int w = qg_level_width(level);
    qg_buf b;
    qg_buf_init(&b);
    for (int y = 0; y < qg_level_height(level); y++) {
        qg_buf_reset(&b);
        for (int x = 0; x < w; x++) {
            size_t at = (size_t)y * (size_t)w + (size_t)x;
            qg_buf_put_utf8(&b, in_map[at] ? qg_cp437_unicode(glyphs[at]) : ' ');
        }
        json_array_append_new(rows, json_stringn(b.data ? b.data : "", b.len));
    }
    qg_buf_free(&b);
    return rows;
}

static json_t *properties(const qg_level *level)
{
    json_t *list = json_array();
    for (size_t i = 0; i < qg_level_property_count(level); i++) {
        const char *value;
        const char *key = qg_level_property(level, i, &value);
        json_t *p = json_object();
        json_object_set_new(p, "key", cli_json_text(key));
        json_object_set_new(p, "value", cli_json_text(value));
        json_array_append_new(list, p);
    }
    return list;
}

static json_t *markers(const qg_level *level)
{
    json_t *list = json_array();
    for (size_t i = 0; i < qg_level_marker_count(level); i++) {
        int x, y;
        const char *spec = qg_level_marker(level, i, &x, &y);
        json_t *m = json_object();
        json_object_set_new(m, "x", json_integer(x));
        json_object_set_new(m, "y", json_integer(y));
        json_object_set_new(m, "spec", cli_json_text(spec));
        json_array_append_new(list, m);
    }
    return list;
}

json_t *cli_json_level(const qg_level *level, const qg_vocab *vocab)
{
    level_doc d = {json_object(), json_array(), {NULL}, vocab};
    for (int s = 0; s < QG_SLOTS; s++)
        d.things[s] = json_array();
    json_object_set_new(d.doc, "name", cli_json_text(qg_level_name(level)));
    json_object_set_new(d.doc, "width", json_integer(qg_level_width(level)));
    json_object_set_new(d.doc, "height", json_integer(qg_level_height(level)));
    json_object_set_new(d.doc, "properties", properties(level));
    json_object_set_new(d.doc, "rows", rows(level));
    int x, y;
    json_t *start = json_null();
    if (qg_level_player_start(level, &x, &y))
        start = json_pack("{s:i, s:i}", "x", x, "y", y);
    json_object_set_new(d.doc, "player_start", start);
    int applied;
    unsigned choices = qg_level_turns(level, &applied);
    json_t *turns = json_array();
    for (int t = 0; t < 8; t++)
        if (choices & (1u << t))
            json_array_append_new(turns, json_integer(t));
    json_object_set_new(d.doc, "transform",
                        json_pack("{s:o, s:o}", "choices", turns, "applied",
                                  applied >= 0 ? json_integer(applied) : json_null()));
    qg_level_foreach(level, add_cell, &d);
    json_object_set_new(d.doc, "cells", d.cells);
    for (int s = 0; s < QG_SLOTS; s++)
        json_object_set_new(d.doc, slot_arrays[s], d.things[s]);
    json_object_set_new(d.doc, "markers", markers(level));
    return d.doc;
}

json_t *cli_json_no_level(const char *name, const char *what)
{
    json_t *doc = json_object();
    json_object_set_new(doc, "name", cli_json_text(name));
    json_object_set_new(doc, "width", json_integer(0));
    json_object_set_new(doc, "height", json_integer(0));
    json_object_set_new(doc, "properties", json_array());
    json_object_set_new(doc, "rows", json_array());
    json_object_set_new(doc, "player_start", json_null());
    json_object_set_new(doc, "transform",
                        json_pack("{s:o, s:o}", "choices", json_array(), "applied", json_null()));
    json_object_set_new(doc, "cells", json_array());
    for (int s = 0; s < QG_SLOTS; s++)
        json_object_set_new(doc, slot_arrays[s], json_array());
    json_object_set_new(doc, "markers", json_array());
    json_object_set_new(doc, "what", cli_json_text(what));
    return doc;
}

static const char *const severities[] = {"note", "warning", "error"};

void cli_json_add_diags(json_t *array, const qg_diags *diags)
{
    for (size_t i = 0; i < qg_diags_count(diags); i++) {
        const qg_diag *d = qg_diags_get(diags, i);
        if (!cli_diag_first(d))
            continue;
        json_t *o = json_object();
        json_object_set_new(o, "file", cli_json_text(d->file));
        json_object_set_new(o, "line", json_integer(d->line));
        json_object_set_new(o, "column", json_integer(d->col));
        json_object_set_new(o, "severity", json_string(severities[d->severity]));
        json_object_set_new(o, "message", cli_json_text(d->message));
        char *source = NULL;
        if (d->source_line)
            source = qg_strndup(d->source_line, strnlen(d->source_line, d->source_len));
        json_object_set_new(o, "source", cli_json_text(source));
        free(source);
        json_array_append_new(array, o);
    }
}

int cli_json_print(json_t *document)
{
    int ok = document && json_dumpf(document, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9)) == 0;
    if (ok)
        putchar('\n');
    json_decref(document);
    return ok;
}

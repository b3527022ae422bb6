/* How a cell looks in a picture or on a terminal: its glyph and the colour
 * the game draws what stands there in. F:/D: levels take colours from the
 * variant's G: lines (monster, object, feature, in that order of what is
 * seen); Crawl levels from the feature colour table (des/colours.txt).
 * Things a vocabulary cannot colour get one colour per kind. */
#include "questgrid/render.h"
#include "core/buf.h"
#include "formats/formats.h"
#include "core/file.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Angband's sixteen colours, in the order of its colour letters. */
static const char angband_letters[] = "dwsorgbuDWvyRGBU";
static const qg_colour angband_colours[16] = {
    {0x404040, 90}, /* dark: drawn dark grey, black would not show */
    {0xFFFFFF, 97}, {0x808080, 37}, {0xFF8000, 33}, {0xC00000, 31},
    {0x008040, 32}, {0x0000FF, 34}, {0x804000, 33}, {0x404040, 90},
    {0xC0C0C0, 37}, {0xFF00FF, 35}, {0xFFFF00, 93}, {0xFF0000, 91},
    {0x00FF00, 92}, {0x00FFFF, 96}, {0xC08040, 33},
};

/* Crawl's sixteen colours, by their names in des/colours.txt. */
static const struct {
    const char *name;
    qg_colour colour;
} crawl_colours[16] = {
    {"black", {0x404040, 90}}, {"blue", {0x0000AA, 34}},
    {"green", {0x00AA00, 32}}, {"cyan", {0x00AAAA, 36}},
    {"red", {0xAA0000, 31}}, {"magenta", {0xAA00AA, 35}},
    {"brown", {0xAA5500, 33}}, {"lightgrey", {0xAAAAAA, 37}},
    {"darkgrey", {0x555555, 90}}, {"lightblue", {0x5555FF, 94}},
    {"lightgreen", {0x55FF55, 92}}, {"lightcyan", {0x55FFFF, 96}},
    {"lightred", {0xFF5555, 91}}, {"lightmagenta", {0xFF55FF, 95}},
    {"yellow", {0xFFFF55, 93}}, {"white", {0xFFFFFF, 97}},
};

static const qg_colour plain = {0xC0C0C0, 0};
/* Things no vocabulary colours: monsters light red, objects light blue,
 * egos light green, artifacts yellow, traps light cyan. */
static const qg_colour slot_colours[QG_SLOTS] = {
    {0xFF5555, 91}, {0x55FFFF, 96}, {0x55FF55, 92}, {0xFFFF55, 93}, {0x55FFFF, 96}};
static const qg_colour start_colour = {0xFFFFFF, 97};

typedef struct named {
    char *name;
    int colour;
} named;

struct qg_palette {
    named *items;
    size_t count, cap;
};

qg_palette *qg_palette_new(void)
{
    return calloc(1, sizeof(qg_palette));
}

void qg_palette_free(qg_palette *palette)
{
    if (!palette)
        return;
    for (size_t i = 0; i < palette->count; i++)
        free(palette->items[i].name);
    free(palette->items);
    free(palette);
}

static int crawl_colour(const char *name, size_t len)
{
    for (int i = 0; i < 16; i++)
        if (strlen(crawl_colours[i].name) == len &&
            strncasecmp(crawl_colours[i].name, name, len) == 0)
            return i;
    return -1;
}

static size_t trimmed(const char *s, size_t len)
{
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    return len;
}

/* "vault name   colour": the last word is the colour. */
static int parse_line(qg_palette *p, const char *path, int line_no, const char *line,
                      size_t len, qg_diags *diags)
{
    len = trimmed(line, len);
    if (len == 0 || line[0] == '#')
        return 1;
    size_t word = len;
    while (word && !isspace((unsigned char)line[word - 1]))
        word--;
    size_t name_len = trimmed(line, word);
    int colour = crawl_colour(line + word, len - word);
    if (!name_len || colour < 0) {
        qg_diags_add(diags, QG_ERROR, path, line_no, (int)word + 1, line, len,
                     name_len ? "unknown colour '%.*s'" : "want a feature name and a colour",
                     (int)(len - word), line + word);
        return 1;
    }
    named *n = QG_PUSH(p->items, p->count, p->cap);
    if (!n || !(n->name = qg_strndup(line, name_len)))
        return 0;
    n->colour = colour;
    return 1;
}

qg_status qg_palette_load_file(qg_palette *palette, const char *path, qg_diags *diags)
{
    char *data;
    size_t size;
    qg_status status = qg_read_file(path, QG_MAX_TEXT_FILE, &data, &size, diags);
    if (status != QG_OK)
        return status;
    size_t errors = qg_diags_count_severity(diags, QG_ERROR);
    int line_no = 0;
    for (const char *line = data, *end = data + size; line < end && status == QG_OK;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);
        if (!parse_line(palette, path, ++line_no, line, len, diags))
            status = QG_ERR_NOMEM;
        line = nl ? nl + 1 : end;
    }
    free(data);
    if (status == QG_OK && qg_diags_count_severity(diags, QG_ERROR) > errors)
        status = QG_ERR_PARSE;
    return status;
}

qg_status qg_palette_load_bundled(qg_palette *palette, qg_diags *diags)
{
    char *path;
    qg_status status = qg_data_find("des/colours.txt", &path, diags);
    if (status == QG_OK)
        status = qg_palette_load_file(palette, path, diags);
    free(path);
    return status;
}

/* The last entry wins, so a later file overrides the bundled one. */
static const qg_colour *palette_colour(const qg_palette *p, const char *name)
{
    for (size_t i = p ? p->count : 0; i-- > 0;)
        if (strcasecmp(p->items[i].name, name) == 0)
            return &crawl_colours[p->items[i].colour].colour;
    return NULL;
}

static const qg_colour *letter_colour(char letter)
{
    const char *at = letter ? strchr(angband_letters, letter) : NULL;
    return at ? &angband_colours[at - angband_letters] : NULL;
}

static const qg_colour *vocab_colour(const qg_vocab *vocab, qg_vocab_kind kind, int32_t index)
{
    char letter;
    if (index < 0 || !qg_vocab_look(vocab, kind, (int)index, NULL, &letter))
        return NULL;
    return letter_colour(letter);
}

static const int slot_vocab[QG_SLOTS] = {QG_VOCAB_MONSTER, QG_VOCAB_OBJECT, -1,
                                         QG_VOCAB_ARTIFACT, QG_VOCAB_FEATURE};
/* What is drawn on top: a monster hides an object, which hides the floor. */
static const qg_slot shown_first[QG_SLOTS] = {QG_SLOT_MONSTER, QG_SLOT_ARTIFACT,
                                              QG_SLOT_OBJECT, QG_SLOT_EGO, QG_SLOT_TRAP};

/* A colour as a game's tables give it: an Angband colour letter or one
 * of Crawl's sixteen names. */
static const qg_colour *game_colour(const char *name)
{
    if (name && name[0] && !name[1])
        return letter_colour(name[0]);
    int i = name ? crawl_colour(name, strlen(name)) : -1;
    return i >= 0 ? &crawl_colours[i].colour : NULL;
}

/* The thing a cell shows (a monster hides an artifact, which hides an
 * object, ...), or NULL. */
static const qg_thing *shown_thing(const qg_cell *cell, qg_slot *slot)
{
    for (int i = 0; i < QG_SLOTS; i++) {
        *slot = shown_first[i];
        if (cell->things[*slot].kind != QG_THING_NONE)
            return &cell->things[*slot];
    }
    return NULL;
}

/* How the game draws a thing: its vocabulary's G: line (an index), the
 * game's tables (a name); 0 when neither says. */
static int thing_look(const qg_thing *t, qg_slot slot, const qg_render_options *o, unsigned *code,
                      const qg_colour **colour)
{
    if (slot_vocab[slot] < 0 || slot == QG_SLOT_TRAP)
        return 0;
    qg_vocab_kind kind = (qg_vocab_kind)slot_vocab[slot];
    char glyph, letter;
    if ((t->kind == QG_THING_INDEX || t->kind == QG_THING_CLONE) &&
        qg_vocab_look(o->vocab, kind, (int)t->index, &glyph, &letter)) {
        *code = qg_cp437_unicode((unsigned char)glyph);
        *colour = letter_colour(letter);
        return 1;
    }
    const char *text, *name;
    if ((t->kind == QG_THING_NAME || t->kind == QG_THING_INDEX) &&
        qg_game_look(o->game, kind, t->kind == QG_THING_INDEX ? t->index : -1, t->name, &text,
                     &name)) {
        *code = qg_utf8_code(text);
        *colour = game_colour(name);
        return 1;
    }
    return 0;
}

static const qg_colour *thing_colour(const qg_cell *cell, const qg_render_options *o)
{
    qg_slot slot;
    const qg_thing *t = shown_thing(cell, &slot);
    if (!t)
        return NULL;
    unsigned code;
    const qg_colour *c = NULL;
    if (!thing_look(t, slot, o, &code, &c))
        c = NULL;
    if (!c && t->kind == QG_THING_NAME && slot == QG_SLOT_TRAP)
        c = palette_colour(o->palette, t->name);
    return c ? c : &slot_colours[slot];
}

unsigned qg_render_cell_char(const qg_cell *cell, int is_start, const qg_render_options *o)
{
    if (is_start)
        return '@';
    qg_slot slot;
    const qg_thing *t = shown_thing(cell, &slot);
    unsigned code = 0;
    const qg_colour *colour;
    if (t && thing_look(t, slot, o, &code, &colour) && code)
        return code;
    /* a thing the game draws no way (a random monster): the map's own mark */
    if (t)
        return qg_cp437_unicode(cell->glyph);
    char glyph;
    if (cell->feature >= 0 && qg_vocab_look(o->vocab, QG_VOCAB_FEATURE, (int)cell->feature,
                                             &glyph, NULL) && glyph != ' ')
        return qg_cp437_unicode((unsigned char)glyph);
    const char *text;
    if (!t && cell->feature < 0 && cell->feature_name &&
        qg_game_look(o->game, QG_VOCAB_FEATURE, -1, cell->feature_name, &text, NULL) &&
        (code = qg_utf8_code(text)))
        return code;
    return qg_cp437_unicode(cell->glyph);
}

qg_status qg_render_check_size(const qg_level *level, qg_diags *diags)
{
    if (qg_level_width(level) <= QG_RENDER_MAX_WIDTH &&
        qg_level_height(level) <= QG_RENDER_MAX_HEIGHT)
        return QG_OK;
    const char *name = qg_level_name(level);
    qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0,
                 "%s%sis %d x %d, larger than any level the games build (%d x %d): not drawn",
                 name ? name : "", name ? " " : "the level ", qg_level_width(level),
                 qg_level_height(level), QG_RENDER_MAX_WIDTH, QG_RENDER_MAX_HEIGHT);
    return QG_ERR_LIMIT;
}

qg_colour qg_render_cell_colour(const qg_cell *cell, int is_start, const qg_render_options *o)
{
    if (is_start)
        return start_colour;
    const qg_colour *c = thing_colour(cell, o);
    if (!c && cell->feature >= 0)
        c = vocab_colour(o->vocab, QG_VOCAB_FEATURE, cell->feature);
    if (!c && cell->feature_name)
        c = palette_colour(o->palette, cell->feature_name);
    return c ? *c : plain;
}

int qg_render_knows_colour(const qg_cell *cell, const qg_render_options *o)
{
    return (cell->feature >= 0 && vocab_colour(o->vocab, QG_VOCAB_FEATURE, cell->feature)) ||
           (cell->feature_name && palette_colour(o->palette, cell->feature_name));
}

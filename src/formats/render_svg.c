/* Levels as pictures for a browser: SVG (one text element per cell, in
 * the game's characters and colours, its legend below) and a
 * self-contained HTML page holding one or many levels with their names,
 * sizes, tags and legends. */
#include "questgrid/render.h"
#include "formats/formats.h"

#include <stdlib.h>
#include <string.h>

/* The length of the UTF-8 sequence at s (n bytes left), 0 when invalid. */
static size_t utf8_length(const unsigned char *s, size_t n)
{
    size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3
                                 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || len > n || (len == 2 && s[0] < 0xC2))
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return len;
}

/* Text from the files (names, tags, legends) into XML: markup escaped,
 * bytes that are not UTF-8 (Latin-1 names, say) and control characters
 * shown as U+FFFD, so the page stays well-formed whatever the input. */
static void xml_text(qg_buf *b, const char *text)
{
    const unsigned char *s = (const unsigned char *)(text ? text : "");
    size_t n = strlen((const char *)s);
    while (n) {
        size_t len = utf8_length(s, n);
        if (*s == '&')
            qg_buf_puts(b, "&amp;");
        else if (*s == '<')
            qg_buf_puts(b, "&lt;");
        else if (*s == '>')
            qg_buf_puts(b, "&gt;");
        else if (*s == '"')
            qg_buf_puts(b, "&quot;");
        else if (len == 0 || (*s < 0x20 && *s != '\t' && *s != '\n'))
            qg_buf_put_utf8(b, 0xFFFD);
        else
            qg_buf_append(b, s, len);
        len = len ? len : 1;
        s += len;
        n -= len;
    }
}

/* A character a picture draws (a code point), escaped. */
static void xml_char(qg_buf *b, unsigned code)
{
    if (code == '&' || code == '<' || code == '>' || code == '"') {
        char text[2] = {(char)code, 0};
        xml_text(b, text);
    } else {
        qg_buf_put_utf8(b, code < 0x20 || code >= 0x10000 ? 0xFFFD : code);
    }
}

static const char *display_name(const qg_level *level)
{
    const char *name = qg_level_get_property(level, "name");
    if (!name)
        name = qg_level_name(level);
    return name && name[0] ? name : "level";
}

static void svg_cells(qg_buf *b, const qg_level *level, const qg_render_options *o)
{
    int w = qg_level_width(level), h = qg_level_height(level);
    int sx = -1, sy = -1, has_start = qg_level_player_start(level, &sx, &sy);
    qg_cell cell;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            if (qg_level_cell(level, x, y, &cell) != QG_OK || !cell.in_map)
                continue;
            int start = has_start && x == sx && y == sy;
            qg_colour c = qg_render_cell_colour(&cell, start, o);
            qg_buf_printf(b, "<text class=\"cell\" x=\"%d\" y=\"%d\" fill=\"#%06lx\">",
                          x * QG_SVG_CELL_W + QG_SVG_CELL_W / 2, y * QG_SVG_CELL_H + 12,
                          (unsigned long)c.rgb);
            xml_char(b, qg_render_cell_char(&cell, start, o));
            qg_buf_puts(b, "</text>\n");
        }
}

/* The legend under a standalone picture: a line per distinct cell, its
 * character in its colour and what it is. */
typedef struct svg_legend {
    qg_buf *b;
    const qg_render_options *options;
    int top, rows;
    size_t widest;   /* characters of the longest line */
} svg_legend;

static void svg_legend_row(void *user, unsigned char glyph, const qg_cell *cell, const char *text)
{
    (void)glyph;
    svg_legend *l = user;
    int y = l->top + l->rows * QG_SVG_CELL_H + 12;
    qg_colour c = qg_render_cell_colour(cell, 0, l->options);
    qg_buf_printf(l->b, "<text class=\"key\" x=\"%d\" y=\"%d\" fill=\"#%06lx\">",
                  QG_SVG_CELL_W / 2, y, (unsigned long)c.rgb);
    xml_char(l->b, qg_render_cell_char(cell, 0, l->options));
    qg_buf_printf(l->b, "</text><text class=\"legend\" x=\"%d\" y=\"%d\" fill=\"#d8d8d8\" "
                        "text-anchor=\"start\">", 2 * QG_SVG_CELL_W, y);
    xml_text(l->b, text);
    qg_buf_puts(l->b, "</text>\n");
    l->rows++;
    size_t n = strlen(text) + 2;
    l->widest = n > l->widest ? n : l->widest;
}

static void svg_append(qg_buf *b, const qg_level *level, const qg_render_options *o,
                       int standalone)
{
    int pw = qg_level_width(level) * QG_SVG_CELL_W, ph = qg_level_height(level) * QG_SVG_CELL_H;
    /* the legend is drawn first into its own buffer: the picture's size
     * depends on it */
    qg_buf legend;
    qg_buf_init(&legend);
    svg_legend l = {&legend, o, ph + QG_SVG_CELL_H, 0, 0};
    if (standalone && !qg_legend_each(level, o->vocab, svg_legend_row, &l))
        b->failed = 1;
    int sx, sy;
    if (standalone && qg_level_player_start(level, &sx, &sy)) {
        char start[64];
        snprintf(start, sizeof start, "player start: row %d, column %d", sy, sx);
        qg_buf_printf(&legend, "<text class=\"key\" x=\"%d\" y=\"%d\" fill=\"#ffffff\">@</text>"
                               "<text class=\"legend\" x=\"%d\" y=\"%d\" fill=\"#d8d8d8\" "
                               "text-anchor=\"start\">%s</text>\n", QG_SVG_CELL_W / 2,
                      l.top + l.rows * QG_SVG_CELL_H + 12, 2 * QG_SVG_CELL_W,
                      l.top + l.rows * QG_SVG_CELL_H + 12, start);
        l.rows++;
    }
    int width = pw, height = ph;
    if (l.rows) {
        int text = (int)(l.widest < 400 ? l.widest : 400) * 9;
        width = text > width ? text : width;
        height = l.top + l.rows * QG_SVG_CELL_H;
    }
    if (standalone)
        qg_buf_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    qg_buf_printf(b,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                  "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, "
                  "monospace\" font-size=\"14\" text-anchor=\"middle\">\n<title>",
                  width, height, width, height);
    xml_text(b, display_name(level));
    qg_buf_printf(b, " (%dx%d)</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#000000\"/>\n",
                  qg_level_width(level), qg_level_height(level), width, height);
    svg_cells(b, level, o);
    if (legend.len)
        qg_buf_append(b, legend.data, legend.len);
    b->failed |= legend.failed;
    qg_buf_free(&legend);
    qg_buf_puts(b, "</svg>\n");
}

static qg_status finish(qg_buf *b, char **out, size_t *len)
{
    if (b->failed) {
        qg_buf_free(b);
        return QG_ERR_NOMEM;
    }
    *len = b->len;
    *out = qg_buf_take(b);
    return *out ? QG_OK : QG_ERR_NOMEM;
}

qg_status qg_render_svg(const qg_level *level, const qg_render_options *options, char **out,
                        size_t *len)
{
    if (qg_render_check_size(level, NULL) != QG_OK)
        return QG_ERR_LIMIT;
    qg_buf b;
    qg_buf_init(&b);
    svg_append(&b, level, options, 1);
    return finish(&b, out, len);
}

typedef struct html_legend {
    qg_buf *b;
    const qg_render_options *options;
} html_legend;

static void legend_row(void *user, unsigned char glyph, const qg_cell *cell, const char *text)
{
    (void)glyph;
    html_legend *h = user;
    qg_colour c = qg_render_cell_colour(cell, 0, h->options);
    qg_buf_printf(h->b, "<tr><td class=\"g\" style=\"color:#%06lx\">", (unsigned long)c.rgb);
    xml_char(h->b, qg_render_cell_char(cell, 0, h->options));
    qg_buf_puts(h->b, "</td><td>");
    xml_text(h->b, text);
    qg_buf_puts(h->b, "</td></tr>\n");
}

static void html_properties(qg_buf *b, const qg_level *level)
{
    const char *tags = qg_level_get_property(level, "tags");
    qg_buf_printf(b, "<p class=\"meta\">%d &#215; %d &#183; tags: ", qg_level_width(level),
                  qg_level_height(level));
    xml_text(b, tags && tags[0] ? tags : "none");
    for (size_t i = 0; i < qg_level_property_count(level); i++) {
        const char *value;
        const char *key = qg_level_property(level, i, &value);
        if (strcmp(key, "tags") == 0 || strcmp(key, "name") == 0)
            continue;
        qg_buf_puts(b, " &#183; ");
        xml_text(b, key);
        qg_buf_puts(b, ": ");
        xml_text(b, value);
    }
    qg_buf_puts(b, "</p>\n");
}

/* A gallery page is made a card at a time, so that a level is drawn and
 * freed as it comes; the heading and the list of cards are put before
 * the cards at the end. */
struct qg_gallery {
    char *title;
    const qg_render_options *options;
    qg_buf nav, cards;
    size_t count;
};

qg_gallery *qg_gallery_new(const char *title, const qg_render_options *options)
{
    qg_gallery *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->title = qg_strdup(title ? title : "questgrid");
    g->options = options;
    qg_buf_init(&g->nav);
    qg_buf_init(&g->cards);
    if (!g->title) {
        free(g);
        return NULL;
    }
    return g;
}

void qg_gallery_free(qg_gallery *g)
{
    if (!g)
        return;
    qg_buf_free(&g->nav);
    qg_buf_free(&g->cards);
    free(g->title);
    free(g);
}

/* A card's opening: its anchor in the list and its heading. */
static void card_start(qg_gallery *g, const char *name, const char *class)
{
    g->count++;
    qg_buf_printf(&g->nav, "<a href=\"#map-%zu\"%s%s%s>", g->count, class ? " class=\"" : "",
                  class ? class : "", class ? "\"" : "");
    xml_text(&g->nav, name);
    qg_buf_puts(&g->nav, "</a> ");
    qg_buf_printf(&g->cards, "<section id=\"map-%zu\"%s%s%s>\n<h2>", g->count,
                  class ? " class=\"" : "", class ? class : "", class ? "\"" : "");
    xml_text(&g->cards, name);
    qg_buf_puts(&g->cards, "</h2>\n");
}

qg_status qg_gallery_add_level(qg_gallery *g, const qg_level *level)
{
    qg_buf *b = &g->cards;
    const qg_render_options *o = g->options;
    card_start(g, display_name(level), NULL);
    html_properties(b, level);
    svg_append(b, level, o, 0);
    qg_buf_puts(b, "<table class=\"legend\">\n");
    html_legend h = {b, o};
    if (!qg_legend_each(level, o->vocab, legend_row, &h))
        b->failed = 1;
    int x, y;
    if (qg_level_player_start(level, &x, &y))
        qg_buf_printf(b, "<tr><td class=\"g\" style=\"color:#ffffff\">@</td>"
                         "<td>player start: row %d, column %d</td></tr>\n", y, x);
    qg_buf_puts(b, "</table>\n</section>\n");
    return b->failed || g->nav.failed ? QG_ERR_NOMEM : QG_OK;
}

qg_status qg_gallery_add_card(qg_gallery *g, const char *name, const char *where,
                              const char *text, int failed)
{
    qg_buf *b = &g->cards;
    card_start(g, name, failed ? "failed" : "described");
    qg_buf_puts(b, "<p class=\"meta\">");
    xml_text(b, where);
    qg_buf_printf(b, "</p>\n<p class=\"%s\">%s", failed ? "why" : "what",
                  failed ? "not drawn: " : "");
    xml_text(b, text);
    qg_buf_puts(b, "</p>\n</section>\n");
    return b->failed || g->nav.failed ? QG_ERR_NOMEM : QG_OK;
}

static const char page_style[] =
    "body{background:#101010;color:#d8d8d8;font-family:sans-serif;margin:2em}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-bottom:.2em}"
    "p.meta{color:#a0a0a0;margin-top:0}section{margin:2em 0}"
    "svg{display:block;margin:.5em 0;max-width:100%;height:auto}"
    "table.legend{border-collapse:collapse;font-size:.9em}"
    "table.legend td{padding:0 .6em 0 0;vertical-align:top}"
    "td.g{font-family:monospace;font-weight:bold;text-align:center}"
    "nav a{color:#8ab4f8;margin-right:1em}nav a.failed{color:#ff7070}"
    "nav a.described{color:#a0a0a0}"
    "section.failed{border-left:4px solid #ff5050;padding-left:1em}"
    "section.described{border-left:4px solid #707070;padding-left:1em}"
    "p.why{color:#ff9090;font-family:monospace;white-space:pre-wrap}"
    "p.what{color:#c0c0c0}";

qg_status qg_gallery_finish(qg_gallery *g, size_t failed, char **out, size_t *len)
{
    qg_buf b;
    qg_buf_init(&b);
    qg_buf_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
                    "<title>");
    xml_text(&b, g->title);
    qg_buf_printf(&b, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", page_style);
    xml_text(&b, g->title);
    qg_buf_printf(&b, "</h1>\n<p class=\"meta\">%zu level%s", g->count, g->count == 1 ? "" : "s");
    if (failed)
        qg_buf_printf(&b, ", %zu not drawn (each card says why)", failed);
    qg_buf_puts(&b, "</p>\n");
    if (g->count > 1) {
        qg_buf_puts(&b, "<nav>");
        if (g->nav.len)
            qg_buf_append(&b, g->nav.data, g->nav.len);
        qg_buf_puts(&b, "</nav>\n");
    }
    qg_buf_free(&g->nav);
    if (g->cards.len)
        qg_buf_append(&b, g->cards.data, g->cards.len);
    b.failed |= g->cards.failed || g->nav.failed;
    qg_buf_free(&g->cards);
    qg_buf_puts(&b, "</body>\n</html>\n");
    return finish(&b, out, len);
}

qg_status qg_render_html(const qg_level *const *levels, size_t count, const char *title,
                         const qg_render_options *options, char **out, size_t *len)
{
    qg_gallery *g = qg_gallery_new(title, options);
    qg_status st = g ? QG_OK : QG_ERR_NOMEM;
    for (size_t i = 0; st == QG_OK && i < count; i++)
        st = qg_gallery_add_level(g, levels[i]);
    if (st == QG_OK)
        st = qg_gallery_finish(g, 0, out, len);
    qg_gallery_free(g);
    return st;
}

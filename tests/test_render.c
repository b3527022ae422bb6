/* Pictures of levels: the SVG parses (expat) with one cell per map square
 * in the game's characters and colours and its legend, the HTML gallery
 * is well-formed with one section per map (a batch's: a card for every
 * map, a failed or described one saying why or what), PNG (with libpng)
 * has the level's size at its cell size with its legend, a level larger
 * than the games build is refused, and the terminal text is coloured only
 * when asked. */
#define _GNU_SOURCE
#include "testutil.h"
#include "formats/formats.h"

#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct svg_count {
    int cells, sections, svgs, depth_in_cell;
    int width, height;
    unsigned char *seen;  /* one flag per grid square */
    int duplicate, outside, wrong_colour;
    const qg_level *level;
    const qg_render_options *style;
} svg_count;

static const char *attr(const XML_Char **atts, const char *name)
{
    for (int i = 0; atts[i]; i += 2)
        if (strcmp(atts[i], name) == 0)
            return atts[i + 1];
    return NULL;
}

static void on_start(void *user, const XML_Char *name, const XML_Char **atts)
{
    svg_count *c = user;
    const char *cls = attr(atts, "class");
    if (strcmp(name, "section") == 0)
        c->sections++;
    if (strcmp(name, "svg") == 0)
        c->svgs++;
    if (strcmp(name, "text") != 0 || !cls || strcmp(cls, "cell") != 0 || !c->seen)
        return;
    c->cells++;
    int x = (atoi(attr(atts, "x")) - QG_SVG_CELL_W / 2) / QG_SVG_CELL_W;
    int y = (atoi(attr(atts, "y")) - 12) / QG_SVG_CELL_H;
    if (x < 0 || y < 0 || x >= c->width || y >= c->height) {
        c->outside++;
        return;
    }
    c->duplicate += c->seen[y * c->width + x]++;
    qg_cell cell;
    qg_level_cell(c->level, x, y, &cell);
    int sx, sy, start = qg_level_player_start(c->level, &sx, &sy) && sx == x && sy == y;
    char want[16];
    snprintf(want, sizeof want, "#%06lx",
             (unsigned long)qg_render_cell_colour(&cell, start, c->style).rgb);
    c->wrong_colour += strcmp(attr(atts, "fill"), want) != 0;
}

static int parse(const char *text, size_t len, svg_count *c)
{
    XML_Parser p = XML_ParserCreate("UTF-8");
    XML_SetUserData(p, c);
    XML_SetStartElementHandler(p, on_start);
    int ok = XML_Parse(p, text, (int)len, 1) == XML_STATUS_OK;
    if (!ok)
        print_message("# expat: %s at line %lu\n", XML_ErrorString(XML_GetErrorCode(p)),
                      (unsigned long)XML_GetCurrentLineNumber(p));
    XML_ParserFree(p);
    return ok;
}

static int count_in_map(void *user, int x, int y, const qg_cell *cell)
{
    (void)x, (void)y, (void)cell;
    ++*(int *)user;
    return 0;
}

static void check_svg(const qg_level *level, const qg_render_options *style)
{
    char *svg;
    size_t len;
    assert_int_equal(qg_render_svg(level, style, &svg, &len), QG_OK);
    svg_count c = {0};
    c.width = qg_level_width(level);
    c.height = qg_level_height(level);
    c.seen = calloc((size_t)c.width * (size_t)c.height, 1);
    c.level = level;
    c.style = style;
    assert_true(parse(svg, len, &c));
    int in_map = 0;
    qg_level_foreach(level, count_in_map, &in_map);
    assert_true(in_map > 0);
    assert_int_equal(c.cells, in_map);
    assert_int_equal(c.duplicate, 0);
    assert_int_equal(c.outside, 0);
    assert_int_equal(c.wrong_colour, 0);
    assert_int_equal(c.svgs, 1);
    free(c.seen);
    free(svg);
}

typedef struct fixture {
    qg_vocab *vocab;
    qg_palette *palette;
    qg_render_options style;
    qg_diags *diags;
} fixture;

static int setup(void **state)
{
    static fixture f;
    f.diags = qg_diags_new();
    f.vocab = qg_vocab_new();
    f.palette = qg_palette_new();
    if (qg_vocab_load_dir(f.vocab, test_src_path("lib/edit"), f.diags) != QG_OK ||
        qg_palette_load_file(f.palette, test_src_path("lib/des/colours.txt"), f.diags) != QG_OK)
        return -1;
    f.style = (qg_render_options){f.vocab, f.palette, 0, NULL, 0, 0};
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    qg_vocab_free(f->vocab);
    qg_palette_free(f->palette);
    qg_diags_free(f->diags);
    return 0;
}

static qg_level *bundled_quest(fixture *f, int number)
{
    char hub[4096];
    snprintf(hub, sizeof hub, "%s", test_src_path("lib/edit/q_info.txt"));
    qg_fd_options o;
    qg_fd_options_init(&o);
    o.vocab = f->vocab;
    o.edit_dir = test_src_path("lib/edit");
    qg_level *level = NULL;
    assert_int_equal(qg_fd_load_quest(hub, number, &o, NULL, &level, f->diags), QG_OK);
    return level;
}

static qg_level *bundled_vault(fixture *f, const char *name)
{
    qg_runtime *rt = qg_runtime_new(NULL, f->diags);
    qg_des_file *file = NULL;
    assert_int_equal(qg_des_load(test_src_path("lib/des/questgrid_vaults.des"), NULL, NULL,
                                 &file, f->diags), QG_OK);
    assert_int_equal(qg_runtime_add_file(rt, file, f->diags), QG_OK);
    qg_level *level = NULL;
    assert_int_equal(qg_runtime_resolve(rt, qg_runtime_find_map(rt, name), 4, NULL, &level,
                                        f->diags), QG_OK);
    qg_runtime_free(rt);
    return level;
}

static void quest_svg_has_one_cell_per_square(void **state)
{
    fixture *f = *state;
    qg_level *level = bundled_quest(f, 1);
    check_svg(level, &f->style);
    qg_level_free(level);
}

static void vault_svg_has_one_cell_per_square(void **state)
{
    fixture *f = *state;
    qg_level *level = bundled_vault(f, "questgrid_candle_crypt");
    check_svg(level, &f->style);
    qg_level_free(level);
}

/* The game's colours: f_info G: for a feature, r_info G: for a monster,
 * Crawl's table for a Crawl feature. */
static void colours_come_from_the_game(void **state)
{
    fixture *f = *state;
    qg_cell cell;
    memset(&cell, 0, sizeof cell);
    cell.feature = -1;
    cell.feature_name = "rock_wall";
    assert_int_equal(qg_render_cell_colour(&cell, 0, &f->style).rgb, 0xAA5500); /* brown */
    cell.feature_name = "deep_water";
    assert_int_equal(qg_render_cell_colour(&cell, 0, &f->style).rgb, 0x0000AA); /* blue */
    char glyph, letter;
    assert_true(qg_vocab_look(f->vocab, QG_VOCAB_MONSTER, 10, &glyph, &letter));
    cell.things[QG_SLOT_MONSTER] = (qg_thing){QG_THING_INDEX, 10, NULL, 0, 0, 0};
    qg_colour monster = qg_render_cell_colour(&cell, 0, &f->style);
    static const char letters[] = "dwsorgbuDWvyRGBU";
    static const uint32_t rgb[] = {0x404040, 0xFFFFFF, 0x808080, 0xFF8000, 0xC00000, 0x008040,
                                   0x0000FF, 0x804000, 0x404040, 0xC0C0C0, 0xFF00FF, 0xFFFF00,
                                   0xFF0000, 0x00FF00, 0x00FFFF, 0xC08040};
    assert_non_null(strchr(letters, letter));
    assert_int_equal(monster.rgb, rgb[strchr(letters, letter) - letters]);
    assert_int_equal(qg_render_cell_colour(&cell, 1, &f->style).rgb, 0xFFFFFF);
}

static void gallery_is_well_formed_with_a_section_per_map(void **state)
{
    fixture *f = *state;
    const qg_level *levels[3] = {bundled_quest(f, 1), bundled_quest(f, 3),
                                 bundled_vault(f, "questgrid_candle_crypt")};
    char *html;
    size_t len;
    assert_int_equal(qg_render_html(levels, 3, "bundled <levels> & more", &f->style, &html,
                                    &len), QG_OK);
    svg_count c = {0};
    assert_true(parse(html, len, &c));
    assert_int_equal(c.sections, 3);
    assert_int_equal(c.svgs, 3);
    assert_non_null(strstr(html, "bundled &lt;levels&gt; &amp; more"));
    assert_non_null(strstr(html, "The Smugglers"));
    assert_null(strstr(html, "src=\""));  /* self-contained: nothing fetched */
    free(html);
    for (int i = 0; i < 3; i++)
        qg_level_free((qg_level *)levels[i]);
}

/* A batch's page (qg_gallery): every map a card in its order, drawn or
 * not; a failed map's card names it and says why, a map with no level by
 * design says what it is, and the page counts the maps not drawn. */
static void gallery_has_a_card_for_every_map_of_a_batch(void **state)
{
    fixture *f = *state;
    qg_gallery *g = qg_gallery_new("batch", &f->style);
    assert_non_null(g);
    qg_level *quest = bundled_quest(f, 1), *vault = bundled_vault(f, "questgrid_candle_crypt");
    assert_int_equal(qg_gallery_add_level(g, quest), QG_OK);
    assert_int_equal(qg_gallery_add_card(g, "broken_map", "t.des:12",
                                         "t.des:14: error: a <broken> chunk", 1), QG_OK);
    assert_int_equal(qg_gallery_add_card(g, "nothing_here", "t.des:20 at D:1",
                                         "a dummy (TAGS: dummy)", 0), QG_OK);
    assert_int_equal(qg_gallery_add_level(g, vault), QG_OK);
    char *html;
    size_t len;
    assert_int_equal(qg_gallery_finish(g, 1, &html, &len), QG_OK);
    qg_gallery_free(g);
    svg_count c = {0};
    assert_true(parse(html, len, &c));
    assert_int_equal(c.sections, 4);
    assert_int_equal(c.svgs, 2);
    assert_non_null(strstr(html, "4 levels, 1 not drawn (each card says why)"));
    for (int i = 1; i <= 4; i++) {
        char anchor[40];
        snprintf(anchor, sizeof anchor, "<a href=\"#map-%d\"", i);
        assert_non_null(strstr(html, anchor));
    }
    const char *failed =
        strstr(html, "<section id=\"map-2\" class=\"failed\">\n<h2>broken_map</h2>");
    assert_non_null(failed);
    assert_non_null(strstr(failed, "<p class=\"meta\">t.des:12</p>"));
    assert_non_null(strstr(failed, "not drawn: t.des:14: error: a &lt;broken&gt; chunk"));
    const char *described =
        strstr(html, "<section id=\"map-3\" class=\"described\">\n<h2>nothing_here</h2>");
    assert_non_null(described);
    assert_non_null(strstr(described, "<p class=\"what\">a dummy (TAGS: dummy)</p>"));
    assert_non_null(strstr(html, "The Smugglers"));
    assert_true(strstr(html, "id=\"map-4\"") > described);
    free(html);
    qg_level_free(quest);
    qg_level_free(vault);
}

/* The legend's lines (one per distinct cell, and the player start). */
static int legend_lines(const qg_level *level)
{
    int rows = 0;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    qg_render_text(level, NULL, out);
    fclose(out);
    const char *legend = strstr(text, "legend:\n");
    for (const char *p = legend ? legend + 8 : ""; *p; p++)
        rows += *p == '\n';
    free(text);
    return rows;
}

static void png_size(const qg_level *level, const qg_render_options *style, int cell)
{
    unsigned char *png;
    size_t len;
    qg_diags *d = qg_diags_new();
    qg_render_options o = *style;
    o.cell = cell;
    qg_status st = qg_render_png(level, &o, &png, &len, d);
    if (!qg_render_has_png()) {
        assert_int_equal(st, QG_ERR_INVALID);
        assert_true(test_diags_contain(d, QG_ERROR, "without libpng"));
    } else {
        assert_int_equal(st, QG_OK);
        assert_memory_equal(png, "\x89PNG\r\n\x1a\n", 8);
        uint32_t w = (uint32_t)png[16] << 24 | (uint32_t)png[17] << 16 | png[18] << 8 | png[19];
        uint32_t h = (uint32_t)png[20] << 24 | (uint32_t)png[21] << 16 | png[22] << 8 | png[23];
        int px = cell ? cell : QG_PNG_CELL;
        /* the map, a blank row and the legend's lines, each cell px square */
        assert_true(w >= (uint32_t)(qg_level_width(level) * px));
        assert_int_equal(w % (uint32_t)px, 0);
        assert_int_equal(h, (uint32_t)((qg_level_height(level) + 1 + legend_lines(level)) * px));
        free(png);
    }
    qg_diags_free(d);
}

/* a legible cell: 16 pixels by default, --cell's */
static void png_has_the_level_size(void **state)
{
    fixture *f = *state;
    qg_level *level = bundled_quest(f, 1);
    png_size(level, &f->style, 0);
    png_size(level, &f->style, 24);
    qg_level_free(level);
}

/* the game's characters: a monster as r_info's G: line draws it, a
 * feature as f_info's, not as the file's letter; Crawl's from its tables */
static void characters_come_from_the_game(void **state)
{
    fixture *f = *state;
    qg_cell cell;
    memset(&cell, 0, sizeof cell);
    cell.glyph = 'a';
    cell.feature = 1;
    char glyph, letter;
    assert_true(qg_vocab_look(f->vocab, QG_VOCAB_MONSTER, 10, &glyph, &letter));
    cell.things[QG_SLOT_MONSTER] = (qg_thing){.kind = QG_THING_INDEX, .index = 10};
    assert_int_equal(qg_render_cell_char(&cell, 0, &f->style), (unsigned char)glyph);
    cell.things[QG_SLOT_MONSTER].kind = QG_THING_NONE;
    assert_true(qg_vocab_look(f->vocab, QG_VOCAB_FEATURE, 1, &glyph, &letter));
    assert_int_equal(qg_render_cell_char(&cell, 0, &f->style), (unsigned char)glyph);
    assert_int_equal(qg_render_cell_char(&cell, 1, &f->style), '@');
    qg_game *crawl = NULL;
    assert_int_equal(qg_game_load(NULL, "crawl-0.28", &crawl, f->diags), QG_OK);
    qg_render_options o = f->style;
    o.game = crawl;
    memset(&cell, 0, sizeof cell);
    cell.glyph = '1';
    cell.feature = -1;
    cell.feature_name = "floor";
    cell.things[QG_SLOT_MONSTER] = (qg_thing){.kind = QG_THING_NAME, .name = "bush"};
    assert_int_equal(qg_render_cell_char(&cell, 0, &o), 'P');
    assert_int_equal(qg_render_cell_colour(&cell, 0, &o).rgb, 0xAA5500); /* brown */
    cell.things[QG_SLOT_MONSTER].kind = QG_THING_NONE;
    cell.feature_name = "deep_water";
    assert_int_equal(qg_render_cell_char(&cell, 0, &o), 0x2248);  /* Crawl's wavy */
    qg_game_free(crawl);
}

typedef struct legend_count {
    int keys, lines;
} legend_count;

static void on_legend(void *user, const XML_Char *name, const XML_Char **atts)
{
    legend_count *c = user;
    const char *cls = attr(atts, "class");
    if (strcmp(name, "text") == 0 && cls) {
        c->keys += strcmp(cls, "key") == 0;
        c->lines += strcmp(cls, "legend") == 0;
    }
}

/* the SVG carries its legend, as the HTML page does */
static void svg_has_a_legend(void **state)
{
    fixture *f = *state;
    qg_level *level = bundled_quest(f, 1);
    char *svg;
    size_t len;
    assert_int_equal(qg_render_svg(level, &f->style, &svg, &len), QG_OK);
    legend_count c = {0, 0};
    XML_Parser p = XML_ParserCreate("UTF-8");
    XML_SetUserData(p, &c);
    XML_SetStartElementHandler(p, on_legend);
    assert_int_equal(XML_Parse(p, svg, (int)len, 1), XML_STATUS_OK);
    XML_ParserFree(p);
    assert_int_equal(c.keys, legend_lines(level));
    assert_int_equal(c.lines, c.keys);
    assert_non_null(strstr(svg, "monster: "));
    free(svg);
    qg_level_free(level);
}

/* every picture is bounded: a level larger than the games build is
 * refused, not drawn */
static void oversize_is_refused(void **state)
{
    fixture *f = *state;
    qg_level *level = qg_level_new(QG_RENDER_MAX_WIDTH + 1, 1);
    qg_level_set_feature(level, 0, 0, 1, NULL);
    char *out = NULL;
    size_t len = 0;
    qg_diags *d = qg_diags_new();
    assert_int_equal(qg_render_check_size(level, d), QG_ERR_LIMIT);
    assert_true(test_diags_contain(d, QG_ERROR, "larger than any level the games build"));
    assert_int_equal(qg_render_svg(level, &f->style, &out, &len), QG_ERR_LIMIT);
    assert_null(out);
    unsigned char *png = NULL;
    if (qg_render_has_png())
        assert_int_equal(qg_render_png(level, &f->style, &png, &len, d), QG_ERR_LIMIT);
    assert_null(png);
    qg_diags_free(d);
    qg_level_free(level);
}

static void text_is_coloured_only_when_asked(void **state)
{
    fixture *f = *state;
    qg_level *level = bundled_quest(f, 1);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(qg_render_text_with(level, &f->style, out), QG_OK);
    fclose(out);
    assert_null(memchr(text, '\033', len));
    free(text);
    qg_render_options coloured = f->style;
    coloured.colour = 1;
    out = open_memstream(&text, &len);
    assert_int_equal(qg_render_text_with(level, &coloured, out), QG_OK);
    fclose(out);
    assert_non_null(strstr(text, "\033[97mX"));
    /* every coloured row ends reset */
    assert_null(strstr(text, "X\n"));
    free(text);
    qg_level_free(level);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(quest_svg_has_one_cell_per_square),
        cmocka_unit_test(vault_svg_has_one_cell_per_square),
        cmocka_unit_test(colours_come_from_the_game),
        cmocka_unit_test(gallery_is_well_formed_with_a_section_per_map),
        cmocka_unit_test(gallery_has_a_card_for_every_map_of_a_batch),
        cmocka_unit_test(png_has_the_level_size),
        cmocka_unit_test(characters_come_from_the_game),
        cmocka_unit_test(svg_has_a_legend),
        cmocka_unit_test(oversize_is_refused),
        cmocka_unit_test(text_is_coloured_only_when_asked),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

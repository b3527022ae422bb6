/* Tiled TMX: lossless round trips, reading what Tiled writes, refusing
 * entities, reporting bad layer data, and rendering with tmxrasterizer. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"
#include "convert_fixtures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static qg_level *read_text(const char *text, qg_diags *diags, qg_status *status)
{
    qg_level *level = NULL;
    *status = qg_tmx_read("t.tmx", text, strlen(text), &level, diags);
    return level;
}

static void round_trip(qg_tmx_encoding encoding)
{
    qg_level *level = fixture_rich_level();
    qg_write_options options = {.tmx_encoding = encoding};
    char *text;
    size_t len;
    qg_diags *diags = qg_diags_new();
    assert_int_equal(qg_tmx_write(level, &options, &text, &len, diags), QG_OK);
    assert_int_equal(qg_diags_count(diags), 0);
    assert_non_null(strstr(text, "nextlayerid=\"3\""));
    assert_non_null(strstr(text, "nextobjectid=\"12\""));
    assert_non_null(strstr(text, encoding == QG_TMX_CSV ? "encoding=\"csv\""
                                                        : "compression=\"zlib\""));
    qg_level *back = NULL;
    assert_int_equal(qg_tmx_read("rich.tmx", text, len, &back, diags), QG_OK);
    char what[128] = "";
    int equal = qg_level_equal(level, back, what, sizeof what);
    if (!equal)
        fprintf(stderr, "# differs: %s\n", what);
    assert_true(equal);
    assert_int_equal(qg_diags_count(diags), 0);
    free(text);
    qg_level_free(back);
    qg_level_free(level);
    qg_diags_free(diags);
}

static void csv_round_trip_is_lossless(void **state)
{
    (void)state;
    round_trip(QG_TMX_CSV);
}

static void zlib_round_trip_is_lossless(void **state)
{
    (void)state;
    round_trip(QG_TMX_BASE64_ZLIB);
}

/* As Tiled 1.9 saves: "class" for the object type, unknown elements and
 * attributes, a <tile> list, multi-line property text, gzip data. */
static void reads_what_tiled_writes(void **state)
{
    (void)state;
    const char *text =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<map version=\"1.9\" tiledversion=\"1.9.2\" class=\"vault\" orientation=\"orthogonal\" "
        "renderorder=\"right-down\" width=\"3\" height=\"2\" tilewidth=\"12\" tileheight=\"12\" "
        "infinite=\"0\" nextlayerid=\"4\" nextobjectid=\"3\">\n"
        " <editorsettings><export target=\"x.json\"/></editorsettings>\n"
        " <properties>\n"
        "  <property name=\"desc\">two\nlines</property>\n"
        " </properties>\n"
        " <tileset firstgid=\"1\" name=\"cp437\" tilewidth=\"12\" tileheight=\"12\" tilecount=\"256\" columns=\"16\">\n"
        "  <image source=\"cp437.png\" width=\"192\" height=\"192\"/>\n"
        "  <tile id=\"35\"><properties><property name=\"feature\" type=\"int\" value=\"57\"/>"
        "<property name=\"colour\" value=\"grey\"/></properties></tile>\n"
        " </tileset>\n"
        " <layer id=\"1\" name=\"terrain\" width=\"3\" height=\"2\">\n"
        "  <data>\n"
        "   <tile gid=\"36\"/><tile gid=\"47\"/><tile/>\n"
        "   <tile gid=\"36\"/><tile gid=\"2147483683\"/><tile gid=\"36\"/>\n"
        "  </data>\n"
        " </layer>\n"
        " <imagelayer id=\"3\" name=\"bg\"><image source=\"bg.png\"/></imagelayer>\n"
        " <objectgroup id=\"2\" name=\"entities\">\n"
        "  <object id=\"1\" name=\"guard\" class=\"monster\" x=\"12\" y=\"0\" width=\"12\" height=\"12\">\n"
        "   <properties>\n"
        "    <property name=\"kind\" value=\"name\"/>\n"
        "    <property name=\"name\" value=\"orc warrior\"/>\n"
        "    <property name=\"asleep\" type=\"bool\" value=\"true\"/>\n"
        "   </properties>\n"
        "  </object>\n"
        "  <object id=\"2\" name=\"s\" type=\"player_start\" x=\"18.5\" y=\"17\"><point/></object>\n"
        "  <object id=\"3\" type=\"decoration\" x=\"0\" y=\"0\"/>\n"
        " </objectgroup>\n"
        "</map>\n";
    qg_diags *diags = qg_diags_new();
    qg_status status;
    qg_level *level = read_text(text, diags, &status);
    assert_int_equal(status, QG_OK);
    qg_cell cell;
    qg_level_cell(level, 0, 0, &cell);
    assert_int_equal(cell.glyph, '#');
    assert_int_equal(cell.feature, 57);
    qg_level_cell(level, 2, 0, &cell);
    assert_false(cell.in_map);
    qg_level_cell(level, 1, 1, &cell);
    assert_int_equal(cell.glyph, '"');
    qg_level_cell(level, 1, 0, &cell);
    assert_int_equal(cell.things[QG_SLOT_MONSTER].kind, QG_THING_NAME);
    assert_string_equal(cell.things[QG_SLOT_MONSTER].name, "orc warrior");
    int x, y;
    assert_true(qg_level_player_start(level, &x, &y));
    assert_int_equal(x, 1);
    assert_int_equal(y, 1);
    assert_string_equal(qg_level_get_property(level, "desc"), "two\nlines");
    assert_true(test_diags_contain(diags, QG_WARNING, "property 'asleep' of monster"));
    assert_true(test_diags_contain(diags, QG_WARNING, "type 'decoration' is not carried"));
    assert_true(test_diags_contain(diags, QG_WARNING, "1 flipped or rotated"));
    size_t colour = 0;
    for (size_t i = 0; i < qg_diags_count(diags); i++)
        colour += strstr(qg_diags_get(diags, i)->message, "'colour' of a tile") != NULL;
    assert_int_equal(colour, 1);
    qg_level_free(level);
    qg_diags_free(diags);
}

static void refuses_doctype_and_entities(void **state)
{
    (void)state;
    const char *laughs =
        "<?xml version=\"1.0\"?>\n"
        "<!DOCTYPE map [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;\">]>\n"
        "<map width=\"1\" height=\"1\"><properties><property name=\"x\" value=\"&b;\"/>"
        "</properties></map>\n";
    const char *external =
        "<?xml version=\"1.0\"?>\n<!DOCTYPE map SYSTEM \"file:///etc/passwd\">\n"
        "<map width=\"1\" height=\"1\"/>\n";
    const char *texts[] = {laughs, external};
    for (size_t i = 0; i < 2; i++) {
        qg_diags *diags = qg_diags_new();
        qg_status status;
        qg_level *level = read_text(texts[i], diags, &status);
        assert_null(level);
        assert_int_equal(status, QG_ERR_PARSE);
        assert_true(test_diags_contain(diags, QG_ERROR, "DOCTYPE declarations are not accepted"));
        assert_int_equal(qg_diags_get(diags, 0)->line, 2);
        qg_diags_free(diags);
    }
}

static void reports_bad_layer_data(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"<data encoding=\"csv\">36,36,\n36</data>", "has 3 tiles; the map needs 4"},
        {"<data encoding=\"csv\">36,x,36,36</data>", "bad number in CSV"},
        {"<data encoding=\"base64\">JAAAACQAAAA=</data>", "has 8 bytes; the map needs 16"},
        {"<data encoding=\"base64\" compression=\"zstd\">AAAA</data>", "'zstd' is not supported"},
        {"<data encoding=\"base64\" compression=\"zlib\">eJztwTEBAAAAwqD1T20ND6AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACAVwOGrwAB</data>",
         "does not inflate to the map's size (limit"},
        {"<data encoding=\"base64\" compression=\"zlib\">eJxTYWBgUEHCAAU=</data>", "does not inflate to the map's size (corrupt"},
        {"<data encoding=\"base64\">@@@@</data>", "not valid base64"},
        {"<data encoding=\"csv\">36,36,36,999</data>", "tile 999 at (1,1) is not a glyph"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "<map width=\"2\" height=\"2\" tilewidth=\"8\" tileheight=\"8\">\n"
                 "<tileset firstgid=\"1\" name=\"cp437\" tilecount=\"256\"/>\n"
                 "<layer id=\"1\" name=\"terrain\" width=\"2\" height=\"2\">\n%s\n</layer></map>\n",
                 cases[i][0]);
        qg_diags *diags = qg_diags_new();
        qg_status status;
        qg_level *level = read_text(text, diags, &status);
        assert_null(level);
        assert_int_not_equal(status, QG_OK);
        if (!test_diags_contain(diags, QG_ERROR, cases[i][1])) {
            qg_diags_print(diags, stderr);
            fail_msg("case %zu: no error '%s'", i, cases[i][1]);
        }
        qg_diags_free(diags);
    }
}

static void reports_objects_off_the_map(void **state)
{
    (void)state;
    const char *text =
        "<map width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">\n"
        "<tileset firstgid=\"1\" name=\"cp437\" tilecount=\"256\"/>\n"
        "<layer name=\"terrain\" width=\"2\" height=\"1\"><data encoding=\"csv\">47,0</data></layer>\n"
        "<objectgroup><object type=\"monster\" x=\"8\" y=\"0\" width=\"8\" height=\"8\">"
        "<properties><property name=\"index\" type=\"int\" value=\"4\"/></properties></object>\n"
        "<object type=\"marker\" x=\"0\" y=\"0\" width=\"8\" height=\"8\"/>\n"
        "<object type=\"object\" x=\"1e300\" y=\"nan\"/></objectgroup></map>\n";
    qg_diags *diags = qg_diags_new();
    qg_status status;
    assert_null(read_text(text, diags, &status));
    assert_int_equal(status, QG_ERR_PARSE);
    assert_true(test_diags_contain(diags, QG_ERROR, "the monster at cell (1,0) is not on a cell of the map"));
    assert_true(test_diags_contain(diags, QG_ERROR, "marker object without a 'spec'"));
    assert_true(test_diags_contain(diags, QG_ERROR, "the object at cell (-1,-1)"));
    qg_diags_free(diags);
}

static int write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    int ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

static int have_tmxrasterizer(void)
{
    return system("command -v tmxrasterizer >/dev/null 2>&1") == 0;
}

/* Tiled itself (its tmxrasterizer) must load and draw what we write. */
static void tiled_renders_written_map(void **state)
{
    (void)state;
    if (!have_tmxrasterizer())
        test_skip("Tiled's tmxrasterizer is not installed (apt-get install tiled)");
    char dir[] = "/tmp/qgtmx.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char tmx[256], png[256], image[256], cmd[1024];
    snprintf(tmx, sizeof tmx, "%s/rich.tmx", dir);
    snprintf(png, sizeof png, "%s/" QG_TILESET_IMAGE, dir);
    snprintf(image, sizeof image, "%s/out.png", dir);
    qg_level *level = fixture_rich_level();
    char *text;
    size_t len;
    assert_int_equal(qg_tmx_write(level, NULL, &text, &len, NULL), QG_OK);
    assert_true(write_file(tmx, text, len));
    unsigned char *tiles;
    size_t tiles_len;
    assert_int_equal(qg_tileset_png(&tiles, &tiles_len), QG_OK);
    assert_true(write_file(png, tiles, tiles_len));
    snprintf(cmd, sizeof cmd,
             "QT_QPA_PLATFORM=offscreen tmxrasterizer '%s' '%s' >/dev/null 2>&1", tmx, image);
    int rc = system(cmd);
    assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 0);
    FILE *f = fopen(image, "rb");
    assert_non_null(f);
    unsigned char head[24];
    assert_int_equal(fread(head, 1, sizeof head, f), sizeof head);
    fclose(f);
    assert_memory_equal(head + 1, "PNG", 3);
    unsigned width = (unsigned)head[16] << 24 | head[17] << 16 | head[18] << 8 | head[19];
    unsigned height = (unsigned)head[20] << 24 | head[21] << 16 | head[22] << 8 | head[23];
    assert_int_equal(width, 7 * QG_TMX_TILE_SIZE);
    assert_int_equal(height, 5 * QG_TMX_TILE_SIZE);
    remove(tmx);
    remove(png);
    remove(image);
    remove(dir);
    free(text);
    free(tiles);
    qg_level_free(level);
}

/* Tiled re-saves the file (sorting properties by name); nothing is lost. */
static void survives_a_tiled_resave(void **state)
{
    (void)state;
    if (system("command -v tiled >/dev/null 2>&1") != 0)
        test_skip("Tiled is not installed (apt-get install tiled)");
    char dir[] = "/tmp/qgtmx.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char tmx[256], png[256], resaved[256], cmd[1024];
    snprintf(tmx, sizeof tmx, "%s/rich.tmx", dir);
    snprintf(png, sizeof png, "%s/" QG_TILESET_IMAGE, dir);
    snprintf(resaved, sizeof resaved, "%s/resaved.tmx", dir);
    qg_level *level = fixture_rich_level();
    char *text;
    size_t len;
    assert_int_equal(qg_tmx_write(level, NULL, &text, &len, NULL), QG_OK);
    assert_true(write_file(tmx, text, len));
    free(text);
    unsigned char *tiles;
    size_t tiles_len;
    assert_int_equal(qg_tileset_png(&tiles, &tiles_len), QG_OK);
    assert_true(write_file(png, tiles, tiles_len));
    free(tiles);
    snprintf(cmd, sizeof cmd,
             "QT_QPA_PLATFORM=offscreen tiled --export-map tmx '%s' '%s' >/dev/null 2>&1",
             tmx, resaved);
    int rc = system(cmd);
    assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 0);
    char *saved = NULL;
    FILE *f = fopen(resaved, "rb");
    assert_non_null(f);
    saved = calloc(1, 1 << 20);
    len = fread(saved, 1, (1 << 20) - 1, f);
    fclose(f);
    qg_level *back = NULL;
    qg_diags *diags = qg_diags_new();
    assert_int_equal(qg_tmx_read(resaved, saved, len, &back, diags), QG_OK);
    assert_int_equal(qg_diags_count(diags), 0);
    qg_level *expected = fixture_rich_level_ordered(1);
    char what[128] = "";
    int equal = qg_level_equal(expected, back, what, sizeof what);
    if (!equal)
        fprintf(stderr, "# differs: %s\n", what);
    assert_true(equal);
    remove(tmx);
    remove(png);
    remove(resaved);
    remove(dir);
    free(saved);
    qg_diags_free(diags);
    qg_level_free(back);
    qg_level_free(expected);
    qg_level_free(level);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_round_trip_is_lossless),
        cmocka_unit_test(zlib_round_trip_is_lossless),
        cmocka_unit_test(reads_what_tiled_writes),
        cmocka_unit_test(refuses_doctype_and_entities),
        cmocka_unit_test(reports_bad_layer_data),
        cmocka_unit_test(reports_objects_off_the_map),
        cmocka_unit_test(tiled_renders_written_map),
        cmocka_unit_test(survives_a_tiled_resave),
    };
    return cmocka_run_group_tests_name("tmx", tests, NULL, NULL);
}

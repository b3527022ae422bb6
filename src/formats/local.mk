# Renderers, the vocabulary mapping reader (lib/edit/mapping.txt) and the
# converters (TMX, .xp, F:/D: and .des writers).
qginclude_HEADERS += src/questgrid/render.h src/questgrid/mapping.h src/questgrid/convert.h \
	src/questgrid/games.h
noinst_HEADERS += src/formats/des_ext.h src/formats/des_fd.h src/formats/game_tables.h src/formats/des_write.h src/formats/fd_out.h src/formats/formats.h src/formats/tmx.h \
	src/formats/tmx_doc.h src/formats/xp.h
libquestgrid_la_SOURCES += \
	src/formats/codec.c \
	src/formats/convert.c \
	src/formats/cp437.c \
	src/formats/des_cells.c \
	src/formats/des_ext.c \
	src/formats/des_ext_read.c \
	src/formats/des_ext_write.c \
	src/formats/des_extract.c \
	src/formats/des_fd_lua.c \
	src/formats/des_fd_write.c \
	src/formats/des_glyphs.c \
	src/formats/des_write.c \
	src/formats/fd_level_write.c \
	src/formats/fd_spec_write.c \
	src/formats/fd_write.c \
	src/formats/game_look.c \
	src/formats/games.c \
	src/formats/level_equal.c \
	src/formats/mapping.c \
	src/formats/png.c \
	src/formats/render_png.c \
	src/formats/render_svg.c \
	src/formats/render_text.c \
	src/formats/reported.c \
	src/formats/style.c \
	src/formats/thing_names.c \
	src/formats/tileset_font.c \
	src/formats/translate.c \
	src/formats/tmx_build.c \
	src/formats/tmx_read.c \
	src/formats/tmx_text.c \
	src/formats/tmx_write.c \
	src/formats/xp_read.c \
	src/formats/xp_write.c

if HAVE_CMOCKA
check_PROGRAMS += tests/test_mapping tests/test_tmx tests/test_xp tests/test_fd_write \
	tests/test_des_write tests/test_seeds tests/test_roundtrip tests/test_translate \
	tests/test_convert_corpus
TESTS += tests/test_mapping tests/test_tmx tests/test_xp tests/test_fd_write \
	tests/test_des_write tests/test_seeds tests/test_roundtrip tests/test_translate \
	tests/test_convert_corpus
tests_test_mapping_SOURCES = tests/test_mapping.c
tests_test_mapping_CFLAGS = $(TESTS_CFLAGS)
tests_test_mapping_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_tmx_SOURCES = tests/test_tmx.c tests/convert_fixtures.c tests/convert_fixtures.h
tests_test_tmx_CFLAGS = $(TESTS_CFLAGS)
tests_test_tmx_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_xp_SOURCES = tests/test_xp.c tests/convert_fixtures.c tests/convert_fixtures.h
tests_test_xp_CFLAGS = $(TESTS_CFLAGS) $(ZLIB_CFLAGS)
tests_test_xp_LDADD = tests/libtestutil.la $(TESTS_LDADD) $(ZLIB_LIBS)
tests_test_fd_write_SOURCES = tests/test_fd_write.c
tests_test_fd_write_CFLAGS = $(TESTS_CFLAGS)
tests_test_fd_write_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_des_write_SOURCES = tests/test_des_write.c
tests_test_des_write_CFLAGS = $(TESTS_CFLAGS)
tests_test_des_write_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_roundtrip_SOURCES = tests/test_roundtrip.c tests/roundtrip_util.c tests/roundtrip_util.h
tests_test_roundtrip_CFLAGS = $(TESTS_CFLAGS)
tests_test_roundtrip_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_convert_corpus_SOURCES = tests/test_convert_corpus.c
tests_test_convert_corpus_CFLAGS = $(TESTS_CFLAGS)
tests_test_convert_corpus_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_translate_SOURCES = tests/test_translate.c
tests_test_translate_CFLAGS = $(TESTS_CFLAGS)
tests_test_translate_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_seeds_SOURCES = tests/test_seeds.c
tests_test_seeds_CFLAGS = $(TESTS_CFLAGS)
tests_test_seeds_LDADD = tests/libtestutil.la $(TESTS_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/test_render
TESTS += tests/test_render
tests_test_render_SOURCES = tests/test_render.c
tests_test_render_CFLAGS = $(TESTS_CFLAGS) $(EXPAT_CFLAGS)
tests_test_render_LDADD = tests/libtestutil.la $(TESTS_LDADD) $(EXPAT_LIBS)
endif

TESTS += tests/convert.sh tests/crawl_builddb.sh tests/cli_render.sh
EXTRA_DIST += tests/convert.sh tests/crawl_builddb.sh tests/cli_render.sh tests/convert/quest.txt tests/convert/levels.txt \
	tests/data/games/classes.txt tests/data/games/exact.txt \
	tests/data/games/band/features.txt tests/data/games/band/monsters.txt \
	tests/data/games/band/objects.txt tests/data/games/band/artifacts.txt \
	tests/data/games/crawlish/features.txt tests/data/games/crawlish/monsters.txt \
	tests/data/games/crawlish/objects.txt

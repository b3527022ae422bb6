qginclude_HEADERS += src/questgrid/convert.h
noinst_HEADERS += src/formats/formats.h src/formats/tmx.h
libquestgrid_la_SOURCES += \
	src/formats/codec.c \
	src/formats/level_equal.c \
	src/formats/png.c \
	src/formats/thing_names.c \
	src/formats/tileset_font.c \
	src/formats/tmx_text.c \
	src/formats/tmx_write.c
noinst_HEADERS += src/formats/tmx_doc.h
libquestgrid_la_SOURCES += \
	src/formats/tmx_build.c \
	src/formats/tmx_read.c

if HAVE_CMOCKA
check_PROGRAMS += tests/test_tmx
TESTS += tests/test_tmx
tests_test_tmx_SOURCES = tests/test_tmx.c tests/convert_fixtures.c tests/convert_fixtures.h
tests_test_tmx_CFLAGS = $(TESTS_CFLAGS)
tests_test_tmx_LDADD = tests/libtestutil.la $(TESTS_LDADD)
endif
noinst_HEADERS += src/formats/xp.h
libquestgrid_la_SOURCES += \
	src/formats/xp_read.c \
	src/formats/xp_write.c

if HAVE_CMOCKA
check_PROGRAMS += tests/test_xp
TESTS += tests/test_xp
tests_test_xp_SOURCES = tests/test_xp.c tests/convert_fixtures.c tests/convert_fixtures.h
tests_test_xp_CFLAGS = $(TESTS_CFLAGS) $(ZLIB_CFLAGS)
tests_test_xp_LDADD = tests/libtestutil.la $(TESTS_LDADD) $(ZLIB_LIBS)
endif

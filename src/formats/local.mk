# Renderers and the vocabulary mapping reader (lib/edit/mapping.txt).
qginclude_HEADERS += src/questgrid/render.h src/questgrid/mapping.h
libquestgrid_la_SOURCES += src/formats/render_text.c src/formats/mapping.c
if HAVE_CMOCKA
check_PROGRAMS += tests/test_mapping
TESTS += tests/test_mapping
tests_test_mapping_SOURCES = tests/test_mapping.c
tests_test_mapping_CFLAGS = $(TESTS_CFLAGS)
tests_test_mapping_LDADD = tests/libtestutil.la $(TESTS_LDADD)
endif

qginclude_HEADERS += src/questgrid/place.h
noinst_HEADERS += src/place/internal.h
libquestgrid_la_SOURCES += \
	src/place/check.c \
	src/place/check_crawl.c \
	src/place/check_seed.c \
	src/place/classify.c \
	src/place/collide.c \
	src/place/crawl_feat.c \
	src/place/exits.c \
	src/place/fixed.c \
	src/place/host.c \
	src/place/orient.c \
	src/place/position.c \
	src/place/request.c \
	src/place/subvault.c \
	src/place/transform.c \
	src/place/validate.c \
	src/place/vault.c

if HAVE_CMOCKA
check_PROGRAMS += tests/test_place_vault tests/test_place_fixed \
	tests/test_place_check tests/test_place_props tests/test_place_corpus
TESTS += tests/test_place_vault tests/test_place_fixed \
	tests/test_place_check tests/test_place_props tests/test_place_corpus
PLACEFIX = tests/placefix.c tests/placefix.h
tests_test_place_vault_SOURCES = tests/test_place_vault.c $(PLACEFIX)
tests_test_place_vault_CFLAGS = $(TESTS_CFLAGS)
tests_test_place_vault_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_place_fixed_SOURCES = tests/test_place_fixed.c $(PLACEFIX)
tests_test_place_fixed_CFLAGS = $(TESTS_CFLAGS)
tests_test_place_fixed_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_place_check_SOURCES = tests/test_place_check.c $(PLACEFIX)
tests_test_place_check_CFLAGS = $(TESTS_CFLAGS)
tests_test_place_check_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_place_props_SOURCES = tests/test_place_props.c $(PLACEFIX)
tests_test_place_props_CFLAGS = $(TESTS_CFLAGS)
tests_test_place_props_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_place_corpus_SOURCES = tests/test_place_corpus.c
tests_test_place_corpus_CFLAGS = $(TESTS_CFLAGS)
tests_test_place_corpus_LDADD = tests/libtestutil.la $(TESTS_LDADD)
endif
TESTS += tests/cli_place.sh
EXTRA_DIST += tests/cli_place.sh

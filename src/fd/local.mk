qginclude_HEADERS += src/questgrid/fd.h
noinst_HEADERS += src/fd/fd_internal.h src/fd/dialect.h src/fd/lookup.h src/fd/room.h
libquestgrid_la_SOURCES += \
	src/fd/cond.c \
	src/fd/confine.c \
	src/fd/dialect.c \
	src/fd/dialects.c \
	src/fd/expr.c \
	src/fd/feature.c \
	src/fd/grid.c \
	src/fd/hub.c \
	src/fd/letters.c \
	src/fd/load.c \
	src/fd/lookup.c \
	src/fd/nomap.c \
	src/fd/number.c \
	src/fd/outline.c \
	src/fd/parse.c \
	src/fd/payload.c \
	src/fd/quest_line.c \
	src/fd/reach.c \
	src/fd/resolve.c \
	src/fd/room.c \
	src/fd/room_grid.c \
	src/fd/sniff.c \
	src/fd/states.c \
	src/fd/tokenize.c \
	src/fd/vars.c \
	src/fd/walk.c

if HAVE_CMOCKA
check_PROGRAMS += tests/test_fd_expr tests/test_fd_read tests/test_fd_corpus tests/test_fd_dialects \
	tests/test_fd_rooms tests/test_fd_variants
TESTS += tests/test_fd_expr tests/test_fd_read tests/test_fd_corpus tests/test_fd_dialects \
	tests/test_fd_rooms tests/test_fd_variants \
	tests/cli_fd.sh tests/cli_dialects.sh
tests_test_fd_expr_SOURCES = tests/test_fd_expr.c
tests_test_fd_expr_CFLAGS = $(TESTS_CFLAGS)
tests_test_fd_expr_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_fd_read_SOURCES = tests/test_fd_read.c
tests_test_fd_read_CFLAGS = $(TESTS_CFLAGS)
tests_test_fd_read_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_fd_dialects_SOURCES = tests/test_fd_dialects.c tests/fd_fixture.c tests/fd_fixture.h \
	tests/roundtrip_util.c tests/roundtrip_util.h
tests_test_fd_dialects_CFLAGS = $(TESTS_CFLAGS)
tests_test_fd_dialects_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_fd_rooms_SOURCES = tests/test_fd_rooms.c tests/fd_fixture.c tests/fd_fixture.h \
	tests/roundtrip_util.c tests/roundtrip_util.h
tests_test_fd_rooms_CFLAGS = $(TESTS_CFLAGS)
tests_test_fd_rooms_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_fd_variants_SOURCES = tests/test_fd_variants.c
tests_test_fd_variants_CFLAGS = $(TESTS_CFLAGS)
tests_test_fd_variants_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_fd_corpus_SOURCES = tests/test_fd_corpus.c
tests_test_fd_corpus_CFLAGS = $(TESTS_CFLAGS)
tests_test_fd_corpus_LDADD = tests/libtestutil.la $(TESTS_LDADD)
endif
EXTRA_DIST += tests/cli_fd.sh tests/cli_dialects.sh tests/data/fd

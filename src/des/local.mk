qginclude_HEADERS += src/questgrid/des.h
noinst_HEADERS += src/des/chunk.h src/des/directives.h src/des/keywords.h \
	src/des/lex.h src/des/lex_rules.h src/des/map.h src/des/parse.h src/des/parser.h src/des/spec_util.h \
	src/des/glyphs.h src/des/vocab_internal.h \
	src/des/branches.h src/des/games.h src/des/scan.h
libquestgrid_la_SOURCES += \
	src/des/branches.c \
	src/des/chunk.c \
	src/des/detect.c \
	src/des/dump.c \
	src/des/file.c \
	src/des/games.c \
	src/des/glyphs.c \
	src/des/keywords.c \
	src/des/legend.c \
	src/des/lex.c \
	src/des/lex_rules.c \
	src/des/lookahead.c \
	src/des/lower.c \
	src/des/map.c \
	src/des/names.c \
	src/des/parse.c \
	src/des/parse_diag.c \
	src/des/props.c \
	src/des/spec.c \
	src/des/spec_keyed.c \
	src/des/spec_ranges.c \
	src/des/spec_subst.c \
	src/des/spec_util.c \
	src/des/vocab_check.c \
	src/des/vocab_load.c

if HAVE_CMOCKA
check_PROGRAMS += tests/test_des tests/test_des_spec tests/test_des_corpus
TESTS += tests/test_des tests/test_des_spec tests/test_des_corpus
tests_test_des_SOURCES = tests/test_des.c
tests_test_des_CFLAGS = $(TESTS_CFLAGS)
tests_test_des_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_des_spec_SOURCES = tests/test_des_spec.c
tests_test_des_spec_CFLAGS = $(TESTS_CFLAGS)
tests_test_des_spec_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_des_corpus_SOURCES = tests/test_des_corpus.c
tests_test_des_corpus_CFLAGS = $(TESTS_CFLAGS)
tests_test_des_corpus_LDADD = tests/libtestutil.la $(TESTS_LDADD)
check_PROGRAMS += tests/test_branches
TESTS += tests/test_branches
tests_test_branches_SOURCES = tests/test_branches.c
tests_test_branches_CFLAGS = $(TESTS_CFLAGS)
tests_test_branches_LDADD = tests/libtestutil.la $(TESTS_LDADD)
check_PROGRAMS += tests/test_des_semantics
TESTS += tests/test_des_semantics
tests_test_des_semantics_SOURCES = tests/test_des_semantics.c
tests_test_des_semantics_CFLAGS = $(TESTS_CFLAGS)
tests_test_des_semantics_LDADD = tests/libtestutil.la $(TESTS_LDADD)
endif

# The CLI golden test: dump-lua, list, check and show through questgrid.
TESTS += tests/cli_des.sh
EXTRA_DIST += doc/des.md tests/cli_des.sh tests/data/des/good.des tests/data/des/bad.des \
	tests/data/des/dup.des tests/data/des/good.dump tests/data/des/good.list \
	tests/data/des/good.show tests/data/des/pool.show \
	tests/data/des/check.out tests/data/des/check.err tests/data/des/clean.err \
	tests/data/des/unpadded.des tests/data/des/unpadded.out tests/data/des/unpadded.err \
	tests/data/des/unpadded_legacy.out tests/data/des/unpadded_legacy.err


# The .des meanings of issue 15 through the command line.
TESTS += tests/cli_des_semantics.sh
EXTRA_DIST += tests/cli_des_semantics.sh tests/data/des/semantics/nomap.des \
	tests/data/des/semantics/validate_never.des tests/data/des/semantics/flags.des \
	tests/data/des/semantics/seed_glyphs.des

# Names checked against the game's vocabulary (issue 15).
TESTS += tests/cli_des_vocab.sh tests/cli_des_branches.sh
EXTRA_DIST += tests/cli_des_branches.sh tests/data/des/branches/levels.des \
	tests/data/des/branches/places.des
EXTRA_DIST += tests/cli_des_vocab.sh tests/data/des/vocab/misspelt.des \
	tests/data/des/vocab/good.des tests/data/des/vocab/joined.des \
	tests/data/des/vocab/joined_mid.des tests/data/des/vocab/master.des

# The games' own maps: no false diagnostic (issue 25).
TESTS += tests/cli_des_stock.sh
EXTRA_DIST += tests/cli_des_stock.sh

# The Crawl of a data tree told from its own files (issue 25): small trees
# of each game, one between them, .des files without their dlua.
TESTS += tests/cli_game.sh
EXTRA_DIST += tests/cli_game.sh tests/data/crawltree

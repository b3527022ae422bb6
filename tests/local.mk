# Each test program is a cmocka suite printing TAP, so every test case is
# counted on its own. Module fragments add their programs with
# QG_TEST_PROGRAMS += tests/test_NAME and list the sources below.
if HAVE_CMOCKA
check_LTLIBRARIES = tests/libtestutil.la
tests_libtestutil_la_SOURCES = tests/testutil.c tests/testutil.h
tests_libtestutil_la_CFLAGS = $(TESTS_CFLAGS)

check_PROGRAMS += tests/test_core
TESTS += tests/test_core
tests_test_core_SOURCES = tests/test_core.c
tests_test_core_CFLAGS = $(TESTS_CFLAGS)
tests_test_core_LDADD = tests/libtestutil.la $(TESTS_LDADD)

check_PROGRAMS += tests/test_output
TESTS += tests/test_output
tests_test_output_SOURCES = tests/test_output.c
tests_test_output_CFLAGS = $(TESTS_CFLAGS)
tests_test_output_LDADD = tests/libtestutil.la $(TESTS_LDADD)

check_PROGRAMS += tests/test_hostile
TESTS += tests/test_hostile
tests_test_hostile_SOURCES = tests/test_hostile.c
tests_test_hostile_CFLAGS = $(TESTS_CFLAGS)
tests_test_hostile_LDADD = tests/libtestutil.la $(TESTS_LDADD)

# Allocation failure injection needs the library's own calls wrapped: it
# is linked statically (the test skips when only a shared build exists).
check_PROGRAMS += tests/test_nomem
TESTS += tests/test_nomem
tests_test_nomem_SOURCES = tests/test_nomem.c
tests_test_nomem_CFLAGS = $(TESTS_CFLAGS)
tests_test_nomem_LDFLAGS = -static -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
tests_test_nomem_LDADD = tests/libtestutil.la $(TESTS_LDADD)

TESTS += tests/cli_hostile.sh tests/cli_batch.sh

# Each reader's peak memory within its documented multiple of the input
# (doc/limits.md); the inputs are tools/bench_memory's.
check_PROGRAMS += tests/test_memory_bounds
TESTS += tests/test_memory_bounds
tests_test_memory_bounds_SOURCES = tests/test_memory_bounds.c tools/memory_inputs.c \
	tools/memory_inputs.h
tests_test_memory_bounds_CFLAGS = $(TESTS_CFLAGS) $(ZLIB_CFLAGS) -I$(top_srcdir)/tools
tests_test_memory_bounds_LDADD = tests/libtestutil.la $(TESTS_LDADD) $(ZLIB_LIBS)

# %: includes confined to the data root.
check_PROGRAMS += tests/test_include_root
TESTS += tests/test_include_root
tests_test_include_root_SOURCES = tests/test_include_root.c
tests_test_include_root_CFLAGS = $(TESTS_CFLAGS)
tests_test_include_root_LDADD = tests/libtestutil.la $(TESTS_LDADD)

# Hostile input to the .des reader, the Lua runtime, the cache and the TMX
# and .xp readers.
check_PROGRAMS += tests/test_hostile_lua tests/test_hostile_cache tests/test_hostile_formats \
	tests/test_hostile_des
TESTS += tests/test_hostile_lua tests/test_hostile_cache tests/test_hostile_formats \
	tests/test_hostile_des
tests_test_hostile_lua_SOURCES = tests/test_hostile_lua.c
tests_test_hostile_lua_CFLAGS = $(TESTS_CFLAGS)
tests_test_hostile_lua_LDADD = tests/libtestutil.la $(TESTS_LDADD)
tests_test_hostile_cache_SOURCES = tests/test_hostile_cache.c
tests_test_hostile_cache_CFLAGS = $(TESTS_CFLAGS) $(ZLIB_CFLAGS)
tests_test_hostile_cache_LDADD = tests/libtestutil.la $(TESTS_LDADD) $(ZLIB_LIBS)
tests_test_hostile_formats_SOURCES = tests/test_hostile_formats.c
tests_test_hostile_formats_CFLAGS = $(TESTS_CFLAGS) $(ZLIB_CFLAGS)
tests_test_hostile_formats_LDADD = tests/libtestutil.la $(TESTS_LDADD) $(ZLIB_LIBS)
tests_test_hostile_des_SOURCES = tests/test_hostile_des.c
tests_test_hostile_des_CFLAGS = $(TESTS_CFLAGS)
tests_test_hostile_des_LDADD = tests/libtestutil.la $(TESTS_LDADD)
endif

EXTRA_DIST += tests/cli_hostile.sh tests/cli_batch.sh

# The diagnostic cap: --max-errors, -q.
TESTS += tests/cli_max_errors.sh
EXTRA_DIST += tests/cli_max_errors.sh

# Every skipped test says why.
TESTS += tests/skip_reasons.sh
EXTRA_DIST += tests/skip_reasons.sh

# The files of each src folder call one way (tools/layers over the build
# tree's objects), and a planted loop fails the check.
TESTS += tests/layers.sh
EXTRA_DIST += tests/layers.sh tools/layers

# The whole suite under valgrind: no leaks, no invalid accesses.
check-valgrind: all
	rm -f $(TEST_LOGS) $(TEST_LOGS:.log=.trs) $(TEST_SUITE_LOG)
	$(MAKE) $(AM_MAKEFLAGS) check \
	  LOG_COMPILER='$(SHELL) $(top_srcdir)/tests/cmocka-tap $(LIBTOOL) --mode=execute valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect -q'

.PHONY: check-valgrind

# The test set-up: the optional corpora the tests read (Debian's
# crawl-common), installed when it can be; tests skip where it cannot.
check_DATA = tests/test-deps.stamp
tests/test-deps.stamp:
	$(AM_V_GEN)$(SHELL) $(top_srcdir)/tools/test-deps; $(MKDIR_P) tests; touch $@
CLEANFILES += tests/test-deps.stamp

# Files and directories for every command, one kind for each file; names
# that do not exist answered with what does; markers one line a kind
# (issue 25). And the games' own data with no flag, where it is present.
TESTS += tests/cli_inputs.sh tests/cli_stock.sh tests/cli_reach.sh tests/cli_edit_trees.sh tests/cli_render_trees.sh
EXTRA_DIST += tests/cli_inputs.sh tests/cli_stock.sh tests/data/inputs tests/cli_reach.sh tests/data/fd/reach tests/cli_edit_trees.sh tests/cli_render_trees.sh

# make install into a temporary DESTDIR: exported symbols, .pc, installed
# documents, a relocated install, QUESTGRID_DATA, missing data.
TESTS += tests/install.sh
EXTRA_DIST += tests/install.sh

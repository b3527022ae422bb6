# Benchmarks: built by `make bench`, run by hand.
# tools/bench_fd, tools/bench_des [DIR [ROUNDS]], tools/bench_place,
# tools/bench_convert, tools/bench_lua [DATDIR [SEEDS]], tools/bench_compile
# (against crawl -builddb), tools/bench_convert --tmx-memory (peak memory of
# reading a large TMX): each prints its figures. They link the library
# statically, as a game embedding it would.
EXTRA_PROGRAMS = tools/bench_fd tools/bench_des tools/bench_place tools/bench_convert \
	tools/bench_lua tools/bench_compile tools/bench_check tools/bench_memory
tools_bench_fd_SOURCES = tools/bench_fd.c
tools_bench_fd_CFLAGS = $(AM_CFLAGS) -O2
tools_bench_fd_LDADD = libquestgrid.la
tools_bench_fd_LDFLAGS = -static
tools_bench_des_SOURCES = tools/bench_des.c
tools_bench_des_CFLAGS = $(AM_CFLAGS) -O2
tools_bench_des_LDADD = libquestgrid.la
tools_bench_des_LDFLAGS = -static
tools_bench_place_SOURCES = tools/bench_place.c
tools_bench_place_CFLAGS = $(AM_CFLAGS) -O2
tools_bench_place_LDADD = libquestgrid.la
tools_bench_place_LDFLAGS = -static
tools_bench_convert_SOURCES = tools/bench_convert.c
tools_bench_convert_CFLAGS = $(AM_CFLAGS) -O2
tools_bench_convert_LDADD = libquestgrid.la
tools_bench_convert_LDFLAGS = -static
tools_bench_lua_SOURCES = tools/bench_lua.c
tools_bench_lua_CFLAGS = $(AM_CFLAGS) -O2
tools_bench_lua_LDADD = libquestgrid.la
tools_bench_lua_LDFLAGS = -static
tools_bench_compile_SOURCES = tools/bench_compile.c
tools_bench_compile_CFLAGS = $(AM_CFLAGS) -O2
tools_bench_compile_LDADD = libquestgrid.la
tools_bench_compile_LDFLAGS = -static
# tools/bench_memory [BASE_MB]: each reader's peak memory against its input.
tools_bench_memory_SOURCES = tools/bench_memory.c tools/memory_inputs.c tools/memory_inputs.h
tools_bench_memory_CFLAGS = $(AM_CFLAGS) $(ZLIB_CFLAGS) -O2
tools_bench_memory_LDADD = libquestgrid.la $(ZLIB_LIBS)
tools_bench_memory_LDFLAGS = -static
# tools/bench_limits [BASE_MB]: CPU time and peak memory of each reader at
# 1x, 4x and 16x, on the shapes that were once superlinear too.
EXTRA_PROGRAMS += tools/bench_limits
tools_bench_limits_SOURCES = tools/bench_limits.c tools/memory_inputs.c tools/memory_inputs.h
tools_bench_limits_CFLAGS = $(AM_CFLAGS) $(ZLIB_CFLAGS) -O2
tools_bench_limits_LDADD = libquestgrid.la $(ZLIB_LIBS)
tools_bench_limits_LDFLAGS = -static
# tools/bench_hostile [CPU_LIMIT_S [NAME_PART]]: hostile map programs under the default
# budgets, the CPU time each takes and why it ended.
EXTRA_PROGRAMS += tools/bench_hostile
tools_bench_hostile_SOURCES = tools/bench_hostile.c
tools_bench_hostile_CFLAGS = $(AM_CFLAGS) -O2
tools_bench_hostile_LDADD = libquestgrid.la
tools_bench_hostile_LDFLAGS = -static
# tools/bench_check [QUESTGRID [EDIT_DIR [MB [ROUNDS]]]]: runs the program
# itself, so it needs no library.
tools_bench_check_SOURCES = tools/bench_check.c
tools_bench_check_CFLAGS = $(AM_CFLAGS) -O2
CLEANFILES += $(EXTRA_PROGRAMS)

bench: $(EXTRA_PROGRAMS)

.PHONY: bench
# tools/resolve_corpus [-s SEEDS] [-q | -v] [-m NAME] [-p] [-i N] [-g GAME] [DATDIR [LUADIR]]:
# every map of a corpus resolved at its own places; the maps that fail, by
# reason. tests/resolve_corpus.sh runs it on a corpus of its own.
EXTRA_PROGRAMS += tools/resolve_corpus
tools_resolve_corpus_SOURCES = tools/resolve_corpus.c
tools_resolve_corpus_CFLAGS = $(AM_CFLAGS) -O2
tools_resolve_corpus_LDADD = libquestgrid.la
tools_resolve_corpus_LDFLAGS = -static
TESTS += tests/resolve_corpus.sh
EXTRA_DIST += tests/resolve_corpus.sh tests/data/resolve_corpus/reasons.des \
	tests/data/resolve_corpus/sub/load.des
tests/resolve_corpus.log: tools/resolve_corpus$(EXEEXT)

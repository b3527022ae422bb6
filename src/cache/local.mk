# Compiled level caches (.qgc): format, writer, reader, lookups, staleness.
qginclude_HEADERS += src/questgrid/cache.h
noinst_HEADERS += src/cache/format.h src/cache/pack.h src/cache/reader.h \
	src/cache/write.h src/cache/zblob.h src/cache/depth.h src/cache/compile.h \
	src/cache/records.h src/cache/rows.h src/cache/spill.h src/cache/previous.h \
	src/cache/columns.h
libquestgrid_la_SOURCES += \
	src/cache/blob.c \
	src/cache/codec.c \
	src/cache/columns.c \
	src/cache/compile.c \
	src/cache/compile_des.c \
	src/cache/compile_fd.c \
	src/cache/corrupt.c \
	src/cache/depth.c \
	src/cache/environment.c \
	src/cache/dict.c \
	src/cache/fresh.c \
	src/cache/from_source.c \
	src/cache/from_text.c \
	src/cache/header.c \
	src/cache/inputs.c \
	src/cache/kind.c \
	src/cache/load.c \
	src/cache/lookup.c \
	src/cache/open.c \
	src/cache/pack.c \
	src/cache/packed.c \
	src/cache/previous.c \
	src/cache/records.c \
	src/cache/resolve.c \
	src/cache/restamp.c \
	src/cache/rows.c \
	src/cache/scan.c \
	src/cache/skipped.c \
	src/cache/spill.c \
	src/cache/stale.c \
	src/cache/threads.c \
	src/cache/verify.c \
	src/cache/write.c \
	src/cache/writer.c \
	src/cache/zblob.c

if HAVE_CMOCKA
check_PROGRAMS += tests/test_cache
TESTS += tests/test_cache
tests_test_cache_SOURCES = tests/test_cache.c
tests_test_cache_CFLAGS = $(TESTS_CFLAGS)
tests_test_cache_LDADD = tests/libtestutil.la $(TESTS_LDADD)
check_PROGRAMS += tests/test_inputs
TESTS += tests/test_inputs
tests_test_inputs_SOURCES = tests/test_inputs.c
tests_test_inputs_CFLAGS = $(TESTS_CFLAGS)
tests_test_inputs_LDADD = tests/libtestutil.la $(TESTS_LDADD)
check_PROGRAMS += tests/test_records
TESTS += tests/test_records
tests_test_records_SOURCES = tests/test_records.c
tests_test_records_CFLAGS = $(TESTS_CFLAGS)
tests_test_records_LDADD = tests/libtestutil.la $(TESTS_LDADD)
check_PROGRAMS += tests/test_columns
TESTS += tests/test_columns
tests_test_columns_SOURCES = tests/test_columns.c
tests_test_columns_CFLAGS = $(TESTS_CFLAGS)
tests_test_columns_LDADD = tests/libtestutil.la $(TESTS_LDADD)
check_PROGRAMS += tests/test_compile
TESTS += tests/test_compile
tests_test_compile_SOURCES = tests/test_compile.c
tests_test_compile_CFLAGS = $(TESTS_CFLAGS)
tests_test_compile_LDADD = tests/libtestutil.la $(TESTS_LDADD)
check_PROGRAMS += tests/test_incremental
TESTS += tests/test_incremental
tests_test_incremental_SOURCES = tests/test_incremental.c
tests_test_incremental_CFLAGS = $(TESTS_CFLAGS)
tests_test_incremental_LDADD = tests/libtestutil.la $(TESTS_LDADD)
check_PROGRAMS += tests/test_dict
TESTS += tests/test_dict
tests_test_dict_SOURCES = tests/test_dict.c
tests_test_dict_CFLAGS = $(TESTS_CFLAGS)
tests_test_dict_LDADD = tests/libtestutil.la $(TESTS_LDADD)
endif
TESTS += tests/cache_cli.sh
EXTRA_DIST += tests/cache_cli.sh

questgrid_SOURCES += src/cli/cmd_cache.c src/cli/cmd_compile.c

noinst_PROGRAMS += tools/bench_cache
tools_bench_cache_SOURCES = tools/bench_cache.c
tools_bench_cache_LDADD = libquestgrid.la
EXTRA_DIST += doc/qgc-format.md

# make install compiles the installed data into one cache, as fontconfig
# runs fc-cache: skipped when DESTDIR is set (a staged install is not the
# system that will read it; packagers run `questgrid compile` on the target)
# and with ./configure --disable-cache-compile. The installed copies are
# compiled, from $(pkgdatadir), so that the cache records paths relative to
# its own directory and its staleness check finds the sources.
questgrid_cache = $(pkgdatadir)/questgrid.qgc

if CACHE_COMPILE
install-data-hook: install-questgrid-cache
endif
uninstall-hook: uninstall-questgrid-cache

install-questgrid-cache:
	@if test -n "$(DESTDIR)"; then \
	  echo "questgrid: DESTDIR is set: not compiling $(questgrid_cache)"; \
	else \
	  dirs=; \
	  for d in edit des; do \
	    if test -d "$(pkgdatadir)/$$d"; then dirs="$$dirs $$d"; fi; \
	  done; \
	  if test -n "$$dirs"; then \
	    echo "  QGC      $(questgrid_cache)"; \
	    (cd "$(pkgdatadir)" && \
	     "$(abs_builddir)/questgrid$(EXEEXT)" compile -q -o questgrid.qgc $$dirs) || exit 1; \
	  fi; \
	fi

uninstall-questgrid-cache:
	rm -f "$(DESTDIR)$(questgrid_cache)"

.PHONY: install-questgrid-cache uninstall-questgrid-cache

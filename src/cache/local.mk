# Compiled level caches (.qgc): format, writer, reader, lookups, staleness.
qginclude_HEADERS += src/questgrid/cache.h
noinst_HEADERS += src/cache/format.h src/cache/pack.h src/cache/reader.h \
	src/cache/write.h src/cache/zblob.h src/cache/depth.h \
	src/cache/rows.h
libquestgrid_la_SOURCES += \
	src/cache/blob.c \
	src/cache/codec.c \
	src/cache/depth.c \
	src/cache/dict.c \
	src/cache/header.c \
	src/cache/load.c \
	src/cache/lookup.c \
	src/cache/open.c \
	src/cache/pack.c \
	src/cache/rows.c \
	src/cache/stale.c \
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
endif

questgrid_SOURCES += src/cli/cmd_cache.c
EXTRA_DIST += doc/qgc-format.md

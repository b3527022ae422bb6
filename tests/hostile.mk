# Hostile input to the modules that land after the core (src/des, src/lua,
# src/cache, the TMX and .xp readers in src/formats): include this fragment
# from Makefile.am (after tests/local.mk) once they are all on main.
# test_hostile_lua has four cases that fail until the Lua runtime bounds a
# map's message handler, table.move, the work behind each library call and
# what one map changes in the shared libraries; test_hostile_cache has one
# until the cache writer stops renaming over a FIFO, a device or a link;
# test_hostile_des has one until a NUL byte in a NAME: line is reported.
if HAVE_CMOCKA
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

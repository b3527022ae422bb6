# Hostile input to the modules that land after the core: included from
# Makefile.am once src/des, src/lua, src/cache and src/formats (TMX, .xp)
# are all on main.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_hostile_lua
TESTS += tests/test_hostile_lua
tests_test_hostile_lua_SOURCES = tests/test_hostile_lua.c
tests_test_hostile_lua_CFLAGS = $(TESTS_CFLAGS)
tests_test_hostile_lua_LDADD = tests/libtestutil.la $(TESTS_LDADD)
endif
EXTRA_DIST += tests/hostile.mk

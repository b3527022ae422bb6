# The sandboxed Lua 5.4 runtime for .des maps (issue 4).
qginclude_HEADERS += src/questgrid/lua.h
noinst_HEADERS += src/lua/budget.h src/lua/watch.h src/lua/rt.h src/lua/run.h src/lua/builder.h src/lua/level.h src/lua/layout.h
libquestgrid_la_SOURCES += \
	src/lua/alloc.c \
	src/lua/api_builder.c \
	src/lua/api_crawl.c \
	src/lua/api_dgn.c \
	src/lua/api_header.c \
	src/lua/api_keyed.c \
	src/lua/api_layout.c \
	src/lua/api_transforms.c \
	src/lua/api_you.c \
	src/lua/budget.c \
	src/lua/build_args.c \
	src/lua/build_level.c \
	src/lua/charged.c \
	src/lua/chunk.c \
	src/lua/context.c \
	src/lua/cycles.c \
	src/lua/delve.c \
	src/lua/direct.c \
	src/lua/env.c \
	src/lua/features.c \
	src/lua/home.c \
	src/lua/irregular_box.c \
	src/lua/layout_common.c \
	src/lua/layout_heights.c \
	src/lua/layout_rooms.c \
	src/lua/level.c \
	src/lua/level_maps.c \
	src/lua/library.c \
	src/lua/map.c \
	src/lua/map_def.c \
	src/lua/maps.c \
	src/lua/noise.c \
	src/lua/pattern.c \
	src/lua/pools.c \
	src/lua/resolve.c \
	src/lua/run.c \
	src/lua/run_maps.c \
	src/lua/runtime.c \
	src/lua/runtime_des.c \
	src/lua/sandbox.c \
	src/lua/saved.c \
	src/lua/subvault.c \
	src/lua/unprovided.c \
	src/lua/walkable.c \
	src/lua/watch.c

if HAVE_CMOCKA
LUA_TESTS_LDADD = tests/libtestutil.la $(TESTS_LDADD)
LUA_HARNESS = tests/lua_harness.c tests/lua_harness.h

check_PROGRAMS += tests/test_lua_sandbox tests/test_lua_budget
TESTS += tests/test_lua_sandbox tests/test_lua_budget
tests_test_lua_budget_SOURCES = tests/test_lua_budget.c
tests_test_lua_budget_CFLAGS = $(TESTS_CFLAGS)
tests_test_lua_budget_LDADD = $(LUA_TESTS_LDADD)
tests_test_lua_sandbox_SOURCES = tests/test_lua_sandbox.c $(LUA_HARNESS)
tests_test_lua_sandbox_CFLAGS = $(TESTS_CFLAGS) $(LUA_CFLAGS)
tests_test_lua_sandbox_LDADD = $(LUA_TESTS_LDADD)

# The allocator with malloc and mmap made to fail: linked statically, so
# that the library's own calls are wrapped
check_PROGRAMS += tests/test_lua_alloc
TESTS += tests/test_lua_alloc
tests_test_lua_alloc_SOURCES = tests/test_lua_alloc.c
tests_test_lua_alloc_CFLAGS = $(TESTS_CFLAGS) $(LUA_CFLAGS)
tests_test_lua_alloc_LDFLAGS = -static -Wl,--wrap=malloc,--wrap=realloc,--wrap=mmap
tests_test_lua_alloc_LDADD = $(LUA_TESTS_LDADD)

# The runtime's pattern functions against Lua's own, in a plain state
check_PROGRAMS += tests/test_lua_patterns
TESTS += tests/test_lua_patterns
tests_test_lua_patterns_SOURCES = tests/test_lua_patterns.c
tests_test_lua_patterns_CFLAGS = $(TESTS_CFLAGS) $(LUA_CFLAGS)
tests_test_lua_patterns_LDFLAGS = -static
tests_test_lua_patterns_LDADD = $(LUA_TESTS_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/test_lua_resolve
TESTS += tests/test_lua_resolve
tests_test_lua_resolve_SOURCES = tests/test_lua_resolve.c $(LUA_HARNESS)
tests_test_lua_resolve_CFLAGS = $(TESTS_CFLAGS) $(LUA_CFLAGS)
tests_test_lua_resolve_LDADD = $(LUA_TESTS_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/test_lua_crawl
TESTS += tests/test_lua_crawl
tests_test_lua_crawl_SOURCES = tests/test_lua_crawl.c
tests_test_lua_crawl_CFLAGS = $(TESTS_CFLAGS)
tests_test_lua_crawl_LDADD = $(LUA_TESTS_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/test_lua_direct
TESTS += tests/test_lua_direct
tests_test_lua_direct_SOURCES = tests/test_lua_direct.c $(LUA_HARNESS)
tests_test_lua_direct_CFLAGS = $(TESTS_CFLAGS) $(LUA_CFLAGS)
tests_test_lua_direct_LDADD = $(LUA_TESTS_LDADD)
endif

# The CLI test of show --seed and stats.
TESTS += tests/cli_lua.sh
EXTRA_DIST += tests/cli_lua.sh tests/data/random_test.des

if HAVE_CMOCKA
check_PROGRAMS += tests/test_lua_des
TESTS += tests/test_lua_des
tests_test_lua_des_SOURCES = tests/test_lua_des.c
tests_test_lua_des_CFLAGS = $(TESTS_CFLAGS)
tests_test_lua_des_LDADD = $(LUA_TESTS_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/test_lua_layout tests/test_lua_library
TESTS += tests/test_lua_layout tests/test_lua_library
tests_test_lua_layout_SOURCES = tests/test_lua_layout.c $(LUA_HARNESS)
tests_test_lua_layout_CFLAGS = $(TESTS_CFLAGS) $(LUA_CFLAGS)
tests_test_lua_layout_LDADD = $(LUA_TESTS_LDADD)
tests_test_lua_library_SOURCES = tests/test_lua_library.c
tests_test_lua_library_CFLAGS = $(TESTS_CFLAGS)
tests_test_lua_library_LDADD = $(LUA_TESTS_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/test_lua_home
TESTS += tests/test_lua_home
tests_test_lua_home_SOURCES = tests/test_lua_home.c
tests_test_lua_home_CFLAGS = $(TESTS_CFLAGS)
tests_test_lua_home_LDADD = $(LUA_TESTS_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/test_lua_levels
TESTS += tests/test_lua_levels
tests_test_lua_levels_SOURCES = tests/test_lua_levels.c $(LUA_HARNESS)
tests_test_lua_levels_CFLAGS = $(TESTS_CFLAGS) $(LUA_CFLAGS)
tests_test_lua_levels_LDADD = $(LUA_TESTS_LDADD)
endif
EXTRA_DIST += tests/data/dlua

# The sandboxed Lua 5.4 runtime for .des maps (issue 4).
qginclude_HEADERS += src/questgrid/lua.h
noinst_HEADERS += src/lua/rt.h src/lua/run.h src/des/dspec.h
libquestgrid_la_SOURCES += \
	src/des/dspec.c \
	src/lua/api_builder.c \
	src/lua/api_crawl.c \
	src/lua/api_dgn.c \
	src/lua/api_header.c \
	src/lua/api_keyed.c \
	src/lua/api_transforms.c \
	src/lua/api_you.c \
	src/lua/build_level.c \
	src/lua/context.c \
	src/lua/env.c \
	src/lua/glyph_features.c \
	src/lua/map.c \
	src/lua/resolve.c \
	src/lua/runtime.c \
	src/lua/sandbox.c

qginclude_HEADERS += src/questgrid/core.h
noinst_HEADERS += src/core/arena.h src/core/buf.h src/core/file.h src/core/heap.h src/core/output.h src/core/level.h src/core/path.h src/core/mapdef.h \
	src/core/props.h src/core/rng.h src/core/strpool.h src/core/suggest.h
libquestgrid_la_SOURCES += \
	src/core/arena.c \
	src/core/buf.c \
	src/core/data.c \
	src/core/diag.c \
	src/core/file.c \
	src/core/flags.c \
	src/core/heap.c \
	src/core/level.c \
	src/core/mapdef.c \
	src/core/names.c \
	src/core/output.c \
	src/core/path.c \
	src/core/props.c \
	src/core/rng.c \
	src/core/strpool.c \
	src/core/suggest.c \
	src/core/vars.c \
	src/core/vocab.c

qginclude_HEADERS += src/questgrid/fd.h
noinst_HEADERS += src/fd/fd_internal.h
libquestgrid_la_SOURCES += \
	src/fd/cond.c \
	src/fd/dialect.c \
	src/fd/expr.c \
	src/fd/feature.c \
	src/fd/load.c \
	src/fd/number.c \
	src/fd/parse.c \
	src/fd/payload.c \
	src/fd/quest_line.c \
	src/fd/resolve.c \
	src/fd/tokenize.c

qginclude_HEADERS += src/questgrid/des.h
noinst_HEADERS += src/des/chunk.h src/des/directives.h src/des/keywords.h \
	src/des/lex.h src/des/map.h src/des/parse.h src/des/spec_util.h \
	src/des/glyphs.h
libquestgrid_la_SOURCES += \
	src/des/chunk.c \
	src/des/dump.c \
	src/des/file.c \
	src/des/glyphs.c \
	src/des/keywords.c \
	src/des/lex.c \
	src/des/map.c \
	src/des/names.c \
	src/des/parse.c \
	src/des/props.c \
	src/des/spec.c \
	src/des/spec_keyed.c \
	src/des/spec_ranges.c \
	src/des/spec_subst.c \
	src/des/spec_util.c

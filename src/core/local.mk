qginclude_HEADERS += src/questgrid/core.h
noinst_HEADERS += src/core/arena.h src/core/buf.h src/core/definitions.h src/core/diag.h \
	src/core/file.h src/core/groups.h src/core/jsonc.h src/core/heap.h src/core/outcome.h src/core/output.h src/core/level.h src/core/path.h src/core/mapdef.h \
	src/core/props.h src/core/rng.h src/core/strpool.h src/core/suggest.h
libquestgrid_la_SOURCES += \
	src/core/arena.c \
	src/core/buf.c \
	src/core/data.c \
	src/core/definitions.c \
	src/core/diag.c \
	src/core/file.c \
	src/core/flags.c \
	src/core/groups.c \
	src/core/heap.c \
	src/core/jsonc.c \
	src/core/level.c \
	src/core/turn.c \
	src/core/mapdef.c \
	src/core/names.c \
	src/core/outcome.c \
	src/core/output.c \
	src/core/path.c \
	src/core/props.c \
	src/core/rng.c \
	src/core/strpool.c \
	src/core/suggest.c \
	src/core/vars.c \
	src/core/vocab.c

# The directories questgrid finds its data by (data.c), written into a
# header by every make: a new --prefix (or a prefix= given to make)
# rewrites it, so that what embeds them is built again; an unchanged one
# is left as it is, so that nothing else is.
src/core/installdirs.h: installdirs-always
	$(AM_V_at)$(MKDIR_P) src/core && { \
	  echo '/* Written by make from the configured directories; do not edit. */'; \
	  echo '#define QG_PKGDATADIR "$(pkgdatadir)"'; \
	  echo '#define QG_PREFIX "$(prefix)"'; \
	  echo '#define QG_BINDIR "$(bindir)"'; \
	  echo '#define QG_BUILD_DIR "$(abs_top_builddir)"'; \
	  echo '#define QG_SOURCE_DATA_DIR "$(abs_top_srcdir)/lib"'; \
	} >$@.tmp && if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi
installdirs-always:
.PHONY: installdirs-always
BUILT_SOURCES += src/core/installdirs.h
nodist_libquestgrid_la_SOURCES = src/core/installdirs.h
# also when a target is made alone (make libquestgrid.la), without
# BUILT_SOURCES (named through a variable: automake has a rule of its own
# for the object)
installdirs_users = src/core/libquestgrid_la-data.lo
$(installdirs_users): src/core/installdirs.h
DISTCLEANFILES += src/core/installdirs.h

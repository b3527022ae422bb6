qginclude_HEADERS += src/questgrid/place.h
noinst_HEADERS += src/place/internal.h
libquestgrid_la_SOURCES += \
	src/place/classify.c \
	src/place/collide.c \
	src/place/exits.c \
	src/place/fixed.c \
	src/place/host.c \
	src/place/orient.c \
	src/place/position.c \
	src/place/request.c \
	src/place/subvault.c \
	src/place/transform.c \
	src/place/validate.c \
	src/place/vault.c

qginclude_HEADERS += src/questgrid/render.h
libquestgrid_la_SOURCES += src/formats/render_text.c

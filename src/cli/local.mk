noinst_HEADERS += src/cli/cli.h src/cli/place_load.h src/cli/cli_des.h src/cli/cli_lua.h \
	src/cli/json.h src/cli/source.h src/cli/batch.h
EXTRA_DIST += src/cli/commands.def
questgrid_SOURCES += \
	src/cli/main.c \
	src/cli/options.c \
	src/cli/cmd_convert.c \
	src/cli/cmd_version.c \
	src/cli/cmd_check.c \
	src/cli/cmd_demo.c \
	src/cli/cmd_show.c \
	src/cli/fd_setup.c \
	src/cli/cmd_dump_lua.c \
	src/cli/cmd_list.c \
	src/cli/check_des.c \
	src/cli/show_des.c \
	src/cli/show_des_resolved.c \
	src/cli/cmd_stats.c \
	src/cli/cmd_place.c \
	src/cli/place_load.c \
	src/cli/cmd_render.c \
	src/cli/json.c \
	src/cli/source.c \
	src/cli/style.c \
	src/cli/batch.c \
	src/cli/report.c \
	src/cli/inputs.c \
	src/cli/game.c \
	src/cli/hub.c \
	src/cli/names.c \
	src/cli/write_out.c

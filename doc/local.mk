# Hand-written manual pages.
dist_man_MANS += doc/questgrid.1

# Every subcommand is described in the manual page and the README.
TESTS += tests/doc_commands.sh
EXTRA_DIST += tests/doc_commands.sh

# What a packaged questgrid installs beside the program and the library:
# the documents, shell completions and the vim syntax file for F:/D:
# files. Packagers may move the completions, e.g.
# make install zshcompletiondir=/usr/share/zsh/vendor-completions.
dist_doc_DATA = README.md NEWS COPYING doc/des.md doc/qgc-format.md doc/json.md \
	doc/crawl-versions.md doc/limits.md
bashcompletiondir = $(datadir)/bash-completion/completions
dist_bashcompletion_DATA = doc/completion/bash/questgrid
zshcompletiondir = $(datadir)/zsh/site-functions
dist_zshcompletion_DATA = doc/completion/zsh/_questgrid
vimsyntaxdir = $(datadir)/vim/vimfiles/syntax
dist_vimsyntax_DATA = doc/vim/syntax/fdlevel.vim
vimftdetectdir = $(datadir)/vim/vimfiles/ftdetect
dist_vimftdetect_DATA = doc/vim/ftdetect/fdlevel.vim

# A wrong command line gets a hint and one usage line; the completions
# complete from the program.
TESTS += tests/cli_usage.sh tests/completion.sh tests/cli_colour.sh
EXTRA_DIST += tests/cli_usage.sh tests/completion.sh tests/cli_colour.sh

# --format json follows the schemas of doc/schema (described in
# doc/json.md); tests/json_valid checks outputs against them.
docschemadir = $(docdir)/schema
dist_docschema_DATA = doc/schema/level.json doc/schema/check.json doc/schema/stats.json \
	doc/schema/cache-list.json
check_PROGRAMS += tests/json_valid
tests_json_valid_SOURCES = tests/json_valid.c
tests_json_valid_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_json_valid_LDADD = $(JANSSON_LIBS)
TESTS += tests/json_output.sh
EXTRA_DIST += tests/json_output.sh

# A section-3 page per public header, and questgrid(3) for <questgrid.h>.
dist_man_MANS += doc/man3/questgrid.3 doc/man3/questgrid_core.3 doc/man3/questgrid_fd.3 \
	doc/man3/questgrid_des.3 doc/man3/questgrid_lua.3 doc/man3/questgrid_place.3 \
	doc/man3/questgrid_cache.3 doc/man3/questgrid_render.3 doc/man3/questgrid_mapping.3 \
	doc/man3/questgrid_convert.3 doc/man3/questgrid_games.3
TESTS += tests/man3.sh
EXTRA_DIST += tests/man3.sh

# For developers, not installed: the stack of folders and each folder's
# files in reading order.
EXTRA_DIST += doc/design.md src/core/README.md src/fd/README.md src/des/README.md \
	src/lua/README.md src/place/README.md src/formats/README.md src/cli/README.md \
	src/cache/README.md src/questgrid/README.md

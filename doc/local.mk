# Hand-written manual pages.
dist_man_MANS += doc/questgrid.1

# Every subcommand is described in the manual page and the README.
TESTS += tests/doc_commands.sh
EXTRA_DIST += tests/doc_commands.sh
EXTRA_DIST += doc/crawl-versions.md

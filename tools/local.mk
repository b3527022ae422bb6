# Benchmarks: built by `make bench`, run by hand.
EXTRA_PROGRAMS = tools/bench_fd tools/bench_place tools/bench_convert
tools_bench_fd_SOURCES = tools/bench_fd.c
tools_bench_fd_CFLAGS = $(AM_CFLAGS) -O2
tools_bench_fd_LDADD = libquestgrid.la
tools_bench_place_SOURCES = tools/bench_place.c
tools_bench_place_CFLAGS = $(AM_CFLAGS) -O2
tools_bench_place_LDADD = libquestgrid.la
tools_bench_convert_SOURCES = tools/bench_convert.c
tools_bench_convert_CFLAGS = $(AM_CFLAGS) -O2
tools_bench_convert_LDADD = libquestgrid.la
CLEANFILES += $(EXTRA_PROGRAMS)

bench: $(EXTRA_PROGRAMS)

.PHONY: bench

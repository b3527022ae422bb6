# Benchmarks: built by `make bench`, run by hand.
EXTRA_PROGRAMS = tools/bench_fd
tools_bench_fd_SOURCES = tools/bench_fd.c
tools_bench_fd_CFLAGS = $(AM_CFLAGS) -O2
tools_bench_fd_LDADD = libquestgrid.la
CLEANFILES += $(EXTRA_PROGRAMS)

bench: $(EXTRA_PROGRAMS)

.PHONY: bench

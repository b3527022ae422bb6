# libFuzzer harnesses, one per reader; `make fuzz FUZZ_TIME=600` runs each
# for that many seconds (clang required).
EXTRA_DIST += tools/fuzz/run tools/fuzz/README.md \
	tools/fuzz/fuzz_des.c tools/fuzz/fuzz_fd.c tools/fuzz/fuzz_lua.c \
	tools/fuzz/fuzz_qgc.c tools/fuzz/fuzz_show.c tools/fuzz/fuzz_tmx.c tools/fuzz/fuzz_xp.c \
	tools/fuzz/seeds \
	tools/fuzz/corpus
FUZZ_TIME = 60

fuzz:
	$(srcdir)/tools/fuzz/run -t $(FUZZ_TIME)

.PHONY: fuzz

# Each test program is a cmocka suite printing TAP, so every test case is
# counted on its own. Module fragments add their programs with
# QG_TEST_PROGRAMS += tests/test_NAME and list the sources below.
if HAVE_CMOCKA
check_LTLIBRARIES = tests/libtestutil.la
tests_libtestutil_la_SOURCES = tests/testutil.c tests/testutil.h
tests_libtestutil_la_CFLAGS = $(TESTS_CFLAGS)

check_PROGRAMS += tests/test_core
TESTS += tests/test_core
tests_test_core_SOURCES = tests/test_core.c
tests_test_core_CFLAGS = $(TESTS_CFLAGS)
tests_test_core_LDADD = tests/libtestutil.la $(TESTS_LDADD)
endif

# rslc/local.mk: the rslc compiler: the front-end library and the driver.

noinst_LIBRARIES += rslc/librslc.a
rslc_librslc_a_SOURCES = \
	rslc/diag.c \
	rslc/cpp.c


check_PROGRAMS += tests/rslc/check_diag
TESTS += tests/rslc/check_diag
tests_rslc_check_diag_SOURCES = tests/rslc/check_diag.c
tests_rslc_check_diag_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_rslc_check_diag_LDADD = rslc/librslc.a $(CHECK_LIBS)

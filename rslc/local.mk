# rslc/local.mk: the rslc compiler: the front-end library and the driver.

noinst_LIBRARIES += rslc/librslc.a
rslc_librslc_a_SOURCES = \
	rslc/diag.c \
	rslc/cpp.c

bin_PROGRAMS += rslc/rslc
rslc_rslc_SOURCES = rslc/main.c
rslc_rslc_LDADD = rslc/librslc.a -lm

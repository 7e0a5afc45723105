# tests/local.mk: no floor (a test may include any folder). Each floor's
# fragment builds its own suites; here are the end-to-end tests of the rslc
# driver (golden diagnostics, the shader corpus, the command line), the
# test data that goes into the tarball, and the fuzzers.

check_PROGRAMS += tests/rslc/check_frontend
TESTS += tests/rslc/check_frontend
tests_rslc_check_frontend_SOURCES = tests/rslc/check_frontend.c \
	tests/common/runcmd.h tests/common/runcmd.c
tests_rslc_check_frontend_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/common \
	-DRSLC_PATH='"$(abs_top_builddir)/tools/rslc"' \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_rslc_check_frontend_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_rslc_check_frontend_LDADD = $(CHECK_LIBS)
tests_rslc_check_frontend_DEPENDENCIES = tools/rslc$(EXEEXT)

check_PROGRAMS += tests/rslc/check_limits
TESTS += tests/rslc/check_limits
tests_rslc_check_limits_SOURCES = tests/rslc/check_limits.c \
	tests/common/runcmd.h tests/common/runcmd.c
tests_rslc_check_limits_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/common \
	-DRSLC_PATH='"$(abs_top_builddir)/tools/rslc"' \
	-DRSLVM_PATH='"$(abs_top_builddir)/tools/rslvm"'
tests_rslc_check_limits_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_rslc_check_limits_LDADD = $(CHECK_LIBS)
tests_rslc_check_limits_DEPENDENCIES = tools/rslc$(EXEEXT) tools/rslvm$(EXEEXT)

# The suites' shared header, the data the suites read from the source
# tree, and the fuzzers (make fuzz*, below).
EXTRA_DIST += tests/common/suite.h tests/diag tests/corpus tests/ir tests/vm/fixtures \
	tests/vm/disasm \
	scripts/fuzz-frontend tests/fuzz/fuzz_frontend.c tests/fuzz/frontend \
	scripts/fuzz-object tests/fuzz/fuzz_object.c tests/fuzz/object \
	scripts/fuzz-rib tests/fuzz/fuzz_rib.c tests/fuzz/rib \
	scripts/fuzz-image tests/fuzz/fuzz_image.c tests/fuzz/image

# Fuzzing (not part of make check): make fuzz (the front end), make
# fuzz-object (the object loader), make fuzz-rib (the RIB reader) or make
# fuzz-image (the image readers through the texture system)
# [FUZZ_SECONDS=600]
FUZZ_SECONDS = 600
fuzz: all
	$(srcdir)/scripts/fuzz-frontend $(FUZZ_SECONDS)
fuzz-object: all
	$(srcdir)/scripts/fuzz-object $(FUZZ_SECONDS)
fuzz-rib:
	$(srcdir)/scripts/fuzz-rib $(FUZZ_SECONDS)
fuzz-image: config.h
	FUZZ_CONFIG_DIR=$(abs_top_builddir) $(srcdir)/scripts/fuzz-image $(FUZZ_SECONDS)
.PHONY: fuzz fuzz-object fuzz-rib fuzz-image

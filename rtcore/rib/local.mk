# rtcore/rib/local.mk: the RIB reader (scene description and tessellation),
# the ribinfo tool and their tests. Included from the top-level Makefile.am.

# The patch bases come from vm/spline.c, the one definition of them: link
# vm/libvm.a after librib.a (only spline.o is pulled in).
RIB_LIBS = rtcore/rib/librib.a vm/libvm.a $(ZLIB_LIBS) -lm

noinst_LIBRARIES += rtcore/rib/librib.a
rtcore_rib_librib_a_CFLAGS = $(AM_CFLAGS) $(ZLIB_CFLAGS)
rtcore_rib_librib_a_SOURCES = \
	rtcore/rib/scene.h \
	rtcore/rib/internal.h \
	rtcore/rib/util.c \
	rtcore/rib/store.c \
	rtcore/rib/diag.c \
	rtcore/rib/matrix.c \
	rtcore/rib/lex.h \
	rtcore/rib/lex.c \
	rtcore/rib/request.h \
	rtcore/rib/request.c \
	rtcore/rib/decl.c \
	rtcore/rib/params.c \
	rtcore/rib/parse.h \
	rtcore/rib/parse.c \
	rtcore/rib/state.c \
	rtcore/rib/blocks.c \
	rtcore/rib/transform.c \
	rtcore/rib/attributes.c \
	rtcore/rib/options.c \
	rtcore/rib/shader.h \
	rtcore/rib/shaders.c \
	rtcore/rib/archive.h \
	rtcore/rib/archive.c \
	rtcore/rib/primvar.h \
	rtcore/rib/primvar.c \
	rtcore/rib/tess.h \
	rtcore/rib/tess.c \
	rtcore/rib/quadric.c \
	rtcore/rib/basis.h \
	rtcore/rib/basis.c \
	rtcore/rib/patch.c \
	rtcore/rib/nurbs.c \
	rtcore/rib/triangulate.h \
	rtcore/rib/triangulate.c \
	rtcore/rib/polygon.c

noinst_PROGRAMS += rtcore/rib/ribinfo
rtcore_rib_ribinfo_SOURCES = rtcore/rib/ribinfo.c
rtcore_rib_ribinfo_LDADD = $(RIB_LIBS)

check_PROGRAMS += tests/rib/check_rib
TESTS += tests/rib/check_rib
tests_rib_check_rib_SOURCES = \
	tests/rib/check_rib.h \
	tests/rib/check_rib.c \
	tests/rib/check_lex.c \
	tests/rib/check_state.c \
	tests/rib/check_quadric.c \
	tests/rib/check_polygon.c \
	tests/rib/check_patch.c \
	tests/rib/check_errors.c \
	tests/common/runcmd.h \
	tests/common/runcmd.c
tests_rib_check_rib_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/common \
	-DRIB_TEST_DATA='"$(abs_top_srcdir)/tests/rib/data"' \
	-DRIBINFO_PATH='"$(abs_top_builddir)/rtcore/rib/ribinfo"'
tests_rib_check_rib_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_rib_check_rib_LDADD = $(RIB_LIBS) $(CHECK_LIBS)
tests_rib_check_rib_DEPENDENCIES = rtcore/rib/ribinfo$(EXEEXT) \
	rtcore/rib/librib.a vm/libvm.a

EXTRA_DIST += tests/rib/data


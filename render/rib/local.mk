# render/rib/local.mk: the RIB reader, floor 4 (with the renderer): scene
# description and tessellation, with its tests (ribinfo is in tools/).

# The patch bases come from runtime/spline.c, the one definition of them: link
# runtime/libruntime.a after librib.a (only spline.o is pulled in), and
# render/image's for the searchpath lookup (only pathfind.o).
RIB_LIBS = render/rib/librib.a render/image/librtimage.a runtime/libruntime.a $(ZLIB_LIBS) -lm

noinst_LIBRARIES += render/rib/librib.a
render_rib_librib_a_CFLAGS = $(AM_CFLAGS) $(ZLIB_CFLAGS)
render_rib_librib_a_SOURCES = \
	render/rib/scene.h \
	render/rib/internal.h \
	render/rib/util.c \
	render/rib/store.c \
	render/rib/diag.c \
	render/rib/matrix.c \
	render/rib/lex.h \
	render/rib/lex.c \
	render/rib/request.h \
	render/rib/request.c \
	render/rib/decl.c \
	render/rib/params.c \
	render/rib/parse.h \
	render/rib/parse.c \
	render/rib/state.c \
	render/rib/blocks.c \
	render/rib/transform.c \
	render/rib/attributes.c \
	render/rib/options.c \
	render/rib/make.c \
	render/rib/shader.h \
	render/rib/shaders.c \
	render/rib/archive.h \
	render/rib/archive.c \
	render/rib/primvar.h \
	render/rib/primvar.c \
	render/rib/tess.h \
	render/rib/tess.c \
	render/rib/quadric.c \
	render/rib/basis.h \
	render/rib/basis.c \
	render/rib/patch.c \
	render/rib/nurbs.c \
	render/rib/triangulate.h \
	render/rib/triangulate.c \
	render/rib/polygon.c \
	render/rib/subdiv.c \
	render/rib/points.c \
	render/rib/curves.c

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
	tests/rib/check_subdiv.c \
	tests/rib/check_curves.c \
	tests/rib/check_errors.c \
	tests/common/runcmd.h \
	tests/common/runcmd.c
tests_rib_check_rib_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/common \
	-DRIB_TEST_DATA='"$(abs_top_srcdir)/tests/rib/data"' \
	-DRIBINFO_PATH='"$(abs_top_builddir)/tools/ribinfo"'
tests_rib_check_rib_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_rib_check_rib_LDADD = $(RIB_LIBS) $(CHECK_LIBS)
tests_rib_check_rib_DEPENDENCIES = tools/ribinfo$(EXEEXT) \
	render/rib/librib.a runtime/libruntime.a

EXTRA_DIST += tests/rib/data


# Public-content failure classes end to end through rtrender.
check_PROGRAMS += tests/rib/check_content
TESTS += tests/rib/check_content
tests_rib_check_content_SOURCES = tests/rib/check_content.c \
	tests/common/runcmd.h tests/common/runcmd.c
tests_rib_check_content_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/common \
	-DTOP_BUILDDIR='"$(abs_top_builddir)"'
tests_rib_check_content_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_rib_check_content_LDADD = $(IMAGE_LIBS) $(CHECK_LIBS)
tests_rib_check_content_DEPENDENCIES = tools/rtrender$(EXEEXT)

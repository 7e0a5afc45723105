# render/local.mk: the renderer, floor 4: frame setup, the classic and
# path-tracing integrators over rtcore, shading through shadesys.h on the
# VM, outputs and the shader searchpath, with its tests (the rtrender program is in
# tools/).

noinst_LIBRARIES += render/librender.a
render_librender_a_CPPFLAGS = $(AM_CPPFLAGS)
render_librender_a_SOURCES = \
	render/render.h \
	render/internal.h \
	render/camera.h \
	render/camera.c \
	render/film.h \
	render/film.c \
	render/xform.c \
	render/shadesys.h \
	render/shadesys_vm.c \
	render/shadesys_native.h \
	render/shadesys_native.c \
	render/shadesys_spec.h render/shadesys_spec.c \
	render/world.c \
	render/frame.h \
	render/frame.c \
	render/classic.c \
	render/path.h \
	render/path.c \
	render/path_shade.c render/path_lobes.c \
	render/path_env.h render/path_env.c render/path_traces.c \
	render/path_deriv.c \
	render/tiles.h \
	render/tiles.c \
	render/shade.c \
	render/host.c \
	render/trace.c \
	render/imager.c \
	render/output.c \
	render/make.c \
	render/shaderpath.h \
	render/shaderpath.c \
	render/render.c

# Where the standard shaders are (render/shaderpath.c): installed in
# $(shadersdir); the source tree's for a program run from the build tree.
# A header made from the Makefile rather than -D flags, so that configuring
# again with another prefix recompiles shaderpath.c (objects do not depend
# on the Makefile, headers they include do); it is rewritten only when the
# folders change.
nodist_render_librender_a_SOURCES = render/shaderdirs.h
BUILT_SOURCES += render/shaderdirs.h
DISTCLEANFILES = render/shaderdirs.h
render/librender_a-shaderpath.$(OBJEXT): render/shaderdirs.h
render/shaderdirs.h: Makefile
	$(AM_V_GEN)$(MKDIR_P) render && { \
	  echo '/* Made by make (render/local.mk): where the standard shaders are. */'; \
	  echo '#define RT_SHADER_DIR "$(shadersdir)"'; \
	  echo '#define RT_SOURCE_SHADER_DIR "$(abs_top_srcdir)/shaders"'; \
	  echo '#define RT_BUILD_DIR "$(abs_top_builddir)"'; \
	  echo '#define RT_BINDIR "$(bindir)"'; \
	} >$@.tmp && if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

RENDER_LIBS = render/librender.a $(IMAGE_LIBS) $(RIB_LIBS) $(RTCORE_LIBS) \
	$(NATIVE_LIBS)

check_PROGRAMS += tests/render/check_render
TESTS += tests/render/check_render
tests_render_check_render_SOURCES = tests/render/check_render.c tests/render/backends.h
tests_render_check_render_CPPFLAGS = $(AM_CPPFLAGS) -DSHADER_DIR='"$(abs_top_srcdir)/shaders"' \
	-DTEST_SHADER_DIR='"$(abs_top_srcdir)/tests/render/shaders"'
tests_render_check_render_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_render_check_render_LDADD = $(RENDER_LIBS) $(CHECK_LIBS)

EXTRA_DIST += scenes tests/render/shaders

check_PROGRAMS += tests/render/check_rtrender
TESTS += tests/render/check_rtrender
tests_render_check_rtrender_SOURCES = tests/render/check_rtrender.c tests/render/backends.h \
	tests/common/runcmd.h tests/common/runcmd.c tests/common/readimage.h
tests_render_check_rtrender_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/common \
	-DTOP_BUILDDIR='"$(abs_top_builddir)"' -DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_render_check_rtrender_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_render_check_rtrender_LDADD = $(IMAGE_LIBS) $(CHECK_LIBS)
tests_render_check_rtrender_DEPENDENCIES = tools/rtrender$(EXEEXT)

# Regression images of scenes/*.rib against tests/render/ref/*.exr
# (tests/render/check_scenes --update-refs remakes them).
check_PROGRAMS += tests/render/check_scenes
TESTS += tests/render/check_scenes
tests_render_check_scenes_SOURCES = tests/render/check_scenes.c \
	tests/render/imgdiff.h tests/render/imgdiff.c
tests_render_check_scenes_CPPFLAGS = $(AM_CPPFLAGS) \
	-DSCENE_DIR='"$(abs_top_srcdir)/scenes"' \
	-DREF_DIR='"$(abs_top_srcdir)/tests/render/ref"' \
	-DTOP_BUILDDIR='"$(abs_top_builddir)"'
tests_render_check_scenes_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_render_check_scenes_LDADD = $(RENDER_LIBS) $(CHECK_LIBS)
EXTRA_DIST += tests/render/ref

# The same metric as a program, for make installcheck (scripts/check-install),
# which renders with the installed rtrender.
check_PROGRAMS += tests/render/imgcmp
tests_render_imgcmp_SOURCES = tests/render/imgcmp.c \
	tests/render/imgdiff.h tests/render/imgdiff.c
tests_render_imgcmp_LDADD = $(IMAGE_LIBS)
CLEANFILES += tests/render/*.out.exr

check_PROGRAMS += tests/render/check_path
TESTS += tests/render/check_path
tests_render_check_path_SOURCES = tests/render/check_path.c tests/render/backends.h \
	tests/render/pathtest.h tests/render/pathtest.c
tests_render_check_path_CPPFLAGS = $(AM_CPPFLAGS) -DSHADER_DIR='"$(abs_top_srcdir)/shaders"' \
	-DTEST_SHADER_DIR='"$(abs_top_srcdir)/tests/render/shaders"'
tests_render_check_path_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_render_check_path_LDADD = $(RENDER_LIBS) $(CHECK_LIBS)

# The path tracer against Embree's pathtracer on its Cornell box, with the
# bench's scene writer (skipped without embree-tools).
check_PROGRAMS += tests/render/check_embree
TESTS += tests/render/check_embree
tests_render_check_embree_SOURCES = tests/render/check_embree.c bench/embree_cornell.h \
	bench/embree_cornell.c
tests_render_check_embree_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_render_check_embree_LDADD = $(RENDER_LIBS) $(CHECK_LIBS)

# The path tracer's environment light: its distribution on synthetic maps.
check_PROGRAMS += tests/render/check_path_env
TESTS += tests/render/check_path_env
tests_render_check_path_env_SOURCES = tests/render/check_path_env.c
tests_render_check_path_env_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_render_check_path_env_LDADD = $(RENDER_LIBS) $(CHECK_LIBS)

# Instance specialisation end to end, through rtrender.
check_PROGRAMS += tests/render/check_instances
TESTS += tests/render/check_instances
tests_render_check_instances_SOURCES = tests/render/check_instances.c \
	tests/render/imgdiff.h tests/render/imgdiff.c tests/common/runcmd.h tests/common/runcmd.c
tests_render_check_instances_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/common \
	-DTOP_BUILDDIR='"$(abs_top_builddir)"'
tests_render_check_instances_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_render_check_instances_LDADD = $(IMAGE_LIBS) $(CHECK_LIBS)
tests_render_check_instances_DEPENDENCIES = tools/rtrender$(EXEEXT)

# The path tracer's environment() lobes and light categories.
check_PROGRAMS += tests/render/check_path_lobes
TESTS += tests/render/check_path_lobes
tests_render_check_path_lobes_SOURCES = tests/render/check_path_lobes.c tests/render/backends.h \
	tests/render/pathtest.h tests/render/pathtest.c
tests_render_check_path_lobes_CPPFLAGS = $(tests_render_check_path_CPPFLAGS)
tests_render_check_path_lobes_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_render_check_path_lobes_LDADD = $(RENDER_LIBS) $(CHECK_LIBS)

# The code cache on disk, through rtrender and rslvm.
check_PROGRAMS += tests/render/check_codecache
TESTS += tests/render/check_codecache
tests_render_check_codecache_SOURCES = tests/render/check_codecache.c \
	tests/common/runcmd.h tests/common/runcmd.c
tests_render_check_codecache_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/common \
	-DTOP_BUILDDIR='"$(abs_top_builddir)"' -DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_render_check_codecache_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_render_check_codecache_LDADD = $(IMAGE_LIBS) $(CHECK_LIBS)
tests_render_check_codecache_DEPENDENCIES = tools/rtrender$(EXEEXT) tools/rslvm$(EXEEXT)

# BMRT's ray-traced shadows and transmission through opacity, against
# closed forms in both integrators.
check_PROGRAMS += tests/render/check_shadows
TESTS += tests/render/check_shadows
tests_render_check_shadows_SOURCES = tests/render/check_shadows.c tests/render/backends.h \
	tests/render/pathtest.h tests/render/pathtest.c
tests_render_check_shadows_CPPFLAGS = $(tests_render_check_path_CPPFLAGS)
tests_render_check_shadows_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_render_check_shadows_LDADD = $(RENDER_LIBS) $(CHECK_LIBS)

# Derivatives at the path tracer's hits (stand-in neighbours).
check_PROGRAMS += tests/render/check_path_deriv
TESTS += tests/render/check_path_deriv
tests_render_check_path_deriv_SOURCES = tests/render/check_path_deriv.c tests/render/backends.h \
	tests/render/pathtest.h tests/render/pathtest.c
tests_render_check_path_deriv_CPPFLAGS = $(tests_render_check_path_CPPFLAGS)
tests_render_check_path_deriv_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_render_check_path_deriv_LDADD = $(RENDER_LIBS) $(CHECK_LIBS)

# Derivative builtins at rendered hits: calculatenormal against the
# surface's orientation, Deriv along one parameter.
check_PROGRAMS += tests/render/check_surface_derivs
TESTS += tests/render/check_surface_derivs
tests_render_check_surface_derivs_SOURCES = tests/render/check_surface_derivs.c \
	tests/render/backends.h tests/render/pathtest.h tests/render/pathtest.c
tests_render_check_surface_derivs_CPPFLAGS = $(tests_render_check_path_CPPFLAGS)
tests_render_check_surface_derivs_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_render_check_surface_derivs_LDADD = $(RENDER_LIBS) $(CHECK_LIBS)

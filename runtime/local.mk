# runtime/local.mk: the shading runtime, floor 1: the semantics of RSL's
# builtins, defined once (math, noise, splines, colour, strings and
# formatting) and the host interface. The VM binds it, rslc's constant
# folder evaluates with it, and the native back ends will call it, so
# every target computes the same bits. Beside them, two plain helpers
# every floor uses: output files written whole (outfile.c) and strict
# command-line numbers (numparse.c).

noinst_LIBRARIES += runtime/libruntime.a
runtime_libruntime_a_SOURCES = \
	runtime/host.h \
	runtime/builtins.def runtime/builtins.h runtime/builtins.c \
	runtime/mathlib.h runtime/mathlib.c \
	runtime/noise.h runtime/noise.c \
	runtime/spline.h runtime/spline.c \
	runtime/color.h runtime/color.c \
	runtime/strings.h runtime/strings.c \
	runtime/strfmt.h runtime/strfmt.c \
	runtime/outfile.h runtime/outfile.c \
	runtime/numparse.h runtime/numparse.c

RUNTIME_LIBS = runtime/libruntime.a $(PTHREAD_LIBS) -lm

RUNTIME_TESTS = tests/vm/check_noise tests/vm/check_color tests/vm/check_strfmt
check_PROGRAMS += $(RUNTIME_TESTS)
TESTS += $(RUNTIME_TESTS)

tests_vm_check_noise_SOURCES = tests/vm/check_noise.c
tests_vm_check_noise_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_noise_LDADD = $(RUNTIME_LIBS) $(CHECK_LIBS)

tests_vm_check_color_SOURCES = tests/vm/check_color.c
tests_vm_check_color_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_color_LDADD = $(RUNTIME_LIBS) $(CHECK_LIBS)

tests_vm_check_strfmt_SOURCES = tests/vm/check_strfmt.c
tests_vm_check_strfmt_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_strfmt_LDADD = $(RUNTIME_LIBS) $(CHECK_LIBS)

# The runtime as LLVM bitcode, for native code to link and inline: one
# rule for every target triple. bc/TRIPLE/DIR/NAME.bc is DIR/NAME.c
# compiled by clang-19 for TRIPLE with RUNTIME_BC_CFLAGS and its
# architecture's RUNTIME_BC_CFLAGS_ARCH (the triple's first part:
# nvptx64, x86_64); each back end links the files it needs.
# Exact float semantics: no contraction into FMA; -fmath-errno keeps libm
# calls calls (not intrinsics), for the target's maths library to bind.
RUNTIME_BC_SRCS = runtime/builtins.c runtime/mathlib.c runtime/noise.c
RUNTIME_BC_DEPS = runtime/builtins.h runtime/builtins.def runtime/mathlib.h runtime/noise.h
RUNTIME_BC_CFLAGS = -O2 -ffp-contract=off -fmath-errno -std=gnu11 -I$(srcdir) -I$(builddir)
bc_triple = $(firstword $(subst /, ,$*))
bc_arch = $(firstword $(subst -, ,$(bc_triple)))
bc/%.bc: $(RUNTIME_BC_SRCS) $(RUNTIME_BC_DEPS)
	@$(MKDIR_P) $(@D)
	$(AM_V_GEN)$(CLANG_BC) --target=$(bc_triple) $(RUNTIME_BC_CFLAGS) \
	    $(RUNTIME_BC_CFLAGS_$(bc_arch)) -c -emit-llvm \
	    $(srcdir)/$(patsubst $(bc_triple)/%,%.c,$*) -o $@
CLEANFILES += bc/*/*/*.bc bc/*/*/*/*.bc bc/*.bc

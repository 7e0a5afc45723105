# vm/local.mk: the bytecode VM, its object files and the shading runtime,
# with their tests. libvm.a's builtins are the one definition of RSL's
# semantics that the VM, the native backends and rslc's constant folder
# share: rslc links it too.

noinst_LIBRARIES += vm/libvm.a
vm_libvm_a_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS)
vm_libvm_a_SOURCES = \
	vm/opcodes.h vm/opcodes.c \
	vm/vm.h vm/vm.c \
	vm/verify.h vm/verify.c \
	vm/builtins.h vm/builtins.c \
	vm/grid.h vm/grid.c \
	vm/session.h vm/session.c \
	vm/host.h vm/lights.h vm/lights.c vm/testhost.c \
	vm/object.h vm/object_impl.h vm/object.c vm/objread.c \
	vm/mathlib.h vm/mathlib.c \
	vm/noise.h vm/noise.c \
	vm/spline.h vm/spline.c \
	vm/strings.h vm/strings.c \
	vm/lanes.h vm/strlanes.c vm/hostlanes.c \
	vm/color.h vm/color.c \
	vm/disasm.h vm/disasm.c \
	vm/debug.h vm/debug.c \
	vm/strfmt.h vm/strfmt.c

VM_TESTS = tests/vm/check_vm tests/vm/check_object tests/vm/check_builtins \
	tests/vm/check_noise \
	tests/vm/check_color tests/vm/check_strfmt
check_PROGRAMS += $(VM_TESTS)
TESTS += $(VM_TESTS)
VM_LIBS = vm/libvm.a $(LIBELF_LIBS) $(PTHREAD_LIBS) -lm

tests_vm_check_noise_SOURCES = tests/vm/check_noise.c
tests_vm_check_noise_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_noise_LDADD = $(VM_LIBS) $(CHECK_LIBS)

tests_vm_check_color_SOURCES = tests/vm/check_color.c
tests_vm_check_color_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_color_LDADD = $(VM_LIBS) $(CHECK_LIBS)

tests_vm_check_strfmt_SOURCES = tests/vm/check_strfmt.c
tests_vm_check_strfmt_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_strfmt_LDADD = $(VM_LIBS) $(CHECK_LIBS)

tests_vm_check_vm_SOURCES = tests/vm/check_vm.c
tests_vm_check_vm_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_vm_LDADD = $(VM_LIBS) $(CHECK_LIBS)

tests_vm_check_object_SOURCES = tests/vm/check_object.c
tests_vm_check_object_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_object_LDADD = $(VM_LIBS) $(CHECK_LIBS)

tests_vm_check_builtins_SOURCES = tests/vm/check_builtins.c
tests_vm_check_builtins_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_builtins_LDADD = $(VM_LIBS) $(CHECK_LIBS)

# vm/local.mk: the shading runtime and (later) the bytecode VM, with their
# tests. libvm.a's builtins are the one definition of RSL's semantics that
# the VM, the native backends and the constant folder share.

noinst_LIBRARIES += vm/libvm.a
vm_libvm_a_SOURCES = \
	vm/noise.h vm/noise.c \
	vm/color.h vm/color.c \
	vm/strfmt.h vm/strfmt.c

check_PROGRAMS += tests/vm/check_noise tests/vm/check_color tests/vm/check_strfmt
TESTS += tests/vm/check_noise tests/vm/check_color tests/vm/check_strfmt
tests_vm_check_noise_SOURCES = tests/vm/check_noise.c
tests_vm_check_noise_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_noise_LDADD = vm/libvm.a $(CHECK_LIBS) -lm

tests_vm_check_color_SOURCES = tests/vm/check_color.c
tests_vm_check_color_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_color_LDADD = vm/libvm.a $(CHECK_LIBS) $(PTHREAD_LIBS) -lm

tests_vm_check_strfmt_SOURCES = tests/vm/check_strfmt.c
tests_vm_check_strfmt_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_strfmt_LDADD = vm/libvm.a $(CHECK_LIBS)

# vm/local.mk: the bytecode VM, floor 2: the object format, its loader
# and verifier, the interpreter, the builtin binder over the runtime
# (runtime/), the debugger (its engine, print's expressions and the
# command side), with their tests.

noinst_LIBRARIES += vm/libvm.a
vm_libvm_a_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS)
vm_libvm_a_SOURCES = \
	vm/opcodes.h vm/opcodes.c \
	vm/vm.h vm/vm.c \
	vm/verify.h vm/verify.c \
	vm/builtins.h vm/builtins.c \
	vm/grid.h vm/grid.c \
	vm/session.h vm/session.c \
	vm/lights.h vm/lights.c vm/testhost.c \
	vm/object.h vm/object_impl.h vm/object.c vm/objread.c \
	vm/lanes.h vm/strlanes.c vm/hostlanes.c \
	vm/disasm.h vm/disasm.c \
	vm/debug.h vm/debug_impl.h vm/debug.c vm/debug_expr.c vm/debug_repl.c

VM_LIBS = vm/libvm.a $(LIBELF_LIBS) $(RUNTIME_LIBS)

VM_TESTS = tests/vm/check_vm tests/vm/check_object tests/vm/check_builtins
check_PROGRAMS += $(VM_TESTS)
TESTS += $(VM_TESTS)

tests_vm_check_vm_SOURCES = tests/vm/check_vm.c
tests_vm_check_vm_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_vm_LDADD = $(VM_LIBS) $(CHECK_LIBS)

tests_vm_check_object_SOURCES = tests/vm/check_object.c
tests_vm_check_object_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_object_LDADD = $(VM_LIBS) $(CHECK_LIBS)

tests_vm_check_builtins_SOURCES = tests/vm/check_builtins.c
tests_vm_check_builtins_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_builtins_LDADD = $(VM_LIBS) $(CHECK_LIBS)

# rslc/local.mk: the rslc compiler: the library (front end, SSA IR,
# optimiser) and the driver.

noinst_LIBRARIES += rslc/librslc.a
rslc_librslc_a_SOURCES = \
	rslc/diag.c \
	rslc/cpp.c \
	rslc/lex.l rslc/gram.y rslc/parse.h \
	rslc/ast.c \
	rslc/types.c \
	rslc/sym.c \
	rslc/builtins.c \
	rslc/globals.c \
	rslc/check.c \
	rslc/check_expr.c \
	rslc/check_call.c

# The SSA IR (ir.h, ops.h): building, text form, analyses, verifier.
rslc_librslc_a_SOURCES += \
	rslc/ir.h rslc/ops.h rslc/ir.c rslc/irprint.c rslc/irparse.c \
	rslc/cfg.c rslc/verify.c

# Lowering: the checked tree to SSA (Braun et al.), then uniform/varying.
rslc_librslc_a_SOURCES += \
	rslc/lower_impl.h rslc/lower.c rslc/lower_funcs.c rslc/lower_expr.c rslc/ssa.c \
	rslc/uniform.c

# The optimiser: one file per pass, helpers shared in optutil.c, the
# pipelines in passes.c. Constant folding evaluates builtins with the VM
# runtime's vm/mathlib.c, so rslc links vm/libvm.a.
rslc_librslc_a_SOURCES += \
	rslc/pass.h rslc/optutil.c rslc/passes.h rslc/passes.c \
	rslc/copy.c rslc/fold.c rslc/phisimp.c rslc/gvn.c rslc/sccp.c \
	rslc/dce.c rslc/inline.c rslc/licm.c rslc/cfgclean.c

# The bytecode back end: selection and mask linearisation, scheduling,
# register allocation, object emission (vm/object.h).
rslc_librslc_a_SOURCES += \
	rslc/vmgen.h rslc/vmgen_impl.h rslc/vmgen.c rslc/vmcall.c rslc/sched.c rslc/rega.c rslc/emit.c \
	rslc/compile.h rslc/compile.c rslc/defaults.c

bin_PROGRAMS += rslc/rslc
rslc_rslc_SOURCES = rslc/main.c
rslc_rslc_LDADD = rslc/librslc.a $(VM_LIBS)

# The scanner includes the parser's header, which must exist first even
# when a single target is made (BUILT_SOURCES covers only all and check).
BUILT_SOURCES += rslc/gram.h
rslc/lex.$(OBJEXT): rslc/gram.h
# Where ylwrap finds flex's output (lex.l names it so); AC_PROG_LEX would
# set this, but configure finds flex by path.
LEX_OUTPUT_ROOT = lex.yy

check_PROGRAMS += tests/rslc/check_parse
TESTS += tests/rslc/check_parse
tests_rslc_check_parse_SOURCES = tests/rslc/check_parse.c
tests_rslc_check_parse_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_rslc_check_parse_LDADD = rslc/librslc.a $(CHECK_LIBS) -lm

check_PROGRAMS += tests/rslc/check_diag
TESTS += tests/rslc/check_diag
tests_rslc_check_diag_SOURCES = tests/rslc/check_diag.c
tests_rslc_check_diag_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_rslc_check_diag_LDADD = rslc/librslc.a $(CHECK_LIBS)

check_PROGRAMS += tests/rslc/check_sema
TESTS += tests/rslc/check_sema
tests_rslc_check_sema_SOURCES = tests/rslc/check_sema.c
tests_rslc_check_sema_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_rslc_check_sema_LDADD = rslc/librslc.a $(CHECK_LIBS) -lm

check_PROGRAMS += tests/vm/check_vmgen
TESTS += tests/vm/check_vmgen
tests_vm_check_vmgen_SOURCES = tests/vm/check_vmgen.c
tests_vm_check_vmgen_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_vmgen_LDADD = rslc/librslc.a $(VM_LIBS) $(CHECK_LIBS)

# The optimiser's golden tests (tests/ir, RSL inputs lowered first) and the
# lowering of every shader of the repository.
check_PROGRAMS += tests/rslc/check_passes
TESTS += tests/rslc/check_passes
tests_rslc_check_passes_SOURCES = tests/rslc/check_passes.c
tests_rslc_check_passes_CPPFLAGS = $(AM_CPPFLAGS) -DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_rslc_check_passes_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_rslc_check_passes_LDADD = rslc/librslc.a $(VM_LIBS) $(CHECK_LIBS)

bin_PROGRAMS += vm/rslvm
vm_rslvm_SOURCES = vm/rslvm.c vm/toolopts.h vm/toolopts.c
vm_rslvm_LDADD = rslc/librslc.a $(VM_LIBS)

# rsldb, the debugger: vm/debug.c is its engine (the renderer will attach
# it to a session too); the options are rslvm's (vm/toolopts.c).
bin_PROGRAMS += vm/rsldb
vm_rsldb_SOURCES = vm/rsldb.c vm/toolopts.h vm/toolopts.c
vm_rsldb_LDADD = rslc/librslc.a $(VM_LIBS)

# The compile-run-verify suite: RSL cases compiled at -O0 and -O2 and run
# on the VM (tests/vm/check_run.h).
check_PROGRAMS += tests/vm/check_run
TESTS += tests/vm/check_run
tests_vm_check_run_SOURCES = tests/vm/check_run.c tests/vm/check_run.h \
	tests/vm/run_basic.c tests/vm/run_shaders.c tests/vm/run_ops.c \
	tests/vm/run_flow.c tests/vm/run_math.c tests/vm/run_geom.c \
	tests/vm/run_ref.c tests/vm/run_ref.h
tests_vm_check_run_CPPFLAGS = $(AM_CPPFLAGS) -DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_vm_check_run_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_run_LDADD = rslc/librslc.a $(VM_LIBS) $(CHECK_LIBS)

# Every builtin overload compiles and binds to the VM runtime.
check_PROGRAMS += tests/vm/check_bindings
TESTS += tests/vm/check_bindings
tests_vm_check_bindings_SOURCES = tests/vm/check_bindings.c
tests_vm_check_bindings_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_bindings_LDADD = rslc/librslc.a $(VM_LIBS) $(CHECK_LIBS)

# rslvm end to end: --call, --stats and its errors.
check_PROGRAMS += tests/vm/check_rslvm
TESTS += tests/vm/check_rslvm
tests_vm_check_rslvm_SOURCES = tests/vm/check_rslvm.c \
	tests/common/runcmd.h tests/common/runcmd.c
tests_vm_check_rslvm_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/common \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"' -DTOP_BUILDDIR='"$(abs_top_builddir)"'
tests_vm_check_rslvm_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_rslvm_LDADD = $(CHECK_LIBS)
tests_vm_check_rslvm_DEPENDENCIES = vm/rslvm$(EXEEXT)

# rslc -S listings against golden text (tests/vm/disasm).
check_PROGRAMS += tests/vm/check_disasm
TESTS += tests/vm/check_disasm
tests_vm_check_disasm_SOURCES = tests/vm/check_disasm.c \
	tests/common/runcmd.h tests/common/runcmd.c
tests_vm_check_disasm_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/common \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"' -DTOP_BUILDDIR='"$(abs_top_builddir)"'
tests_vm_check_disasm_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_disasm_LDADD = $(CHECK_LIBS)
tests_vm_check_disasm_DEPENDENCIES = rslc/rslc$(EXEEXT)

# rsldb end to end: scripts on stdin, transcripts checked.
check_PROGRAMS += tests/vm/check_rsldb
TESTS += tests/vm/check_rsldb
tests_vm_check_rsldb_SOURCES = tests/vm/check_rsldb.c \
	tests/common/runcmd.h tests/common/runcmd.c
tests_vm_check_rsldb_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/common \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"' -DTOP_BUILDDIR='"$(abs_top_builddir)"'
tests_vm_check_rsldb_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_rsldb_LDADD = $(CHECK_LIBS)
tests_vm_check_rsldb_DEPENDENCIES = vm/rsldb$(EXEEXT) rslc/rslc$(EXEEXT)

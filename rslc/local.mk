# rslc/local.mk: the compiler's target-free library, floor 2: the front
# end, the SSA IR and its optimiser, with their tests. The back ends
# (backends/) and the rslc program (tools/) build on it.

noinst_LIBRARIES += rslc/librslc.a
rslc_librslc_a_SOURCES = \
	rslc/ctx.h rslc/ctx.c \
	rslc/diag.h rslc/diag.c \
	rslc/cpp.h rslc/cpp.c \
	rslc/lex.l rslc/gram.y rslc/parse.h \
	rslc/ast.h rslc/ast.c \
	rslc/types.h rslc/types.c \
	rslc/sym.h rslc/sym.c \
	rslc/builtins.h rslc/builtins.c \
	rslc/globals.c \
	rslc/check.h rslc/check_impl.h rslc/check.c \
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
# pipelines in passes.c, the stages in one call each in pipeline.c.
# Constant folding evaluates builtins with runtime/mathlib.c, the code
# every target runs.
rslc_librslc_a_SOURCES += \
	rslc/pass.h rslc/optutil.c rslc/passes.h rslc/passes.c \
	rslc/copy.c rslc/fold.c rslc/phisimp.c rslc/gvn.c rslc/sccp.c \
	rslc/dce.c rslc/inline.c rslc/callgraph.c rslc/licm.c rslc/cfgclean.c \
	rslc/specialize.c \
	rslc/pipeline.h rslc/pipeline.c rslc/defaults.c rslc/limits.h

RSLC_LIBS = rslc/librslc.a $(RUNTIME_LIBS)

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
tests_rslc_check_parse_LDADD = $(RSLC_LIBS) $(CHECK_LIBS)

check_PROGRAMS += tests/rslc/check_diag
TESTS += tests/rslc/check_diag
tests_rslc_check_diag_SOURCES = tests/rslc/check_diag.c
tests_rslc_check_diag_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_rslc_check_diag_LDADD = $(RSLC_LIBS) $(CHECK_LIBS)

check_PROGRAMS += tests/rslc/check_sema
TESTS += tests/rslc/check_sema
tests_rslc_check_sema_SOURCES = tests/rslc/check_sema.c
tests_rslc_check_sema_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_rslc_check_sema_LDADD = $(RSLC_LIBS) $(CHECK_LIBS)

# The optimiser's golden tests (tests/ir, RSL inputs lowered first) and the
# lowering of every shader of the repository.
check_PROGRAMS += tests/rslc/check_passes
TESTS += tests/rslc/check_passes
tests_rslc_check_passes_SOURCES = tests/rslc/check_passes.c
tests_rslc_check_passes_CPPFLAGS = $(AM_CPPFLAGS) -DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_rslc_check_passes_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_rslc_check_passes_LDADD = $(RSLC_LIBS) $(CHECK_LIBS)


check_PROGRAMS += tests/rslc/check_specialize
TESTS += tests/rslc/check_specialize
tests_rslc_check_specialize_SOURCES = tests/rslc/check_specialize.c
tests_rslc_check_specialize_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_rslc_check_specialize_LDADD = $(RSLC_LIBS) $(CHECK_LIBS)

# tools/local.mk: the programs, floor 5, and their option parsing:
# rslc (the compiler driver), rslvm (runs objects on the VM), rsldb (the
# debugger), rtrender (the renderer) and ribinfo (what a RIB file holds),
# with their end-to-end tests.

bin_PROGRAMS += tools/rslc
tools_rslc_SOURCES = tools/rslc.c
tools_rslc_LDADD = $(NATIVE_LIBS)

bin_PROGRAMS += tools/rslvm
tools_rslvm_SOURCES = tools/rslvm.c tools/toolopts.h tools/toolopts.c
tools_rslvm_LDADD = $(NATIVE_LIBS)

# rsldb, the debugger: vm/debug.c is its engine (rtrender --debug-pixel
# attaches it to a render too); the options are rslvm's (toolopts.c).
bin_PROGRAMS += tools/rsldb
tools_rsldb_SOURCES = tools/rsldb.c tools/toolopts.h tools/toolopts.c
tools_rsldb_LDADD = $(COMPILER_LIBS)

bin_PROGRAMS += tools/rtrender
tools_rtrender_SOURCES = tools/rtrender.c tools/toolopts.h tools/toolopts.c
tools_rtrender_LDADD = $(RENDER_LIBS)

# Installed: it checks a scene without rendering it (man/ribinfo.1).
bin_PROGRAMS += tools/ribinfo
tools_ribinfo_SOURCES = tools/ribinfo.c
tools_ribinfo_LDADD = $(RIB_LIBS)

# rslvm end to end: --call, --stats and its errors.
check_PROGRAMS += tests/vm/check_rslvm
TESTS += tests/vm/check_rslvm
tests_vm_check_rslvm_SOURCES = tests/vm/check_rslvm.c \
	tests/common/runcmd.h tests/common/runcmd.c
tests_vm_check_rslvm_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/common \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"' -DTOP_BUILDDIR='"$(abs_top_builddir)"'
tests_vm_check_rslvm_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_rslvm_LDADD = $(CHECK_LIBS)
tests_vm_check_rslvm_DEPENDENCIES = tools/rslvm$(EXEEXT)

# rslc -S listings against golden text (tests/vm/disasm).
check_PROGRAMS += tests/vm/check_disasm
TESTS += tests/vm/check_disasm
tests_vm_check_disasm_SOURCES = tests/vm/check_disasm.c \
	tests/common/runcmd.h tests/common/runcmd.c
tests_vm_check_disasm_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/common \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"' -DTOP_BUILDDIR='"$(abs_top_builddir)"'
tests_vm_check_disasm_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_disasm_LDADD = $(CHECK_LIBS)
tests_vm_check_disasm_DEPENDENCIES = tools/rslc$(EXEEXT)

# rsldb end to end: scripts on stdin, transcripts checked.
check_PROGRAMS += tests/vm/check_rsldb
TESTS += tests/vm/check_rsldb
tests_vm_check_rsldb_SOURCES = tests/vm/check_rsldb.c \
	tests/common/runcmd.h tests/common/runcmd.c
tests_vm_check_rsldb_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/common \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"' -DTOP_BUILDDIR='"$(abs_top_builddir)"'
tests_vm_check_rsldb_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_rsldb_LDADD = $(CHECK_LIBS)
tests_vm_check_rsldb_DEPENDENCIES = tools/rsldb$(EXEEXT) tools/rslc$(EXEEXT)

# backends/local.mk: the back ends, floor 3, and the compile pipeline
# that drives them (compile.c). backends/vm is the bytecode back end:
# selection and mask linearisation, scheduling, register allocation and
# object emission (vm/object.h).

noinst_LIBRARIES += backends/libbackends.a
backends_libbackends_a_SOURCES = \
	backends/compile.h backends/compile.c \
	backends/vm/vmgen.h backends/vm/vmgen_impl.h backends/vm/vmgen.c \
	backends/vm/linearize.c backends/vm/vmcall.c backends/vm/sched.c backends/vm/rega.c backends/vm/emit.c

# The compiler whole: back ends, the target-free library, the VM and the
# runtime, in link order.
COMPILER_LIBS = backends/libbackends.a $(RSLC_LIBS) $(VM_LIBS)

# backends/llvm: native code through the LLVM C API (backends/llvm/native.h),
# JIT-compiled by ORC LLJIT; it inlines the runtime from its bitcode
# (runtime/local.mk) and binds the VM runtime's other builtins.
noinst_LIBRARIES += backends/libnative.a
backends_libnative_a_CFLAGS = $(AM_CFLAGS) $(LLVM_CFLAGS)
backends_libnative_a_SOURCES = \
	backends/llvm/native.h backends/llvm/native_impl.h backends/llvm/jit.h \
	backends/llvm/module.c backends/llvm/values.c backends/llvm/lower.c \
	backends/llvm/flow.c backends/llvm/calls.c backends/llvm/jit.c \
	backends/llvm/source.c backends/llvm/devcalls.c backends/llvm/ptx.c \
	backends/llvm/wide.c backends/llvm/prelude.c \
	backends/llvm/bitcode.c \
	backends/llvm/codecache.c backends/llvm/sha256.h backends/llvm/sha256.c
NATIVE_LIBS = backends/libnative.a $(COMPILER_LIBS) $(LLVM_LIBS)

# The runtime as bitcode for each target (runtime/local.mk's rules): for
# x86-64 the pure maths and noise that native code inlines
# (backends/llvm/bitcode.c); for PTX those, the builtin table and
# backends/llvm/devrt.c, the device's own definitions. glibc's headers
# serve the device as x86-64's (the same LP64 types), hence __x86_64__.
# The x86-64 runtime keeps LLVM's passes for the shader's pipeline, which
# runs them once the runtime is inlined and its shapes are constants; all
# but sroa, which turns the unoptimised code's variables into SSA values
# once, here, rather than in every shader's JIT compile (a third of the
# passes before default<O2> there). The code it makes is the same, bar
# the values' names and the order of a select's operands.
RUNTIME_BC_CFLAGS_x86_64 = -Xclang -disable-llvm-optzns -fno-math-errno
RUNTIME_BC_OPT_x86_64 = $(LLVM_OPT) -passes='function(sroa)'

RUNTIME_BC_CFLAGS_nvptx64 = -march=sm_75 -D__x86_64__ \
	-isystem /usr/include/$(HOST_MULTIARCH)
X86_BC = $(RUNTIME_BITCODE_SRCS:%.c=bc/x86_64-pc-linux-gnu/%.bc)
bc/runtime-x86_64-pc-linux-gnu.bc: $(X86_BC) $(srcdir)/backends/local.mk
	$(AM_V_GEN)$(LLVM_LINK) -o $@.linked $(X86_BC) && $(RUNTIME_BC_OPT_x86_64) -o $@ $@.linked \
	  && rm -f $@.linked
X86_LIGHTING_BC = $(RUNTIME_LIGHTING_BC_SRCS:%.c=bc/x86_64-pc-linux-gnu/%.bc)
bc/runtime-lighting-x86_64-pc-linux-gnu.bc: $(X86_LIGHTING_BC) $(srcdir)/backends/local.mk
	$(AM_V_GEN)$(LLVM_LINK) -o $@.linked $(X86_LIGHTING_BC) \
	  && $(RUNTIME_BC_OPT_x86_64) -o $@ $@.linked && rm -f $@.linked
NVPTX_BC = $(RUNTIME_BC_SRCS:%.c=bc/nvptx64-nvidia-cuda/%.bc) \
	bc/nvptx64-nvidia-cuda/backends/llvm/devrt.bc
bc/nvptx64-nvidia-cuda/backends/llvm/devrt.bc: backends/llvm/devrt.c
bc/runtime-nvptx64-nvidia-cuda.bc: $(NVPTX_BC)
	$(AM_V_GEN)$(LLVM_LINK) -o $@ $(NVPTX_BC)
nodist_backends_libnative_a_SOURCES = runtime/rt-x86_64-pc-linux-gnu.c \
	runtime/rt-nvptx64-nvidia-cuda.c runtime/rt-lighting-x86_64-pc-linux-gnu.c
BUILT_SOURCES += $(nodist_backends_libnative_a_SOURCES)
EXTRA_DIST += backends/llvm/devrt.c

check_PROGRAMS += tests/vm/check_vmgen
TESTS += tests/vm/check_vmgen
tests_vm_check_vmgen_SOURCES = tests/vm/check_vmgen.c
tests_vm_check_vmgen_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_vmgen_LDADD = $(COMPILER_LIBS) $(CHECK_LIBS)

# The compile-run-verify suite: RSL cases compiled at -O0 and -O2 and run
# on the VM (tests/vm/check_run.h).
RUN_CASES = tests/vm/check_run.h \
	tests/vm/run_basic.c tests/vm/run_shaders.c tests/vm/run_ops.c \
	tests/vm/run_flow.c tests/vm/run_math.c tests/vm/run_geom.c tests/vm/run_host.c \
	tests/vm/run_ref.c tests/vm/run_ref.h tests/vm/run_compat.c \
	tests/vm/run_compile.c tests/vm/run_compile.h
check_PROGRAMS += tests/vm/check_run
TESTS += tests/vm/check_run
tests_vm_check_run_SOURCES = tests/vm/check_run.c $(RUN_CASES)
tests_vm_check_run_CPPFLAGS = $(AM_CPPFLAGS) -DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_vm_check_run_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_run_LDADD = $(COMPILER_LIBS) $(CHECK_LIBS)

# The same cases on native code at every ISA the CPU runs, against the
# expected values and the VM, with partial batches and NaN in the lanes
# not requested; cases using what native code lacks are counted as
# skipped (tests/vm/check_run_native.c).
check_PROGRAMS += tests/vm/check_run_native
TESTS += tests/vm/check_run_native
tests_vm_check_run_native_SOURCES = tests/vm/check_run_native.c $(RUN_CASES)
tests_vm_check_run_native_CPPFLAGS = $(AM_CPPFLAGS) -DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_vm_check_run_native_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_run_native_LDADD = $(NATIVE_LIBS) $(CHECK_LIBS)

# Native code with lanes diverging in every construct, partial batches and
# NaN in the lanes not requested; rslc --emit=llvm and rslvm --backend.
check_PROGRAMS += tests/vm/check_native
TESTS += tests/vm/check_native
tests_vm_check_native_SOURCES = tests/vm/check_native.c tests/vm/run_compile.c \
	tests/vm/run_compile.h tests/common/runcmd.h tests/common/runcmd.c
tests_vm_check_native_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/common \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"' -DTOP_BUILDDIR='"$(abs_top_builddir)"'
tests_vm_check_native_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_native_LDADD = $(NATIVE_LIBS) $(PTHREAD_LIBS) $(CHECK_LIBS)
EXTRA_tests_vm_check_native_DEPENDENCIES = tools/rslc$(EXEEXT) tools/rslvm$(EXEEXT)

# The code cache's bound: least recently used entries go past the limit.
check_PROGRAMS += tests/vm/check_native_cache
TESTS += tests/vm/check_native_cache
tests_vm_check_native_cache_SOURCES = tests/vm/check_native_cache.c tests/vm/run_compile.c \
	tests/vm/run_compile.h
tests_vm_check_native_cache_CPPFLAGS = $(tests_vm_check_native_CPPFLAGS)
tests_vm_check_native_cache_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_native_cache_LDADD = $(NATIVE_LIBS) $(CHECK_LIBS)

# PTX for NVIDIA GPUs: every standard shader's passes ptxas for sm_75 ...
# sm_90 (skipped without ptxas).
TESTS += scripts/check-ptx
EXTRA_DIST += scripts/check-ptx

# The runtime's bitcode inlined: no runtime call left at -O2, and every
# row native code takes from the bitcode agrees with the VM.
check_PROGRAMS += tests/vm/check_native_inline
TESTS += tests/vm/check_native_inline
tests_vm_check_native_inline_SOURCES = tests/vm/check_native_inline.c tests/vm/run_compile.c \
	tests/vm/run_compile.h tests/common/runcmd.h tests/common/runcmd.c
tests_vm_check_native_inline_CPPFLAGS = $(tests_vm_check_native_CPPFLAGS)
tests_vm_check_native_inline_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_native_inline_LDADD = $(NATIVE_LIBS) $(CHECK_LIBS)
EXTRA_tests_vm_check_native_inline_DEPENDENCIES = tools/rslc$(EXEEXT)

# The lighting builtins over groups of lanes, from the runtime and from
# native code: partial groups, NaN in masked lanes, lights reaching some.
check_PROGRAMS += tests/vm/check_lighting
TESTS += tests/vm/check_lighting
tests_vm_check_lighting_SOURCES = tests/vm/check_lighting.c tests/vm/run_compile.c tests/vm/run_compile.h
tests_vm_check_lighting_CPPFLAGS = $(tests_vm_check_native_CPPFLAGS)
tests_vm_check_lighting_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_lighting_LDADD = $(NATIVE_LIBS) $(CHECK_LIBS)

# Every builtin overload compiles and binds to the VM runtime.
check_PROGRAMS += tests/vm/check_bindings
TESTS += tests/vm/check_bindings
tests_vm_check_bindings_SOURCES = tests/vm/check_bindings.c
tests_vm_check_bindings_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_vm_check_bindings_LDADD = $(COMPILER_LIBS) $(CHECK_LIBS)

# The compiler is reentrant: threads compiling at once, each with its own
# context, give what compiling one at a time gives.
check_PROGRAMS += tests/rslc/check_reentrant
TESTS += tests/rslc/check_reentrant
tests_rslc_check_reentrant_SOURCES = tests/rslc/check_reentrant.c \
	tests/common/runcmd.h tests/common/runcmd.c
tests_rslc_check_reentrant_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/common \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_rslc_check_reentrant_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_rslc_check_reentrant_LDADD = $(COMPILER_LIBS) $(PTHREAD_LIBS) $(CHECK_LIBS)

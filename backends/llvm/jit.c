/*
** jit.c: the ISA a shader is compiled for, LLVM's optimisation of the
** lowered module (the new pass manager through LLVMRunPasses), and ORC
** LLJIT, which compiles it to machine code and binds the runtime helpers
** it calls (calls.c) by address; or which loads the object file of such
** a compile again, kept from it (the code cache, codecache.c).
**
** ISAs are LLVM's x86-64 micro-architecture levels, whose vector width
** sets W: x86-64-v2 (SSE4.2, W = 4), x86-64-v3 (AVX2, W = 8) and
** x86-64-v4 (AVX-512, W = 16). The widest the CPU runs is found with
** the CPU's feature bits, as rtcore picks its kernels.
*/
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/llvm/jit.h"
#include "backends/llvm/native_impl.h"

/* Names in char arrays: no table of pointers (scripts/check-static-data). */
static const struct {
    char name[8], cpu[12];
    int width;
} isas[] = {
    [NATIVE_ISA_AUTO] = { "auto", "", 0 },
    [NATIVE_ISA_SSE42] = { "sse4.2", "x86-64-v2", 4 },
    [NATIVE_ISA_AVX2] = { "avx2", "x86-64-v3", 8 },
    [NATIVE_ISA_AVX512] = { "avx512", "x86-64-v4", 16 },
    /* The GPU's lowering on the CPU, so that the tests check it here. */
    [NATIVE_ISA_SCALAR] = { "scalar", "x86-64", 1 },
};

NativeIsa native_isa_best(void)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
        && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
        return NATIVE_ISA_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return NATIVE_ISA_AVX2;
    if (__builtin_cpu_supports("sse4.2"))
        return NATIVE_ISA_SSE42;
    return NATIVE_ISA_AUTO;
}

int native_isa_width(NativeIsa isa)
{
    return isas[isa == NATIVE_ISA_AUTO ? native_isa_best() : isa].width;
}

const char *native_isa_name(NativeIsa isa)
{
    return isas[isa].name;
}

int native_isa_parse(const char *s)
{
    for (int i = 0; i < (int)(sizeof isas / sizeof *isas); i++)
        if (strcmp(s, isas[i].name) == 0 || (isas[i].width && atoi(s) == isas[i].width))
            return i;
    return -1;
}

/* A message from an LLVM error (consumed), in a malloc'd string. */
static char *error_text(LLVMErrorRef e)
{
    char *m = LLVMGetErrorMessage(e), *r = strdup(m);
    LLVMDisposeErrorMessage(m);
    return r;
}

void nj_init(void)
{
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
}

LLVMTargetMachineRef nj_target_machine(NativeIsa isa, char **err)
{
    char *triple = LLVMGetDefaultTargetTriple();
    LLVMTargetRef target;
    char *msg = NULL;
    LLVMTargetMachineRef tm = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &msg) == 0)
        tm = LLVMCreateTargetMachine(target, triple, isas[isa].cpu, "", LLVMCodeGenLevelDefault,
                                     LLVMRelocDefault, LLVMCodeModelJITDefault);
    *err = msg ? strdup(msg) : tm ? NULL : strdup("no target machine for the host");
    LLVMDisposeMessage(msg);
    LLVMDisposeMessage(triple);
    return tm;
}

/* LLVM's remarks and warnings are its own business: the one a shader
   would see is "loop not vectorized" where a lane loop of builtin calls
   (bitcode.c) stays scalar, which changes no result. Errors are said. */
static void diagnostic(LLVMDiagnosticInfoRef info, void *unused)
{
    (void)unused;
    if (LLVMGetDiagInfoSeverity(info) != LLVMDSError)
        return;
    char *msg = LLVMGetDiagInfoDescription(info);
    fprintf(stderr, "error: LLVM: %s\n", msg);
    LLVMDisposeMessage(msg);
}

void nj_quiet(LLVMContextRef ctx)
{
    LLVMContextSetDiagnosticHandler(ctx, diagnostic, NULL);
}

void nj_set_target(LLVMModuleRef mod, LLVMTargetMachineRef tm)
{
    char *triple = LLVMGetTargetMachineTriple(tm);
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    char *layout = LLVMCopyStringRepOfTargetData(td);
    LLVMSetTarget(mod, triple);
    LLVMSetDataLayout(mod, layout);
    LLVMDisposeMessage(layout);
    LLVMDisposeTargetData(td);
    LLVMDisposeMessage(triple);
}

/* First the runtime the module linked (bitcode.c, which dropped what the
   shader does not call) is inlined where the shader calls it and folded
   (its table of entries, read at constant indexes), and what is left
   uncalled dropped, so that the pipeline proper spends no time on the
   runtime's functions that the shader does not use. */
char *nj_optimize(LLVMModuleRef mod, LLVMTargetMachineRef tm, int level)
{
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(mod, level > 0
        ? "always-inline,function(sroa,instcombine<no-verify-fixpoint>),globaldce,default<O2>"
        : "always-inline,function(sroa,instcombine<no-verify-fixpoint>),globaldce,mem2reg", tm, opts);
    LLVMDisposePassBuilderOptions(opts);
    return e ? error_text(e) : NULL;
}

struct NativeJit {
    LLVMOrcLLJITRef jit;
    /* The object file LLJIT compiled the module to (nj_object), and how
       many it compiled: one for a module, or none is kept. */
    char *object;
    size_t object_size;
    int nobjects;
};

/* An LLJIT for isa with the runtime helpers bound; NULL with a malloc'd
   message in *err. */
static NativeJit *jit_new(NativeIsa isa, char **err)
{
    *err = NULL;
    LLVMTargetMachineRef tm = nj_target_machine(isa, err);
    if (!tm)
        return NULL;
    LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
        builder, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm));
    NativeJit *nj = calloc(1, sizeof *nj);
    LLVMErrorRef e = LLVMOrcCreateLLJIT(&nj->jit, builder);
    if (e) {
        *err = error_text(e);
        free(nj);
        return NULL;
    }
    /* The runtime helpers, by address: native_rt_* (calls.c, prelude.c)
       and the lighting's calls into the host (runtime/lightrows.c). */
    static const char names[][20] = { "native_rt_call", "native_rt_matdiv", "native_rt_deriv",
                                      "rsl_light_group", "rsl_light_lobes", "native_rt_bad_index" };
    void *addrs[] = { (void *)native_rt_call, (void *)native_rt_matdiv, (void *)native_rt_deriv,
                      (void *)rsl_light_group, (void *)rsl_light_lobes, (void *)native_rt_bad_index };
    enum { NSYMS = sizeof addrs / sizeof *addrs };
    LLVMOrcCSymbolMapPair syms[NSYMS];
    for (int i = 0; i < NSYMS; i++) {
        syms[i].Name = LLVMOrcLLJITMangleAndIntern(nj->jit, names[i]);
        syms[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)addrs[i];
        syms[i].Sym.Flags = (LLVMJITSymbolFlags){ LLVMJITSymbolGenericFlagsExported
                                                      | LLVMJITSymbolGenericFlagsCallable, 0 };
    }
    LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(nj->jit);
    e = LLVMOrcJITDylibDefine(jd, LLVMOrcAbsoluteSymbols(syms, NSYMS));
    /* The C library's functions that the runtime's bitcode calls (libm's
       sinf, expf, ...), from the process, as the VM calls them. */
    LLVMOrcDefinitionGeneratorRef libc = NULL;
    if (!e)
        e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
            &libc, LLVMOrcLLJITGetGlobalPrefix(nj->jit), NULL, NULL);
    if (!e)
        LLVMOrcJITDylibAddGenerator(jd, libc);
    if (e) {
        *err = error_text(e);
        nj_free(nj);
        return NULL;
    }
    return nj;
}

/* Keeps a copy of each object file LLJIT compiles (an object transform
   that changes nothing). */
static LLVMErrorRef keep_object(void *data, LLVMMemoryBufferRef *obj)
{
    NativeJit *nj = data;
    size_t n = LLVMGetBufferSize(*obj);
    char *copy = malloc(n + 1);
    if (copy)
        memcpy(copy, LLVMGetBufferStart(*obj), n);
    free(nj->object);
    nj->object = copy;
    nj->object_size = copy ? n : 0;
    nj->nobjects++;
    return NULL;
}

/* nj once its code is added (e, the adding's error) with entry found in
   *fn, which compiles the code where it was a module; NULL with a
   malloc'd message in *err (nj freed). */
static NativeJit *jit_add(NativeJit *nj, LLVMErrorRef e, const char *entry, void **fn, char **err)
{
    LLVMOrcExecutorAddress addr = 0;
    if (!e)
        e = LLVMOrcLLJITLookup(nj->jit, &addr, entry);
    if (e) {
        *err = error_text(e);
        nj_free(nj);
        return NULL;
    }
    *fn = (void *)(uintptr_t)addr;
    return nj;
}

NativeJit *nj_compile(LLVMOrcThreadSafeContextRef tsc, LLVMModuleRef mod, NativeIsa isa,
                      const char *entry, void **fn, char **err)
{
    NativeJit *nj = jit_new(isa, err);
    if (!nj) {
        LLVMDisposeModule(mod);
        return NULL;
    }
    LLVMOrcObjectTransformLayerSetTransform(LLVMOrcLLJITGetObjTransformLayer(nj->jit), keep_object, nj);
    return jit_add(nj, LLVMOrcLLJITAddLLVMIRModule(nj->jit, LLVMOrcLLJITGetMainJITDylib(nj->jit),
                                                   LLVMOrcCreateNewThreadSafeModule(mod, tsc)),
                   entry, fn, err);
}

NativeJit *nj_load(const void *object, size_t size, NativeIsa isa, const char *entry, void **fn,
                   char **err)
{
    NativeJit *nj = jit_new(isa, err);
    if (!nj)
        return NULL;
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(object, size, "cached");
    return jit_add(nj, LLVMOrcLLJITAddObjectFile(nj->jit, LLVMOrcLLJITGetMainJITDylib(nj->jit), buf),
                   entry, fn, err);
}

const void *nj_object(const NativeJit *nj, size_t *size)
{
    *size = nj->nobjects == 1 ? nj->object_size : 0;
    return *size ? nj->object : NULL;
}

void *nj_lookup(NativeJit *nj, const char *name, char **err)
{
    LLVMOrcExecutorAddress addr = 0;
    LLVMErrorRef e = LLVMOrcLLJITLookup(nj->jit, &addr, name);
    *err = e ? error_text(e) : NULL;
    return e ? NULL : (void *)(uintptr_t)addr;
}

void nj_free(NativeJit *nj)
{
    if (!nj)
        return;
    LLVMErrorRef e = LLVMOrcDisposeLLJIT(nj->jit);
    if (e)
        LLVMConsumeError(e);
    free(nj->object);
    free(nj);
}

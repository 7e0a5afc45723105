/*
** ptx.c: shaders as PTX for NVIDIA GPUs through LLVM's NVPTX target
** (native.h, native_compile_ptx). The lowering is the CPU's (module.c)
** with one lane per thread (SIMT, W = 1): a varying value is the
** thread's own <1 x float>, and masks are the thread's one bit.
**
** The ABI. A shader is one kernel, `shader_<name>(NativeGpuBatch *b)`
** (native.h declares the struct), launched over at least b->n threads:
** thread i = ctaid.x * ntid.x + tid.x shades point i, if i < b->n and
** b->active is NULL or b->active[i] != 0. The batch's register files are
** the VM's (vm/session.h): U the uniform file, V the varying one as a
** struct of arrays, component k of the varying slot s of point i at
** V[(s + k) * n + i], at the slots the shader's VM object gives its
** parameters and globals (so the host fills them as for the VM). Uniform
** values are read from Uin and written to U (the same value by every
** thread). A thread runs at most b->steps loop iterations; past them it
** stops and stores the back edge's number (1-based) in b->overrun.
**
** Builtins. Maths libdevice has (sin, pow, floor ...) is libdevice's
** __nv_ function; the rest of the pure maths and the noise family are
** the runtime's own C (mathlib.c, noise.c) compiled for nvptx64 with
** devrt.c, which defines their device functions (a maths builtin is
** rsl_math_at(index, ...) at the place rslc found it in mathlib's table).
** Both are linked into the module, internalized and optimised so only
** what is used stays.
** Every other builtin, and every host call (texture, lights, trace ...),
** is a call of an external device function named for its row of
** runtime/builtins.def (devcalls.c), rsl_<FN>_<row> (rsl_DIFFUSE_cn):
**     void rsl_<FN>_<row>(float *out, int32 outn, const float *args,
**                         const int32 *argn, int32 nargs,
**                         NativeGpuBatch *b, int64 point)
** args holds the nargs arguments' floats one after another (argn[i] of
** argument i: 1, 3 or 16, times an array's length; strings are indexes
** into the object's string table), out receives outn floats: the result,
** or for a builtin with outputs its result then every argument's value
** after the call, pre-filled with the values before it. Derivatives (Du,
** Dv, and Deriv, area, calculatenormal, filterstep and filtered lookups,
** which call them) are external too: a thread has no neighbours, so the
** tracer defines them (from ray differentials, or across a quad of
** threads). The code that defines the external ones (the CUDA tracer's)
** is linked later; PTX that names them as .extern .func is relocatable
** and passes `ptxas -c`.
*/
#include "config.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/llvm/native_impl.h"
#include "rslc/diag.h"

/* A thread's NativeRt is {i64, i32, ptr}: the CPU's first three fields. */
_Static_assert(offsetof(NativeRt, overrun) == 8 && offsetof(NativeRt, state) == 16,
               "NativeRt's first fields are the GPU's");

/* The architectures, each with the oldest PTX ISA that has it (the
   oldest driver that runs the code). Names in char arrays: no table of
   pointers (scripts/check-static-data). */
static const struct {
    char sm[8], ptx[8];
} gpus[] = {
    { "sm_75", "+ptx63" }, { "sm_80", "+ptx70" }, { "sm_86", "+ptx71" },
    { "sm_89", "+ptx78" }, { "sm_90", "+ptx78" },
};
#define NGPUS ((int)(sizeof gpus / sizeof *gpus))

static int gpu_index(const char *sm)
{
    for (int i = 0; i < NGPUS; i++)
        if (strcmp(sm, gpus[i].sm) == 0)
            return i;
    return -1;
}

bool native_gpu_known(const char *sm)
{
    return gpu_index(sm) >= 0;
}

const char *native_gpu_list(void)
{
    return "sm_75, sm_80, sm_86, sm_89, sm_90";
}

const char *native_libdevice_path(void)
{
    const char *env = getenv("RSLC_LIBDEVICE");
    return env && *env ? env : LIBDEVICE_PATH;
}

static bool failed(RslcCtx *rc, const IrFunc *shader, const char *what, char *msg)
{
    diag_error(rc, shader->loc, "PTX for '%s': %s: %s", shader->name, what, msg ? msg : "failed");
    LLVMDisposeMessage(msg);
    return false;
}

/* The data layout of tm's target, set on mod with its triple. */
static void set_target(LLVMModuleRef mod, LLVMTargetMachineRef tm)
{
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    char *layout = LLVMCopyStringRepOfTargetData(td);
    LLVMSetTarget(mod, "nvptx64-nvidia-cuda");
    LLVMSetDataLayout(mod, layout);
    LLVMDisposeMessage(layout);
    LLVMDisposeTargetData(td);
}

static LLVMTargetMachineRef target_machine(int gpu, char **err)
{
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    LLVMTargetRef target;
    if (LLVMGetTargetFromTriple("nvptx64-nvidia-cuda", &target, err))
        return NULL;
    return LLVMCreateTargetMachine(target, "nvptx64-nvidia-cuda", gpus[gpu].sm, gpus[gpu].ptx,
                                   LLVMCodeGenLevelDefault, LLVMRelocDefault, LLVMCodeModelDefault);
}

/* ---- the kernel ---------------------------------------------------------------- */

static LLVMValueRef field(Lower *L, LLVMValueRef p, size_t off)
{
    LLVMValueRef o = LLVMConstInt(L->i64, off, 0);
    return LLVMBuildInBoundsGEP2(L->b, L->i8, p, &o, 1, "");
}

static LLVMValueRef load(Lower *L, LLVMTypeRef t, LLVMValueRef p, size_t off)
{
    return LLVMBuildLoad2(L->b, t, field(L, p, off), "");
}

static LLVMValueRef sreg(Lower *L, const char *name)
{
    LLVMTypeRef ft = LLVMFunctionType(L->i32, NULL, 0, 0);
    LLVMValueRef f = LLVMGetNamedFunction(L->mod, name);
    if (!f)
        f = LLVMAddFunction(L->mod, name, ft);
    return LLVMBuildCall2(L->b, ft, f, NULL, 0, "");
}

/* shader_<name>(NativeGpuBatch *b): the thread's point, its lane bit and
   its NativeRt (steps, overrun, and the batch where calls find it), then
   module.c's entry, which it inlines. */
static void build_kernel(Lower *L, LLVMValueRef shade)
{
    char name[300];
    snprintf(name, sizeof name, "shader_%s", L->fn->name);
    LLVMTypeRef kt = LLVMFunctionType(L->voidt, &L->ptr, 1, 0);
    LLVMValueRef k = LLVMAddFunction(L->mod, name, kt);
    LLVMSetFunctionCallConv(k, 71); /* PTX_Kernel: an .entry */
    LLVMValueRef b = LLVMGetParam(k, 0);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(L->ctx, k, "entry");
    LLVMBasicBlockRef ask = LLVMAppendBasicBlockInContext(L->ctx, k, "active");
    LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(L->ctx, k, "run");
    LLVMBasicBlockRef over = LLVMAppendBasicBlockInContext(L->ctx, k, "overrun");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(L->ctx, k, "done");
    LLVMPositionBuilderAtEnd(L->b, entry);
    LLVMTypeRef rt_fields[3] = { L->i64, L->i32, L->ptr }; /* NativeRt's first three */
    LLVMTypeRef rt_t = LLVMStructTypeInContext(L->ctx, rt_fields, 3, 0);
    LLVMValueRef rt = LLVMBuildAlloca(L->b, rt_t, "rt"), lane = LLVMBuildAlloca(L->b, L->i32, "lane");
    /* In 64 bits: a launch may pass 2^32 threads. */
    LLVMValueRef ctaid = LLVMBuildZExt(L->b, sreg(L, "llvm.nvvm.read.ptx.sreg.ctaid.x"), L->i64, "");
    LLVMValueRef ntid = LLVMBuildZExt(L->b, sreg(L, "llvm.nvvm.read.ptx.sreg.ntid.x"), L->i64, "");
    LLVMValueRef tid = LLVMBuildZExt(L->b, sreg(L, "llvm.nvvm.read.ptx.sreg.tid.x"), L->i64, "");
    LLVMValueRef i = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, ctaid, ntid, ""), tid, "point");
    LLVMValueRef n = load(L, L->i64, b, offsetof(NativeGpuBatch, n));
    LLVMValueRef act = load(L, L->ptr, b, offsetof(NativeGpuBatch, active));
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntULT, i, n, ""), ask, done);

    /* A point past n, or one active says not to run, does nothing. */
    LLVMPositionBuilderAtEnd(L->b, ask);
    LLVMValueRef has = LLVMBuildIsNotNull(L->b, act, "");
    LLVMBasicBlockRef look = LLVMAppendBasicBlockInContext(L->ctx, k, "look");
    LLVMBuildCondBr(L->b, has, look, run);
    LLVMPositionBuilderAtEnd(L->b, look);
    LLVMValueRef on = LLVMBuildLoad2(L->b, L->i32, LLVMBuildInBoundsGEP2(L->b, L->i32, act, &i, 1, ""), "");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntNE, on, LLVMConstInt(L->i32, 0, 0), ""), run, done);

    LLVMPositionBuilderAtEnd(L->b, run);
    LLVMBuildStore(L->b, LLVMConstInt(L->i32, 1, 0), lane);
    LLVMBuildStore(L->b, load(L, L->i64, b, offsetof(NativeGpuBatch, steps)), field(L, rt, offsetof(NativeRt, steps_left)));
    LLVMBuildStore(L->b, LLVMConstInt(L->i32, 0, 0), field(L, rt, offsetof(NativeRt, overrun)));
    LLVMBuildStore(L->b, b, field(L, rt, offsetof(NativeRt, state)));
    LLVMValueRef args[7] = { load(L, L->ptr, b, offsetof(NativeGpuBatch, Uin)),
                             load(L, L->ptr, b, offsetof(NativeGpuBatch, U)),
                             load(L, L->ptr, b, offsetof(NativeGpuBatch, V)), n, i, lane, rt };
    LLVMBuildCall2(L->b, LLVMGlobalGetValueType(shade), shade, args, 7, "");
    LLVMValueRef ov = load(L, L->i32, rt, offsetof(NativeRt, overrun));
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntNE, ov, LLVMConstInt(L->i32, 0, 0), ""), over, done);
    LLVMPositionBuilderAtEnd(L->b, over);
    LLVMBuildStore(L->b, ov, field(L, b, offsetof(NativeGpuBatch, overrun)));
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
    LLVMBuildRetVoid(L->b);
}

/* ---- the device runtime and libdevice ------------------------------------------- */

/* The device runtime's bitcode (devrt.c and the runtime's sources for
   nvptx64), generated into devrt_nvptx.c by the build. */
extern const unsigned char rsl_bitcode_nvptx64_nvidia_cuda[];
extern const size_t rsl_bitcode_nvptx64_nvidia_cuda_size;

static char *message(const char *fmt, const char *a, const char *b)
{
    size_t n = strlen(fmt) + strlen(a) + strlen(b) + 1;
    char *m = malloc(n);
    snprintf(m, n, fmt, a, b);
    return m;
}

/* Links the bitcode in buf (taken) into L's module. Its functions lose
   the CPU they were compiled for, so that they inline into code for any
   of ours. */
static bool link_bitcode(Lower *L, LLVMMemoryBufferRef buf, LLVMTargetMachineRef tm,
                         const char *what, char **err)
{
    LLVMModuleRef dev;
    bool bad = LLVMParseBitcodeInContext2(L->ctx, buf, &dev);
    LLVMDisposeMemoryBuffer(buf);
    if (bad) {
        *err = message("%s%s is not LLVM bitcode", what, "");
        return false;
    }
    set_target(dev, tm);
    for (LLVMValueRef f = LLVMGetFirstFunction(dev); f; f = LLVMGetNextFunction(f)) {
        LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "target-cpu", 10);
        LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "target-features", 15);
    }
    if (LLVMLinkModules2(L->mod, dev)) {
        *err = message("LLVM could not link %s%s", what, "");
        return false;
    }
    return true;
}

/* Links the device runtime and libdevice into L's module, binds each C
   library function called (sinf ...) to libdevice's __nv_ definition of
   it, and makes every definition but the kernel internal, so that the
   optimiser inlines what is called and drops the rest. */
static bool link_runtime(Lower *L, const char *kernel, LLVMTargetMachineRef tm, char **err)
{
    LLVMMemoryBufferRef rt = LLVMCreateMemoryBufferWithMemoryRangeCopy(
        (const char *)rsl_bitcode_nvptx64_nvidia_cuda, rsl_bitcode_nvptx64_nvidia_cuda_size, "device runtime");
    if (!link_bitcode(L, rt, tm, "the device runtime", err))
        return false;
    const char *path = native_libdevice_path();
    LLVMMemoryBufferRef buf;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
        *err = message("libdevice is not at '%s' (%s); install the CUDA toolkit's nvvm or set "
                       "RSLC_LIBDEVICE to libdevice.10.bc", path, msg ? msg : "cannot read it");
        LLVMDisposeMessage(msg);
        return false;
    }
    if (!link_bitcode(L, buf, tm, path, err))
        return false;
    for (LLVMValueRef f = LLVMGetFirstFunction(L->mod), next; f; f = next) {
        next = LLVMGetNextFunction(f);
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (!LLVMIsDeclaration(f)) {
            if (strcmp(name, kernel) != 0)
                LLVMSetLinkage(f, LLVMInternalLinkage);
            continue;
        }
        char nv[128];
        snprintf(nv, sizeof nv, "__nv_%s", name);
        LLVMValueRef def = strncmp(name, "llvm.", 5) ? LLVMGetNamedFunction(L->mod, nv) : NULL;
        if (def && !LLVMIsDeclaration(def)) {
            LLVMReplaceAllUsesWith(f, def);
            LLVMDeleteFunction(f);
        } else if (!LLVMGetFirstUse(f)) {
            LLVMDeleteFunction(f);
        }
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(L->mod); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g))
            LLVMSetLinkage(g, LLVMInternalLinkage);
    return true;
}

/* ---- the driver ---------------------------------------------------------------------- */

static bool optimise(Lower *L, LLVMTargetMachineRef tm, char **err)
{
    /* libdevice asks __nvvm_reflect whether to flush denormals: no, as
       the CPU does not. */
    LLVMAddModuleFlag(L->mod, LLVMModuleFlagBehaviorOverride, "nvvm-reflect-ftz", 16,
                      LLVMValueAsMetadata(LLVMConstInt(L->i32, 0, 0)));
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(L->mod, L->opt->level > 0 ? "default<O2>"
                                   : "always-inline,mem2reg,globaldce", tm, opts);
    LLVMDisposePassBuilderOptions(opts);
    if (e) {
        char *m = LLVMGetErrorMessage(e);
        *err = strdup(m);
        LLVMDisposeErrorMessage(m);
    }
    return !e;
}

char *native_compile_ptx(RslcCtx *rc, IrFunc *shader, const VmObject *obj,
                         const NativeOptions *opt, const char *gpu)
{
    int g = gpu_index(gpu ? gpu : NATIVE_GPU_DEFAULT);
    if (g < 0) {
        diag_error(rc, shader->loc, "unknown GPU '%s' (rslc knows %s)", gpu, native_gpu_list());
        return NULL;
    }
    char *msg = NULL, *ptx = NULL;
    LLVMTargetMachineRef tm = target_machine(g, &msg);
    if (!tm) {
        failed(rc, shader, "LLVM's NVPTX target", msg);
        return NULL;
    }
    LLVMContextRef ctx = LLVMContextCreate();
    Lower L;
    if (nl_lower(&L, rc, shader, obj, opt, ctx, 1, true)) {
        char kernel[300];
        snprintf(kernel, sizeof kernel, "shader_%s", shader->name);
        set_target(L.mod, tm);
        LLVMValueRef shade = LLVMGetNamedFunction(L.mod, "shade");
        LLVMAddAttributeAtIndex(shade, LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(ctx, LLVMGetEnumAttributeKindForName("alwaysinline", 12), 0));
        build_kernel(&L, shade);
        LLVMMemoryBufferRef out = NULL;
        if (!link_runtime(&L, kernel, tm, &msg))
            failed(rc, shader, "the device runtime", msg);
        else if (!nl_verified(L.mod, &msg))
            failed(rc, shader, "LLVM rejected the kernel", msg);
        else if (!optimise(&L, tm, &msg))
            failed(rc, shader, "LLVM's optimisation", msg);
        else if (LLVMTargetMachineEmitToMemoryBuffer(tm, L.mod, LLVMAssemblyFile, &msg, &out))
            failed(rc, shader, "LLVM's NVPTX code generation", msg);
        if (out) {
            size_t n = LLVMGetBufferSize(out);
            ptx = malloc(n + 1);
            memcpy(ptx, LLVMGetBufferStart(out), n);
            ptx[n] = '\0';
            LLVMDisposeMemoryBuffer(out);
        }
        LLVMDisposeModule(L.mod);
    }
    nl_lower_done(&L);
    LLVMContextDispose(ctx);
    LLVMDisposeTargetMachine(tm);
    return ptx;
}

/*
** bitcode.c: the runtime's pure builtins inlined into native shaders.
** The runtime's C (runtime/local.mk, RUNTIME_BITCODE_SRCS) is compiled by
** clang-19 to LLVM bitcode at build time and embedded in this library;
** each shader module links it, so that the one definition the VM runs
** is the one native code inlines.
**
** A call of a row whose entry (builtins.def) is mathlib's math adapter
** calls rsl_math_lane_at, what the VM's adapter calls, with the row's
** table index and shapes as constants; noise, pnoise and cellnoise rows
** call rsl_noise and rsl_cellnoise with a constant dimension, as the VM's
** noise adapter does. The call sits in a loop over the W lanes that
** gathers each lane's arguments: once the entry is inlined, its table
** lookups and shape tests fold and the loop, marked for vectorisation at
** W, becomes the builtin's arithmetic on <W x float>. Lanes outside the
** mask run on zeros, so that NaN or infinity in them never reaches an
** index. A uniform call runs once, on scalars. The lighting that wide.c
** calls is a module of its own, linked only into shaders that light.
*/
#include <llvm-c/BitReader.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdlib.h>
#include <string.h>

#include "backends/llvm/native_impl.h"
#include "backends/llvm/sha256.h"
#include "runtime/builtins.h"
#include "runtime/mathlib.h"
#include "runtime/noise.h"

/* runtime/rt-x86_64-pc-linux-gnu.c and rt-lighting-x86_64-pc-linux-gnu.c,
   generated. */
extern const unsigned char rsl_bitcode_x86_64_pc_linux_gnu[];
extern const size_t rsl_bitcode_x86_64_pc_linux_gnu_size;
extern const unsigned char rsl_bitcode_lighting_x86_64_pc_linux_gnu[];
extern const size_t rsl_bitcode_lighting_x86_64_pc_linux_gnu_size;

/* builtins.def's entry column, by row. */
static const char row_entry[BO_COUNT][20] = {
#define BUILTIN_FN(id, name, opts)
#define BUILTIN(fn, row, sig, cls, flags, imp, entry) [BO_##fn##_##row] = #entry,
#include "runtime/builtins.def"
};

/* What a call of a row calls in the runtime: mathlib's math adapter by
   its table index, or noise, pnoise or cellnoise at dim coordinates (the
   position's floats, followed by as many periods for pnoise). */
typedef enum EntryKind { ENTRY_NONE, ENTRY_MATH, ENTRY_NOISE, ENTRY_PNOISE, ENTRY_CELLNOISE } EntryKind;
typedef struct Entry {
    EntryKind kind;
    int index;                  /* math */
    int dim;                    /* noise */
} Entry;

static Entry entry_of(const IrIns *ins, const int *argn, int nargs)
{
    static const char names[][12] = { [ENTRY_MATH] = "math", [ENTRY_NOISE] = "noise",
                                       [ENTRY_PNOISE] = "pnoise", [ENTRY_CELLNOISE] = "cellnoise" };
    Entry e = { ENTRY_NONE, 0, 0 };
    for (int k = ENTRY_MATH; k <= ENTRY_CELLNOISE; k++)
        if (strcmp(row_entry[ins->imm], names[k]) == 0)
            e.kind = (EntryKind)k;
    if (e.kind == ENTRY_MATH) {
        const RslMathFn *fn = rsl_builtin_find(builtin_fn_names[builtin_rows[ins->imm].fn], nargs);
        if (!fn)
            e.kind = ENTRY_NONE;
        else
            e.index = rsl_builtin_index(fn);
    } else if (e.kind != ENTRY_NONE) {
        /* The position's floats, as the VM's noise adapter counts them
           (vm/builtins.c). */
        for (int i = 0; i < (e.kind == ENTRY_PNOISE ? nargs / 2 : nargs); i++)
            e.dim += argn[i];
        e.dim = e.dim < RSL_NOISE_MAXDIM ? e.dim : RSL_NOISE_MAXDIM;
    }
    return e;
}

static LLVMValueRef i32c(Lower *L, int v)
{
    return LLVMConstInt(L->i32, (unsigned long long)v, 0);
}

static LLVMValueRef at(Lower *L, LLVMTypeRef t, LLVMValueRef base, LLVMValueRef index)
{
    return LLVMBuildInBoundsGEP2(L->b, t, base, &index, 1, "");
}

static LLVMValueRef runtime_fn(Lower *L, const char *name, LLVMTypeRef type)
{
    LLVMValueRef f = LLVMGetNamedFunction(L->mod, name);
    return f ? f : LLVMAddFunction(L->mod, name, type);
}

/* One lane's call: its arguments packed in args (argn[i] floats each),
   pointed to by ptrs[i], their widths in widths; results to out. */
static void call_entry(Lower *L, const Entry *e, LLVMValueRef args, LLVMValueRef ptrs,
                       LLVMValueRef widths, int nargs, LLVMValueRef out, int outn)
{
    if (e->kind == ENTRY_MATH) {
        LLVMTypeRef p[6] = { L->i32, L->i32, L->ptr, L->ptr, L->ptr, L->i32 };
        LLVMTypeRef t = LLVMFunctionType(L->voidt, p, 6, 0);
        LLVMValueRef a[6] = { i32c(L, e->index), i32c(L, nargs), ptrs, widths, out, i32c(L, outn) };
        LLVMBuildCall2(L->b, t, runtime_fn(L, "rsl_math_lane_at", t), a, 6, "");
        return;
    }
    /* float rsl_noise(int dim, const float *p, const float *period, unsigned comp),
       float rsl_cellnoise(int dim, const float *p, unsigned comp). */
    bool cell = e->kind == ENTRY_CELLNOISE;
    unsigned n = cell ? 3 : 4;
    LLVMTypeRef p[4] = { L->i32, L->ptr, cell ? L->i32 : L->ptr, L->i32 };
    LLVMTypeRef t = LLVMFunctionType(L->f32, p, n, 0);
    LLVMValueRef f = runtime_fn(L, cell ? "rsl_cellnoise" : "rsl_noise", t), dim = i32c(L, e->dim);
    LLVMValueRef period = e->kind == ENTRY_PNOISE ? at(L, L->f32, args, dim) : LLVMConstNull(L->ptr);
    for (int c = 0; c < outn; c++) {
        LLVMValueRef a[4] = { dim, args, cell ? i32c(L, c) : period, i32c(L, c) };
        LLVMBuildStore(L->b, LLVMBuildCall2(L->b, t, f, a, n, ""), at(L, L->f32, out, i32c(L, c)));
    }
}

/* Marks the loop whose back edge is br for vectorisation at W lanes, and
   not for unrolling: unrolled first (as a short loop would be), its
   copies would be left to the SLP vectoriser, which declines calls. */
static void vectorise_at_w(Lower *L, LLVMValueRef br)
{
    LLVMMetadataRef self = LLVMTemporaryMDNode(L->ctx, NULL, 0);
    LLVMMetadataRef enable[2] = {
        LLVMMDStringInContext2(L->ctx, "llvm.loop.vectorize.enable", 26),
        LLVMValueAsMetadata(LLVMConstInt(L->i1, 1, 0)) };
    LLVMMetadataRef width[2] = {
        LLVMMDStringInContext2(L->ctx, "llvm.loop.vectorize.width", 25),
        LLVMValueAsMetadata(i32c(L, L->W)) };
    LLVMMetadataRef no_unroll[1] = { LLVMMDStringInContext2(L->ctx, "llvm.loop.unroll.disable", 24) };
    LLVMMetadataRef ops[4] = { self, LLVMMDNodeInContext2(L->ctx, enable, 2),
                               LLVMMDNodeInContext2(L->ctx, width, 2),
                               LLVMMDNodeInContext2(L->ctx, no_unroll, 1) };
    LLVMMetadataRef loop = LLVMMDNodeInContext2(L->ctx, ops, 4);
    LLVMMetadataReplaceAllUsesWith(self, loop);
    LLVMSetMetadata(br, LLVMGetMDKindIDInContext(L->ctx, "llvm.loop", 9),
                    LLVMMetadataAsValue(L->ctx, loop));
}

bool nb_lower_call(Lower *L, IrIns *ins, const NVal *args, const int *argn, int nargs, int outn,
                   bool vary)
{
    Entry e = entry_of(ins, argn, nargs);
    if (e.kind == ENTRY_NONE)
        return false;
    int total = 0;
    for (int i = 0; i < nargs; i++)
        total += argn[i];
    /* One lane's arguments, the pointers to them and their widths, and
       its result: set up once, in the entry block. */
    LLVMTypeRef argt = LLVMArrayType(L->f32, (unsigned)total), outt = LLVMArrayType(L->f32, (unsigned)outn);
    LLVMTypeRef ptrt = LLVMArrayType(L->ptr, (unsigned)nargs), nt = LLVMArrayType(L->i32, (unsigned)nargs);
    LLVMValueRef lane_args = LLVMBuildAlloca(L->eb, argt, ""), lane_out = LLVMBuildAlloca(L->eb, outt, "");
    LLVMValueRef ptrs = LLVMBuildAlloca(L->eb, ptrt, ""), widths = LLVMBuildAlloca(L->eb, nt, "");
    for (int i = 0, off = 0; i < nargs; off += argn[i++]) {
        LLVMValueRef ix = i32c(L, i), ox = i32c(L, off);
        LLVMBuildStore(L->eb, LLVMBuildInBoundsGEP2(L->eb, L->f32, lane_args, &ox, 1, ""),
                       LLVMBuildInBoundsGEP2(L->eb, L->ptr, ptrs, &ix, 1, ""));
        LLVMBuildStore(L->eb, i32c(L, argn[i]), LLVMBuildInBoundsGEP2(L->eb, L->i32, widths, &ix, 1, ""));
    }
    NVal r = nv_new(L, outn, vary);
    if (!vary) { /* once, on scalars */
        for (int i = 0, row = 0; i < nargs; i++)
            for (int k = 0; k < argn[i]; k++, row++)
                LLVMBuildStore(L->b, nv_comp(L, args[i], k, false), at(L, L->f32, lane_args, i32c(L, row)));
        call_entry(L, &e, lane_args, ptrs, widths, nargs, lane_out, outn);
        for (int k = 0; k < outn; k++)
            r.c[k] = LLVMBuildLoad2(L->b, L->f32, at(L, L->f32, lane_out, i32c(L, k)), "");
        nv_define(L, ins, r);
        return true;
    }
    /* The arguments as rows of W floats, zero in the lanes outside the
       mask; the results likewise. */
    LLVMValueRef abuf = LLVMBuildArrayAlloca(L->eb, L->vf, i32c(L, total), "");
    LLVMValueRef obuf = LLVMBuildArrayAlloca(L->eb, L->vf, i32c(L, outn), "");
    LLVMValueRef zero = LLVMConstNull(L->vf);
    for (int i = 0, row = 0; i < nargs; i++)
        for (int k = 0; k < argn[i]; k++, row++) {
            LLVMValueRef v = LLVMBuildSelect(L->b, L->cur_mask, nv_comp(L, args[i], k, true), zero, "");
            LLVMBuildStore(L->b, v, at(L, L->vf, abuf, i32c(L, row)));
        }
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b);
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(L->ctx, L->func, "lanes");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(L->ctx, L->func, "lanes.done");
    LLVMBuildBr(L->b, body);
    LLVMPositionBuilderAtEnd(L->b, body);
    LLVMValueRef lane = LLVMBuildPhi(L->b, L->i32, "lane");
    for (int row = 0; row < total; row++) {
        LLVMValueRef src = at(L, L->f32, abuf, LLVMBuildAdd(L->b, i32c(L, row * L->W), lane, ""));
        LLVMBuildStore(L->b, LLVMBuildLoad2(L->b, L->f32, src, ""), at(L, L->f32, lane_args, i32c(L, row)));
    }
    call_entry(L, &e, lane_args, ptrs, widths, nargs, lane_out, outn);
    for (int k = 0; k < outn; k++) {
        LLVMValueRef v = LLVMBuildLoad2(L->b, L->f32, at(L, L->f32, lane_out, i32c(L, k)), "");
        LLVMBuildStore(L->b, v, at(L, L->f32, obuf, LLVMBuildAdd(L->b, i32c(L, k * L->W), lane, "")));
    }
    LLVMValueRef next = LLVMBuildAdd(L->b, lane, i32c(L, 1), "");
    LLVMValueRef more = LLVMBuildICmp(L->b, LLVMIntSLT, next, i32c(L, L->W), "");
    vectorise_at_w(L, LLVMBuildCondBr(L->b, more, body, done));
    LLVMValueRef in_vals[2] = { i32c(L, 0), next };
    LLVMBasicBlockRef in_bbs[2] = { pre, body };
    LLVMAddIncoming(lane, in_vals, in_bbs, 2);
    LLVMPositionBuilderAtEnd(L->b, done);
    for (int k = 0; k < outn; k++)
        r.c[k] = LLVMBuildLoad2(L->b, L->vf, at(L, L->vf, obuf, i32c(L, k)), "");
    nv_define(L, ins, r);
    return true;
}

/* Whether f is one of the nentries functions of entries. */
static bool is_entry(LLVMValueRef f, const LLVMValueRef *entries, int nentries)
{
    for (int i = 0; i < nentries; i++)
        if (entries[i] == f)
            return true;
    return false;
}

/* The runtime's definitions become the module's own: internal (only the
   shader's entries are called from outside), always inlined, and compiled
   for the shader's ISA rather than the baseline clang compiled them for. */
static void make_own(LLVMModuleRef mod, const LLVMValueRef *entries, int nentries)
{
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    unsigned never = LLVMGetEnumAttributeKindForName("noinline", 8);
    static const char target_attrs[][16] = { "target-cpu", "target-features", "tune-cpu" };
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f) || is_entry(f, entries, nentries))
            continue;
        LLVMSetLinkage(f, LLVMInternalLinkage);
        for (int i = 0; i < 3; i++)
            LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, target_attrs[i],
                                             (unsigned)strlen(target_attrs[i]));
        LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, never);
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, always, 0));
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(mod); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g))
            LLVMSetLinkage(g, LLVMInternalLinkage);
}

/* The runtime's modules a shader may need: the maths and noise, and the
   lighting (runtime/lighting.c), apart so that a shader that lights but
   does no maths spends no time parsing and linking the maths. */
enum { RT_MATH = 1, RT_LIGHTING = 2 };

/* Which modules mod calls into: its declarations named rsl_* other than
   the lighting's calls into the host, which the JIT binds by address. */
static int runtime_needs(LLVMModuleRef mod)
{
    int needs = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (!LLVMIsDeclaration(f) || strncmp(name, "rsl_", 4) != 0 || !strcmp(name, "rsl_light_group")
            || !strcmp(name, "rsl_light_lobes"))
            continue;
        needs |= !strcmp(name, "rsl_shade_lights") || !strcmp(name, "rsl_light_sample")
                         || !strcmp(name, "rsl_illuminate") || !strcmp(name, "rsl_solar")
                     ? RT_LIGHTING
                     : RT_MATH;
    }
    return needs;
}

static char *link_bitcode(LLVMModuleRef mod, const unsigned char *bytes, size_t size)
{
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange((const char *)bytes, size, "runtime", 0);
    LLVMModuleRef rt = NULL;
    bool bad = LLVMParseBitcodeInContext2(ctx, buf, &rt);
    LLVMDisposeMemoryBuffer(buf);
    if (bad)
        return strdup("the runtime's embedded bitcode does not parse");
    /* The shader's target, so that the linker has no triples to reconcile. */
    LLVMSetTarget(rt, LLVMGetTarget(mod));
    LLVMSetDataLayout(rt, LLVMGetDataLayoutStr(mod));
    if (LLVMLinkModules2(mod, rt))
        return strdup("the runtime's bitcode does not link with the shader");
    return NULL;
}

/* Whether every reader of v (through constant expressions) is in fn or
   in a function nothing calls. */
static bool read_only_in(LLVMValueRef v, LLVMValueRef fn)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAConstantExpr(user)) {
            if (!read_only_in(user, fn))
                return false;
        } else if (!LLVMIsAInstruction(user)) {
            return false;
        } else {
            LLVMValueRef f = LLVMGetBasicBlockParent(LLVMGetInstructionParent(user));
            if (f != fn && LLVMGetFirstUse(f))
                return false;
        }
    }
    return true;
}

/* The global table rsl_math_lane_at reads its entry from (mathlib.c's
   table of math builtins), or NULL. */
static LLVMValueRef math_table(LLVMValueRef at)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(at); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            for (int k = 0; k < LLVMGetNumOperands(i); k++) {
                LLVMValueRef g = LLVMGetOperand(i, (unsigned)k);
                if (LLVMIsAGlobalVariable(g) && LLVMIsGlobalConstant(g) && LLVMGetInitializer(g)
                    && LLVMGetTypeKind(LLVMGlobalGetValueType(g)) == LLVMArrayTypeKind)
                    return g;
            }
    return NULL;
}

/* The math adapter's table points to every math builtin, so all of them
   stay alive (and the inliner and instcombine work through them all)
   until the shader's constant indexes into it fold, only to be dropped
   then: half the work of the first passes. Where the module reads the
   table only through calls of rsl_math_lane_at with constant indexes,
   the entries no call reads are cleared beforehand, so that globaldce
   drops their functions first. Changes no code: those entries are
   never read. */
static void prune_math_table(LLVMModuleRef mod)
{
    LLVMValueRef at = LLVMGetNamedFunction(mod, "rsl_math_lane_at");
    LLVMValueRef table = at && !LLVMIsDeclaration(at) ? math_table(at) : NULL;
    if (!table || !read_only_in(table, at))
        return;
    LLVMTypeRef type = LLVMGlobalGetValueType(table), elem = LLVMGetElementType(type);
    uint64_t n = LLVMGetArrayLength2(type);
    bool *read = calloc(n + 1, sizeof *read);
    bool known = read != NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(at); known && u; u = LLVMGetNextUse(u)) {
        LLVMValueRef call = LLVMGetUser(u), index = LLVMIsACallInst(call) ? LLVMGetOperand(call, 0) : NULL;
        known = index && LLVMIsAConstantInt(index) && LLVMGetCalledValue(call) == at
                && LLVMConstIntGetZExtValue(index) < n;
        if (known)
            read[LLVMConstIntGetZExtValue(index)] = true;
    }
    LLVMValueRef init = LLVMGetInitializer(table);
    LLVMValueRef *elems = known ? malloc(n * sizeof *elems) : NULL;
    for (uint64_t i = 0; elems && i < n; i++)
        elems[i] = read[i] ? LLVMGetAggregateElement(init, (unsigned)i) : LLVMConstNull(elem);
    if (elems)
        LLVMSetInitializer(table, LLVMConstArray2(elem, elems, n));
    free(elems);
    free(read);
}

/* Drops the functions and globals of mod that nothing uses; NULL, or a
   malloc'd message. */
static char *drop_dead(LLVMModuleRef mod)
{
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(mod, "globaldce", NULL, opts);
    LLVMDisposePassBuilderOptions(opts);
    if (!e)
        return NULL;
    char *m = LLVMGetErrorMessage(e), *err = strdup(m);
    LLVMDisposeErrorMessage(m);
    return err;
}

char *nb_link_runtime(LLVMModuleRef mod)
{
    int needs = runtime_needs(mod);
    if (!needs) /* nothing to link: no time spent parsing it */
        return NULL;
    /* The shader's entries: the functions it defines (shade, prelude). */
    int nentries = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
        nentries += !LLVMIsDeclaration(f);
    LLVMValueRef *entries = malloc((size_t)nentries * sizeof *entries + 1);
    if (!entries)
        return strdup("out of memory");
    nentries = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            entries[nentries++] = f;
    char *err = NULL;
    if (needs & RT_MATH)
        err = link_bitcode(mod, rsl_bitcode_x86_64_pc_linux_gnu, rsl_bitcode_x86_64_pc_linux_gnu_size);
    if (!err && (needs & RT_LIGHTING))
        err = link_bitcode(mod, rsl_bitcode_lighting_x86_64_pc_linux_gnu,
                           rsl_bitcode_lighting_x86_64_pc_linux_gnu_size);
    if (!err)
        make_own(mod, entries, nentries);
    free(entries);
    if (err)
        return err;
    /* What the shader does not call goes first, so that the table's
       readers left are the shader's calls; then the entries the pruning
       cleared, before the inliner would work through them. */
    if (!(err = drop_dead(mod)))
        prune_math_table(mod);
    return err ? err : drop_dead(mod);
}

void nb_hash_runtime(Sha256 *s)
{
    sha256_add(s, rsl_bitcode_x86_64_pc_linux_gnu, rsl_bitcode_x86_64_pc_linux_gnu_size);
    sha256_add(s, rsl_bitcode_lighting_x86_64_pc_linux_gnu, rsl_bitcode_lighting_x86_64_pc_linux_gnu_size);
}

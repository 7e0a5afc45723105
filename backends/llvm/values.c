/*
** values.c: how the native back end holds IR values (native_impl.h):
** components, uniform scalars and varying vectors, constants, slots and
** their masked stores, and the parameters and globals read from and
** written back to the VM's register files with masked vector loads and
** stores, so that lanes past a partial batch are never touched.
*/
#include <stdlib.h>
#include <string.h>

#include "backends/llvm/native_impl.h"
#include "rslc/diag.h"
#include "runtime/strings.h"

void *nl_alloc(Lower *L, size_t size)
{
    if (L->narena == L->caparena) {
        L->caparena = L->caparena ? 2 * L->caparena : 256;
        L->arena = realloc(L->arena, (size_t)L->caparena * sizeof *L->arena);
    }
    void *p = calloc(1, size ? size : 1);
    if (!L->arena || !p) {
        perror("rslc");
        exit(1);
    }
    return L->arena[L->narena++] = p;
}

int nl_kind_width(IrKind k)
{
    switch (k) {
    case IRT_VOID: case IRT_TUPLE: return 0;
    case IRT_COLOR: case IRT_POINT: case IRT_VECTOR: case IRT_NORMAL: return 3;
    case IRT_MATRIX: return 16;
    default: return 1;
    }
}

/* Floats in a value of type t (ins's tuple when t is one). */
int nl_width(const Lower *L, const IrIns *ins, IrType t)
{
    (void)L;
    if (t.kind == IRT_TUPLE)
        return nl_tuple_offset(ins, ins->nargs);
    return nl_kind_width(t.kind) * (t.arraylen > 0 ? t.arraylen : 1);
}

NVal nv_new(Lower *L, int n, bool varying)
{
    NVal v = { n, varying, nl_alloc(L, (size_t)(n > 0 ? n : 1) * sizeof(LLVMValueRef)) };
    return v;
}

LLVMValueRef nl_splat(Lower *L, LLVMValueRef scalar)
{
    LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(scalar), (unsigned)L->W);
    LLVMValueRef one = LLVMBuildInsertElement(L->b, LLVMGetPoison(vt), scalar,
                                              LLVMConstInt(L->i32, 0, 0), "");
    return LLVMBuildShuffleVector(L->b, one, LLVMGetPoison(vt),
                                  LLVMConstNull(LLVMVectorType(L->i32, (unsigned)L->W)), "");
}

LLVMValueRef nv_comp(Lower *L, NVal v, int k, bool want_varying)
{
    LLVMValueRef c = v.c[k];
    if (want_varying && !v.varying)
        return nl_splat(L, c);
    if (!want_varying && v.varying) /* a uniform use of a varying value: lane 0 */
        return LLVMBuildExtractElement(L->b, c, LLVMConstInt(L->i32, 0, 0), "");
    return c;
}

/* The string's index in the object's table, which holds every string
   constant of the shader (the VM back end put them there). */
static LLVMValueRef string_const(Lower *L, const char *s)
{
    for (uint32_t i = 0; i < L->obj->prog.nstrings; i++)
        if (strcmp(L->obj->prog.strings[i], s) == 0)
            return LLVMConstReal(L->f32, vm_string_value(i));
    diag_error(L->rc, L->fn->loc, "native: string \"%s\" is not in the object's table", s);
    L->failed = true;
    return LLVMConstReal(L->f32, 0);
}

static NVal constant(Lower *L, IrVal *v)
{
    IrConst *k = (IrConst *)v;
    int n = nl_width(L, NULL, v->type);
    NVal r = nv_new(L, n, false);
    for (int i = 0; i < n; i++) {
        if (v->kind == IRV_UNDEF)
            r.c[i] = LLVMConstNull(v->type.kind == IRT_BOOL ? L->i1 : L->f32);
        else if (v->type.kind == IRT_BOOL)
            r.c[i] = LLVMConstInt(L->i1, k->f[0] != 0, 0);
        else if (v->type.kind == IRT_STRING)
            r.c[i] = string_const(L, k->s ? k->s : "");
        else
            r.c[i] = LLVMConstReal(L->f32, v->type.arraylen ? k->fa[i] : k->f[i]);
    }
    return r;
}

NVal nv_get(Lower *L, IrVal *v)
{
    if (v->kind != IRV_INS)
        return constant(L, v);
    if (L->have[v->id])
        return L->vals[v->id];
    if (L->slot[v->id].p)
        return nl_load(L, L->slot[v->id]);
    /* Dominance makes every use follow its definition in the layout. */
    diag_error(L->rc, L->fn->loc, "native: %%%d is used before its definition", v->id);
    L->failed = true;
    return constant(L, ir_undef(L->fn, v->type));
}

LLVMValueRef nl_store_mask(Lower *L)
{
    return L->at_entry ? NULL : L->cur_mask;
}

void nv_define(Lower *L, IrIns *ins, NVal v)
{
    if (L->slot[ins->val.id].p) {
        nl_store(L, L->slot[ins->val.id], v, nl_store_mask(L));
        return;
    }
    L->vals[ins->val.id] = v;
    L->have[ins->val.id] = true;
}

static LLVMTypeRef elem_type(Lower *L, bool varying, bool isbool)
{
    return isbool ? (varying ? L->vb : L->i1) : (varying ? L->vf : L->f32);
}

NSlot nl_alloca(Lower *L, int n, bool varying, bool isbool)
{
    LLVMTypeRef at = LLVMArrayType(elem_type(L, varying, isbool), (unsigned)(n > 0 ? n : 1));
    NSlot s = { LLVMBuildAlloca(L->eb, at, ""), n, varying, isbool };
    LLVMBuildStore(L->eb, LLVMConstNull(at), s.p);
    return s;
}

static LLVMValueRef slot_gep(Lower *L, NSlot s, int k)
{
    LLVMTypeRef at = LLVMArrayType(elem_type(L, s.varying, s.isbool), (unsigned)(s.n > 0 ? s.n : 1));
    LLVMValueRef idx[2] = { LLVMConstInt(L->i32, 0, 0), LLVMConstInt(L->i32, (unsigned)k, 0) };
    return LLVMBuildInBoundsGEP2(L->b, at, s.p, idx, 2, "");
}

NVal nl_load(Lower *L, NSlot s)
{
    NVal v = nv_new(L, s.n, s.varying);
    for (int k = 0; k < s.n; k++)
        v.c[k] = LLVMBuildLoad2(L->b, elem_type(L, s.varying, s.isbool), slot_gep(L, s, k), "");
    return v;
}

LLVMValueRef nl_any(Lower *L, LLVMValueRef m)
{
    LLVMValueRef bits = LLVMBuildBitCast(L->b, m, LLVMIntTypeInContext(L->ctx, (unsigned)L->W), "");
    return LLVMBuildICmp(L->b, LLVMIntNE, bits, LLVMConstInt(LLVMTypeOf(bits), 0, 0), "");
}

LLVMValueRef nl_mask_bits(Lower *L, LLVMValueRef m)
{
    LLVMValueRef bits = LLVMBuildBitCast(L->b, m, LLVMIntTypeInContext(L->ctx, (unsigned)L->W), "");
    return L->W == 32 ? bits : LLVMBuildZExt(L->b, bits, L->i32, "");
}

void nl_store(Lower *L, NSlot s, NVal v, LLVMValueRef mask)
{
    LLVMValueRef any = mask && !s.varying ? nl_any(L, mask) : NULL;
    LLVMTypeRef et = elem_type(L, s.varying, s.isbool);
    for (int k = 0; k < s.n && k < v.n; k++) {
        LLVMValueRef p = slot_gep(L, s, k), x = nv_comp(L, v, k, s.varying);
        if (mask) {
            LLVMValueRef old = LLVMBuildLoad2(L->b, et, p, "");
            x = LLVMBuildSelect(L->b, s.varying ? mask : any, x, old, "");
        }
        LLVMBuildStore(L->b, x, p);
    }
}

/* ---- parameters and globals in the register files ----------------------- */

static LLVMValueRef masked_intrinsic(Lower *L, const char *name, LLVMTypeRef *ft)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMTypeRef tys[2] = { L->vf, L->ptr };
    *ft = LLVMIntrinsicGetType(L->ctx, id, tys, 2);
    return LLVMGetIntrinsicDeclaration(L->mod, id, tys, 2);
}

/* Component k of v in memory: U + slot + k (Uin for its value on entry:
   an earlier W lanes of the batch may have written U), or V + (slot + k)
   * stride + base for a varying one. */
static LLVMValueRef var_addr(Lower *L, LLVMBuilderRef b, const NVar *v, int k, bool in)
{
    unsigned reg = v->var->reg;
    if (!(reg & VM_V)) {
        LLVMValueRef i = LLVMConstInt(L->i64, reg + (unsigned)k, 0);
        return LLVMBuildInBoundsGEP2(b, L->f32, in ? L->Uin : L->U, &i, 1, "");
    }
    LLVMValueRef row = LLVMConstInt(L->i64, VM_SLOT(reg) + (unsigned)k, 0);
    LLVMValueRef i = LLVMBuildAdd(b, LLVMBuildMul(b, row, L->stride, ""), L->base, "");
    return LLVMBuildInBoundsGEP2(b, L->f32, L->V, &i, 1, "");
}

NVar *nl_var(Lower *L, const char *name, bool param, const IrIns *at)
{
    for (int i = 0; i < L->nvars; i++)
        if (L->vars[i].param == param && strcmp(L->vars[i].name, name) == 0)
            return &L->vars[i];
    const VmVar *list = param ? L->obj->params : L->obj->globals;
    uint32_t n = param ? L->obj->nparams : L->obj->nglobals;
    const VmVar *var = NULL;
    for (uint32_t i = 0; i < n && !var; i++)
        if (strcmp(list[i].name, name) == 0)
            var = &list[i];
    if (!var) {
        diag_error(L->rc, at ? at->loc : L->fn->loc, "native: %s '%s' has no register in the "
                   "VM object", param ? "parameter" : "global", name);
        L->failed = true;
        return NULL;
    }
    if (L->nvars == L->capvars) {
        L->capvars = L->capvars ? 2 * L->capvars : 16;
        L->vars = realloc(L->vars, (size_t)L->capvars * sizeof *L->vars);
    }
    NVar *v = &L->vars[L->nvars++];
    int w = (int)vm_type_slots(var->type, var->arraylen);
    *v = (NVar){ name, param, var, false, nl_alloca(L, w, (var->flags & VM_VAR_VARYING) != 0, false) };
    /* Its value on entry, loaded in the entry block (zero past the batch). */
    LLVMTypeRef ft;
    LLVMValueRef ld = masked_intrinsic(L, "llvm.masked.load", &ft);
    for (int k = 0; k < w; k++) {
        LLVMValueRef p = var_addr(L, L->eb, v, k, true), x;
        if (v->slot.varying) {
            LLVMValueRef args[4] = { p, LLVMConstInt(L->i32, 4, 0), L->lanes, LLVMConstNull(L->vf) };
            x = LLVMBuildCall2(L->eb, ft, ld, args, 4, "");
        } else {
            x = LLVMBuildLoad2(L->eb, L->f32, p, "");
        }
        LLVMTypeRef arr = LLVMArrayType(elem_type(L, v->slot.varying, false), (unsigned)w);
        LLVMValueRef idx[2] = { LLVMConstInt(L->i32, 0, 0), LLVMConstInt(L->i32, (unsigned)k, 0) };
        LLVMBuildStore(L->eb, x, LLVMBuildInBoundsGEP2(L->eb, arr, v->slot.p, idx, 2, ""));
    }
    return v;
}

/* At exit: every written variable back to its registers, varying ones
   only in the batch's lanes. */
void nl_vars_store(Lower *L)
{
    LLVMTypeRef ft;
    LLVMValueRef st = masked_intrinsic(L, "llvm.masked.store", &ft);
    for (int i = 0; i < L->nvars; i++) {
        NVar *v = &L->vars[i];
        if (!v->written)
            continue;
        NVal x = nl_load(L, v->slot);
        for (int k = 0; k < x.n; k++) {
            LLVMValueRef p = var_addr(L, L->b, v, k, false);
            if (v->slot.varying) {
                LLVMValueRef args[4] = { x.c[k], p, LLVMConstInt(L->i32, 4, 0), L->lanes };
                LLVMBuildCall2(L->b, ft, st, args, 4, "");
            } else {
                LLVMBuildStore(L->b, x.c[k], p);
            }
        }
    }
}

void nl_lacks(Lower *L, const IrIns *ins, const char *what)
{
    diag_error(L->rc, ins ? ins->loc : L->fn->loc, "native code does not support %s yet (use "
               "the VM back end)", what);
    if (L->opt->lacks && L->opt->lackslen > 0 && !L->failed)
        snprintf(L->opt->lacks, (size_t)L->opt->lackslen, "%s", what);
    L->failed = true;
}

/*
** fold.c: constant folding and local simplification, one instruction at a
** time: operators and pure builtins on constants (the builtins through
** runtime/mathlib.c, the code the VM runs), algebraic identities on floats,
** triples and matrices, and canonical operand order for commutative ops
** (a constant goes second, so later passes look in one place).
**
** NaN and infinity: RSL gives them no meaning and renderers treat them as
** bugs in the shader, so folding assumes finite values: x*0 is 0, x-x is
** 0, x==x is true. A fold that would produce a NaN or an infinity (1/0,
** sqrt(-1)) is left for run time, so the program still computes exactly
** what it did and no non-finite constant enters the IR.
**
** requires: ssa; preserves: cfg, dom, loops, regions.
*/
#include <math.h>
#include <string.h>

#include "runtime/mathlib.h"
#include "rslc/pass.h"

#define MAXARGS 16

/* The components of a constant as floats (bools as 0 and 1). */
static bool read_const(const IrVal *v, float *out)
{
    const IrConst *c = opt_const(v);
    int n = opt_ncomp(v->type.kind);
    bool b;
    if (!c || v->type.arraylen || !n)
        return false;
    if (v->type.kind == IRT_BOOL && opt_const_bool(v, &b))
        out[0] = b;
    else
        memcpy(out, c->f, (size_t)n * sizeof *out);
    return true;
}

static IrConst *make_const(IrFunc *fn, IrType t, const float *f)
{
    for (int i = 0; i < opt_ncomp(t.kind); i++)
        if (!isfinite(f[i]))
            return NULL;
    if (t.arraylen)
        return NULL;
    switch (t.kind) {
    case IRT_BOOL: return ir_const_bool(fn, f[0] != 0);
    case IRT_FLOAT: return ir_const_float(fn, f[0]);
    case IRT_MATRIX: return ir_const_matrix(fn, f);
    default:
        if (!ir_is_triple(t.kind))
            return NULL;
        return ir_const_triple(fn, t.kind, f[0], f[1], f[2]);
    }
}

static IrConst *splat_const(IrFunc *fn, IrType t, float x)
{
    float f[16];
    for (int i = 0; i < 16; i++)
        f[i] = t.kind == IRT_MATRIX && i % 5 ? 0 : x;
    return make_const(fn, t, f);
}

/* An array index as aget clamps it. */
static int clamp_index(float index, int len)
{
    return index < 0 ? 0 : index > len - 1 ? len - 1 : (int)index;
}

/* aget of a constant array: the element at the clamped index. */
static IrConst *fold_aget(IrFunc *fn, const IrIns *ins, const IrConst *arr, float index)
{
    int n = opt_ncomp(ins->val.type.kind), len = arr->val.type.arraylen;
    if (!arr->fa || !n || len <= 0)
        return NULL;
    return make_const(fn, ins->val.type, arr->fa + clamp_index(index, len) * n);
}

IrConst *fold_eval(IrFunc *fn, const IrIns *ins, IrVal *const *args)
{
    float v[MAXARGS][16], r[16] = { 0 };
    const float *ptr[MAXARGS];
    int len[MAXARGS], na = ins->nargs;
    IrType t = ins->val.type;
    if (na > MAXARGS)
        return NULL;
    if (ins->op == IR_aget && opt_const(args[0]) && read_const(args[1], v[1]))
        return fold_aget(fn, ins, opt_const(args[0]), v[1][0]);
    if ((ins->op == IR_eq || ins->op == IR_ne) && args[0]->type.kind == IRT_STRING) {
        const IrConst *a = opt_const(args[0]), *b = opt_const(args[1]);
        return a && b ? ir_const_bool(fn, (a->s == b->s) == (ins->op == IR_eq)) : NULL;
    }
    for (int k = 0; k < na; k++) {
        if (!read_const(args[k], v[k]))
            return NULL;
        ptr[k] = v[k];
        len[k] = opt_ncomp(args[k]->type.kind);
    }
    int n = na ? len[0] : 0;
    switch (ins->op) {
    case IR_copy: case IR_retype: memcpy(r, v[0], sizeof r); break;
    case IR_add: for (int c = 0; c < n; c++) r[c] = v[0][c] + v[1][c]; break;
    case IR_sub: for (int c = 0; c < n; c++) r[c] = v[0][c] - v[1][c]; break;
    case IR_neg: for (int c = 0; c < n; c++) r[c] = -v[0][c]; break;
    case IR_mul:
        if (t.kind == IRT_MATRIX)
            rsl_matmul(v[0], v[1], r);
        else
            for (int c = 0; c < n; c++)
                r[c] = v[0][c] * v[1][c];
        break;
    case IR_div:
        if (t.kind != IRT_MATRIX) {
            for (int c = 0; c < n; c++)
                r[c] = v[0][c] / v[1][c];
        } else if (rsl_matinv(v[1], r)) {
            rsl_matmul(v[0], r, r);
        } else {
            return NULL;
        }
        break;
    case IR_dot: r[0] = rsl_dot(v[0], v[1]); break;
    case IR_cross: rsl_cross(v[0], v[1], r); break;
    case IR_lt: r[0] = v[0][0] < v[1][0]; break;
    case IR_le: r[0] = v[0][0] <= v[1][0]; break;
    case IR_gt: r[0] = v[0][0] > v[1][0]; break;
    case IR_ge: r[0] = v[0][0] >= v[1][0]; break;
    case IR_eq: case IR_ne:
        r[0] = 1;
        for (int c = 0; c < n; c++)
            r[0] = r[0] && v[0][c] == v[1][c];
        r[0] = ins->op == IR_eq ? r[0] : !r[0];
        break;
    case IR_and: r[0] = v[0][0] != 0 && v[1][0] != 0; break;
    case IR_or: r[0] = v[0][0] != 0 || v[1][0] != 0; break;
    case IR_not: r[0] = v[0][0] == 0; break;
    case IR_select: memcpy(r, v[0][0] != 0 ? v[1] : v[2], sizeof r); break;
    case IR_splat: return splat_const(fn, t, v[0][0]);
    case IR_triple: case IR_matrix:
        for (int k = 0; k < na; k++)
            r[k] = v[k][0];
        break;
    case IR_intrin:
        if (!opt_movable(ins) || !rsl_builtin_eval(opt_builtin_name(ins->imm), na, ptr,
                                                   len, r, opt_ncomp(t.kind)))
            return NULL;
        break;
    default:
        return NULL;
    }
    return make_const(fn, t, r);
}

/* ---- simplification ------------------------------------------------------------ */

/* True if v is a float or triple constant with every component x, or the
   matrix x * identity. */
static bool is_splat(const IrVal *v, float x)
{
    float f[16];
    if (!read_const(v, f) || v->type.kind == IRT_BOOL)
        return false;
    for (int c = 0; c < opt_ncomp(v->type.kind); c++)
        if (f[c] != (v->type.kind == IRT_MATRIX && c % 5 ? 0 : x))
            return false;
    return true;
}

static bool is_bool(const IrVal *v, bool want)
{
    bool b;
    return opt_const_bool(v, &b) && b == want;
}

static bool is_op(const IrVal *v, IrOp op)
{
    return v->kind == IRV_INS && ((const IrIns *)v)->op == op;
}

static bool same_builtin(const IrIns *i, const IrVal *v)
{
    return is_op(v, IR_intrin) && ((const IrIns *)v)->imm == i->imm;
}

/* The value that ins equals without computing it, or NULL. May instead
   rewrite ins in place, setting *edited. */
static IrVal *simplify(IrFunc *fn, IrIns *ins, bool *edited)
{
    IrVal *a = ins->nargs > 0 ? ins->args[0] : NULL;
    IrVal *b = ins->nargs > 1 ? ins->args[1] : NULL;
    IrType t = ins->val.type;
    bool arith = t.kind == IRT_FLOAT || ir_is_triple(t.kind);
    switch (ins->op) {
    case IR_add:
        return is_splat(b, 0) ? a : NULL;
    case IR_sub:
        if (is_splat(b, 0))
            return a;
        return a == b && arith ? &splat_const(fn, t, 0)->val : NULL;
    case IR_mul:
        if (is_splat(b, 1))
            return a;
        return is_splat(b, 0) && arith ? b : NULL;
    case IR_div:
        return is_splat(b, 1) ? a : NULL;
    case IR_neg: case IR_not:
        return is_op(a, ins->op) ? ((IrIns *)a)->args[0] : NULL;
    case IR_and:
        return is_bool(b, true) || a == b ? a : is_bool(b, false) ? b : NULL;
    case IR_or:
        return is_bool(b, false) || a == b ? a : is_bool(b, true) ? b : NULL;
    case IR_eq: case IR_le: case IR_ge:
        return a == b ? &ir_const_bool(fn, true)->val : NULL;
    case IR_ne: case IR_lt: case IR_gt:
        return a == b ? &ir_const_bool(fn, false)->val : NULL;
    case IR_select: {
        bool c;
        if (opt_const_bool(a, &c))
            return ins->args[c ? 1 : 2];
        if (b == ins->args[2])
            return b;
        return is_bool(b, true) && is_bool(ins->args[2], false) ? a : NULL;
    }
    case IR_retype:
        if (ir_type_equal(a->type, t))
            return a;
        if (is_op(a, IR_retype)) {
            ir_ins_set_arg(ins, 0, ((IrIns *)a)->args[0]);
            *edited = true;
        }
        return NULL;
    case IR_aget:
        if (is_op(a, IR_aset)) {
            IrIns *set = (IrIns *)a;
            float i, j;
            if (set->args[1] == b)
                return set->args[2];
            int len = a->type.arraylen;
            if (read_const(set->args[1], &i) && read_const(b, &j)
                && clamp_index(i, len) != clamp_index(j, len)) {
                ir_ins_set_arg(ins, 0, set->args[0]);
                *edited = true;
            }
        }
        return NULL;
    case IR_intrin:
        /* normalize is idempotent (up to rounding, which we accept). */
        if (ins->nargs == 1 && same_builtin(ins, a) && ir_type_equal(a->type, t)
            && strcmp(opt_builtin_name(ins->imm), "normalize") == 0)
            return a;
        return NULL;
    default:
        return NULL;
    }
}

static bool all_const(const IrIns *ins)
{
    for (int k = 0; k < ins->nargs; k++)
        if (!opt_const(ins->args[k]))
            return false;
    return ins->nargs > 0;
}

static bool fold_one(IrFunc *fn, IrIns *ins)
{
    unsigned flags = ir_op_flags(ins->op);
    bool edited = false;
    if (ins->op == IR_phi || (flags & OP_TERM) || !opt_movable(ins))
        return false;
    if ((flags & OP_COMM) && ins->nargs == 2 && opt_const(ins->args[0])
        && !opt_const(ins->args[1])) {
        IrVal *a = ins->args[0];
        ir_ins_set_arg(ins, 0, ins->args[1]);
        ir_ins_set_arg(ins, 1, a);
        edited = true;
    }
    IrVal *r = NULL;
    if (((flags & OP_FOLD) || ins->op == IR_intrin) && all_const(ins)) {
        IrConst *c = fold_eval(fn, ins, ins->args);
        r = c ? &c->val : NULL;
    }
    if (!r)
        r = simplify(fn, ins, &edited);
    if (r)
        opt_replace(ins, r);
    return r || edited;
}

bool pass_fold(IrFunc *fn)
{
    bool changed = false, again = true;
    while (again) {
        again = false;
        for (IrBlock *b = fn->entry; b; b = b->next)
            for (IrIns *i = b->first, *next; i; i = next) {
                next = i->next;
                again |= fold_one(fn, i);
            }
        changed |= again;
    }
    return changed;
}

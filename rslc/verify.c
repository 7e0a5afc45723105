/*
** verify.c: the IR verifier, run after lowering and between passes in
** test builds (rslc --verify-ir, the pass tests). It checks what every
** pass promises to keep:
**
** - structure: each block ends in exactly one terminator and nothing
**   follows it; phis come first and have one operand per predecessor;
**   predecessor lists match the terminators' edges;
** - SSA: every operand is defined, and its definition dominates the use
**   (a phi's operand dominates the end of the matching predecessor);
** - types: operand counts and types as ops.h states them;
** - uniformity: a uniform value has no varying operand, and a uniform
**   branch has a uniform condition;
** - def-use chains: each operand is recorded among its value's uses.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "rslc/ir.h"

typedef struct Verifier {
    const IrFunc *fn;
    FILE *out;
    int errors;
} Verifier;

static void fail(Verifier *v, const IrIns *ins, const IrBlock *b, const char *fmt, ...)
{
    if (v->errors++ >= 20)
        return;
    fprintf(v->out, "verify: @%s", v->fn->name);
    if (b)
        fprintf(v->out, " @%d", b->id);
    if (ins)
        fprintf(v->out, " %s%%%d (%s)", ins->val.type.kind == IRT_VOID ? "void " : "",
                ins->val.id, ir_op_name(ins->op));
    fputs(": ", v->out);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(v->out, fmt, ap);
    va_end(ap);
    putc('\n', v->out);
}

static int successors(const IrIns *t)
{
    switch (t->op) {
    case IR_jmp: case IR_next: return 1;
    case IR_br: case IR_region: return 2;
    default: return 0;
    }
}

/* Does the edge list of b's predecessors match the terminators? */
static void check_edges(Verifier *v, const IrBlock *b)
{
    for (int p = 0; p < b->npreds; p++) {
        const IrBlock *q = b->preds[p];
        const IrIns *t = q->last;
        int edges = 0, listed = 0;
        for (int s = 0; t && s < successors(t); s++)
            edges += t->succ[s] == b;
        if (t && t->op == IR_region && v->fn->regions[t->imm].miss == b)
            edges++;
        for (int k = 0; k < b->npreds; k++)
            listed += b->preds[k] == q;
        if (edges != listed)
            fail(v, NULL, b, "predecessor @%d is listed %d times for %d edges", q->id, listed,
                 edges);
    }
}

static bool defined_in(const IrFunc *fn, const IrVal *val)
{
    const IrIns *d = (const IrIns *)val;
    return d->block && d->block->fn == fn;
}

static void check_operand(Verifier *v, const IrIns *ins, int k)
{
    const IrVal *a = ins->args[k];
    bool recorded = false;
    for (int u = 0; u < a->nuses; u++)
        recorded |= a->uses[u].user == ins && a->uses[u].index == k;
    if (!recorded)
        fail(v, ins, ins->block, "operand %d is missing from its value's uses", k);
    if (a->varying && !ins->val.varying && ins->val.type.kind != IRT_VOID
        && ins->op != IR_phi)
        fail(v, ins, ins->block, "uniform value with varying operand %d", k);
    if (a->kind != IRV_INS)
        return;
    const IrIns *d = (const IrIns *)a;
    if (!defined_in(v->fn, a)) {
        fail(v, ins, ins->block, "operand %%%d is not defined in this function", a->id);
        return;
    }
    const IrBlock *use = ins->block;
    if (ins->op == IR_phi) {
        if (k < use->npreds)
            use = use->preds[k];
        if (use->rpo >= 0 && d->block->rpo >= 0 && !ir_dominates(d->block, use))
            fail(v, ins, ins->block, "phi operand %%%d does not dominate predecessor @%d",
                 a->id, use->id);
        return;
    }
    if (use->rpo < 0 || d->block->rpo < 0)
        return;
    if (d->block == use) {
        for (const IrIns *i = d; i; i = i->next)
            if (i == ins)
                return;
        fail(v, ins, use, "operand %%%d is defined after its use", a->id);
    } else if (!ir_dominates(d->block, use)) {
        fail(v, ins, use, "operand %%%d (in @%d) does not dominate its use", a->id,
             d->block->id);
    }
}

static bool numeric(IrKind k)
{
    return k == IRT_FLOAT || k == IRT_MATRIX || ir_is_triple(k);
}

/* Operand types for the operators whose rules ops.h states. */
static void check_types(Verifier *v, const IrIns *ins)
{
    int n = ir_op_nargs(ins->op);
    if (n >= 0 && ins->nargs != n) {
        fail(v, ins, ins->block, "%d operands where %s takes %d", ins->nargs,
             ir_op_name(ins->op), n);
        return;
    }
    IrType t = ins->val.type;
    const IrVal *const *a = (const IrVal *const *)ins->args;
    switch (ins->op) {
    case IR_add: case IR_sub: case IR_mul: case IR_div:
        if (!numeric(t.kind) || t.arraylen || !ir_type_equal(a[0]->type, t)
            || !ir_type_equal(a[1]->type, t))
            fail(v, ins, ins->block, "%s of %s and %s into %s", ir_op_name(ins->op),
                 ir_type_name(a[0]->type).s, ir_type_name(a[1]->type).s, ir_type_name(t).s);
        break;
    case IR_neg: case IR_copy:
        if (!ir_type_equal(a[0]->type, t))
            fail(v, ins, ins->block, "%s of %s into %s", ir_op_name(ins->op),
                 ir_type_name(a[0]->type).s, ir_type_name(t).s);
        break;
    case IR_dot: case IR_cross:
        if (!ir_is_triple(a[0]->type.kind) || !ir_is_triple(a[1]->type.kind)
            || (ins->op == IR_dot ? t.kind != IRT_FLOAT : !ir_is_triple(t.kind)))
            fail(v, ins, ins->block, "%s needs triples", ir_op_name(ins->op));
        break;
    case IR_lt: case IR_le: case IR_gt: case IR_ge:
        if (t.kind != IRT_BOOL || a[0]->type.kind != IRT_FLOAT || a[1]->type.kind != IRT_FLOAT)
            fail(v, ins, ins->block, "ordered comparison of non-floats");
        break;
    case IR_eq: case IR_ne:
        if (t.kind != IRT_BOOL || a[0]->type.kind != a[1]->type.kind)
            fail(v, ins, ins->block, "equality of %s and %s", ir_type_name(a[0]->type).s,
                 ir_type_name(a[1]->type).s);
        break;
    case IR_and: case IR_or: case IR_not:
        for (int k = 0; k < ins->nargs; k++)
            if (a[k]->type.kind != IRT_BOOL)
                fail(v, ins, ins->block, "logic on a non-bool");
        break;
    case IR_select:
        if (a[0]->type.kind != IRT_BOOL || !ir_type_equal(a[1]->type, t)
            || !ir_type_equal(a[2]->type, t))
            fail(v, ins, ins->block, "select types");
        break;
    case IR_br:
        if (a[0]->type.kind != IRT_BOOL)
            fail(v, ins, ins->block, "branch on a non-bool");
        break;
    case IR_phi:
        for (int k = 0; k < ins->nargs; k++)
            if (!ir_type_equal(a[k]->type, t))
                fail(v, ins, ins->block, "phi operand %d is %s, not %s", k,
                     ir_type_name(a[k]->type).s, ir_type_name(t).s);
        break;
    default:
        break;
    }
}

static void check_block(Verifier *v, const IrBlock *b)
{
    if (!b->last || !(ir_op_flags(b->last->op) & OP_TERM)) {
        fail(v, NULL, b, "block does not end in a terminator");
        return;
    }
    bool phis = true;
    for (const IrIns *i = b->first; i; i = i->next) {
        if (i->block != b)
            fail(v, i, b, "instruction's block pointer is wrong");
        if ((ir_op_flags(i->op) & OP_TERM) && i != b->last)
            fail(v, i, b, "terminator in the middle of the block");
        if (i->op == IR_phi && !phis)
            fail(v, i, b, "phi after a non-phi");
        phis &= i->op == IR_phi;
        if (i->op == IR_phi && i->nargs != b->npreds)
            fail(v, i, b, "%d operands for %d predecessors", i->nargs, b->npreds);
        for (int k = 0; k < i->nargs; k++)
            check_operand(v, i, k);
        check_types(v, i);
        for (int s = 0; s < successors(i); s++)
            if (!i->succ[s] || i->succ[s]->fn != v->fn)
                fail(v, i, b, "successor %d is missing", s);
    }
    check_edges(v, b);
}

bool ir_verify(const IrFunc *fn, FILE *report)
{
    Verifier v = { fn, report ? report : stderr, 0 };
    ir_fill_rpo((IrFunc *)fn);
    ir_fill_dominators((IrFunc *)fn);
    if (!fn->entry)
        fail(&v, NULL, NULL, "no blocks");
    else if (fn->entry->npreds)
        fail(&v, NULL, fn->entry, "the entry block has predecessors");
    for (const IrBlock *b = fn->entry; b; b = b->next)
        check_block(&v, b);
    for (int r = 0; r < fn->nregions; r++) {
        const IrRegion *g = &fn->regions[r];
        if (g->header && (!g->header->last || g->header->last->op != IR_region
                          || g->header->last->imm != r))
            fail(&v, NULL, g->header, "region %d's header does not end in 'region %d'", r, r);
    }
    if (v.errors > 20)
        fprintf(v.out, "verify: @%s: %d more violations\n", fn->name, v.errors - 20);
    return v.errors == 0;
}

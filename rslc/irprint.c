/*
** irprint.c: the stable text form of the IR (--emit=ir, --print-after,
** the pass tests). irparse.c reads back exactly what this prints:
**
**   func @NAME KIND RETTYPE
**     param uniform|varying TYPE NAME [output] [= CONST]
**     region N KIND header @H body @B [miss @M] exit @E [category "C"]
**   @ID:
**     %ID = u|v TYPE OP OPERANDS        (a value)
**     OP OPERANDS                       (no value)
**   end
**
** Operands are %ID, @BLOCK, or constants: 2, -0.5, inf, nan, true,
** "text", color(1 0 0), matrix(16 numbers), float[3](1 2 3), undef:TYPE.
** An opcode's immediate comes first: "param 0", "gget P", "gset Ci, %4",
** "pset 1, %4", "intrin length %2", "call @f %1", "callout 1, %3",
** "light 0", "region 0, %1, @2, @3". Phi operands pair a value with the
** block it comes from: "phi %3 @1, %7 @2". Floats print with the fewest
** digits that read back to the same float.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rslc/builtins.h"
#include "rslc/ir.h"

const char *ir_region_kind_name(IrRegionKind k)
{
    static const char names[][12] = { "illuminance", "illuminate", "solar", "gather" };
    return names[k];
}

static void print_float(FILE *out, float f)
{
    if (isnan(f)) {
        fputs("nan", out);
        return;
    }
    if (isinf(f)) {
        fputs(f < 0 ? "-inf" : "inf", out);
        return;
    }
    char buf[32];
    if (f == truncf(f) && fabsf(f) < 1e9f) { /* integers in full: 10, not 1e+01 */
        fprintf(out, "%.0f", (double)f);
        return;
    }
    for (int prec = 1; prec <= 9; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, (double)f);
        if (strtof(buf, NULL) == f)
            break;
    }
    fputs(buf, out);
}

static void print_floats(FILE *out, const float *f, int n)
{
    putc('(', out);
    for (int i = 0; i < n; i++) {
        if (i)
            putc(' ', out);
        print_float(out, f[i]);
    }
    putc(')', out);
}

void ir_print_value(FILE *out, const IrVal *v)
{
    const IrConst *k = (const IrConst *)v;
    int per = v->type.kind == IRT_MATRIX ? 16 : ir_is_triple(v->type.kind) ? 3 : 1;
    switch (v->kind) {
    case IRV_INS:
        fprintf(out, "%%%d", v->id);
        return;
    case IRV_UNDEF:
        fprintf(out, "undef:%s", ir_type_name(v->type).s);
        return;
    case IRV_CONST:
        break;
    }
    if (v->type.arraylen) {
        fputs(ir_type_name(v->type).s, out);
        if (v->type.kind == IRT_STRING)
            fputs("()", out);
        else
            print_floats(out, k->fa, per * v->type.arraylen);
    } else if (v->type.kind == IRT_BOOL) {
        fputs(k->f[0] != 0 ? "true" : "false", out);
    } else if (v->type.kind == IRT_FLOAT) {
        print_float(out, k->f[0]);
    } else if (v->type.kind == IRT_STRING) {
        ast_print_string(out, k->s ? k->s : "");
    } else {
        fputs(ir_kind_name(v->type.kind), out);
        print_floats(out, k->f, per);
    }
}

/* The immediate an opcode prints before its operands, if any. */
static bool print_imm(FILE *out, const IrIns *i)
{
    switch (i->op) {
    case IR_param: case IR_light: case IR_pset: case IR_callout: case IR_region:
        fprintf(out, " %d", i->imm);
        return true;
    case IR_gget: case IR_gset:
        fprintf(out, " %s", i->sym);
        return true;
    case IR_intrin:
        fprintf(out, " %s%s", builtin_fn_names[builtin_rows[i->imm].fn],
                i->pin == IR_PIN_VARYING ? " pervarying" : i->pin == IR_PIN_UNIFORM ? " peruniform" : "");
        return false;  /* "intrin sin %1": no comma after the name */
    case IR_call:
        fprintf(out, " @%s", i->callee ? i->callee->name : i->sym);
        return false;
    default:
        return false;
    }
}

static void print_ins(FILE *out, const IrIns *i)
{
    fputs("  ", out);
    if (i->val.type.kind != IRT_VOID)
        fprintf(out, "%%%d = %c %s ", i->val.id, i->val.varying ? 'v' : 'u',
                ir_type_name(i->val.type).s);
    fputs(ir_op_name(i->op), out);
    bool comma = print_imm(out, i);
    for (int k = 0; k < i->nargs; k++) {
        fputs(comma ? ", " : " ", out);
        comma = true;
        ir_print_value(out, i->args[k]);
        if (i->op == IR_phi && k < i->block->npreds)
            fprintf(out, " @%d", i->block->preds[k]->id);
    }
    int nsucc = i->op == IR_br || i->op == IR_region ? 2 : i->op == IR_jmp || i->op == IR_next;
    for (int s = 0; s < nsucc; s++) {
        fputs(comma ? ", " : " ", out);
        comma = true;
        fprintf(out, "@%d", i->succ[s] ? i->succ[s]->id : -1);
    }
    putc('\n', out);
}

void ir_print_func(FILE *out, const IrFunc *fn)
{
    fprintf(out, "func @%s %s %s\n", fn->name, shader_kind_name(fn->kind), ir_type_name(fn->ret).s);
    for (int p = 0; p < fn->nparams; p++) {
        const IrParam *q = &fn->params[p];
        fprintf(out, "  param %s %s %s%s", q->varying ? "varying" : "uniform",
                ir_type_name(q->type).s, q->name, q->output ? " output" : "");
        if (q->def) {
            fputs(" = ", out);
            ir_print_value(out, &q->def->val);
        }
        putc('\n', out);
    }
    for (int r = 0; r < fn->nregions; r++) {
        const IrRegion *g = &fn->regions[r];
        if (!g->header)
            continue;
        fprintf(out, "  region %d %s header @%d body @%d", r, ir_region_kind_name(g->kind),
                g->header->id, g->body->id);
        if (g->miss)
            fprintf(out, " miss @%d", g->miss->id);
        fprintf(out, " exit @%d", g->exit->id);
        if (g->category) {
            fputs(" category ", out);
            ast_print_string(out, g->category);
        }
        putc('\n', out);
    }
    for (const IrBlock *b = fn->entry; b; b = b->next) {
        fprintf(out, "@%d:\n", b->id);
        for (const IrIns *i = b->first; i; i = i->next)
            print_ins(out, i);
    }
    fputs("end\n", out);
}

void ir_print_module(FILE *out, const IrModule *m)
{
    for (int i = 0; i < m->nfuncs; i++)
        ir_print_func(out, m->funcs[i]);
}

/*
** verify.c: static checks of a bytecode program against opcodes.h. Each
** opcode's operand widths are derived here from its W, in one place, and
** every register an instruction can touch is checked against its file.
*/
#include <stdarg.h>
#include <stdio.h>

#include "vm/verify.h"

typedef struct Checker {
    const VmProgram *p;
    uint32_t pc;
    char *err;
    int errlen;
} Checker;

static int bad(Checker *c, const char *fmt, ...)
{
    if (c->err && c->errlen > 0) {
        int n = snprintf(c->err, (size_t)c->errlen, "invalid bytecode at instruction %u (%s): ",
                         c->pc, vm_op(c->p->code[c->pc]) < VM_NOPS
                                    ? vm_op_names[vm_op(c->p->code[c->pc])] : "?");
        if (n > 0 && n < c->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(c->err + n, (size_t)(c->errlen - n), fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

/* Register r holds `width` consecutive slots inside its file. */
static int reg(Checker *c, unsigned r, unsigned width, const char *what)
{
    uint32_t size = r & VM_V ? c->p->nvarying : c->p->nuniform;
    if (VM_SLOT(r) + width > size)
        return bad(c, "%s register %s%u (+%u) outside the %s file of %u slots", what,
                   r & VM_V ? "v" : "u", VM_SLOT(r), width, r & VM_V ? "varying" : "uniform",
                   size);
    return 0;
}

/* A uniform destination may only be computed from uniform sources. */
static int uniformity(Checker *c, unsigned a, const unsigned *srcs, int n)
{
    if (a & VM_V)
        return 0;
    for (int i = 0; i < n; i++)
        if (srcs[i] & VM_V)
            return bad(c, "uniform destination u%u computed from varying v%u", VM_SLOT(a),
                       VM_SLOT(srcs[i]));
    return 0;
}

static bool width_ok(unsigned w)
{
    return w == 1 || w == 3 || w == 16;
}

/* The X word following the instruction at pc. */
static int xword(Checker *c, VmIns *x)
{
    if (c->pc + 1 >= c->p->ncode || vm_op(c->p->code[c->pc + 1]) != VM_OP_X)
        return bad(c, "missing its X word");
    *x = c->p->code[c->pc + 1];
    return 0;
}

/* Checks one instruction; returns how many words it takes, or -1. */
static int check_ins(Checker *c)
{
    VmIns ins = c->p->code[c->pc], x = 0;
    VmOp op = vm_op(ins);
    unsigned w = vm_w(ins), a = vm_a(ins), b = vm_b(ins), cc = vm_c(ins);
    unsigned srcs[3] = { b, cc, 0 };
    switch (op) {
    case VM_OP_NOP:
    case VM_OP_X:
    case VM_OP_MASKALL:
    case VM_OP_RET:
        return 1;
    case VM_OP_MOV: /* moves whole arrays and tuples too */
    case VM_OP_NEG:
    case VM_OP_RSQRT:
    case VM_OP_NORM:
    case VM_OP_SPLAT:
        if (op == VM_OP_MOV ? w < 1 : op == VM_OP_NORM ? w != 3 : !width_ok(w))
            return bad(c, "width %u", w);
        if (reg(c, a, w, "destination") || reg(c, b, op == VM_OP_SPLAT ? 1 : w, "source")
            || uniformity(c, a, srcs, 1))
            return -1;
        return 1;
    case VM_OP_ADD:
    case VM_OP_SUB:
    case VM_OP_MUL:
    case VM_OP_DIV:
    case VM_OP_MADD:
        if (!width_ok(w))
            return bad(c, "width %u", w);
        if (reg(c, a, w, "destination") || reg(c, b, w, "source") || reg(c, cc, w, "source")
            || uniformity(c, a, srcs, 2))
            return -1;
        return 1;
    case VM_OP_MULM:
    case VM_OP_DIVM:
    case VM_OP_DOT:
    case VM_OP_DOTRSQ:
    case VM_OP_CROSS: {
        unsigned ws = op == VM_OP_MULM || op == VM_OP_DIVM ? 16 : 3;
        unsigned wd = op == VM_OP_DOT || op == VM_OP_DOTRSQ ? 1 : ws;
        if (reg(c, a, wd, "destination") || reg(c, b, ws, "source") || reg(c, cc, ws, "source")
            || uniformity(c, a, srcs, 2))
            return -1;
        return 1;
    }
    case VM_OP_LT:
    case VM_OP_LE:
    case VM_OP_AND:
    case VM_OP_OR:
    case VM_OP_NOT:
    case VM_OP_EQ:
    case VM_OP_NE: {
        bool eq = op == VM_OP_EQ || op == VM_OP_NE;
        if (eq ? w != 0 && !width_ok(w) : w != 1)
            return bad(c, "width %u", w);
        unsigned ws = w ? w : 1;
        if (!eq && w == 0)
            return bad(c, "width 0");
        int nsrc = op == VM_OP_NOT ? 1 : 2;
        if (reg(c, a, 1, "destination") || reg(c, b, ws, "source")
            || (nsrc == 2 && reg(c, cc, ws, "source")) || uniformity(c, a, srcs, nsrc))
            return -1;
        return 1;
    }
    case VM_OP_SEL:
        if (!width_ok(w))
            return bad(c, "width %u", w);
        if (xword(c, &x))
            return -1;
        srcs[2] = vm_a(x);
        if (reg(c, a, w, "destination") || reg(c, b, 1, "condition") || reg(c, cc, w, "source")
            || reg(c, srcs[2], w, "source") || uniformity(c, a, srcs, 3))
            return -1;
        return 2;
    case VM_OP_AGET:
    case VM_OP_ASET: {
        if (!width_ok(w))
            return bad(c, "width %u", w);
        if (xword(c, &x))
            return -1;
        bool set = op == VM_OP_ASET;
        unsigned len = set ? vm_b(x) : vm_a(x);
        if (len == 0)
            return bad(c, "array of length 0");
        srcs[2] = vm_a(x);
        if (reg(c, a, set ? len * w : w, "destination") || reg(c, b, len * w, "array")
            || reg(c, cc, 1, "index") || (set && reg(c, srcs[2], w, "value"))
            || uniformity(c, a, srcs, set ? 3 : 2))
            return -1;
        return 2;
    }
    case VM_OP_CALLB:
        if (w < 1 || w > VM_MAX_VALUE)
            return bad(c, "width %u", w);
        if (b >= c->p->nbuiltins)
            return bad(c, "builtin %u of %u", b, c->p->nbuiltins);
        if (cc > VM_MAX_ARGS || c->pc + 1 + cc > c->p->ncode)
            return bad(c, "%u arguments", cc);
        if (reg(c, a, w, "destination"))
            return -1;
        for (unsigned k = 0; k < cc; k++) {
            x = c->p->code[c->pc + 1 + k];
            unsigned r = vm_a(x), n = vm_b(x);
            if (vm_op(x) != VM_OP_X)
                return bad(c, "argument %u is not an X word", k);
            if (n < 1 || n > VM_MAX_VALUE)
                return bad(c, "argument %u has width %u", k, n);
            if (reg(c, r, n, "argument") || uniformity(c, a, &r, 1))
                return -1;
        }
        return 1 + (int)cc;
    case VM_OP_DERIV:
        if (w != 1 && w != 3)
            return bad(c, "width %u", w);
        if (!(a & VM_V) || !(b & VM_V) || cc > 1)
            return bad(c, "DERIV needs varying registers and a direction of 0 or 1");
        return reg(c, a, w, "destination") || reg(c, b, w, "source") ? -1 : 1;
    case VM_OP_MASK:
        if (!(a & VM_V))
            return bad(c, "mask register must be varying");
        return reg(c, a, 1, "mask") ? -1 : 1;
    case VM_OP_JMP:
    case VM_OP_JZ:
    case VM_OP_JNZ:
    case VM_OP_JNONE:
        if (vm_t(ins) >= c->p->ncode)
            return bad(c, "jump to %u of %u", vm_t(ins), c->p->ncode);
        if (op == VM_OP_JNONE && !(a & VM_V))
            return bad(c, "JNONE needs a varying condition");
        if ((op == VM_OP_JZ || op == VM_OP_JNZ) && (a & VM_V))
            return bad(c, "uniform jump on a varying condition");
        if (op != VM_OP_JMP && reg(c, a, 1, "condition"))
            return -1;
        return 1;
    default:
        return bad(c, "unknown opcode %u", (unsigned)op);
    }
}

int vm_verify(const VmProgram *p, char *err, int errlen)
{
    Checker c = { p, 0, err, errlen };
    if (p->ncode == 0) {
        snprintf(err, (size_t)errlen, "invalid bytecode: no instructions");
        return -1;
    }
    if (p->nuniform && !p->uniform_init) {
        snprintf(err, (size_t)errlen, "invalid bytecode: no initial uniform values");
        return -1;
    }
    for (uint32_t k = 0; k < p->nvarying_init; k++)
        if (p->varying_init[k].slot >= p->nvarying) {
            snprintf(err, (size_t)errlen, "invalid bytecode: initial value for varying slot %u "
                     "of %u", p->varying_init[k].slot, p->nvarying);
            return -1;
        }
    while (c.pc < p->ncode) {
        int n = check_ins(&c);
        if (n < 0)
            return -1;
        c.pc += (uint32_t)n;
    }
    /* Execution never falls off the end: the last word ends the code. */
    c.pc = p->ncode - 1;
    VmOp last = vm_op(p->code[c.pc]);
    if (last != VM_OP_RET && last != VM_OP_JMP)
        return bad(&c, "the code must end with RET or JMP");
    return 0;
}

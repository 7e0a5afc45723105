/*
** ops.h: the IR opcode table (an X-macro, QBE style).
**
** One line per opcode: name, number of operands (-1 = variable), and
** property flags. Every backend (bytecode VM, LLVM x86-64, LLVM NVPTX)
** lowers exactly these operations; passes read the flags instead of
** listing opcodes.
**
**   PURE   no side effects: may be removed if unused, moved, or merged
**   FOLD   constant folding knows it when all operands are constants
**   COMM   commutative in its two operands
**   TERM   ends a block (exactly one per block, last)
**   SIDE   has an effect beyond its result (never removed, never moved)
**
** Operand types are checked by the verifier: arithmetic ops take operands
** of the instruction's own type (float, or one triple type, or matrix)
** except where noted. Comparisons produce IR_BOOL; branches take IR_BOOL.
**
** ORDER OP: op_names in ir.c is generated from this table.
*/
#ifndef RSLC_OPS_H
#define RSLC_OPS_H

#define OP_PURE 1u
#define OP_FOLD 2u
#define OP_COMM 4u
#define OP_TERM 8u
#define OP_SIDE 16u

/*   name        args flags                                 semantics */
#define IR_OPS(X) \
    X(nop,         0, OP_PURE)                            /* nothing */ \
    X(copy,        1, OP_PURE | OP_FOLD)                  /* r = a */ \
    X(phi,        -1, OP_PURE)                            /* r = args[i] when entered from preds[i] */ \
    X(add,         2, OP_PURE | OP_FOLD | OP_COMM)        /* r = a + b */ \
    X(sub,         2, OP_PURE | OP_FOLD)                  /* r = a - b */ \
    X(mul,         2, OP_PURE | OP_FOLD | OP_COMM)        /* r = a * b (componentwise; matrix: product) */ \
    X(div,         2, OP_PURE | OP_FOLD)                  /* r = a / b (matrix: a * inverse(b)) */ \
    X(neg,         1, OP_PURE | OP_FOLD)                  /* r = -a */ \
    X(dot,         2, OP_PURE | OP_FOLD | OP_COMM)        /* float r = a . b (triples) */ \
    X(cross,       2, OP_PURE | OP_FOLD)                  /* r = a ^ b (triples) */ \
    X(lt,          2, OP_PURE | OP_FOLD)                  /* bool r = a < b (floats) */ \
    X(le,          2, OP_PURE | OP_FOLD)                  /* bool r = a <= b */ \
    X(gt,          2, OP_PURE | OP_FOLD)                  /* bool r = a > b */ \
    X(ge,          2, OP_PURE | OP_FOLD)                  /* bool r = a >= b */ \
    X(eq,          2, OP_PURE | OP_FOLD | OP_COMM)        /* bool r = a == b (any non-array type) */ \
    X(ne,          2, OP_PURE | OP_FOLD | OP_COMM)        /* bool r = a != b */ \
    X(and,         2, OP_PURE | OP_FOLD | OP_COMM)        /* bool r = a && b (both evaluated) */ \
    X(or,          2, OP_PURE | OP_FOLD | OP_COMM)        /* bool r = a || b (both evaluated) */ \
    X(not,         1, OP_PURE | OP_FOLD)                  /* bool r = !a */ \
    X(select,      3, OP_PURE | OP_FOLD)                  /* r = a ? b : c (a bool) */ \
    X(splat,       1, OP_PURE | OP_FOLD)                  /* triple r = (a, a, a); matrix r = a * identity */ \
    X(retype,      1, OP_PURE | OP_FOLD)                  /* r = a as another triple type (point <-> vector ...) */ \
    X(triple,      3, OP_PURE | OP_FOLD)                  /* triple r = (a, b, c) */ \
    X(matrix,     16, OP_PURE | OP_FOLD)                  /* matrix r from 16 floats, row major */ \
    X(aget,        2, OP_PURE | OP_FOLD)                  /* r = a[b]; index clamped to the array */ \
    X(aset,        3, OP_PURE)                            /* array r = a with r[b] = c */ \
    X(param,       0, OP_PURE)                            /* r = the function's or shader's parameter `imm` */ \
    X(gget,        0, OP_PURE)                            /* r = shader global `sym` on entry */ \
    X(gset,        1, OP_SIDE)                            /* shader global `sym` = a on exit */ \
    X(pset,        1, OP_SIDE)                            /* output parameter `imm` = a on exit */ \
    X(intrin,     -1, 0)                                  /* r = builtin row `imm`(args, implicit args); flags from its class */ \
    X(call,       -1, OP_SIDE)                            /* r = user function `sym`(args) */ \
    X(callout,     1, OP_PURE)                            /* r = output argument `imm` of the call a */ \
    X(light,       0, OP_PURE)                            /* r = per-light value `imm` (L, Cl, Ol) in a light region */ \
    X(jmp,         0, OP_TERM)                            /* goto s[0] */ \
    X(br,          1, OP_TERM)                            /* if a goto s[0] else s[1] */ \
    X(ret,        -1, OP_TERM)                            /* return [a] */ \
    X(region,     -1, OP_TERM)                            /* region `imm` (args as in RSL): s[0] its body, s[1] after it */ \
    X(next,        0, OP_TERM)                            /* end of one pass over a region body: goto s[0] */

typedef enum IrOp {
#define X(name, nargs, flags) IR_##name,
    IR_OPS(X)
#undef X
    IR_NOPS
} IrOp;

#endif /* RSLC_OPS_H */

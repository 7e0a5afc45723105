/*
** opcodes.h: the bytecode of the RSL VM. This table is the instruction
** set; vm.c executes it, the code generator emits it, the loader verifies
** it and the disassembler prints it.
**
** An instruction is 64 bits:
**
**    63        48 47        32 31        16 15      8 7       0
**   +------------+------------+------------+---------+---------+
**   |     C      |     B      |     A      |    W    |   OP    |
**   +------------+------------+------------+---------+---------+
**                |<------ T (jump target) ->|
**
** OP is the opcode, W its width: the number of float components of the
** values it moves (1 float or bool, 3 triple, 16 matrix; per opcode
** below). A, B, C are operands. An operand is a register: bit 15 set
** (VM_V) selects the varying file, and the low 15 bits the slot. A
** uniform slot is one float; a varying slot holds one float per lane of
** the batch, lanes contiguous (SoA). A value of w components takes w
** consecutive slots of its file. A string's slot holds its index in the
** run's string table (strings.h), where every string is interned.
**
** Batches and masks: each instruction runs over the whole batch of
** shading points. An instruction whose destination A is uniform computes
** one value (its sources are uniform too: the verifier checks it). One
** whose destination is varying computes every lane but writes only the
** lanes of the execution mask; its uniform sources are broadcast. The
** execution mask is the lanes the caller asked for ANDed with the mask
** register last selected by MASK: code for a varying branch computes
** each block's mask as a varying bool and selects it before the block's
** instructions. Writing only masked lanes is what makes a phi a set of
** masked moves, one on each incoming edge.
**
** A lowercase k in the operand shapes is a constant in C's field, not a
** register.
**
** Derivatives: DERIV reads B at every lane's two neighbours, which the
** caller describes in VmState.deriv (vm.h) with their offsets in (u, v),
** and solves the two differences for the derivative along u or v. B is varying;
** values in lanes the mask excludes are whatever they last held, so a
** derivative inside a varying branch is only as good as RSL promises.
**
** Bools are floats 0 and 1. Jumps use T = B | C << 16, an absolute
** instruction index. An X word (OP = VM_OP_X) carries the extra operands
** of the instruction before it in its A, B, C fields.
**
** ORDER OP: vm_op_names in opcodes.c follows this table.
*/
#ifndef RSL_OPCODES_H
#define RSL_OPCODES_H

#include <stdint.h>

typedef uint64_t VmIns;

#define VM_V 0x8000u              /* operand bit: varying register */
#define VM_SLOT(r) ((r) & 0x7fffu)

/*     name   operands  semantics (w = W; "A" means A's w slots) */
#define VM_OPS(X) \
    X(NOP,    "",       "nothing") \
    X(X,      "ABC",    "extra operands of the previous instruction") \
    X(MOV,    "AB",     "A = B") \
    X(SPLAT,  "AB",     "A[i] = B[0] for i < w") \
    X(ADD,    "ABC",    "A = B + C, componentwise") \
    X(SUB,    "ABC",    "A = B - C") \
    X(MUL,    "ABC",    "A = B * C, componentwise") \
    X(DIV,    "ABC",    "A = B / C, componentwise") \
    X(MADD,   "ABC",    "A = A + B * C, componentwise (fused mul+add)") \
    X(NEG,    "AB",     "A = -B") \
    X(MULM,   "ABC",    "A = B * C, 4x4 matrices (w = 16)") \
    X(DIVM,   "ABC",    "A = B * inverse(C), 4x4 matrices (w = 16)") \
    X(DOT,    "ABC",    "A(1) = B . C (w = 3)") \
    X(DOTRSQ, "ABC",    "A(1) = 1 / sqrt(B . C) (w = 3; fused DOT + RSQRT)") \
    X(RSQRT,  "AB",     "A = 1 / sqrt(B), componentwise") \
    X(NORM,   "AB",     "A = B / length(B) (w = 3)") \
    X(CROSS,  "ABC",    "A = B x C (w = 3)") \
    X(LT,     "ABC",    "A(1) = B < C (w = 1)") \
    X(LE,     "ABC",    "A(1) = B <= C") \
    X(EQ,     "ABC",    "A(1) = all w components of B and C equal (w = 0: strings)") \
    X(NE,     "ABC",    "A(1) = not EQ") \
    X(AND,    "ABC",    "A(1) = B && C (bools)") \
    X(OR,     "ABC",    "A(1) = B || C") \
    X(NOT,    "AB",     "A(1) = !B") \
    X(SEL,    "ABC+D",  "A = B ? C : D (B a bool; D in the X word's A)") \
    X(AGET,   "ABC+N",  "A = B[C], elements of w, index clamped to [0, N)") \
    X(ASET,   "ABC+DN", "A = B with A[C] = D, elements of w, N elements") \
    X(CALLB,  "AB+...", "A = builtin B(args), args listed in X words; W = the result's width") \
    X(DERIV,  "ABk",    "A = dB/du (k = 0) or dB/dv (k = 1) from each lane's neighbour") \
    X(MASK,   "A",      "execution mask = requested lanes & A (varying bool)") \
    X(MASKALL,"",       "execution mask = requested lanes") \
    X(JMP,    "T",      "goto T") \
    X(JZ,     "AT",     "if A == 0 goto T (A uniform)") \
    X(JNZ,    "AT",     "if A != 0 goto T (A uniform)") \
    X(JNONE,  "AT",     "if no requested lane has A set, goto T (A varying)") \
    X(RET,    "",       "end of the shader")

typedef enum VmOp {
#define X(name, operands, semantics) VM_OP_##name,
    VM_OPS(X)
#undef X
    VM_NOPS
} VmOp;

static inline VmIns vm_ins(VmOp op, unsigned w, unsigned a, unsigned b, unsigned c)
{
    return (VmIns)op | (VmIns)(w & 0xff) << 8 | (VmIns)(a & 0xffff) << 16
         | (VmIns)(b & 0xffff) << 32 | (VmIns)(c & 0xffff) << 48;
}
static inline VmIns vm_jump(VmOp op, unsigned a, uint32_t target)
{
    return (VmIns)op | (VmIns)(a & 0xffff) << 16 | (VmIns)target << 32;
}
static inline VmOp vm_op(VmIns i) { return (VmOp)(i & 0xff); }
static inline unsigned vm_w(VmIns i) { return (unsigned)(i >> 8 & 0xff); }
static inline unsigned vm_a(VmIns i) { return (unsigned)(i >> 16 & 0xffff); }
static inline unsigned vm_b(VmIns i) { return (unsigned)(i >> 32 & 0xffff); }
static inline unsigned vm_c(VmIns i) { return (unsigned)(i >> 48 & 0xffff); }
static inline uint32_t vm_t(VmIns i) { return (uint32_t)(i >> 32); }

extern const char *const vm_op_names[VM_NOPS];
/* The modelled latency of an opcode moving w components, in cycles: an
   in-order machine issues one instruction a cycle and waits for its
   operands. */
unsigned vm_op_latency(VmOp op, unsigned w);
/* The operand letters of each opcode, as in the table ("ABC+D"). */
extern const char *const vm_op_operands[VM_NOPS];

#endif /* RSL_OPCODES_H */

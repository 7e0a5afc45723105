/*
** opcodes.c: the opcode names and operand shapes, from the table in
** opcodes.h, for the disassembler and the verifier; and the latency
** model that the compiler's scheduler and the VM's cycle count share.
*/
#include "vm/opcodes.h"

const char *const vm_op_names[VM_NOPS] = {
#define X(name, operands, semantics) #name,
    VM_OPS(X)
#undef X
};

const char *const vm_op_operands[VM_NOPS] = {
#define X(name, operands, semantics) operands,
    VM_OPS(X)
#undef X
};

unsigned vm_op_latency(VmOp op, unsigned w)
{
    unsigned per = w > 1 ? (w >= 16 ? 4 : 2) : 1; /* wider values, more work */
    switch (op) {
    case VM_OP_DIV:
        return 8 * per;
    case VM_OP_MULM:
    case VM_OP_DIVM:
        return 16;
    case VM_OP_MUL:
    case VM_OP_MADD:
    case VM_OP_DOT:
    case VM_OP_CROSS:
        return 4 * per;
    case VM_OP_RSQRT:
        return 6 * per;
    case VM_OP_DOTRSQ:
    case VM_OP_NORM:
        return 10;
    case VM_OP_CALLB:
        return 20;
    case VM_OP_NOP:
    case VM_OP_X:
        return 0;
    default:
        return 2 * per;
    }
}

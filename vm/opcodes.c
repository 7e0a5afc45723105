/*
** opcodes.c: the opcode names and operand shapes, from the table in
** opcodes.h, for the disassembler and the verifier.
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

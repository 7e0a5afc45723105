/*
** verify.h: the bytecode verifier. The loader runs it on every program
** before the VM sees it, so the interpreter can trust what it reads: a
** corrupt or hostile object file gets an error, never a wild access.
*/
#ifndef RSL_VERIFY_H
#define RSL_VERIFY_H

#include "vm/vm.h"

/* Checks every instruction of p: known opcodes and widths, register
   operands inside their files (for the full width they move), uniform
   destinations fed only by uniform sources, X words where instructions
   need them, jumps inside the code, builtins and strings that exist, and
   no way to run past the end. Returns 0, or -1 with a message naming the
   instruction in err. */
int vm_verify(const VmProgram *p, char *err, int errlen);

#endif /* RSL_VERIFY_H */

/*
** builtins.h: binding the builtins a program calls to the runtime's
** implementations. An object names each by its row in
** runtime/builtins.def and the types the call passes (VmCallee, vm.h);
** the row's entry column picks the lane function.
*/
#ifndef RSL_BUILTINS_H
#define RSL_BUILTINS_H

#include "runtime/strings.h"
#include "vm/vm.h"

/* Checks every CALLB of p against the callee it names (p->nbuiltins of
   them, already verified in range): as many X words as the callee has
   arguments, each as wide as its argument's type (times its array
   length), since the builtins read their arguments by the callee's
   types. Returns 0, or -1 with "invalid bytecode at instruction N
   (CALLB): ..." in err. */
int vm_check_calls(const VmProgram *p, const VmCallee *callees, char *err, int errlen);

/* Fills out[0..n-1] for callees[0..n-1]; string values index strings (the
   program's table, vm_strings_new), and lighting builtins see the lights
   of host (none if NULL). Returns 0, or -1 with "builtin 'NAME' is not
   available in the VM runtime" (or why the callee is malformed) in err. */
int vm_bind_builtins(VmBuiltin *out, const VmCallee *callees, uint32_t n, VmStrings *strings,
                     const struct VmHost *host, char *err, int errlen);

/* Writes the callee as its function name, one type letter per argument
   ("[N]" after an array's, "&" after an output's, "|" before the implicit
   ones) and the result's letter: "noise(p)f", "diffuse(n|p)c". Returns the
   length snprintf would. For messages and the disassembler. */
int vm_callee_name(const VmCallee *c, char *buf, int len);

#endif /* RSL_BUILTINS_H */

/*
** builtins.h: binding the builtins a program calls (by name, in its
** object) to the runtime's implementations.
**
** Names carry the signature the compiler chose, so each overload binds to
** its own code: base "(" one letter per argument ")" result letter, with
** f float, c color, p point, v vector, n normal, m matrix, s string,
** b bool, x void, and "[N]" after an array argument's letter. Examples:
** "noise(p)f", "mix(ccf)c", "spline(ff[4])f".
*/
#ifndef RSL_BUILTINS_H
#define RSL_BUILTINS_H

#include "vm/vm.h"

/* Fills out[0..n-1] for names[0..n-1]; lighting builtins see the lights
   of host (none if NULL). Returns 0, or -1 with "builtin 'NAME' is not
   available in the VM runtime" (or a malformed name) in err. */
int vm_bind_builtins(VmBuiltin *out, const char *const *names, uint32_t n,
                     const char *const *strings, uint32_t nstrings, const struct VmHost *host,
                     char *err, int errlen);

#endif /* RSL_BUILTINS_H */

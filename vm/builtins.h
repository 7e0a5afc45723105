/*
** builtins.h: binding the builtins a program calls (by name, in its
** object) to the runtime's implementations.
**
** Names carry the signature the compiler chose, so each overload binds to
** its own code: base "(" one letter per argument ")" result letter, with
** f float, c color, p point, v vector, n normal, m matrix, s string,
** b bool, x void, "[N]" after an array argument's letter and "&" after
** an output argument's. A "|" separates the call's own arguments from
** those the code generator appends (the shading point for lighting,
** derivatives for area, filterstep and texture lookups). Examples:
** "noise(p)f", "mix(ccf)c", "spline(ff[4])f", "fresnel(vvff&f&)x"
** (returning a tuple, vm.h), "diffuse(n|p)c".
*/
#ifndef RSL_BUILTINS_H
#define RSL_BUILTINS_H

#include "runtime/strings.h"
#include "vm/vm.h"

/* Fills out[0..n-1] for names[0..n-1]; string values index strings (the
   program's table, vm_strings_new), and lighting builtins see the lights
   of host (none if NULL). Returns 0, or -1 with "builtin 'NAME' is not
   available in the VM runtime" (or a malformed name) in err. */
int vm_bind_builtins(VmBuiltin *out, const char *const *names, uint32_t n,
                     VmStrings *strings, const struct VmHost *host, char *err, int errlen);

#endif /* RSL_BUILTINS_H */

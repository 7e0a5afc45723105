/*
** strings.h: the string table a program runs with. A string value is an
** index into it (stored in a register slot's bits), and every string is
** interned, so two string values are equal exactly when their indexes
** are: the VM's EQ compares indexes. The program's own strings come
** first, in its order; strings the shader makes while it runs (concat,
** format) are added as they appear.
**
** Interning may run on several threads at once (the renderer shades
** tiles in parallel), and a string once returned stays valid and at the
** same index until the table is freed.
*/
#ifndef RSL_STRINGS_H
#define RSL_STRINGS_H

#include <stdint.h>

#include "runtime/color.h"
#include "runtime/mathlib.h"
#include "runtime/spline.h"

typedef struct VmStrings VmStrings;

/* What a string names as the value of a string option, resolved once when
   the string enters the table (the program's own when it is loaded, the
   others when made), so builtins compare no names per point. */
typedef struct VmStringOptions {
    RslSplineBasis basis;             /* spline's basis */
    RslFilter filter;                 /* filterstep's "filter" */
    RslColorSpace space;              /* ctransform's spaces */
} VmStringOptions;

/* A table holding init[0..n-1] at indexes 0..n-1 (duplicates in init
   keep their own indexes; lookups return the first). NULL if out of
   memory. */
VmStrings *vm_strings_new(const char *const *init, uint32_t n);
void vm_strings_free(VmStrings *t);

/* The index of s, adding a copy if it is new. UINT32_MAX only when out
   of memory or the table is full. */
uint32_t vm_strings_intern(VmStrings *t, const char *s);

/* The string at index i, or "" for an index the table does not hold. */
const char *vm_strings_get(const VmStrings *t, uint32_t i);
/* What the string at index i names (those of "" for an index the table
   does not hold). */
const VmStringOptions *vm_strings_options(const VmStrings *t, uint32_t i);

/* A string value in a register slot, and back. */
float vm_string_value(uint32_t index);
uint32_t vm_string_index(float value);

#endif /* RSL_STRINGS_H */

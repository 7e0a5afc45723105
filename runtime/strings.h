/*
** strings.h: the string table a program runs with. A string value is an
** index into it (stored in a register slot's bits), and every string is
** interned, so two string values are equal exactly when their indexes
** are: the VM's EQ compares indexes. The program's own strings come
** first, in its order; strings the shader makes while it runs (concat,
** format) are added as they appear.
**
** Shaders make strings at run time (concat(x, x) doubles x), so the
** table is bounded: one string at most VM_STRING_MAX bytes and all the
** strings of a table at most VM_STRINGS_MAX_BYTES, which keeps a runaway
** shader an error instead of a machine out of memory.
**
** Interning may run on several threads at once (the renderer shades
** tiles in parallel), and a string once returned stays valid and at the
** same index until the table is freed.
*/
#ifndef RSL_STRINGS_H
#define RSL_STRINGS_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/color.h"
#include "runtime/mathlib.h"
#include "runtime/spline.h"

typedef struct VmStrings VmStrings;

/* The option names of lookups (texture, environment, shadow: RISpec
   Table 15.1), rays (trace, occlusion, ...), gather and filterstep, and
   gather's categories. RSL_OPT_OUTPUT is any other name with a ':' (a
   gather output such as "surface:Ci"), RSL_OPT_OTHER any other string. */
typedef enum RslOptName {
    RSL_OPT_OTHER, RSL_OPT_BLUR, RSL_OPT_SBLUR, RSL_OPT_TBLUR, RSL_OPT_WIDTH, RSL_OPT_SWIDTH,
    RSL_OPT_TWIDTH, RSL_OPT_FILL, RSL_OPT_FILTER, RSL_OPT_SAMPLES, RSL_OPT_BIAS,
    RSL_OPT_CHANNEL, RSL_OPT_MAXDIST, RSL_OPT_CONEANGLE, RSL_OPT_RAY_ORIGIN,
    RSL_OPT_RAY_DIRECTION, RSL_OPT_RAY_LENGTH, RSL_OPT_OUTPUT, RSL_OPT_ILLUMINANCE,
    RSL_OPT_SAMPLEPATTERN
} RslOptName;

/* What a string names as the value of a string option, or as an
   option's name, resolved once when the string enters the table (the
   program's own when it is loaded, the others when made), so builtins
   compare no names per point. */
typedef struct VmStringOptions {
    RslSplineBasis basis;             /* spline's basis */
    RslFilter filter;                 /* filterstep's "filter" */
    RslColorSpace space;              /* ctransform's spaces */
    RslOptName option;                /* a call option's name */
} VmStringOptions;

/* The limits above, in bytes (not counting the terminating 0). */
#define VM_STRING_MAX (1u << 20)
#define VM_STRINGS_MAX_BYTES (64u << 20)

/* A table holding init[0..n-1] at indexes 0..n-1 (duplicates in init
   keep their own indexes; lookups return the first). NULL if out of
   memory. */
VmStrings *vm_strings_new(const char *const *init, uint32_t n);
void vm_strings_free(VmStrings *t);

/* The index of s, adding a copy if it is new. UINT32_MAX when s is
   longer than VM_STRING_MAX, when adding it would pass
   VM_STRINGS_MAX_BYTES or the table's count, or when out of memory. */
uint32_t vm_strings_intern(VmStrings *t, const char *s);

/* The bytes the table's strings take (what VM_STRINGS_MAX_BYTES bounds). */
size_t vm_strings_bytes(VmStrings *t);

/* The string at index i, or "" for an index the table does not hold. */
const char *vm_strings_get(const VmStrings *t, uint32_t i);
/* What the string at index i names (those of "" for an index the table
   does not hold). */
const VmStringOptions *vm_strings_options(const VmStrings *t, uint32_t i);

/* A string value in a register slot, and back. */
float vm_string_value(uint32_t index);
uint32_t vm_string_index(float value);

#endif /* RSL_STRINGS_H */

/*
** shadesys_spec.h: what instance specialisation needs from a render
** (shadesys_spec.c), for shadesys_vm.c: the constants of one instance
** as rslc's specialize pass takes them, with a key that identical
** instances share; and which parameters a frame's primitives override,
** which must stay variables.
*/
#ifndef RT_RENDER_SHADESYS_SPEC_H
#define RT_RENDER_SHADESYS_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "render/rib/scene.h"
#include "rslc/passes.h"
#include "vm/object.h"

/* Past this many distinct instances of one shader, the others share its
   generic code: a scene with a shader per primitive (each its own
   colour) would otherwise JIT-compile as many times. */
enum { SPEC_MAX_VARIANTS = 16 };

/* An instance's constants. Zero-initialised: none. */
typedef struct InstanceSpec {
    IrSpec spec;           /* spec.p is p */
    IrSpecParam *p;
    char *key;             /* spec_key(): the constants as bytes */
    size_t keylen;
} InstanceSpec;

/* Adds parameter v's constant: slots floats at f, or the string s. */
void spec_add(InstanceSpec *is, const VmVar *v, const float *f, const char *s);
/* Makes the key from what was added: two instances with equal keys fold
   the same constants into the same shader. */
void spec_key(InstanceSpec *is);
void spec_free(InstanceSpec *is);

/* The names of a frame's primitive variables, which set the shader
   parameters named like them point by point (store_primvars). */
typedef struct PrimvarNames {
    const RibFrame *frame; /* whose names these are */
    const char **name;
    int n;
} PrimvarNames;

/* Whether a primitive of f has a primitive variable `name` (pn caches
   the names of the latest frame asked about). */
bool primvar_names_has(PrimvarNames *pn, const RibFrame *f, const char *name);
void primvar_names_free(PrimvarNames *pn);

#endif /* RT_RENDER_SHADESYS_SPEC_H */

/*
** check.h: semantic analysis of a parsed unit: names, scopes, types,
** overloads, uniform/varying, statement rules; and the shader globals
** each shader type may use.
*/
#ifndef RSLC_CHECK_H
#define RSLC_CHECK_H

#include "rslc/ast.h"

/* Resolves names and scopes, checks and infers types and uniform/varying
   details, fills Node.type/detail/sym/builtin, and reports every problem
   through rc's diagnostics. Returns true if there was no error. The
   symbols the nodes point at live in rc until check_free or the next
   check_unit. */
bool check_unit(RslcCtx *rc, Unit *unit);

/* Frees rc's symbols of the last checked unit (call with ast_free_all). */
void check_free(RslcCtx *rc);

/* ---- shader globals (globals.c) ---------------------------------------------- */

/* Masks of shader kinds, one bit per ShaderKind. */
#define SHADER_BIT(kind) (1u << (kind))

/* A predefined shader variable, as RISpec 3.2 section 12 lists them. */
typedef struct GlobalVar {
    char name[8];
    TypeBase type;
    Detail detail;
    unsigned read;      /* shader kinds that may read it */
    unsigned write;     /* shader kinds that may assign it */
    unsigned region;    /* kinds where it exists only inside a light region:
                           illuminance in surface and volume shaders,
                           illuminate or solar in light shaders */
} GlobalVar;

/* The shader global named name, or NULL. */
const GlobalVar *global_lookup(const char *name);
/* The i-th global (0 <= i < global_count()), for building scopes. */
const GlobalVar *global_at(int i);
int global_count(void);

#endif /* RSLC_CHECK_H */

/*
** builtins.h: the compiler's view of the builtin table
** (runtime/builtins.def, one row per overload): finding a function by
** name, decoding the signature codes the .def documents, matching
** arguments against them, and the option lists of the texture,
** ray-tracing and gather calls.
*/
#ifndef RSLC_BUILTINS_H
#define RSLC_BUILTINS_H

#include "rslc/ast.h"
#include "runtime/builtins.h"

/* One known option: its name, its value's type (TY_VOID: any type) and
   whether the value is an output variable. A name ending in ':' is a
   prefix ("surface:" matches "surface:Ci"). Names are held in place, not
   pointed to, here and in Builtin: a table of pointers needs relocating
   in a position-independent program, so it lands in writable data. */
typedef struct BuiltinOption {
    char name[20];
    TypeBase type;
    bool output;
} BuiltinOption;

/* A function: its overloads are the rows from first on whose fn is id. */
typedef struct Builtin {
    BuiltinId id;
    char name[16];
    BuiltinOptSet opts;
    BuiltinRowId first;
} Builtin;

/* The table, indexed by BuiltinId. */
extern const Builtin builtin_table[BI_COUNT];

/* The first overload's row of b, whose class and flags all of b's share. */
static inline const BuiltinRow *builtin_row(const Builtin *b)
{
    return &builtin_rows[b->first];
}

/* Returns the first function named name, or NULL if no builtin RSL may
   call has that name. */
const Builtin *builtin_find(const char *name);
/* Returns the next function after b with the same name, or NULL. */
const Builtin *builtin_next(const Builtin *b);

/* ---- signatures ------------------------------------------------------------- */

/* Calls with more arguments than this are rejected by the checker. */
#define BUILTIN_MAX_ARGS 64

/* A parameter of an overload. any: the '?' letter (type unused). */
typedef struct BuiltinParam {
    Type type;
    bool any;
    bool output;
} BuiltinParam;

/* One overload, decoded. tail is '\0', '.', '*' or '~'. */
typedef struct BuiltinSig {
    Type ret;
    int nparams;
    BuiltinParam param[BUILTIN_MAX_PARAMS];
    char tail;
} BuiltinSig;

/* builtin_code_next (runtime/builtins.h), the letters made types. */
bool builtin_sig_next(const char **cursor, BuiltinSig *sig);

/* Decodes overload *row of b into sig and steps *row on; false once *row
   is past b's overloads: for (int r = b->first; builtin_overload_next(b,
   &r, &sig);) visits them all. */
bool builtin_overload_next(const Builtin *b, int *row, BuiltinSig *sig);

/* The cost of passing an argument of type arg (which could also take the
   types in mask alt, as for builtin_sig_cost) to parameter p, or -1. */
int builtin_param_cost(const BuiltinParam *p, Type arg, unsigned alt);

/* Matches argument types against an overload: the total conversion cost
   (see type_convert_cost), or -1 if the arguments do not fit. Options
   (tail ~) must come in pairs whose names are strings; their values are
   checked separately against the option list. alt[i], if not NULL, is a
   bitmask (1u << TypeBase) of other types argument i could take instead
   (an untyped triple literal, a call whose result type follows context):
   a parameter whose type is in it costs nothing. */
int builtin_sig_cost(const BuiltinSig *sig, const Type *args,
                     const unsigned *alt, int nargs);

/* The parameter that argument i binds to (the repeated last parameter for
   a '.' tail), or NULL for arguments past the parameters of a '*' or '~'
   tail. */
const BuiltinParam *builtin_sig_param(const BuiltinSig *sig, int i);

/* Decodes the overload a checked N_CALL of a builtin resolved to: the
   cheapest overload of call->builtin returning call->type for the
   argument types. The checker uses this very function to settle its own
   choice, so the two always agree. Returns false if none fits. */
bool builtin_call_sig(const Node *call, BuiltinSig *sig);
/* builtin_call_sig, returning the overload's row (BuiltinRowId), or -1. */
int builtin_call_row(const Node *call, BuiltinSig *sig);

/* ---- options ------------------------------------------------------------------ */

/* The known option named name in set, or NULL. */
const BuiltinOption *builtin_option(BuiltinOptSet set, const char *name);

#endif /* RSLC_BUILTINS_H */

/*
** builtins.h: the builtin table of builtins.def as C: the enums of its
** columns, the function and row numbers, the rows themselves and their
** signature codes decoded to letters, for the compiler (rslc/builtins.h
** makes the letters types and matches calls) and for the VM's binder.
*/
#ifndef RSL_RUNTIME_BUILTINS_H
#define RSL_RUNTIME_BUILTINS_H

#include <stdbool.h>
#include <stdint.h>

/* What the optimiser may assume about a call (builtins.def, class). */
typedef enum BuiltinClass { BC_PURE, BC_SIDE, BC_DERIV, BC_LIGHT, BC_RENDER } BuiltinClass;

/* builtins.def, flags. */
#define BF_UNIFORM  1u
#define BF_VARYING  2u
#define BF_CHANNEL  4u
#define BF_INTERNAL 8u
#define BF_OUTDETAIL 16u

/* builtins.def, implicit: bits, and the order the arguments come in. */
#define IMP_P       1u
#define IMP_NG      2u
#define IMP_ST      4u
#define IMP_D(i)    (8u << (i))     /* i < 3 */
#define IMP_STEPS   64u

/* A signature code (builtins.def's signature column) decoded: the result
   letter, and per parameter its letter ('?': any type), whether an array
   ("[]") and whether an output ("&"); tail is '.', '*', '~' or '\0'. */
#define BUILTIN_MAX_PARAMS 16
typedef struct BuiltinCode {
    char result;
    int nparams;
    struct { char letter; bool array, output; } param[BUILTIN_MAX_PARAMS];
    char tail;
} BuiltinCode;

/* Decodes the code at *cursor (a list of codes separated by spaces, or a
   row's one) into code and advances *cursor past it and its separator.
   False at the end of the list or on a malformed code (then *cursor is
   left at the offending character, which is not '\0'). */
bool builtin_code_next(const char **cursor, BuiltinCode *code);

/* How many arguments the implicit bits stand for; at most
   BUILTIN_MAX_IMPLICIT. */
int builtin_implicit_count(unsigned implicit);
#define BUILTIN_MAX_IMPLICIT 16

/* The option lists that name/value pairs (tail ~) are checked against. */
typedef enum BuiltinOptSet {
    OPTS_NONE,
    OPTS_TEXTURE,     /* texture, environment: RISpec Table 15.1 */
    OPTS_SHADOW,      /* shadow: Table 15.1 plus Table 15.2 */
    OPTS_FILTERSTEP,  /* filterstep: "width", "filter" */
    OPTS_RAYTRACE,    /* occlusion, indirectdiffuse, transmission */
    OPTS_GATHER,      /* the gather statement */
    OPTS_NSETS
} BuiltinOptSet;

/* A function's number: the IR's intrinsic number. */
typedef enum BuiltinId {
#define BUILTIN_FN(id, name, opts) BI_##id,
#define BUILTIN(fn, row, sig, cls, flags, imp, entry)
#include "runtime/builtins.def"
    BI_COUNT
} BuiltinId;

/* An overload's row number. BO_FIRST_fn is the first row of function fn:
   each function opens with it and steps back one, so that its first
   overload's number is the same. */
typedef enum BuiltinRowId {
#define BUILTIN_FN(id, name, opts) BO_FIRST_##id, BO_FIRST_##id##_ = BO_FIRST_##id - 1,
#define BUILTIN(fn, row, sig, cls, flags, imp, entry) BO_##fn##_##row,
#include "runtime/builtins.def"
    BO_COUNT
} BuiltinRowId;

/* One row of builtins.def (the entry column is the binder's own). Strings
   are held in place: pointers would need relocating, which puts a table in
   writable data. */
typedef struct BuiltinRow {
    BuiltinId fn;
    char sig[16];
    BuiltinClass cls;
    unsigned flags;
    unsigned implicit;
} BuiltinRow;

/* The rows, indexed by BuiltinRowId. */
extern const BuiltinRow builtin_rows[BO_COUNT];
/* The functions' RSL names, indexed by BuiltinId. */
extern const char builtin_fn_names[BI_COUNT][16];

/* A hash of every row's function name, signature and implicit arguments,
   in order: an object records it, and the VM refuses an object compiled
   against another table (its rows would mean other builtins). */
uint32_t builtin_table_fingerprint(void);

#endif /* RSL_RUNTIME_BUILTINS_H */

/*
** builtins.c: the rows of builtins.def as data (builtins.h).
*/
#include "runtime/builtins.h"

const char builtin_fn_names[BI_COUNT][16] = {
#define BUILTIN_FN(id, name, opts) [BI_##id] = name,
#define BUILTIN(fn, row, sig, cls, flags, imp, entry)
#include "runtime/builtins.def"
};

const BuiltinRow builtin_rows[BO_COUNT] = {
#define BUILTIN_FN(id, name, opts)
#define BUILTIN(fn, row, sig, cls, flags, imp, entry) \
    [BO_##fn##_##row] = { BI_##fn, sig, cls, flags, imp },
#include "runtime/builtins.def"
};

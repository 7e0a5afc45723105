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

int builtin_implicit_count(unsigned implicit)
{
    int n = 0;
    n += implicit & IMP_P ? 1 : 0;
    n += implicit & IMP_NG ? 1 : 0;
    n += implicit & IMP_ST ? 2 + 4 : 0;   /* s, t, then Du and Dv of each */
    for (int i = 0; i < 3; i++)
        n += implicit & IMP_D(i) ? 2 : 0;
    n += implicit & IMP_STEPS ? 2 : 0;
    return n;
}

/*
** builtins.c: the rows of builtins.def as data (builtins.h), and the
** table's fingerprint.
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

/* FNV-1a over each row's function name and signature (each with its NUL,
   so "ab"+"c" differs from "a"+"bc") and implicit bits. */
uint32_t builtin_table_fingerprint(void)
{
    uint32_t h = 2166136261u;
    for (int r = 0; r < BO_COUNT; r++) {
        const char *parts[2] = { builtin_fn_names[builtin_rows[r].fn], builtin_rows[r].sig };
        for (int k = 0; k < 2; k++) {
            const char *c = parts[k];
            do
                h = (h ^ (unsigned char)*c) * 16777619u;
            while (*c++);
        }
        h = (h ^ builtin_rows[r].implicit) * 16777619u;
    }
    return h;
}

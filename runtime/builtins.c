/*
** builtins.c: the rows of builtins.def as data (builtins.h), decoding
** their signature codes, and the table's fingerprint.
*/
#include <string.h>

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

bool builtin_code_next(const char **cursor, BuiltinCode *code)
{
    const char *s = *cursor;
    memset(code, 0, sizeof *code);
    if (*s == '\0' || !strchr("fcpvnmsx", *s))
        return false;
    code->result = *s;
    for (s++; *s && *s != ' '; s++) {
        if (code->tail)
            return *cursor = s, false;     /* nothing may follow a tail */
        if (*s == '.' || *s == '*' || *s == '~') {
            if (*s == '.' && code->nparams == 0)
                return *cursor = s, false;
            code->tail = *s;
            continue;
        }
        if (code->nparams == BUILTIN_MAX_PARAMS || !strchr("fcpvnms?", *s))
            return *cursor = s, false;
        code->param[code->nparams].letter = *s;
        if (s[1] == '[' && s[2] == ']') {
            code->param[code->nparams].array = true;
            s += 2;
        }
        if (s[1] == '&') {
            code->param[code->nparams].output = true;
            s++;
        }
        code->nparams++;
    }
    *cursor = *s ? s + 1 : s;
    return true;
}

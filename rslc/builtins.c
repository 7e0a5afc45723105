/*
** builtins.c: the function table (expanded from runtime/builtins.def),
** decoding of its signature codes, argument matching, and the option
** lists of the texture, ray-tracing and gather calls.
*/
#include <string.h>

#include "rslc/builtins.h"

const Builtin builtin_table[BI_COUNT] = {
#define BUILTIN_FN(id, name, opts) \
    [BI_##id] = { BI_##id, name, opts, BO_FIRST_##id },
#define BUILTIN(fn, row, sig, cls, flags, imp, entry)
#include "runtime/builtins.def"
};

const Builtin *builtin_find(const char *name)
{
    for (int i = 0; i < BI_COUNT; i++)
        if (strcmp(builtin_table[i].name, name) == 0
            && !(builtin_row(&builtin_table[i])->flags & BF_INTERNAL))
            return &builtin_table[i];
    return NULL;
}

const Builtin *builtin_next(const Builtin *b)
{
    for (const Builtin *n = b + 1; n < builtin_table + BI_COUNT; n++)
        if (strcmp(n->name, b->name) == 0)
            return n;
    return NULL;
}

/* ---- signature codes ------------------------------------------------------- */

/* The base type of a type letter, or TY_ERROR if c is not one. */
static TypeBase letter_type(char c)
{
    switch (c) {
    case 'f': return TY_FLOAT;
    case 'c': return TY_COLOR;
    case 'p': return TY_POINT;
    case 'v': return TY_VECTOR;
    case 'n': return TY_NORMAL;
    case 'm': return TY_MATRIX;
    case 's': return TY_STRING;
    default:  return TY_ERROR;
    }
}

bool builtin_sig_next(const char **cursor, BuiltinSig *sig)
{
    BuiltinCode code;
    memset(sig, 0, sizeof *sig);
    if (!builtin_code_next(cursor, &code))
        return false;
    sig->ret = type_make(code.result == 'x' ? TY_VOID : letter_type(code.result));
    sig->nparams = code.nparams;
    sig->tail = code.tail;
    for (int i = 0; i < code.nparams; i++) {
        BuiltinParam *p = &sig->param[i];
        p->any = code.param[i].letter == '?';
        if (!p->any)
            p->type = type_make(letter_type(code.param[i].letter));
        if (code.param[i].array)
            p->type.arraylen = -1;
        p->output = code.param[i].output;
    }
    return true;
}

bool builtin_overload_next(const Builtin *b, int *row, BuiltinSig *sig)
{
    if (*row >= BO_COUNT || builtin_rows[*row].fn != b->id)
        return false;
    const char *code = builtin_rows[(*row)++].sig;
    return builtin_sig_next(&code, sig);
}

const BuiltinParam *builtin_sig_param(const BuiltinSig *sig, int i)
{
    if (i < sig->nparams)
        return &sig->param[i];
    if (sig->tail == '.')
        return &sig->param[sig->nparams - 1];
    return NULL;
}

int builtin_param_cost(const BuiltinParam *p, Type arg, unsigned alt)
{
    if (arg.base == TY_VOID || arg.base == TY_BOOL)
        return -1;
    if (p->any)
        return 0;
    if (p->type.arraylen == 0 && (alt & (1u << p->type.base)))
        return 0;
    int c = type_convert_cost(p->type, arg);
    /* An output argument is written back, so only a retyping between
       spatial triples is allowed, never a promotion. */
    return p->output && c > 1 ? -1 : c;
}

int builtin_sig_cost(const BuiltinSig *sig, const Type *args,
                     const unsigned *alt, int nargs)
{
    if (nargs < sig->nparams || (nargs > sig->nparams && !sig->tail))
        return -1;
    if (sig->tail == '~' && (nargs - sig->nparams) % 2 != 0)
        return -1;
    int total = 0;
    for (int i = 0; i < nargs; i++) {
        const BuiltinParam *p = builtin_sig_param(sig, i);
        int c;
        if (p) {
            c = builtin_param_cost(p, args[i], alt ? alt[i] : 0);
        } else {
            /* Option names must be strings; values are checked later. */
            bool is_name = sig->tail == '~' && (i - sig->nparams) % 2 == 0;
            bool ok = args[i].base != TY_VOID && args[i].base != TY_BOOL &&
                      (!is_name || args[i].base == TY_STRING);
            c = ok ? 0 : -1;
        }
        if (c < 0)
            return -1;
        total += c;
    }
    return total;
}

int builtin_call_row(const Node *call, BuiltinSig *sig)
{
    Type args[BUILTIN_MAX_ARGS];
    int nargs = 0;
    for (const Node *a = call->kid[0]; a && nargs < BUILTIN_MAX_ARGS; a = a->next)
        args[nargs++] = a->type;
    int best = -1, row = -1;
    BuiltinSig cand;
    for (int r = call->builtin->first; builtin_overload_next(call->builtin, &r, &cand);) {
        if (!type_equal(cand.ret, call->type))
            continue;
        int c = builtin_sig_cost(&cand, args, NULL, nargs);
        if (c >= 0 && (best < 0 || c < best)) {
            best = c;
            row = r - 1;
            *sig = cand;
        }
    }
    return row;
}

bool builtin_call_sig(const Node *call, BuiltinSig *sig)
{
    return builtin_call_row(call, sig) >= 0;
}

/* ---- options ------------------------------------------------------------------ */

/* RISpec Table 15.1, which applies to every texture access function. */
#define TEXTURE_OPTIONS \
    { "blur", TY_FLOAT, false }, { "sblur", TY_FLOAT, false }, \
    { "tblur", TY_FLOAT, false }, { "width", TY_FLOAT, false }, \
    { "swidth", TY_FLOAT, false }, { "twidth", TY_FLOAT, false }, \
    { "filter", TY_STRING, false }, { "fill", TY_FLOAT, false }, \
    { "samples", TY_FLOAT, false }, { "lerp", TY_FLOAT, false }

#define RAY_OPTIONS \
    { "bias", TY_FLOAT, false }, { "maxdist", TY_FLOAT, false }, \
    { "samplebase", TY_FLOAT, false }, { "label", TY_STRING, false }, \
    { "subset", TY_STRING, false }, { "hitmode", TY_STRING, false }, \
    { "hitsides", TY_STRING, false }, { "distribution", TY_STRING, false }

/* Each set ends at its first empty name. */
static const BuiltinOption option_sets[OPTS_NSETS][24] = {
    [OPTS_TEXTURE] = { TEXTURE_OPTIONS },
    /* Table 15.2 adds the shadow map's own parameters. */
    [OPTS_SHADOW] = { TEXTURE_OPTIONS, { "bias", TY_FLOAT, false } },
    [OPTS_FILTERSTEP] = { { "width", TY_FLOAT, false }, { "filter", TY_STRING, false } },
    [OPTS_RAYTRACE] = {
        RAY_OPTIONS,
        { "coneangle", TY_FLOAT, false }, { "adaptive", TY_FLOAT, false },
        { "minsamples", TY_FLOAT, false }, { "falloff", TY_FLOAT, false },
        { "falloffmode", TY_FLOAT, false }, { "maxvariation", TY_FLOAT, false },
        { "environmentmap", TY_STRING, false },
        { "environmentspace", TY_STRING, false },
        { "environmentcolor", TY_COLOR, true },
    },
    /* gather's "surface:Ci"-style names fetch values from the hit into
       output variables. */
    [OPTS_GATHER] = {
        RAY_OPTIONS,
        { "surface:", TY_VOID, true }, { "displacement:", TY_VOID, true },
        { "atmosphere:", TY_VOID, true }, { "primitive:", TY_VOID, true },
        { "attribute:", TY_VOID, true }, { "ray:", TY_VOID, true },
    },
};

const BuiltinOption *builtin_option(BuiltinOptSet set, const char *name)
{
    if (set <= OPTS_NONE || set >= OPTS_NSETS)
        return NULL;
    for (const BuiltinOption *o = option_sets[set]; o->name[0]; o++) {
        size_t n = strlen(o->name);
        if (o->name[n - 1] == ':' ? strncmp(o->name, name, n) == 0
                                  : strcmp(o->name, name) == 0)
            return o;
    }
    return NULL;
}

/*
** check_call.c: function calls: overload resolution over user functions
** and builtins, output arguments, texture channels and option lists.
**
** Resolution: the candidates are the user functions of that name visible
** from the call (functions and variables have separate names, so a
** variable does not hide a function) and, only if none of them fits, the
** builtins of that name; so a user function overrides a builtin of the
** same signature. Each candidate that fits costs the sum of its argument
** conversions (type_convert_cost); the cheapest wins. Among equally cheap
** ones, the expected type decides (the return type converting most
** cheaply to it), then the order of declaration or of the builtin table.
** Arguments whose type follows context (triple literals, calls such as
** noise) fit any parameter type they can take, and take it afterwards.
**
** Details: a builtin's result is varying if any argument is, unless its
** flags say always uniform or always varying. A user function's result
** has the detail its body computed for the returned values (see check.c):
** varying, uniform, or DETAIL_DEFAULT, which follows the arguments.
*/
#include <stdlib.h>
#include <string.h>

#include "rslc/check_impl.h"

#define NO_FIT 1000     /* a return type that cannot convert to the want */

typedef struct Cand {
    const Builtin *b;       /* builtin row, or NULL for a user function */
    Symbol *fn;             /* user function */
    BuiltinSig sig;         /* builtins: the overload */
    int cost, rcost;
} Cand;

typedef struct Call {
    Node *e;
    Node *args[BUILTIN_MAX_ARGS];
    Type types[BUILTIN_MAX_ARGS];
    unsigned alt[BUILTIN_MAX_ARGS];
    int nargs;
    Cand *cands;
    int ncands, capcands;
    int nuser;              /* user candidates come first */
    Symbol *shader;         /* a shader of that name, if any */
} Call;

/* ---- candidates ------------------------------------------------------------- */

static void add_cand(Call *c, const Builtin *b, Symbol *fn, const BuiltinSig *sig)
{
    /* Users may declare any number of overloads: grow, never give up. */
    if (c->ncands == c->capcands) {
        int cap = c->capcands ? c->capcands * 2 : 64;
        Cand *bigger = realloc(c->cands, (size_t)cap * sizeof *bigger);
        if (!bigger)
            diag_die("out of memory");
        c->cands = bigger;
        c->capcands = cap;
    }
    Cand *k = &c->cands[c->ncands++];
    memset(k, 0, sizeof *k);
    k->b = b;
    k->fn = fn;
    if (sig)
        k->sig = *sig;
}

static void gather(Checker *ck, Call *c)
{
    const char *name = c->e->name;
    c->cands = NULL;
    c->ncands = c->capcands = 0;
    c->shader = scope_find_local(ck->shaders, name);
    for (const Scope *s = ck->scope; s; s = s->parent)
        for (int i = 0; i < s->nsyms; i++) {
            Symbol *sym = s->syms[i];
            if (strcmp(sym->name, name) != 0)
                continue;
            for (; sym && sym->kind == SYM_FUNC; sym = sym->next_overload)
                add_cand(c, NULL, sym, NULL);
        }
    c->nuser = c->ncands;
    for (const Builtin *b = builtin_find(name); b; b = builtin_next(b)) {
        BuiltinSig sig;
        for (int r = b->first; builtin_overload_next(b, &r, &sig);)
            add_cand(c, b, NULL, &sig);
    }
}

/* The parameter of user function fn that argument i binds to. */
static const Node *formal(const Symbol *fn, int i)
{
    const Node *f = fn->decl->kid[0];
    for (; f && i > 0; i--)
        f = f->next;
    return f;
}

static int nformals(const Symbol *fn)
{
    return ast_list_len(fn->decl->kid[0]);
}

static BuiltinParam formal_param(const Node *f)
{
    BuiltinParam p = { f->spec.type, false, f->spec.output };
    return p;
}

static int cand_cost(const Call *c, const Cand *k, const unsigned *alt)
{
    if (k->b)
        return builtin_sig_cost(&k->sig, c->types, alt, c->nargs);
    if (c->nargs != nformals(k->fn))
        return -1;
    int total = 0;
    for (int i = 0; i < c->nargs; i++) {
        BuiltinParam p = formal_param(formal(k->fn, i));
        int cost = builtin_param_cost(&p, c->types[i], alt[i]);
        if (cost < 0)
            return -1;
        total += cost;
    }
    return total;
}

static Type cand_ret(const Cand *k)
{
    return k->b ? k->sig.ret : k->fn->type;
}

/* Picks the best candidate of [from, to) for want; NULL if none fits. */
static Cand *best_in(Call *c, int from, int to, Type want)
{
    Cand *best = NULL;
    for (int i = from; i < to; i++) {
        Cand *k = &c->cands[i];
        k->cost = cand_cost(c, k, c->alt);
        if (k->cost < 0)
            continue;
        k->rcost = 0;
        if (want.base != TY_ERROR) {
            int r = type_convert_cost(want, cand_ret(k));
            k->rcost = r < 0 ? NO_FIT : r;
        }
        if (!best || k->cost < best->cost ||
            (k->cost == best->cost && k->rcost < best->rcost))
            best = k;
    }
    return best;
}

static Cand *choose(Call *c, Type want)
{
    Cand *best = best_in(c, 0, c->nuser, want);
    return best ? best : best_in(c, c->nuser, c->ncands, want);
}

/* ---- arguments ------------------------------------------------------------------ */

/* True if arg is name[channel] with name a plain string: texture("map"[1])
   reads from channel 1 on. Decided from the syntax and the symbol alone,
   before anything is checked. */
static bool channel_syntax(Checker *ck, const Node *arg)
{
    const Node *name = arg->kid[0];
    if (name->kind == N_STRINGLIT)
        return true;
    if (name->kind != N_IDENT)
        return false;
    const Symbol *sym = scope_find(ck->scope, name->name, NULL);
    if (!sym || (sym->kind != SYM_VAR && sym->kind != SYM_GLOBAL))
        return false;
    return sym->type.base == TY_STRING && sym->type.arraylen == 0;
}

/* Checks name[channel]: the whole argument is then the string name. */
static void check_channel(Checker *ck, Node *arg)
{
    Node *name = arg->kid[0], *chan = arg->kid[1];
    check_expr(ck, name, want_none());
    check_expr(ck, chan, want_none());
    arg->type = type_make(TY_ERROR);
    arg->detail = DETAIL_UNIFORM;
    bool_to_float(ck, chan);
    if (name->type.base == TY_ERROR || chan->type.base == TY_ERROR)
        return;
    if (chan->type.base != TY_FLOAT || chan->type.arraylen) {
        diag_error(ck->rc, chan->loc, "texture channel must be a float, not '%s'",
                   type_name(chan->type).s);
        return;
    }
    arg->type = type_make(TY_STRING);
    arg->detail = detail_join(name->detail, chan->detail);
}

void check_arg(Checker *ck, Node *arg)
{
    /* A bare variable may be an output argument: its read is settled once
       the parameter is known (settle_arg). */
    Node *root = lvalue_root(arg);
    if (arg->kind == N_INDEX && root) {
        check_index(ck, arg, true);
    } else if (arg->kind == N_IDENT) {
        bool saved = ck->defer_read;
        ck->defer_read = true;
        check_expr(ck, arg, want_none());
        ck->defer_read = saved;
    } else {
        check_expr(ck, arg, want_none());
    }
}

bool settle_arg(Checker *ck, Node *arg, bool output, Detail written, const char *what, int argno)
{
    Node *root = lvalue_root(arg);
    if (!output) {
        if (root && root->sym)
            check_read(ck, root, root->sym);
        return true;
    }
    if (!root) {
        diag_error(ck->rc, arg->loc, "argument %d of '%s' must be a variable: the "
                   "parameter is 'output'", argno, what);
        return false;
    }
    return check_assign_target(ck, arg, written, false, NULL) != NULL;
}

void check_options(Checker *ck, Node *list, BuiltinOptSet set, const char *what)
{
    for (Node *name = list; name && name->next; name = name->next->next) {
        Node *value = name->next;
        if (name->kind != N_STRINGLIT) {
            settle_arg(ck, value, false, DETAIL_UNIFORM, what, 0);
            continue;   /* a computed name can only be checked at run time */
        }
        const BuiltinOption *o = builtin_option(set, name->name);
        if (!o) {
            diag_warning(ck->rc, name->loc, "unknown option '%s' for '%s'", name->name,
                         what);
            settle_arg(ck, value, false, DETAIL_UNIFORM, what, 0);
            continue;
        }
        if (o->output) {
            if (!lvalue_root(value))
                diag_error(ck->rc, value->loc, "option '%s' of '%s' needs a variable "
                           "to store into", name->name, what);
            else
                check_assign_target(ck, value, DETAIL_VARYING, false, NULL);
        } else {
            settle_arg(ck, value, false, DETAIL_UNIFORM, what, 0);
        }
        if (o->type != TY_VOID && value->type.base != TY_ERROR &&
            !type_assignable(type_make(o->type), value->type)) {
            char buf[32];
            strcpy(buf, type_name(value->type).s);
            diag_error(ck->rc, value->loc, "option '%s' of '%s' must be '%s', not '%s'",
                       name->name, what, type_base_name(o->type), buf);
        }
    }
}

/* ---- diagnostics for calls that fit no candidate --------------------------------- */

static void format_user(const Symbol *fn, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%s %s(", type_name(fn->type).s, fn->name);
    int i = 0;
    for (const Node *f = fn->decl->kid[0]; f && n < (int)size; f = f->next, i++)
        n += snprintf(buf + n, size - (size_t)n, "%s%s%s", i ? ", " : "",
                      f->spec.output ? "output " : "", type_name(f->spec.type).s);
    if (n < (int)size)
        snprintf(buf + n, size - (size_t)n, ")");
}

static void format_args(const Call *c, char *buf, size_t size)
{
    int n = 0;
    buf[0] = '\0';
    for (int i = 0; i < c->nargs && n < (int)size; i++)
        n += snprintf(buf + n, size - (size_t)n, "%s%s", i ? ", " : "",
                      type_name(c->types[i]).s);
}

static void arity_range(const Cand *k, int *lo, int *hi)
{
    if (!k->b) {
        *lo = *hi = nformals(k->fn);
        return;
    }
    *lo = k->sig.nparams;
    *hi = k->sig.tail ? BUILTIN_MAX_ARGS : k->sig.nparams;
}

static void report_no_fit(Checker *ck, const Call *c)
{
    const char *name = c->e->name;
    int lo = BUILTIN_MAX_ARGS, hi = 0, fits = 0;
    const Cand *only = NULL;
    for (int i = 0; i < c->ncands; i++) {
        int l, h;
        arity_range(&c->cands[i], &l, &h);
        lo = l < lo ? l : lo;
        hi = h > hi ? h : hi;
        if (c->nargs >= l && c->nargs <= h) {
            fits++;
            only = &c->cands[i];
        }
    }
    int n = c->nargs;
    if (fits == 0) {
        if (hi == BUILTIN_MAX_ARGS)
            diag_error(ck->rc, c->e->loc, "'%s' takes at least %d argument%s, not %d",
                       name, lo, lo == 1 ? "" : "s", n);
        else if (lo == hi)
            diag_error(ck->rc, c->e->loc, "'%s' takes %d argument%s, not %d", name,
                       lo, lo == 1 ? "" : "s", n);
        else
            diag_error(ck->rc, c->e->loc, "'%s' takes %d %s %d arguments, not %d",
                       name, lo, hi == lo + 1 ? "or" : "to", hi, n);
        return;
    }
    if (fits == 1 && !(only->b && only->sig.tail)) {
        /* One signature of this arity: point at the argument that does not
           fit it. */
        for (int i = 0; i < n; i++) {
            BuiltinParam p = only->b ? *builtin_sig_param(&only->sig, i)
                                     : formal_param(formal(only->fn, i));
            if (builtin_param_cost(&p, c->types[i], c->alt[i]) >= 0)
                continue;
            char want[32];
            strcpy(want, p.any ? "any" : type_name(p.type).s);
            diag_error(ck->rc, c->args[i]->loc, "argument %d of '%s' must be %s'%s', "
                       "not '%s'", i + 1, name, p.output ? "an output " : "",
                       want, type_name(c->types[i]).s);
            return;
        }
    }
    char args[256];
    format_args(c, args, sizeof args);
    diag_error(ck->rc, c->e->loc, "no function '%s' taking (%s)", name, args);
    for (int i = 0; i < c->nuser; i++) {
        char sig[256];
        format_user(c->cands[i].fn, sig, sizeof sig);
        diag_note(ck->rc, c->cands[i].fn->decl->loc, "candidate: %s", sig);
    }
}

/* ---- the call ---------------------------------------------------------------------- */

static bool wants_channel(const Call *c)
{
    for (int i = c->nuser; i < c->ncands; i++)
        if (builtin_row(c->cands[i].b)->flags & BF_CHANNEL)
            return true;
    return false;
}

/* Fills types and alt from the (checked) arguments. */
static void collect_types(Checker *ck, Call *c)
{
    for (int i = 0; i < c->nargs; i++) {
        c->types[i] = c->args[i]->type;
        c->alt[i] = expr_alt(ck, c->args[i], true);
    }
}

/* Sets e's resolution to candidate k. */
static void apply(Call *c, const Cand *k)
{
    Node *e = c->e;
    e->builtin = k->b;
    e->sym = k->fn;
    e->type = cand_ret(k);
}

/* Renderer functions of PRMan and Aqsis that this renderer does not
   have: calling one is no fault of the shader, and the error says so. */
static const struct {
    char name[12], what[32];   /* arrays, not pointers: no relocated data */
} unsupported[] = {
    { "bake", "texture baking (PRMan, Aqsis)" },
    { "bake3d", "point cloud baking (PRMan)" },
    { "texture3d", "point cloud lookup (PRMan)" },
};

static void undefined_function(Checker *ck, Call *c)
{
    const char *name = c->e->name;
    Symbol *sym = scope_find(ck->scope, name, NULL);
    if (c->shader) {
        diag_error(ck->rc, c->e->loc, "'%s' is a %s shader and cannot be called", name,
                   shader_kind_name(c->shader->decl->shader));
        return;
    }
    if (sym) {
        diag_error(ck->rc, c->e->loc, "'%s' is not a function", name);
        return;
    }
    for (size_t i = 0; i < sizeof unsupported / sizeof *unsupported; i++)
        if (!strcmp(unsupported[i].name, name)) {
            diag_error(ck->rc, c->e->loc, "unknown function '%s': %s is not supported by this "
                       "renderer", name, unsupported[i].what);
            return;
        }
    diag_error(ck->rc, c->e->loc, "unknown function '%s'", name);
}

/* The detail of the call's result, and of what it writes to outputs. */
static Detail result_detail(const Call *c, const Cand *k, Detail args)
{
    if (k->b)
        return builtin_row(k->b)->flags & BF_UNIFORM ? DETAIL_UNIFORM
             : builtin_row(k->b)->flags & BF_VARYING ? DETAIL_VARYING : args;
    return k->fn->detail == DETAIL_DEFAULT ? args : k->fn->detail;
}

/* Checks what the chosen candidate asks of each argument. */
static void settle_args(Checker *ck, Call *c, const Cand *k, Detail args)
{
    const char *name = c->e->name;
    int nparams = k->b ? k->sig.nparams : c->nargs;
    for (int i = 0; i < c->nargs; i++) {
        Node *arg = c->args[i];
        if (k->b && i >= nparams && k->sig.tail == '~')
            break;      /* the options, below */
        bool output;
        Detail written;
        if (k->b) {
            const BuiltinParam *p = builtin_sig_param(&k->sig, i);
            output = p && p->output;
            written = result_detail(c, k, args);
        } else {
            const Node *f = formal(k->fn, i);
            output = f->spec.output;
            Detail w = f->sym ? f->sym->written : DETAIL_UNIFORM;
            written = w == DETAIL_DEFAULT ? args : w;
            if (f->spec.detail == DETAIL_UNIFORM && arg->detail == DETAIL_VARYING)
                diag_error(ck->rc, arg->loc, "cannot pass varying value to uniform "
                           "parameter '%s' of '%s'", f->name, name);
        }
        settle_arg(ck, arg, output, written, name, i + 1);
    }
    if (k->b && k->sig.tail == '~' && c->nargs > nparams)
        check_options(ck, c->args[nparams], k->b->opts, name);
}

/* Gives arguments whose type follows context the parameters' types. */
static void retype_args(Checker *ck, Call *c, const Cand *k)
{
    for (int i = 0; i < c->nargs; i++) {
        BuiltinParam p;
        if (k->b) {
            const BuiltinParam *bp = builtin_sig_param(&k->sig, i);
            if (!bp)
                break;
            p = *bp;
        } else {
            p = formal_param(formal(k->fn, i));
        }
        if (!p.any && p.type.arraylen == 0 && c->types[i].base != p.type.base &&
            (c->alt[i] & (1u << p.type.base)))
            expr_retype(ck, c->args[i], p.type.base);
    }
}

static bool prepare(Checker *ck, Call *c, Node *e)
{
    memset(c, 0, sizeof *c);
    c->e = e;
    for (Node *a = e->kid[0]; a; a = a->next) {
        if (c->nargs == BUILTIN_MAX_ARGS) {
            diag_error(ck->rc, a->loc, "too many arguments to '%s'", e->name);
            return false;
        }
        c->args[c->nargs++] = a;
    }
    gather(ck, c);
    return true;
}

void check_call(Checker *ck, Node *e, Type want)
{
    Call c;
    e->type = type_make(TY_ERROR);
    e->detail = DETAIL_UNIFORM;
    bool ok = prepare(ck, &c, e);
    bool args_ok = true;
    Detail args = DETAIL_UNIFORM;
    for (int i = 0; i < c.nargs; i++) {
        Node *arg = c.args[i];
        if (i == 0 && arg->kind == N_INDEX && ok && wants_channel(&c) &&
            channel_syntax(ck, arg))
            check_channel(ck, arg);
        else
            check_arg(ck, arg);
        bool_to_float(ck, arg);
        if (arg->type.base == TY_ERROR)
            args_ok = false;
        else
            args = detail_join(args, arg->detail);
    }
    if (!ok) {
        free(c.cands);
        return;
    }
    if (c.ncands == 0) {
        undefined_function(ck, &c);
    } else if (args_ok) {
        collect_types(ck, &c);
        Cand *k = choose(&c, want);
        if (!k) {
            report_no_fit(ck, &c);
        } else {
            retype_args(ck, &c, k);
            apply(&c, k);
            if (k->b && !builtin_call_sig(e, &k->sig))
                diag_die("builtin '%s' resolved inconsistently", e->name);
            if (k->fn && k->fn->in_body)
                diag_error(ck->rc, e->loc, "recursive call to '%s': RSL functions "
                           "cannot be recursive", e->name);
            e->detail = result_detail(&c, k, args);
            settle_args(ck, &c, k, args);
        }
    }
    free(c.cands);
}

unsigned call_alt(Checker *ck, const Node *e)
{
    Call c;
    unsigned mask = 0;
    if (!prepare(ck, &c, (Node *)e))
        return 0;
    collect_types(ck, &c);
    Cand *best = choose(&c, want_none());
    if (best) {
        bool user = best->fn != NULL;
        int from = user ? 0 : c.nuser, to = user ? c.nuser : c.ncands;
        for (int i = from; i < to; i++)
            if (c.cands[i].cost == best->cost)
                mask |= 1u << cand_ret(&c.cands[i]).base;
    }
    free(c.cands);
    return mask;
}

void call_retype(Checker *ck, Node *e, TypeBase t)
{
    Call c;
    if (!prepare(ck, &c, e))
        return;
    collect_types(ck, &c);
    Cand *k = choose(&c, type_make(t));
    if (k) {
        apply(&c, k);
        if (k->b && !builtin_call_sig(e, &k->sig))
            diag_die("builtin '%s' resolved inconsistently", e->name);
    }
    free(c.cands);
}

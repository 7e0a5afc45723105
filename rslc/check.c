/*
** check.c: the checker's walk over a unit: scopes, declarations, shaders,
** functions and statements. Expressions are in check_expr.c, calls in
** check_call.c.
**
** Rules chosen where RISpec 3.2 leaves room:
**  - Scopes: shader globals and PI live outside the file scope, so user
**    definitions may shadow them. Shader names are a namespace of their
**    own: nothing refers to a shader. A shader's parameters and its body share
**    one scope, as do a function's formals and its body. Functions are
**    visible after their declaration, like variables. A function body sees
**    its formals and locals, shader globals, PI and the functions in
**    scope; a variable of an enclosing scope only through an "extern"
**    declaration (RISpec 14.2), which binds the name to that variable.
**  - Details: shader parameters default to uniform, locals to varying.
**    Function formals declared without uniform/varying take the detail of
**    the argument: in the body they count as DETAIL_DEFAULT, a value that
**    is varying exactly when an argument is. A function's result (and
**    what it writes to an output formal) is varying if a returned value
**    is varying or a return sits under a varying condition; DETAIL_DEFAULT
**    if it depends on such formals (the call then joins its arguments'
**    details); uniform otherwise.
**  - A uniform variable assigned under a varying condition (an if, while
**    or for whose condition is varying, or the body of illuminance,
**    illuminate, solar or gather) that encloses its declaration ends up
**    with a value that depends on which points ran the assignment. Code
**    inside the condition may use it (public shaders keep uniform loop
**    counters for loops inside varying ifs); reading it after the
**    condition, before a new assignment, is an error, reported at the
**    assignment.
**  - L, Cl and Ol: in surface and volume shaders only inside illuminance;
**    in light shaders L only inside illuminate or solar, while Cl and Ol
**    are the shader's outputs everywhere. Function bodies may use them
**    anywhere, since a call may sit inside such a statement.
**  - illuminance belongs in surface and volume shaders, illuminate and
**    solar in light shaders; top-level functions may contain any of them.
**    illuminance and gather are loops for break and continue.
**  - Uninitialised variables: a warning when a local declared without an
**    initialiser is read before any assignment to it appears in program
**    order. Assignments anywhere in an enclosing loop count, as they may
**    run in an earlier iteration, and so does passing the variable as an
**    output argument. So a read is flagged only if no path can have
**    assigned the variable first: no false alarms, at the price of
**    missing reads on paths where only another branch assigns.
**  - A non-void function that can reach its end without a return gets a
**    warning; "return" in a shader body is an error.
*/
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "rslc/check_impl.h"
#include "rslc/limits.h"

/* ---- declarations ------------------------------------------------------------ */

/* Reports a clash with a name already declared in the current scope;
   true if there is one. */
static bool redefined(Checker *ck, const char *name, const Node *at)
{
    Symbol *prev = scope_find_local(ck->scope, name);
    if (!prev)
        return false;
    diag_error(ck->rc, at->loc, "redefinition of '%s'", name);
    if (prev->decl)
        diag_note(ck->rc, prev->decl->loc, "previous declaration is here");
    return true;
}

typedef enum Role { ROLE_LOCAL, ROLE_SHADER_PARAM, ROLE_FORMAL } Role;

/* The scope that encloses the innermost function's formals, or the
   current scope outside functions: where extern names are looked up. */
static const Scope *outside_function(Checker *ck)
{
    for (const Scope *s = ck->scope; s; s = s->parent)
        if (s->boundary)
            return s->parent;
    return ck->scope;
}

static void declare_extern(Checker *ck, Node *d)
{
    Symbol *sym = scope_find(outside_function(ck), d->name, NULL);
    if (!sym || (sym->kind != SYM_VAR && sym->kind != SYM_GLOBAL &&
                 sym->kind != SYM_CONST)) {
        diag_error(ck->rc, d->loc, "extern variable '%s' is not declared in an "
                   "enclosing scope", d->name);
        return;
    }
    Type t = sym->type;
    Type declared = d->spec.type;
    bool spatial = !t.arraylen && !declared.arraylen &&
                   type_is_spatial(t.base) && type_is_spatial(declared.base);
    if (!type_equal(t, declared) && !spatial) {
        char buf[32];
        strcpy(buf, type_name(declared).s);
        diag_error(ck->rc, d->loc, "extern declaration of '%s' as '%s' does not "
                   "match its type '%s'", d->name, buf, type_name(t).s);
        if (sym->decl)
            diag_note(ck->rc, sym->decl->loc, "'%s' is declared here", d->name);
        return;
    }
    if (redefined(ck, d->name, d))
        return;
    scope_add(ck->scope, sym);
    d->sym = sym;
    d->type = t;
    d->detail = sym->detail;
}

static void declare_var(Checker *ck, Node *d, Role role)
{
    if (d->spec.is_extern) {
        declare_extern(ck, d);
        return;
    }
    /* Later phases are not all linear in a function's variables. */
    if (++ck->nvars == RSLC_MAX_VARS + 1)
        diag_error(ck->rc, d->loc, "too many variables: '%s' is over the limit of %d in one "
                   "function or shader", d->name, (int)RSLC_MAX_VARS);
    Type t = d->spec.type;
    Node *init = d->kid[0];
    if (t.base == TY_VOID) {
        diag_error(ck->rc, d->loc, "variable '%s' cannot be void", d->name);
        t.base = TY_ERROR;
    }
    if (t.arraylen < 0 && role != ROLE_FORMAL) {
        if (init && init->kind == N_ARRAYINIT)
            t.arraylen = ast_list_len(init->kid[0]);
        else
            diag_error(ck->rc, d->loc, "array '%s' needs a length", d->name);
    }
    if (d->spec.output && role == ROLE_LOCAL)
        diag_error(ck->rc, d->loc, "only parameters can be 'output'");
    Detail detail = d->spec.detail;
    if (detail == DETAIL_DEFAULT)
        detail = role == ROLE_SHADER_PARAM ? DETAIL_UNIFORM
               : role == ROLE_LOCAL ? DETAIL_VARYING : DETAIL_DEFAULT;

    char what[96];
    snprintf(what, sizeof what, "'%s'", d->name);
    if (role == ROLE_SHADER_PARAM && !init)
        diag_error(ck->rc, d->loc, "shader parameter '%s' has no default value", d->name);
    /* defaults.c names the flag that says whether an instance gave a
       computed default "__given_NAME"; a parameter of that name would be
       a second parameter under one name. */
    if (role == ROLE_SHADER_PARAM && strncmp(d->name, "__given_", 8) == 0)
        diag_error(ck->rc, d->loc, "shader parameter '%s': names beginning with '__given_' "
                   "are reserved for rslc's own parameters", d->name);
    if (role == ROLE_FORMAL && init)
        diag_error(ck->rc, init->loc, "function parameter '%s' cannot have a default "
                   "value", d->name);
    else if (init && t.base != TY_ERROR && check_value_for(ck, init, t, what) &&
             detail == DETAIL_UNIFORM && check_uniform_random(init, detail) == DETAIL_VARYING) {
        diag_error(ck->rc, init->loc, "cannot assign varying value to uniform "
                   "variable '%s'", d->name);
        note_varying_source(ck, init);
    } else if (init && t.base == TY_ERROR && init->kind != N_ARRAYINIT)
        check_expr(ck, init, want_none());

    if (redefined(ck, d->name, d))
        return;
    Symbol *sym = sym_new(ck->rc, SYM_VAR, d->name);
    sym->type = t;
    sym->detail = detail;
    sym->decl = d;
    sym->param = role != ROLE_LOCAL;
    sym->output = d->spec.output && role != ROLE_LOCAL;
    sym->assigned = init != NULL;
    sym->vdepth = ck->vdepth;
    sym->written = DETAIL_UNIFORM;
    scope_add(ck->scope, sym);
    d->sym = sym;
    d->type = t;
    d->detail = detail;
}

/* ---- statements -------------------------------------------------------------- */

static void check_stmt(Checker *ck, Node *s);

static void check_stmts(Checker *ck, Node *list)
{
    for (Node *s = list; s; s = s->next)
        check_stmt(ck, s);
}

const Node *vcond_at(Checker *ck, int i)
{
    return ck->conds->at[i];
}

/* Enters the body governed by a condition of detail d at node at. */
static Checker enter_cond(Checker *ck, const Node *at, Detail d)
{
    Checker saved = *ck;
    if (d == DETAIL_VARYING) {
        CondStack *st = ck->conds;
        if (ck->vdepth == st->cap) {
            st->cap = st->cap ? 2 * st->cap : 16;
            st->at = realloc(st->at, (size_t)st->cap * sizeof *st->at);
            if (!st->at)
                diag_die("out of memory");
        }
        st->at[ck->vdepth++] = at;
    }
    ck->ctx = detail_join(ck->ctx, d);
    return saved;
}

static void leave_cond(Checker *ck, Checker saved)
{
    ck->vdepth = saved.vdepth;
    ck->ctx = saved.ctx;
}

/* Marks assigned every variable that node n assigns (or passes to a call,
   which may write it) anywhere inside: in a loop, a later iteration may
   read what an earlier one wrote. */
static void prescan(Checker *ck, Node *n)
{
    if (n->kind == N_FUNCTION)
        return;
    Node *single = n->kind == N_ASSIGN ? n->kid[0] : NULL;
    Node *list = n->kind == N_CALL || n->kind == N_GATHER ? n->kid[0] : NULL;
    for (Node *t = single ? single : list; t; t = single ? NULL : t->next) {
        Node *root = lvalue_root(t);
        Symbol *sym = root ? scope_find(ck->scope, root->name, NULL) : NULL;
        if (sym && sym->kind == SYM_VAR)
            sym->assigned = true;
    }
    for (int i = 0; i < 4; i++)
        for (Node *k = n->kid[i]; k; k = k->next)
            prescan(ck, k);
}

static void check_jump(Checker *ck, Node *s)
{
    const char *what = s->kind == N_BREAK ? "break" : "continue";
    /* Range-check the number before converting it: a level such as 1e30
       does not fit an int, and converting it would be undefined. */
    if (!(s->num >= 1 && s->num <= INT_MAX) || s->num != (int)s->num) {
        diag_error(ck->rc, s->loc, "invalid '%s' level %g", what, s->num);
        return;
    }
    int level = (int)s->num;
    if (ck->loops == 0 && level == 1)
        diag_error(ck->rc, s->loc, "'%s' is not inside a loop", what);
    else if (level > ck->loops)
        diag_error(ck->rc, s->loc, "'%s %d' is not inside %d loops", what, level, level);
}

static void check_return(Checker *ck, Node *s)
{
    Node *v = s->kid[0];
    Symbol *fn = ck->func;
    if (!fn) {
        diag_error(ck->rc, s->loc, "'return' outside a function");
        if (v)
            check_expr(ck, v, want_none());
        return;
    }
    if (!v) {
        if (fn->type.base != TY_VOID)
            diag_error(ck->rc, s->loc, "non-void function '%s' must return a value",
                       fn->name);
        return;
    }
    if (fn->type.base == TY_VOID) {
        check_expr(ck, v, want_none());
        diag_error(ck->rc, v->loc, "void function '%s' cannot return a value", fn->name);
        return;
    }
    check_expr(ck, v, fn->type);
    bool_to_float(ck, v);
    if (v->type.base == TY_ERROR || fn->type.base == TY_ERROR)
        return;
    if (!type_assignable(fn->type, v->type)) {
        char buf[32];
        strcpy(buf, type_name(v->type).s);
        diag_error(ck->rc, v->loc, "cannot return '%s' from '%s', which returns '%s'",
                   buf, fn->name, type_name(fn->type).s);
        return;
    }
    Detail d = detail_join(v->detail, ck->ctx);
    if (fn->decl->spec.detail == DETAIL_UNIFORM && d == DETAIL_VARYING)
        diag_error(ck->rc, v->loc, "cannot return varying value from uniform function "
                   "'%s'", fn->name);
    ck->ret = detail_join(ck->ret, d);
}

/* The argument forms of the light and gather statements, as builtin
   signature codes, and how to describe them in messages. */
typedef struct RegionForm {
    char name[12], sigs[24], expected[96];
    unsigned kinds;         /* shader kinds it is allowed in */
    char where[32];
} RegionForm;

static const RegionForm region_forms[] = {
    { "illuminance", "xp xpvf xsp xspvf",
      "([string category,] point position [, vector axis, float angle])",
      SHADER_BIT(SHADER_SURFACE) | SHADER_BIT(SHADER_VOLUME),
      "surface and volume shaders" },
    { "illuminate", "xp xpvf", "(point position [, vector axis, float angle])",
      SHADER_BIT(SHADER_LIGHT), "light shaders" },
    { "solar", "x xvf", "([vector axis, float angle])",
      SHADER_BIT(SHADER_LIGHT), "light shaders" },
    { "gather", "xspvff~",
      "(string category, point position, vector direction, float angle, "
      "float samples, ...)", ~0u, "" },
};

static const RegionForm *region_form(NodeKind kind)
{
    switch (kind) {
    case N_ILLUMINANCE: return &region_forms[0];
    case N_ILLUMINATE:  return &region_forms[1];
    case N_SOLAR:       return &region_forms[2];
    default:            return &region_forms[3];
    }
}

/* Checks the arguments of a light or gather statement against its forms. */
static void check_region_args(Checker *ck, Node *s, const RegionForm *form)
{
    Type types[BUILTIN_MAX_ARGS];
    unsigned alt[BUILTIN_MAX_ARGS];
    Node *args[BUILTIN_MAX_ARGS];
    int n = 0;
    bool ok = true;
    for (Node *a = s->kid[0]; a; a = a->next) {
        check_arg(ck, a);
        bool_to_float(ck, a);
        if (a->type.base == TY_ERROR)
            ok = false;
        if (n < BUILTIN_MAX_ARGS) {
            args[n] = a;
            types[n] = a->type;
            alt[n++] = expr_alt(ck, a, true);
        }
    }
    if (!ok)
        return;
    BuiltinSig sig, best;
    int best_cost = -1;
    for (const char *cur = form->sigs; builtin_sig_next(&cur, &sig);) {
        int c = builtin_sig_cost(&sig, types, alt, n);
        if (c >= 0 && (best_cost < 0 || c < best_cost)) {
            best_cost = c;
            best = sig;
        }
    }
    if (best_cost < 0) {
        char list[256];
        int len = 0;
        list[0] = '\0';
        for (int i = 0; i < n && len < (int)sizeof list; i++)
            len += snprintf(list + len, sizeof list - (size_t)len, "%s%s",
                            i ? ", " : "", type_name(types[i]).s);
        diag_error(ck->rc, s->loc, "invalid arguments to '%s' (%s); expected %s",
                   form->name, list, form->expected);
        return;
    }
    for (int i = 0; i < n; i++) {
        const BuiltinParam *p = builtin_sig_param(&best, i);
        if (!p)
            break;
        if (types[i].base != p->type.base && (alt[i] & (1u << p->type.base)))
            expr_retype(ck, args[i], p->type.base);
        settle_arg(ck, args[i], false, DETAIL_UNIFORM, form->name, i + 1);
    }
    if (best.tail == '~' && n > best.nparams)
        check_options(ck, args[best.nparams], OPTS_GATHER, form->name);
}

static void check_region(Checker *ck, Node *s)
{
    const RegionForm *form = region_form(s->kind);
    if (ck->kind != SHADER_FUNCTION && !(form->kinds & SHADER_BIT(ck->kind)))
        diag_error(ck->rc, s->loc, "'%s' is only allowed in %s", form->name, form->where);
    check_region_args(ck, s, form);
    bool loop = s->kind == N_ILLUMINANCE || s->kind == N_GATHER;
    if (loop)
        prescan(ck, s->kid[1]);
    /* The body runs for some points and not others: a varying context. */
    Checker saved = enter_cond(ck, s, DETAIL_VARYING);
    ck->region = s->kind != N_GATHER || ck->region;
    ck->loops += loop;
    check_stmt(ck, s->kid[1]);
    if (s->kid[2])
        check_stmt(ck, s->kid[2]);
    ck->loops -= loop;
    ck->region = saved.region;
    leave_cond(ck, saved);
}

static void check_loop(Checker *ck, Node *s)
{
    Node *cond = s->kind == N_WHILE ? s->kid[0] : s->kid[1];
    Node *body = s->kind == N_WHILE ? s->kid[1] : s->kid[3];
    prescan(ck, s);
    if (s->kind == N_FOR && s->kid[0])
        check_expr(ck, s->kid[0], want_none());
    if (cond)
        check_cond(ck, cond);
    Checker saved = enter_cond(ck, cond, cond ? cond->detail : DETAIL_UNIFORM);
    ck->loops++;
    check_stmt(ck, body);
    if (s->kind == N_FOR && s->kid[2])
        check_expr(ck, s->kid[2], want_none());
    ck->loops--;
    leave_cond(ck, saved);
}

static void check_function(Checker *ck, Node *fn);

static void check_stmt(Checker *ck, Node *s)
{
    switch (s->kind) {
    case N_VARDECL:
        declare_var(ck, s, ROLE_LOCAL);
        break;
    case N_FUNCTION:
        check_function(ck, s);
        break;
    case N_BLOCK:
        ck->scope = scope_push(ck->scope, false);
        check_stmts(ck, s->kid[0]);
        ck->scope = scope_pop(ck->scope);
        break;
    case N_EXPRSTMT:
        check_expr(ck, s->kid[0], want_none());
        break;
    case N_EMPTY:
        break;
    case N_IF: {
        check_cond(ck, s->kid[0]);
        Checker saved = enter_cond(ck, s->kid[0], s->kid[0]->detail);
        check_stmt(ck, s->kid[1]);
        if (s->kid[2])
            check_stmt(ck, s->kid[2]);
        leave_cond(ck, saved);
        break;
    }
    case N_WHILE:
    case N_FOR:
        check_loop(ck, s);
        break;
    case N_BREAK:
    case N_CONTINUE:
        check_jump(ck, s);
        break;
    case N_RETURN:
        check_return(ck, s);
        break;
    case N_ILLUMINANCE:
    case N_ILLUMINATE:
    case N_SOLAR:
    case N_GATHER:
        check_region(ck, s);
        break;
    default:
        /* The grammar puts nothing else in statement position. */
        diag_die("check_stmt: unexpected %s", ast_kind_name(s->kind));
    }
}

/* ---- functions and shaders ------------------------------------------------------ */

static bool same_formals(const Node *a, const Node *b)
{
    for (; a && b; a = a->next, b = b->next)
        if (!type_equal(a->spec.type, b->spec.type))
            return false;
    return !a && !b;
}

/* True if every path through s ends in a return. */
static bool always_returns(const Node *s)
{
    switch (s->kind) {
    case N_RETURN:
        return true;
    case N_BLOCK:
        for (const Node *k = s->kid[0]; k; k = k->next)
            if (always_returns(k))
                return true;
        return false;
    case N_IF:
        return s->kid[2] && always_returns(s->kid[1]) && always_returns(s->kid[2]);
    default:
        return false;
    }
}

/* Declares function fn in the current scope, as a new overload if its
   name already names functions there. */
static Symbol *declare_function(Checker *ck, Node *fn)
{
    Symbol *sym = sym_new(ck->rc, SYM_FUNC, fn->name);
    sym->type = fn->spec.type;
    sym->decl = fn;
    Symbol *prev = scope_find_local(ck->scope, fn->name);
    if (!prev) {
        scope_add(ck->scope, sym);
        return sym;
    }
    if (prev->kind != SYM_FUNC) {
        redefined(ck, fn->name, fn);
        return sym;
    }
    for (Symbol *o = prev;; o = o->next_overload) {
        if (same_formals(o->decl->kid[0], fn->kid[0]) &&
            type_equal(o->type, sym->type)) {
            diag_error(ck->rc, fn->loc, "redefinition of function '%s'", fn->name);
            diag_note(ck->rc, o->decl->loc, "previous definition is here");
            return sym;
        }
        if (!o->next_overload) {
            o->next_overload = sym;
            return sym;
        }
    }
}

/* Output parameters are read after the body: a shader's by the renderer,
   a function's by the caller. A uniform one last assigned under a varying
   condition would hand over a value that depends on which points took the
   branch (check_read catches the reads inside the body). */
static void check_outputs_read_after(Checker *ck, const char *reader)
{
    for (int i = 0; i < ck->scope->nsyms; i++) {
        Symbol *sym = ck->scope->syms[i];
        if (sym->output && sym->taint_write) {
            check_tainted(ck, sym);
            diag_note(ck->rc, sym->decl->loc, "'%s' is an output parameter, read by "
                      "%s after the condition", sym->name, reader);
        }
    }
}

static void check_function(Checker *ck, Node *fn)
{
    if (fn->spec.type.arraylen) {
        diag_error(ck->rc, fn->loc, "function '%s' cannot return an array", fn->name);
        fn->spec.type.arraylen = 0;
    }
    Symbol *sym = declare_function(ck, fn);
    fn->sym = sym;
    fn->type = sym->type;

    Checker saved = *ck;
    ck->func = sym;
    ck->loops = ck->nvars = 0;
    ck->vfloor = ck->vdepth;
    ck->ctx = ck->ret = DETAIL_UNIFORM;
    ck->region = false;
    ck->scope = scope_push(ck->scope, true);
    for (Node *f = fn->kid[0]; f; f = f->next)
        declare_var(ck, f, ROLE_FORMAL);
    sym->in_body = true;
    check_stmts(ck, fn->kid[1] ? fn->kid[1]->kid[0] : NULL);
    check_outputs_read_after(ck, "the caller");
    sym->in_body = false;
    sym->detail = fn->spec.detail != DETAIL_DEFAULT ? fn->spec.detail : ck->ret;
    fn->detail = sym->detail;
    if (sym->type.base != TY_VOID && fn->kid[1] && !always_returns(fn->kid[1]))
        diag_warning(ck->rc, fn->loc, "non-void function '%s' may end without "
                     "returning a value", fn->name);
    scope_pop(ck->scope);
    *ck = saved;
}

static void check_shader(Checker *ck, Node *sh)
{
    Symbol *prev = scope_find_local(ck->shaders, sh->name);
    if (prev) {
        diag_error(ck->rc, sh->loc, "redefinition of shader '%s'", sh->name);
        diag_note(ck->rc, prev->decl->loc, "previous definition is here");
    } else {
        Symbol *sym = sym_new(ck->rc, SYM_SHADER, sh->name);
        sym->decl = sh;
        scope_add(ck->shaders, sym);
        sh->sym = sym;
    }
    Checker saved = *ck;
    ck->kind = sh->shader;
    ck->nvars = 0;
    ck->scope = scope_push(ck->scope, false);
    for (Node *f = sh->kid[0]; f; f = f->next)
        declare_var(ck, f, ROLE_SHADER_PARAM);
    check_stmts(ck, sh->kid[1] ? sh->kid[1]->kid[0] : NULL);
    check_outputs_read_after(ck, "the renderer");
    scope_pop(ck->scope);
    *ck = saved;
}

/* ---- the unit ----------------------------------------------------------------------- */

bool check_unit(RslcCtx *rc, Unit *unit)
{
    CondStack conds = { NULL, 0 };
    Checker checker = { .rc = rc, .conds = &conds }, *ck = &checker;
    int errors = diag_error_count(rc);
    sym_free_all(rc);
    ck->kind = SHADER_FUNCTION;
    ck->ctx = ck->ret = DETAIL_UNIFORM;

    Scope *predefined = scope_push(NULL, false);
    for (int i = 0; i < global_count(); i++) {
        Symbol *g = sym_new(ck->rc, SYM_GLOBAL, global_at(i)->name);
        g->global = global_at(i);
        g->type = type_make(g->global->type);
        g->detail = g->global->detail;
        scope_add(predefined, g);
    }
    Symbol *pi = sym_new(ck->rc, SYM_CONST, "PI");
    pi->type = type_make(TY_FLOAT);
    pi->detail = DETAIL_UNIFORM;
    scope_add(predefined, pi);

    ck->shaders = scope_push(NULL, false);
    ck->scope = scope_push(predefined, false);
    for (Node *d = unit->defs; d; d = d->next) {
        if (d->kind == N_SHADER)
            check_shader(ck, d);
        else if (d->kind == N_FUNCTION)
            check_function(ck, d);
        else
            diag_error(ck->rc, d->loc, "only shaders and functions may be defined at "
                       "the top level");
    }
    scope_pop(scope_pop(ck->scope));
    scope_pop(ck->shaders);
    free(conds.at);
    return diag_error_count(rc) == errors;
}

void check_free(RslcCtx *rc)
{
    sym_free_all(rc);
}

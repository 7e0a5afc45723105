/*
** lower_expr.c: expressions to IR: operators, conversions, conditions as
** jumps, assignments, calls of user functions and builtins, casts.
**
** Conversions follow the checker's types: a float meeting a triple or a
** matrix is splat, spatial triples are retyped into one another; so every
** arithmetic operation gets operands of its own type. Comparisons give
** bool; && || ! and ?: branch (short-circuit), the rest is straight-line.
**
** Casts with a space are calls of the transform builtins: point "s" p is
** transform("s", "current", p), vector and normal use vtransform and
** ntransform, color "s" c is ctransform("s", "rgb", c). The builtins
** table has no matrix of a named space, so matrix "s" m is m times the
** matrix built from the images of the basis under vtransform and of the
** origin under transform: exact for the affine spaces (object, shader,
** world, camera, user coordinate systems); the projective ones (screen,
** NDC, raster) are rejected.
**
** A builtin call is an intrin of the overload's row in runtime/builtins.def,
** and gets the arguments the row's implicit column names here, as ordinary
** IR (gget of P, Ng, s, t, du, dv; Du and Dv calls), so no back end adds
** arguments of its own.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rslc/lower_impl.h"

static IrVal *kf(Lower *L, float f) { return &ir_const_float(L->fn, f)->val; }
static IrVal *ks(Lower *L, const char *s) { return &ir_const_string(L->fn, s)->val; }

static IrIns *op2(Lower *L, IrOp op, IrType t, IrVal *a, IrVal *b, SrcLoc loc)
{
    IrIns *i = emit(L, op, t, loc);
    ir_ins_add_arg(i, a);
    if (b)
        ir_ins_add_arg(i, b);
    return i;
}

static IrVal *intrin(Lower *L, BuiltinRowId row, IrType t, IrVal **args, int n, SrcLoc loc)
{
    IrIns *i = emit(L, IR_intrin, t, loc);
    i->imm = row;
    for (int k = 0; k < n; k++)
        ir_ins_add_arg(i, args[k]);
    return &i->val;
}

/* ---- constants ------------------------------------------------------------------------------ */

/* Evaluates a literal expression into out (n floats); false if it is not
   one. Enough for the defaults shaders write: numbers, PI, negation,
   arithmetic, triples, matrices and casts without a space. */
static bool eval(const Node *e, float *out, int *n)
{
    float a[16], b[16];
    int na, nb;
    switch (e->kind) {
    case N_FLOATLIT:
        out[0] = (float)e->num, *n = 1;
        return true;
    case N_IDENT:
        if (!e->sym || e->sym->kind != SYM_CONST)
            return false;
        out[0] = (float)M_PI, *n = 1;
        return true;
    case N_UNARY:
        if (e->op != OP_NEG || !eval(e->kid[0], out, n))
            return false;
        for (int i = 0; i < *n; i++)
            out[i] = -out[i];
        return true;
    case N_BINARY:
        if (e->type.base == TY_MATRIX || !eval(e->kid[0], a, &na) || !eval(e->kid[1], b, &nb))
            return false;
        *n = na > nb ? na : nb;
        for (int i = 0; i < *n; i++) {
            float x = a[na == 1 ? 0 : i], y = b[nb == 1 ? 0 : i];
            switch (e->op) {
            case OP_ADD: out[i] = x + y; break;
            case OP_SUB: out[i] = x - y; break;
            case OP_MUL: out[i] = x * y; break;
            case OP_DIV: if (y == 0) return false; out[i] = x / y; break;
            default: return false;
            }
        }
        return true;
    case N_TRIPLE:
        for (int i = 0; i < 3; i++)
            if (!eval(e->kid[i], out + i, &na) || na != 1)
                return false;
        *n = 3;
        return true;
    case N_MATRIX16: {
        int i = 0;
        for (const Node *k = e->kid[0]; k; k = k->next, i++)
            if (i >= 16 || !eval(k, out + i, &na) || na != 1)
                return false;
        *n = 16;
        return i == 16;
    }
    case N_CAST:
        if (e->name || !eval(e->kid[0], out, n))
            return false;
        if (*n == 1 && e->spec.type.base == TY_MATRIX) {
            float f = out[0];
            for (int i = 0; i < 16; i++)
                out[i] = i % 5 ? 0 : f;
            *n = 16;
        }
        return true;
    default:
        return false;
    }
}

/* Spreads a value of n floats over the components of base. */
static bool shape(TypeBase base, float *v, int n)
{
    int want = base == TY_MATRIX ? 16 : type_is_triple(base) ? 3 : 1;
    if (n == want)
        return true;
    if (n != 1)
        return false;
    for (int i = 1; i < want; i++)
        v[i] = base == TY_MATRIX && i % 5 ? 0 : v[0];
    return true;
}

IrConst *lower_const(IrFunc *fn, const Node *e, Type to)
{
    IrType t = lower_type(to);
    if (e->kind == N_STRINGLIT)
        return to.base == TY_STRING && !to.arraylen ? ir_const_string(fn, e->name) : NULL;
    if (e->kind == N_ARRAYINIT) {
        int per = to.base == TY_MATRIX ? 16 : type_is_triple(to.base) ? 3 : 1, i = 0, n;
        if (to.arraylen <= 0 || to.base == TY_STRING)
            return NULL;
        float *all = lower_alloc((size_t)(per * to.arraylen) * sizeof *all);
        for (const Node *k = e->kid[0]; k && i < to.arraylen; k = k->next, i++)
            if (!eval(k, all + i * per, &n) || !shape(to.base, all + i * per, n)) {
                free(all);
                return NULL;
            }
        IrConst *c = i == to.arraylen ? ir_const_array(fn, t, all) : NULL;
        free(all);
        return c;
    }
    float v[16];
    int n;
    if (to.arraylen || to.base == TY_STRING || !eval(e, v, &n) || !shape(to.base, v, n))
        return NULL;
    if (to.base == TY_FLOAT)
        return ir_const_float(fn, v[0]);
    if (to.base == TY_MATRIX)
        return ir_const_matrix(fn, v);
    return ir_const_triple(fn, t.kind, v[0], v[1], v[2]);
}

/* ---- conversions ---------------------------------------------------------------------------- */

IrVal *lower_convert(Lower *L, IrVal *v, Type to, SrcLoc loc)
{
    IrType t = lower_type(to);
    if (!v || ir_type_equal(v->type, t) || t.kind == IRT_VOID || to.arraylen)
        return v;
    IrConst *k = v->kind == IRV_CONST ? (IrConst *)v : NULL;
    if (v->type.kind == IRT_FLOAT) {
        if (k && t.kind == IRT_MATRIX) {
            float m[16];
            for (int i = 0; i < 16; i++)
                m[i] = i % 5 ? 0 : k->f[0];
            return &ir_const_matrix(L->fn, m)->val;
        }
        if (k && ir_is_triple(t.kind))
            return &ir_const_triple(L->fn, t.kind, k->f[0], k->f[0], k->f[0])->val;
        return &op2(L, IR_splat, t, v, NULL, loc)->val;
    }
    if (ir_is_triple(v->type.kind) && ir_is_triple(t.kind)) {
        if (k)
            return &ir_const_triple(L->fn, t.kind, k->f[0], k->f[1], k->f[2])->val;
        return &op2(L, IR_retype, t, v, NULL, loc)->val;
    }
    return v;
}

/* Converts two operands to one type for ==, != (float meets triple). */
static void unify(Lower *L, IrVal **a, IrVal **b, SrcLoc loc)
{
    IrKind ka = (*a)->type.kind, kb = (*b)->type.kind;
    if (ka == kb)
        return;
    if (ka == IRT_FLOAT || (ir_is_triple(ka) && ir_is_triple(kb) && kb != IRT_FLOAT)) {
        Type t = { TY_FLOAT, 0 };
        static const TypeBase of[] = { [IRT_COLOR] = TY_COLOR, [IRT_POINT] = TY_POINT,
                                       [IRT_VECTOR] = TY_VECTOR, [IRT_NORMAL] = TY_NORMAL,
                                       [IRT_MATRIX] = TY_MATRIX, [IRT_FLOAT] = TY_FLOAT };
        t.base = of[kb];
        *a = lower_convert(L, *a, t, loc);
    } else {
        IrVal *t = *a;
        *a = *b, *b = t;
        unify(L, a, b, loc);
        t = *a, *a = *b, *b = t;
    }
}

/* ---- conditions ----------------------------------------------------------------------------- */

static IrVal *as_bool(Lower *L, const Node *e)
{
    IrVal *v = lower_expr(L, e);
    if (v->type.kind == IRT_BOOL)
        return v;
    return &op2(L, IR_ne, ir_type(IRT_BOOL), v, kf(L, 0), e->loc)->val;
}

void lower_cond(Lower *L, const Node *e, IrBlock *t, IrBlock *f)
{
    if (e->kind == N_UNARY && e->op == OP_NOT) {
        lower_cond(L, e->kid[0], f, t);
        return;
    }
    if (e->kind == N_BINARY && (e->op == OP_AND || e->op == OP_OR)) {
        IrBlock *mid = ssa_block(L);
        if (e->op == OP_AND)
            lower_cond(L, e->kid[0], mid, f);
        else
            lower_cond(L, e->kid[0], t, mid);
        ssa_seal(L, mid);
        L->cur = mid;
        lower_cond(L, e->kid[1], t, f);
        return;
    }
    IrIns *br = op2(L, IR_br, ir_type(IRT_VOID), as_bool(L, e), NULL, e->loc);
    ir_set_succ(br, 0, t);
    ir_set_succ(br, 1, f);
    L->cur = NULL;
}

/* A two-way join: the value a when entered from ta, b from tb. */
static IrVal *join(Lower *L, IrBlock *j, IrVal *a, IrBlock *ta, IrVal *b, SrcLoc loc)
{
    ssa_seal(L, j);
    L->cur = j;
    if (a == b)
        return a;
    IrIns *phi = ir_ins_new(L->fn, IR_phi, a->type, loc);
    ir_append(j, phi);
    ir_ins_add_arg(phi, j->preds[0] == ta ? a : b);
    ir_ins_add_arg(phi, j->preds[0] == ta ? b : a);
    return &phi->val;
}

/* A condition used as a value (operands of && || ! outside conditions). */
static IrVal *bool_value(Lower *L, const Node *e)
{
    IrBlock *t = ssa_block(L), *f = ssa_block(L), *j = ssa_block(L);
    lower_cond(L, e, t, f);
    ssa_seal(L, t);
    ssa_seal(L, f);
    L->cur = t;
    lower_jump(L, j, e->loc);
    L->cur = f;
    lower_jump(L, j, e->loc);
    return join(L, j, &ir_const_bool(L->fn, true)->val, t,
                &ir_const_bool(L->fn, false)->val, e->loc);
}

static IrVal *ternary(Lower *L, const Node *e)
{
    IrBlock *t = ssa_block(L), *f = ssa_block(L), *j = ssa_block(L);
    lower_cond(L, e->kid[0], t, f);
    ssa_seal(L, t);
    ssa_seal(L, f);
    L->cur = t;
    IrVal *a = lower_convert(L, lower_expr(L, e->kid[1]), e->type, e->loc);
    IrBlock *ta = L->cur;
    lower_jump(L, j, e->loc);
    L->cur = f;
    IrVal *b = lower_convert(L, lower_expr(L, e->kid[2]), e->type, e->loc);
    lower_jump(L, j, e->loc);
    return join(L, j, a, ta, b, e->loc);
}

/* ---- operators ------------------------------------------------------------------------------ */

static IrVal *binary(Lower *L, const Node *e)
{
    static const IrOp ops[] = {
        [OP_ADD] = IR_add, [OP_SUB] = IR_sub, [OP_MUL] = IR_mul, [OP_DIV] = IR_div,
        [OP_DOT] = IR_dot, [OP_CROSS] = IR_cross, [OP_LT] = IR_lt, [OP_LE] = IR_le,
        [OP_GT] = IR_gt, [OP_GE] = IR_ge, [OP_EQ] = IR_eq, [OP_NE] = IR_ne,
    };
    if (e->op == OP_AND || e->op == OP_OR)
        return bool_value(L, e);
    IrVal *a = lower_expr(L, e->kid[0]), *b = lower_expr(L, e->kid[1]);
    IrType t = lower_type(e->type);
    switch (e->op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV:
        a = lower_convert(L, a, e->type, e->loc);
        b = lower_convert(L, b, e->type, e->loc);
        break;
    case OP_EQ: case OP_NE:
        unify(L, &a, &b, e->loc);
        break;
    default:
        break;
    }
    return &op2(L, ops[e->op], t, a, b, e->loc)->val;
}

/* The value the lvalue lhs holds now (N_INDEX: idx is its index). */
static IrVal *load(Lower *L, const Node *lhs, IrVal *idx)
{
    if (lhs->kind == N_IDENT)
        return lower_expr(L, lhs);
    IrVal *arr = lower_expr(L, lhs->kid[0]);
    return &op2(L, IR_aget, lower_type(lhs->type), arr, idx, lhs->loc)->val;
}

static void store_at(Lower *L, const Node *lhs, IrVal *idx, IrVal *v, SrcLoc loc)
{
    const Node *root = lhs->kind == N_INDEX ? lhs->kid[0] : lhs;
    Symbol *sym = root->sym;
    const GlobalVar *g = sym->global;
    if (g && g->region && L->info->def->kind == N_SHADER && (g->region & SHADER_BIT(L->kind))) {
        /* A light shader may reshape its light inside illuminate or solar
           (PRMan): later reads in the body see the new L, and the
           renderer gets it as the light's L. */
        if (L->kind == SHADER_LIGHT && !idx && strcmp(g->name, "L") == 0) {
            /* Outside them it changes nothing (check_expr.c warns). */
            if (!L->region_depth)
                return;
            v = lower_convert(L, v, type_make(g->type), loc);
            ssa_write(L, lower_var(L, sym), L->cur, v);
            IrIns *set = emit(L, IR_gset, ir_type(IRT_VOID), loc);
            set->sym = ir_intern(L->fn, g->name);
            ir_ins_add_arg(set, v);
            return;
        }
        diag_error(L->u->rc, root->loc, "assigning '%s' in a %s shader is not supported", g->name,
                   shader_kind_name(L->kind));
        return;
    }
    int x = lower_var(L, sym);
    Type t = g ? type_make(g->type) : sym->type;
    if (lhs->kind == N_INDEX) {
        IrVal *arr = ssa_read(L, x, L->cur, loc);
        IrIns *set = emit(L, IR_aset, arr->type, loc);
        ir_ins_add_arg(set, arr);
        ir_ins_add_arg(set, idx);
        ir_ins_add_arg(set, lower_convert(L, v, type_make(t.base), loc));
        v = &set->val;
    } else {
        v = lower_convert(L, v, t, loc);
    }
    ssa_write(L, x, L->cur, v);
    if (!L->vars[x].written)
        L->vars[x].written_at = loc;
    L->vars[x].written = true;
}

void lower_store(Lower *L, const Node *lhs, IrVal *v)
{
    IrVal *idx = lhs->kind == N_INDEX ? lower_expr(L, lhs->kid[1]) : NULL;
    store_at(L, lhs, idx, v, lhs->loc);
}

static IrVal *assign(Lower *L, const Node *e)
{
    static const IrOp ops[] = { [OP_ADD] = IR_add, [OP_SUB] = IR_sub, [OP_MUL] = IR_mul,
                                [OP_DIV] = IR_div };
    const Node *lhs = e->kid[0];
    IrVal *idx = lhs->kind == N_INDEX ? lower_expr(L, lhs->kid[1]) : NULL;
    IrVal *v;
    if (e->op == OP_ASSIGN) {
        v = lower_expr(L, e->kid[1]);
    } else {
        /* Computed in the target's type: point += vector is the same sum
           as a point or as a vector. */
        IrVal *old = load(L, lhs, idx);
        IrVal *r = lower_convert(L, lower_expr(L, e->kid[1]), lhs->type, e->loc);
        v = &op2(L, ops[e->op], old->type, old, r, e->loc)->val;
    }
    v = lower_convert(L, v, lhs->type, e->loc);
    store_at(L, lhs, idx, v, e->loc);
    return v;
}

/* ---- casts ------------------------------------------------------------------------------------ */

/* The matrix from space `space` to "current" (see the top comment). */
static IrVal *space_matrix(Lower *L, const char *space, SrcLoc loc)
{
    static const char projective[][7] = { "screen", "NDC", "raster" };
    for (size_t i = 0; i < sizeof projective / sizeof *projective; i++)
        if (strcmp(space, projective[i]) == 0)
            diag_error(L->u->rc, loc, "matrix \"%s\" is not supported: the space is projective", space);
    IrIns *m = ir_ins_new(L->fn, IR_matrix, ir_type(IRT_MATRIX), loc);
    for (int row = 0; row < 4; row++) {
        bool origin = row == 3;
        IrVal *args[3] = { ks(L, space), ks(L, "current"),
                           &ir_const_triple(L->fn, origin ? IRT_POINT : IRT_VECTOR,
                                            row == 0, row == 1, row == 2)->val };
        IrVal *img = intrin(L, origin ? BO_TRANSFORM_pssp : BO_VTRANSFORM_vssv,
                            args[2]->type, args, 3, loc);
        static const BuiltinRowId comps[2][3] = {
            { BO_XCOMP_fv, BO_YCOMP_fv, BO_ZCOMP_fv }, { BO_XCOMP_fp, BO_YCOMP_fp, BO_ZCOMP_fp }
        };
        for (int c = 0; c < 3; c++)
            ir_ins_add_arg(m, intrin(L, comps[origin][c], ir_type(IRT_FLOAT), &img, 1, loc));
        ir_ins_add_arg(m, kf(L, origin));
    }
    ir_append(L->cur, m);
    return &m->val;
}

static IrVal *cast(Lower *L, const Node *e)
{
    TypeBase to = e->spec.type.base;
    IrVal *v = lower_convert(L, lower_expr(L, e->kid[0]), type_make(to), e->loc);
    const char *space = e->name;
    if (!space)
        return v;
    if (to == TY_MATRIX) {
        IrVal *s = space_matrix(L, space, e->loc);
        bool one = e->kid[0]->kind == N_FLOATLIT && e->kid[0]->num == 1;
        return one ? s : &op2(L, IR_mul, ir_type(IRT_MATRIX), v, s, e->loc)->val;
    }
    if (strcmp(space, to == TY_COLOR ? "rgb" : "current") == 0)
        return v;
    BuiltinRowId row = to == TY_COLOR ? BO_CTRANSFORM_cssc : to == TY_POINT ? BO_TRANSFORM_pssp
                     : to == TY_VECTOR ? BO_VTRANSFORM_vssv : BO_NTRANSFORM_nssn;
    IrVal *args[3] = { ks(L, space), ks(L, to == TY_COLOR ? "rgb" : "current"), v };
    return intrin(L, row, v->type, args, 3, e->loc);
}

/* ---- calls ------------------------------------------------------------------------------------ */

static const Node *formal_at(const Node *def, int i)
{
    const Node *f = def->kid[0];
    while (f && i-- > 0)
        f = f->next;
    return f;
}

static const Node *nth(const Node *list, int i)
{
    while (list && i-- > 0)
        list = list->next;
    return list;
}

/* Is the value at index i of a list whose options start at index first
   (name/value pairs) an output option? */
static bool output_option(const Node *list, int i, int first, BuiltinOptSet set)
{
    if (i <= first || (i - first) % 2 == 0)
        return false;
    const Node *name = nth(list, i - 1);
    const BuiltinOption *o = name && name->kind == N_STRINGLIT ? builtin_option(set, name->name)
                                                               : NULL;
    return o && o->output;
}

bool lower_arg_is_output(const LowerUnit *u, const Node *call, int i)
{
    if (call->kind == N_GATHER)
        return output_option(call->kid[0], i, 5, OPTS_GATHER);
    if (call->sym) {
        FuncInfo *g = lower_func_info(u, call->sym);
        const Node *f = g ? formal_at(g->def, i) : NULL;
        return f && f->spec.output;
    }
    BuiltinSig sig;
    if (!call->builtin || !builtin_call_sig(call, &sig))
        return false;
    if (sig.tail == '~' && i >= sig.nparams)
        return output_option(call->kid[0], i, sig.nparams, call->builtin->opts);
    const BuiltinParam *p = builtin_sig_param(&sig, i);
    return p && p->output;
}

/* Argument values; an output argument passes the variable's value in. */
static int lower_args(Lower *L, const Node *call, IrVal **vals, const Node **nodes, bool *out)
{
    int n = 0;
    for (const Node *a = call->kid[0]; a; a = a->next, n++) {
        nodes[n] = a;
        out[n] = lower_arg_is_output(L->u, call, n);
        vals[n] = lower_expr(L, a);
    }
    return n;
}

static IrVal *user_call(Lower *L, const Node *e)
{
    FuncInfo *g = lower_func_info(L->u, e->sym);
    IrFunc *gf = g->fn;
    const Node *nodes[BUILTIN_MAX_ARGS];
    IrVal *vals[BUILTIN_MAX_ARGS];
    bool out[BUILTIN_MAX_ARGS];
    int n = lower_args(L, e, vals, nodes, out);
    IrType t = g->nouts ? ir_type(IRT_TUPLE) : gf->ret;
    IrIns *call = ir_ins_new(L->fn, IR_call, t, e->loc);
    call->sym = gf->name;
    call->callee = gf;
    for (int i = 0; i < n; i++)
        ir_ins_add_arg(call, lower_convert(L, vals[i], formal_at(g->def, i)->type, e->loc));
    for (int c = 0; c < g->ncaps; c++)
        ir_ins_add_arg(call, ssa_read(L, lower_var(L, g->caps[c].sym), L->cur, e->loc));
    if (g->ret_param >= 0)
        ir_ins_add_arg(call, ir_undef(L->fn, gf->params[g->ret_param].type));
    ir_append(L->cur, call);
    if (!g->nouts)
        return t.kind == IRT_VOID ? NULL : &call->val;
    IrVal *result = NULL;
    for (int p = 0; p < gf->nparams; p++) {
        if (!gf->params[p].output)
            continue;
        IrIns *o = op2(L, IR_callout, gf->params[p].type, &call->val, NULL, e->loc);
        o->imm = p;
        if (p == g->ret_param)
            result = &o->val;
        else if (p < n)
            lower_store(L, nodes[p], &o->val);
        else {
            int x = lower_var(L, g->caps[p - n].sym);
            ssa_write(L, x, L->cur, &o->val);
            if (!L->vars[x].written)
                L->vars[x].written_at = e->loc;
            L->vars[x].written = true;
        }
    }
    return result;
}

/* A global's value where a call reads it implicitly. */
static IrVal *implicit_global(Lower *L, const char *name, SrcLoc loc)
{
    const GlobalVar *g = global_lookup(name);
    IrIns *i = emit(L, IR_gget, lower_type(type_make(g->type)), loc);
    i->sym = ir_intern(L->fn, g->name);
    return &i->val;
}

/* Appends Du(v) and Dv(v) to vals[n..]: calls of Du's and Dv's rows. */
static int implicit_derivatives(Lower *L, IrVal *v, IrVal **vals, int n, SrcLoc loc)
{
    static const BuiltinRowId rows[2][IRT_NORMAL + 1] = {
        { [IRT_FLOAT] = BO_DU_ff, [IRT_COLOR] = BO_DU_cc, [IRT_POINT] = BO_DU_pp,
          [IRT_VECTOR] = BO_DU_vv, [IRT_NORMAL] = BO_DU_nn },
        { [IRT_FLOAT] = BO_DV_ff, [IRT_COLOR] = BO_DV_cc, [IRT_POINT] = BO_DV_pp,
          [IRT_VECTOR] = BO_DV_vv, [IRT_NORMAL] = BO_DV_nn },
    };
    for (int dir = 0; dir < 2; dir++)
        vals[n++] = intrin(L, rows[dir][v->type.kind], v->type, &v, 1, loc);
    return n;
}

/* Appends the arguments a call takes beyond the shader's own
   (vals[0..n-1]), in the order and from the bits of builtins.def's
   implicit column, so that every back end sees the same call. Returns the
   new count. */
static int implicit_args(Lower *L, unsigned imp, IrVal **vals, int n, SrcLoc loc)
{
    IrVal *own[3] = { vals[0], vals[1], vals[2] }, *st[2] = { NULL, NULL };
    if (imp & IMP_P)
        vals[n++] = implicit_global(L, "P", loc);
    if (imp & IMP_NG)
        vals[n++] = implicit_global(L, "Ng", loc);
    if (imp & IMP_ST) {
        vals[n++] = st[0] = implicit_global(L, "s", loc);
        vals[n++] = st[1] = implicit_global(L, "t", loc);
    }
    for (int i = 0; i < 3; i++)
        if (imp & IMP_D(i))
            n = implicit_derivatives(L, own[i], vals, n, loc);
    for (int k = 0; k < 2 && st[k]; k++)
        n = implicit_derivatives(L, st[k], vals, n, loc);
    if (imp & IMP_STEPS) {
        vals[n++] = implicit_global(L, "du", loc);
        vals[n++] = implicit_global(L, "dv", loc);
    }
    return n;
}

static IrVal *builtin_call(Lower *L, const Node *e)
{
    const Builtin *b = e->builtin;
    BuiltinSig sig;
    int row = builtin_call_row(e, &sig);
    if (row < 0)
        diag_die("lower: builtin '%s' does not resolve", e->name);
    const Node *nodes[BUILTIN_MAX_ARGS];
    IrVal *vals[BUILTIN_MAX_ARGS + 2 + BUILTIN_MAX_IMPLICIT];
    bool out[BUILTIN_MAX_ARGS], any = false;
    IrVal *channel = NULL;
    int n = 0;
    for (const Node *a = e->kid[0]; a; a = a->next, n++) {
        nodes[n] = a;
        out[n] = lower_arg_is_output(L->u, e, n);
        any |= out[n];
        if (n == 0 && (builtin_row(b)->flags & BF_CHANNEL) && a->kind == N_INDEX && a->type.base == TY_STRING
            && !a->type.arraylen) {
            vals[n] = lower_expr(L, a->kid[0]);
            channel = lower_expr(L, a->kid[1]);
            continue;
        }
        vals[n] = lower_expr(L, a);
        const BuiltinParam *p = builtin_sig_param(&sig, n);
        if (p && !p->any && !(sig.tail == '~' && n >= sig.nparams))
            vals[n] = lower_convert(L, vals[n], p->type, e->loc);
    }
    int nv = n;
    if (channel) {
        vals[nv++] = ks(L, "channel");
        vals[nv++] = channel;
    }
    nv = implicit_args(L, builtin_rows[row].implicit, vals, nv, e->loc);
    IrType rt = lower_type(sig.ret);
    IrVal *r = intrin(L, (BuiltinRowId)row, any ? ir_type(IRT_TUPLE) : rt, vals, nv, e->loc);
    unsigned flags = builtin_rows[row].flags;
    if ((flags & BF_OUTDETAIL) && e->detail != DETAIL_UNIFORM)
        ((IrIns *)r)->pin = IR_PIN_VARYING;   /* into a varying variable: per point */
    else if ((flags & BF_VARYING) && e->detail == DETAIL_UNIFORM)
        ((IrIns *)r)->pin = IR_PIN_UNIFORM;   /* the checker's uniform random() */
    if (!any)
        return rt.kind == IRT_VOID ? NULL : r;
    for (int i = 0; i < n; i++) {
        if (!out[i])
            continue;
        IrIns *o = op2(L, IR_callout, vals[i]->type, r, NULL, e->loc);
        o->imm = i;
        lower_store(L, nodes[i], &o->val);
    }
    if (rt.kind == IRT_VOID)
        return NULL;
    IrIns *o = op2(L, IR_callout, rt, r, NULL, e->loc);
    o->imm = -1;
    return &o->val;
}

/* ---- regions and the dispatch ------------------------------------------------------------------ */

void lower_region_args(Lower *L, const Node *s, IrIns *region)
{
    int i = 0, k = 0;
    for (const Node *a = s->kid[0]; a; a = a->next, i++) {
        IrVal *v = lower_expr(L, a);
        /* Position: point; axis or direction: vector (solar has no position). */
        if (type_is_triple(a->type.base) && !a->type.arraylen && (s->kind != N_GATHER || i < 5)) {
            TypeBase want = k == 0 && s->kind != N_SOLAR ? TY_POINT : TY_VECTOR;
            v = lower_convert(L, v, type_make(want), a->loc);
            k++;
        }
        ir_ins_add_arg(region, v);
    }
}

static IrVal *triple(Lower *L, const Node *e)
{
    IrConst *k = lower_const(L->fn, e, e->type);
    if (k)
        return &k->val;
    IrIns *t = ir_ins_new(L->fn, IR_triple, lower_type(e->type), e->loc);
    for (int i = 0; i < 3; i++)
        ir_ins_add_arg(t, lower_convert(L, lower_expr(L, e->kid[i]), type_make(TY_FLOAT), e->loc));
    ir_append(L->cur, t);
    return &t->val;
}

static IrVal *matrix16(Lower *L, const Node *e)
{
    IrConst *k = lower_const(L->fn, e, e->type);
    if (k)
        return &k->val;
    IrIns *m = ir_ins_new(L->fn, IR_matrix, ir_type(IRT_MATRIX), e->loc);
    for (const Node *c = e->kid[0]; c; c = c->next)
        ir_ins_add_arg(m, lower_expr(L, c));
    ir_append(L->cur, m);
    return &m->val;
}

static IrVal *arrayinit(Lower *L, const Node *e)
{
    IrConst *k = lower_const(L->fn, e, e->type);
    if (k)
        return &k->val;
    IrVal *arr = ir_undef(L->fn, lower_type(e->type));
    int i = 0;
    for (const Node *c = e->kid[0]; c; c = c->next, i++) {
        IrVal *v = lower_convert(L, lower_expr(L, c), type_make(e->type.base), c->loc);
        IrIns *set = emit(L, IR_aset, arr->type, c->loc);
        ir_ins_add_arg(set, arr);
        ir_ins_add_arg(set, kf(L, (float)i));
        ir_ins_add_arg(set, v);
        arr = &set->val;
    }
    return arr;
}

IrVal *lower_expr(Lower *L, const Node *e)
{
    switch (e->kind) {
    case N_FLOATLIT:
        return kf(L, (float)e->num);
    case N_STRINGLIT:
        return ks(L, e->name);
    case N_IDENT:
        if (e->sym->kind == SYM_CONST)
            return kf(L, (float)M_PI);
        return ssa_read(L, lower_var(L, e->sym), L->cur, e->loc);
    case N_INDEX:
        return load(L, e, lower_expr(L, e->kid[1]));
    case N_UNARY:
        if (e->op == OP_NOT)
            return bool_value(L, e);
        {
            IrVal *a = lower_expr(L, e->kid[0]);
            if (a->kind == IRV_CONST && a->type.kind == IRT_FLOAT)
                return kf(L, -((IrConst *)a)->f[0]);
            return &op2(L, IR_neg, a->type, a, NULL, e->loc)->val;
        }
    case N_BINARY:
        return binary(L, e);
    case N_ASSIGN:
        return assign(L, e);
    case N_TERNARY:
        return ternary(L, e);
    case N_CALL:
        return e->sym ? user_call(L, e) : builtin_call(L, e);
    case N_CAST:
        return cast(L, e);
    case N_TRIPLE:
        return triple(L, e);
    case N_MATRIX16:
        return matrix16(L, e);
    case N_ARRAYINIT:
        return arrayinit(L, e);
    default:
        diag_die("lower_expr: %s is not an expression", ast_kind_name(e->kind));
    }
}

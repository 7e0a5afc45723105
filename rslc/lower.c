/*
** lower.c: the checked syntax tree to SSA IR: one IrFunc per shader and
** per user function (overloads and nested functions included, each under
** a unique name), their parameters and statements. The functions and
** their captures come from lower_funcs.c, SSA form from ssa.c as the code
** is built, expressions from lower_expr.c; uniform/varying is inferred
** afterwards (uniform.c). The conventions this adds to ir.h are listed in
** lower_impl.h.
**
** Uninitialised variables: a local holds undef until an assignment runs;
** a declaration without an initialiser assigns nothing, so inside a loop
** the variable keeps the previous iteration's value (as storage would).
**
** Control flow: conditions lower to jumps (&&, || and ! short-circuit);
** loops get a header that is sealed once its back edges are known;
** break N and continue N jump to the N-th enclosing loop's exit or
** continue block; return writes the function's result variable and jumps
** to the single exit block, which reads every output and ends in `ret`.
** Code after a jump is unreachable and is not lowered.
**
** Shaders: parameters are `param` (uniform unless declared varying),
** globals `gget` on entry when first read; at the exit block every
** assigned global gets a `gset` and every assigned output parameter a
** `pset`. illuminance, illuminate, solar and gather are regions: the
** header ends in `region`, the body ends in `next` back to the header,
** and break or return out of a region body are rejected (regions stay
** structured for the backends).
*/
#include <stdlib.h>
#include <string.h>

#include "rslc/lower_impl.h"

/* ---- types and helpers --------------------------------------------------------------------- */

IrType lower_type(Type t)
{
    static const IrKind kinds[TY_NBASE] = {
        [TY_ERROR] = IRT_VOID, [TY_VOID] = IRT_VOID, [TY_FLOAT] = IRT_FLOAT,
        [TY_COLOR] = IRT_COLOR, [TY_POINT] = IRT_POINT, [TY_VECTOR] = IRT_VECTOR,
        [TY_NORMAL] = IRT_NORMAL, [TY_MATRIX] = IRT_MATRIX, [TY_STRING] = IRT_STRING,
        [TY_BOOL] = IRT_BOOL,
    };
    IrType r = { kinds[t.base], t.arraylen > 0 ? t.arraylen : 0 };
    return r;
}

IrIns *emit(Lower *L, IrOp op, IrType type, SrcLoc loc)
{
    IrIns *ins = ir_ins_new(L->fn, op, type, loc);
    ir_append(L->cur, ins);
    return ins;
}

void lower_jump(Lower *L, IrBlock *b, SrcLoc loc)
{
    if (!L->cur)
        return;
    IrIns *j = emit(L, IR_jmp, ir_type(IRT_VOID), loc);
    ir_set_succ(j, 0, b);
    L->cur = NULL;
}

/* Makes b current once its predecessors are known; a block nothing jumps
   to is dropped and code after it is unreachable. */
static void enter(Lower *L, IrBlock *b)
{
    ssa_seal(L, b);
    if (b->npreds == 0 && b != L->fn->entry) {
        ir_block_delete(b);
        L->cur = NULL;
    } else {
        L->cur = b;
    }
}

static int formal_index(const Node *def, const Symbol *sym)
{
    int i = 0;
    for (const Node *f = def->kid[0]; f; f = f->next, i++)
        if (f->sym == sym)
            return i;
    return -1;
}

int lower_var(Lower *L, Symbol *sym)
{
    FuncInfo *fi = L->info;
    if (sym->global) {
        const GlobalVar *g = sym->global;
        IrType t = lower_type(type_make(g->type));
        if (fi->def->kind == N_SHADER) {
            bool region = (g->region & SHADER_BIT(L->kind)) != 0;
            return var_get(L, g, g->name, t, region ? VE_NOREGION : VE_GLOBAL, 0);
        }
        for (int c = 0; c < fi->ncaps; c++)
            if (fi->caps[c].sym->global == g)
                return var_get(L, g, g->name, t, VE_PARAM, ast_list_len(fi->def->kid[0]) + c);
        return var_get(L, g, g->name, t, VE_NOREGION, 0);
    }
    IrType t = lower_type(sym->type);
    if (lower_owner(L->u, sym) == fi) {
        int p = sym->param ? formal_index(fi->def, sym) : -1;
        return var_get(L, sym, sym->name, t, p >= 0 ? VE_PARAM : VE_UNDEF, p);
    }
    for (int c = 0; c < fi->ncaps; c++)
        if (fi->caps[c].sym == sym)
            return var_get(L, sym, sym->name, t, VE_PARAM, ast_list_len(fi->def->kid[0]) + c);
    diag_die("lower: '%s' is not visible in '%s'", sym->name, fi->def->name);
}

/* ---- statements ---------------------------------------------------------------------------- */

static void lower_stmt(Lower *L, const Node *s);

static void lower_stmts(Lower *L, const Node *list)
{
    for (const Node *s = list; s; s = s->next)
        lower_stmt(L, s);
}

static Jump *push_jump(Lower *L, IrBlock *brk, IrBlock *cont, bool loop, bool region)
{
    L->jumps = lower_grow(L->jumps, &L->capjumps, L->njumps + 1, sizeof *L->jumps);
    Jump *j = &L->jumps[L->njumps++];
    j->brk = brk, j->cont = cont, j->loop = loop, j->region = region;
    return j;
}

static void lower_break(Lower *L, const Node *s)
{
    bool brk = s->kind == N_BREAK;
    int level = (int)s->num;
    for (int i = L->njumps - 1; i >= 0; i--) {
        Jump *j = &L->jumps[i];
        if (j->region && (brk || !j->loop || level > 1)) {
            diag_error(L->u->rc, s->loc, "'%s' cannot leave a%s %s statement", brk ? "break" : "continue",
                       j->loop ? "n" : "", j->loop ? "illuminance or gather"
                                                   : "illuminate or solar");
            L->cur = NULL;
            return;
        }
        if (!j->loop || --level > 0)
            continue;
        if (!brk && !j->cont)
            j->cont = ssa_block(L);
        lower_jump(L, brk ? j->brk : j->cont, s->loc);
        return;
    }
    diag_die("lower: %s level beyond the loops", brk ? "break" : "continue");
}

static void lower_if(Lower *L, const Node *s)
{
    IrBlock *then = ssa_block(L), *join = ssa_block(L);
    IrBlock *els = s->kid[2] ? ssa_block(L) : join;
    lower_cond(L, s->kid[0], then, els);
    enter(L, then);
    if (L->cur)
        lower_stmt(L, s->kid[1]);
    lower_jump(L, join, s->loc);
    if (s->kid[2]) {
        enter(L, els);
        if (L->cur)
            lower_stmt(L, s->kid[2]);
        lower_jump(L, join, s->loc);
    }
    enter(L, join);
}

static void lower_loop(Lower *L, const Node *s)
{
    bool is_for = s->kind == N_FOR;
    const Node *cond = is_for ? s->kid[1] : s->kid[0];
    const Node *body = is_for ? s->kid[3] : s->kid[1];
    const Node *step = is_for ? s->kid[2] : NULL;
    if (is_for && s->kid[0])
        lower_expr(L, s->kid[0]);
    IrBlock *head = ssa_block(L), *first = ssa_block(L), *exit = ssa_block(L);
    IrBlock *cont = step ? ssa_block(L) : head;
    lower_jump(L, head, s->loc);
    L->cur = head;
    if (cond)
        lower_cond(L, cond, first, exit);
    else
        lower_jump(L, first, s->loc);
    enter(L, first);
    push_jump(L, exit, cont, true, false);
    if (L->cur)
        lower_stmt(L, body);
    L->njumps--;
    lower_jump(L, cont, s->loc);
    if (step) {
        enter(L, cont);
        if (L->cur)
            lower_expr(L, step);
        lower_jump(L, head, s->loc);
    }
    ssa_seal(L, head);
    enter(L, exit);
}

static void lower_return(Lower *L, const Node *s)
{
    if (L->region_depth) {
        diag_error(L->u->rc, s->loc, "'return' inside an illuminance, illuminate, solar or gather "
                   "statement is not supported");
        L->cur = NULL;
        return;
    }
    if (s->kid[0]) {
        IrVal *v = lower_convert(L, lower_expr(L, s->kid[0]), L->info->def->spec.type,
                                 s->loc);
        int r = var_get(L, L->info->def, "return", v->type, VE_UNDEF, 0);
        ssa_write(L, r, L->cur, v);
    }
    lower_jump(L, L->exit, s->loc);
}

/* The per-light or per-hit values a region body starts with. */
static void region_values(Lower *L, const Node *s)
{
    static const char names[][3] = { "L", "Cl", "Ol" };
    int n = s->kind == N_ILLUMINANCE ? 3 : s->kind == N_GATHER ? 0 : 1;
    for (int k = 0; k < n; k++) {
        const GlobalVar *g = global_lookup(names[k]);
        Symbol tmp = { .kind = SYM_GLOBAL, .name = g->name, .global = g };
        IrIns *v = emit(L, IR_light, lower_type(type_make(g->type)), s->loc);
        v->imm = k;
        ssa_write(L, lower_var(L, &tmp), L->cur, &v->val);
    }
    if (s->kind != N_GATHER)
        return;
    int i = 0, pair = 0;
    for (const Node *a = s->kid[0]; a; a = a->next, i++) {
        if (i < 5 || (i - 5) % 2 == 0)
            continue;
        if (lower_arg_is_output(L->u, s, i)) {
            IrIns *v = emit(L, IR_light, lower_type(a->type), a->loc);
            v->imm = pair;
            lower_store(L, a, &v->val);
        }
        pair++;
    }
}

static void region_body(Lower *L, const Node *s, const Node *body, IrBlock *head)
{
    push_jump(L, NULL, NULL, s->kind == N_ILLUMINANCE || s->kind == N_GATHER, true);
    int at = L->njumps - 1;
    if (L->cur)
        lower_stmt(L, body);
    IrBlock *latch = L->jumps[at].cont;
    L->njumps--;
    if (latch) {
        lower_jump(L, latch, s->loc);
        enter(L, latch);
    }
    if (L->cur) {
        IrIns *n = emit(L, IR_next, ir_type(IRT_VOID), s->loc);
        ir_set_succ(n, 0, head);
        L->cur = NULL;
    }
}

static void lower_region(Lower *L, const Node *s)
{
    static const IrRegionKind kinds[] = {
        [N_ILLUMINANCE] = IRR_ILLUMINANCE, [N_ILLUMINATE] = IRR_ILLUMINATE,
        [N_SOLAR] = IRR_SOLAR, [N_GATHER] = IRR_GATHER,
    };
    IrFunc *fn = L->fn;
    IrBlock *head = ssa_block(L), *body = ssa_block(L);
    IrBlock *miss = s->kid[2] ? ssa_block(L) : NULL, *exit = ssa_block(L);
    IrIns *region = ir_ins_new(fn, IR_region, ir_type(IRT_VOID), s->loc);
    lower_region_args(L, s, region);
    lower_jump(L, head, s->loc);
    int r = fn->nregions;
    int cap = r;
    fn->regions = lower_grow(fn->regions, &cap, r + 1, sizeof *fn->regions);
    IrRegion *g = &fn->regions[fn->nregions++];
    g->kind = kinds[s->kind];
    g->header = head, g->body = body, g->miss = miss, g->exit = exit;
    const Node *first = s->kid[0];
    if (first && first->kind == N_STRINGLIT && s->kind != N_SOLAR)
        g->category = ir_intern(fn, first->name);
    region->imm = r;
    ir_append(head, region);
    ir_set_succ(region, 0, body);
    ir_set_succ(region, 1, exit);

    L->region_depth++;
    enter(L, body);
    region_values(L, s);
    region_body(L, s, s->kid[1], head);
    if (miss) {
        L->bs[miss->id].vpred = head;
        ssa_seal(L, miss);
        L->cur = miss;
        region_body(L, s, s->kid[2], head);
    }
    L->region_depth--;
    ssa_seal(L, head);
    enter(L, exit);
}

static void lower_vardecl(Lower *L, const Node *d)
{
    const Node *init = d->kid[0];
    if (d->spec.is_extern || !init || !d->sym)
        return;
    IrVal *v = lower_convert(L, lower_expr(L, init), d->sym->type, d->loc);
    ssa_write(L, lower_var(L, d->sym), L->cur, v);
}

static void lower_stmt(Lower *L, const Node *s)
{
    if (!L->cur)
        return;     /* unreachable after break, continue or return */
    switch (s->kind) {
    case N_VARDECL: lower_vardecl(L, s); break;
    case N_FUNCTION: case N_EMPTY: break;
    case N_BLOCK: lower_stmts(L, s->kid[0]); break;
    case N_EXPRSTMT: lower_expr(L, s->kid[0]); break;
    case N_IF: lower_if(L, s); break;
    case N_WHILE: case N_FOR: lower_loop(L, s); break;
    case N_BREAK: case N_CONTINUE: lower_break(L, s); break;
    case N_RETURN: lower_return(L, s); break;
    case N_ILLUMINANCE: case N_ILLUMINATE: case N_SOLAR: case N_GATHER:
        lower_region(L, s);
        break;
    default:
        diag_die("lower_stmt: unexpected %s", ast_kind_name(s->kind));
    }
}

/* ---- functions and shaders ----------------------------------------------------------------- */

static void add_param(IrFunc *fn, const char *name, IrType t, bool varying, bool output)
{
    int cap = fn->nparams;
    fn->params = lower_grow(fn->params, &cap, fn->nparams + 1, sizeof *fn->params);
    IrParam *p = &fn->params[fn->nparams++];
    p->name = ir_intern(fn, name);
    p->type = t;
    p->varying = varying;
    p->output = output;
}

/* A name no other function of the module has: overloads and nested
   functions of one name get ".2", ".3", ... */
static void name_func(IrModule *m, IrFunc *fn, const char *base)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", base);
    for (int n = 2;; n++) {
        bool taken = false;
        for (int i = 0; i < m->nfuncs; i++)
            taken |= m->funcs[i] != fn && m->funcs[i]->name && strcmp(m->funcs[i]->name, buf) == 0;
        if (!taken)
            break;
        snprintf(buf, sizeof buf, "%s.%d", base, n);
    }
    fn->name = ir_intern(fn, buf);
}

static void declare_func(LowerUnit *u, IrModule *m, FuncInfo *fi)
{
    Node *def = fi->def;
    bool shader = def->kind == N_SHADER;
    IrType ret = shader ? ir_type(IRT_VOID) : lower_type(def->spec.type);
    IrFunc *fn = fi->fn = ir_func_new(m, NULL, shader ? def->shader : SHADER_FUNCTION, ret);
    name_func(m, fn, def->name);
    fn->loc = def->loc;
    for (Node *f = def->kid[0]; f; f = f->next) {
        Type t = f->spec.type;
        if (t.arraylen < 0 && !shader)
            diag_error(u->rc, f->loc, "array parameter '%s' without a length is not supported",
                       f->name);
        Detail d = f->detail;
        add_param(fn, f->name, lower_type(f->type.base ? f->type : t),
                  shader ? d == DETAIL_VARYING : d != DETAIL_UNIFORM, f->spec.output);
        fi->nouts += f->spec.output;
        if (shader && f->kid[0])
            fn->params[fn->nparams - 1].def = lower_const(fn, f->kid[0], f->type);
    }
    for (int c = 0; c < fi->ncaps; c++) {
        Symbol *s = fi->caps[c].sym;
        Type t = s->global ? type_make(s->global->type) : s->type;
        Detail d = s->global ? s->global->detail : s->detail;
        add_param(fn, s->name, lower_type(t), d != DETAIL_UNIFORM, fi->caps[c].written);
        fi->nouts += fi->caps[c].written;
    }
    if (fi->nouts && ret.kind != IRT_VOID) {
        fi->ret_param = fn->nparams;
        add_param(fn, "return", ret, true, true);
        fi->nouts++;
        fn->ret = ir_type(IRT_VOID);
    }
}

/* Deletes the light values the body never read. */
static void drop_unused_lights(IrFunc *fn)
{
    for (IrBlock *b = fn->entry; b; b = b->next)
        for (IrIns *i = b->first, *n; i; i = n) {
            n = i->next;
            if (i->op == IR_light && i->val.nuses == 0)
                ir_ins_delete(i);
        }
}

/* The exit block: outputs and the result. */
static void epilogue(Lower *L, bool defaults)
{
    FuncInfo *fi = L->info;
    IrFunc *fn = L->fn;
    SrcLoc loc = fi->def->loc;
    if (fi->def->kid[1] && fi->def->kid[1]->kind == N_BLOCK)
        loc = fi->def->kid[1]->loc;
    IrIns *ret = ir_ins_new(fn, IR_ret, ir_type(IRT_VOID), loc);
    if (fi->def->kind == N_SHADER && !defaults) {
        for (int v = 0; v < L->nvars; v++) {
            Var *x = &L->vars[v];
            bool global = x->entry == VE_GLOBAL || x->entry == VE_NOREGION;
            if (!x->written || !(global || (x->entry == VE_PARAM && fn->params[x->param].output)))
                continue;
            IrVal *val = ssa_read(L, v, L->cur, loc);
            const GlobalVar *g = global_lookup(x->name);
            if (global) {
                if (!(g->write & SHADER_BIT(L->kind))) {
                    diag_error(L->u->rc, x->written_at, "'%s' cannot be assigned in %s shaders "
                               "(a called function assigns it)", x->name,
                               shader_kind_name(L->kind));
                    continue;
                }
                IrIns *s = emit(L, IR_gset, ir_type(IRT_VOID), loc);
                s->sym = ir_intern(fn, x->name);
                ir_ins_add_arg(s, val);
            } else {
                IrIns *s = emit(L, IR_pset, ir_type(IRT_VOID), loc);
                s->imm = x->param;
                ir_ins_add_arg(s, val);
            }
        }
    } else if (defaults || fi->nouts) {
        int nformals = ast_list_len(fi->def->kid[0]);
        for (int p = 0; p < fn->nparams; p++) {
            if (!fn->params[p].output)
                continue;
            int v;
            if (p == fi->ret_param)
                v = var_get(L, fi->def, "return", fn->params[p].type, VE_UNDEF, 0);
            else if (p < nformals) {
                const Node *f = fi->def->kid[0];
                for (int k = 0; k < p; k++)
                    f = f->next;
                v = lower_var(L, f->sym);
            } else {
                v = lower_var(L, fi->caps[p - nformals].sym);
            }
            ir_ins_add_arg(ret, ssa_read(L, v, L->cur, loc));
        }
    } else if (fn->ret.kind != IRT_VOID) {
        int v = var_get(L, fi->def, "return", fn->ret, VE_UNDEF, 0);
        ir_ins_add_arg(ret, ssa_read(L, v, L->cur, loc));
    }
    ir_append(L->cur, ret);
}

/* Puts the exit block last in the layout, where a reader looks for it. */
static void move_last(IrFunc *fn, IrBlock *b)
{
    if (!b->next)
        return;
    if (b->prev)
        b->prev->next = b->next;
    else
        fn->entry = b->next;
    b->next->prev = b->prev;
    IrBlock *t = fn->entry;
    while (t->next)
        t = t->next;
    t->next = b;
    b->prev = t;
    b->next = NULL;
}

/* Builds fn's body: body statements, or (defaults) the computed default
   values of the shader's parameters. */
static void build(LowerUnit *u, IrModule *m, FuncInfo *fi, IrFunc *fn, bool defaults)
{
    Lower L = { .u = u, .m = m, .fn = fn, .info = fi };
    L.kind = fi->def->kind == N_SHADER ? fi->def->shader : SHADER_FUNCTION;
    IrBlock *entry = ssa_block(&L);
    ssa_seal(&L, entry);
    L.cur = entry;
    L.exit = ssa_block(&L);
    if (defaults) {
        int i = 0;
        for (Node *f = fi->def->kid[0]; f; f = f->next, i++)
            if (f->kid[0] && !fi->fn->params[i].def && f->sym) {
                IrVal *v = lower_convert(&L, lower_expr(&L, f->kid[0]), f->sym->type, f->loc);
                int x = lower_var(&L, f->sym);
                ssa_write(&L, x, L.cur, v);
            }
    } else if (fi->def->kid[1]) {
        lower_stmts(&L, fi->def->kid[1]->kid[0]);
    }
    lower_jump(&L, L.exit, fi->def->loc);
    ssa_seal(&L, L.exit);
    L.cur = L.exit;
    epilogue(&L, defaults);
    ssa_finish(&L);
    drop_unused_lights(fn);
    move_last(fn, L.exit);
}

/* The function that computes the shader's non-constant defaults. */
static IrFunc *defaults_func(IrModule *m, FuncInfo *fi)
{
    bool any = false;
    for (int p = 0; p < fi->fn->nparams; p++)
        any |= !fi->fn->params[p].def;
    if (!any)
        return NULL;
    char name[256];
    snprintf(name, sizeof name, "%s.defaults", fi->fn->name);
    IrFunc *fn = ir_func_new(m, NULL, SHADER_FUNCTION, ir_type(IRT_VOID));
    name_func(m, fn, name);
    fn->loc = fi->def->loc;
    for (int p = 0; p < fi->fn->nparams; p++) {
        const IrParam *q = &fi->fn->params[p];
        add_param(fn, q->name, q->type, q->varying, true);
    }
    return fn;
}

IrModule *ir_lower_unit(RslcCtx *rc, const Unit *unit)
{
    LowerUnit u = { .rc = rc };
    int errors = diag_error_count(rc), ninfos;
    IrModule *m = ir_module_new();
    FuncInfo **infos = lower_collect(&u, unit, &ninfos);
    for (int i = 0; i < ninfos; i++)
        declare_func(&u, m, infos[i]);
    for (int i = 0; i < ninfos; i++) {
        FuncInfo *fi = infos[i];
        build(&u, m, fi, fi->fn, false);
        IrFunc *dfn = fi->def->kind == N_SHADER ? defaults_func(m, fi) : NULL;
        if (dfn)
            build(&u, m, fi, dfn, true);
    }
    for (int i = 0; i < m->nfuncs; i++)
        uniform_infer(m->funcs[i]);
    lower_forget(&u);
    if (diag_error_count(rc) != errors) {
        ir_module_free(m);
        return NULL;
    }
    return m;
}

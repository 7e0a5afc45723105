/*
** check_expr.c: types and uniform/varying details of expressions.
**
** Type rules (RISpec 3.2 section 11, liberal where compilers are):
**  - float promotes to any triple and to matrix (a diagonal matrix);
**    point, vector and normal convert freely into one another; color and
**    the spatial types never mix without a cast.
**  - + and - on spatial types follow affine geometry: point - point is a
**    vector, point + vector a point, vector + vector a vector (normal when
**    both are normals); * and / keep the operands' type when equal, else a
**    point if either is one, else a vector. A float operand takes the
**    other operand's type. Matrices multiply and divide (m1 / m2 is
**    m1 * inverse(m2)) with matrices and floats, nothing else; a matrix
**    never multiplies a point (that is transform()).
**  - "." needs two spatial triples or two colors and gives a float; "^"
**    needs two spatial triples and gives a vector.
**  - Comparisons and && || ! give a boolean, which only conditions use;
**    it cannot be stored, passed or computed with. < <= > >= compare
**    floats; == and != compare any two values of convertible types.
**    A float serves as a condition too (true when not zero).
**  - A triple literal "(x, y, z)" takes its type from its context: a cast,
**    the variable it is stored in, the parameter it is passed to, or the
**    other operand of an operator; otherwise it is a point.
**
** Details: an expression is varying if any operand is; DETAIL_DEFAULT
** marks values that depend on a function's formals declared without
** uniform/varying, which are as varying as the caller's arguments.
*/
#include <string.h>

#include "rslc/check_impl.h"

#define TRIPLE_MASK ((1u << TY_COLOR) | (1u << TY_POINT) | (1u << TY_VECTOR) | \
                     (1u << TY_NORMAL))

Detail detail_join(Detail a, Detail b)
{
    if (a == DETAIL_VARYING || b == DETAIL_VARYING)
        return DETAIL_VARYING;
    if (a == DETAIL_DEFAULT || b == DETAIL_DEFAULT)
        return DETAIL_DEFAULT;
    return DETAIL_UNIFORM;
}

static void set_type(Node *e, TypeBase base, Detail detail)
{
    e->type = type_make(base);
    e->detail = detail;
}

static bool failed(const Node *e)
{
    return e->type.base == TY_ERROR;
}

/* Copies a type name out of type_name's static buffer. */
static const char *tname(Type t, char *buf)
{
    strcpy(buf, type_name(t).s);
    return buf;
}

/* A comparison used as a value is the float 1 or 0, as in PRMan and
   aqsl: e becomes `e ? 1 : 0` in place (it keeps its place in a list). */
void bool_to_float(Checker *ck, Node *e)
{
    if (e->type.base != TY_BOOL || e->type.arraylen)
        return;
    Node *cmp = ast_new(ck->rc, e->kind, e->loc);
    *cmp = *e;
    cmp->next = NULL;
    Node *one = ast_new(ck->rc, N_FLOATLIT, e->loc), *zero = ast_new(ck->rc, N_FLOATLIT, e->loc);
    one->num = 1;
    set_type(one, TY_FLOAT, DETAIL_UNIFORM);
    set_type(zero, TY_FLOAT, DETAIL_UNIFORM);
    Node *next = e->next;
    memset(e, 0, sizeof *e);
    e->kind = N_TERNARY;
    e->loc = cmp->loc;
    e->next = next;
    e->kid[0] = cmp, e->kid[1] = one, e->kid[2] = zero;
    set_type(e, TY_FLOAT, cmp->detail);
}

Node *lvalue_root(Node *e)
{
    if (e->kind == N_INDEX)
        e = e->kid[0];
    return e->kind == N_IDENT ? e : NULL;
}

/* ---- names -------------------------------------------------------------------- */

/* The shader types of mask as a list: "surface, light and displacement". */
static void kind_list(unsigned mask, char *buf, size_t size)
{
    int total = __builtin_popcount(mask), n = 0;
    size_t len = 0;
    buf[0] = '\0';
    for (int k = SHADER_SURFACE; k < SHADER_FUNCTION && len < size; k++)
        if (mask & SHADER_BIT(k)) {
            n++;
            const char *sep = n == 1 ? "" : n == total ? " and " : ", ";
            len += (size_t)snprintf(buf + len, size - len, "%s%s", sep,
                                    shader_kind_name((ShaderKind)k));
        }
}

Symbol *resolve_ident(Checker *ck, Node *e)
{
    bool crossed;
    Symbol *sym = scope_find(ck->scope, e->name, &crossed);
    if (!sym) {
        diag_error(ck->rc, e->loc, "unknown identifier '%s'", e->name);
        return NULL;
    }
    if (sym->kind == SYM_FUNC) {
        diag_error(ck->rc, e->loc, "'%s' is a function, not a variable", e->name);
        return NULL;
    }
    if (crossed && sym->kind == SYM_VAR) {
        diag_error(ck->rc, e->loc, "'%s' belongs to an enclosing scope; function "
                   "'%s' must declare it 'extern' to use it", e->name,
                   ck->func->name);
        return NULL;
    }
    const GlobalVar *g = sym->global;
    if (g && ck->kind != SHADER_FUNCTION) {
        unsigned bit = SHADER_BIT(ck->kind);
        if (!(g->read & bit)) {
            char kinds[64];
            kind_list(g->read, kinds, sizeof kinds);
            diag_error(ck->rc, e->loc, "'%s' is not available in %s shaders, only in %s shaders",
                       e->name, shader_kind_name(ck->kind), kinds);
            return NULL;
        }
        /* Inside a function body the call may well sit in a light region. */
        if ((g->region & bit) && !ck->region && !ck->func) {
            diag_error(ck->rc, e->loc, "'%s' is only available inside %s", e->name,
                       ck->kind == SHADER_LIGHT ? "illuminate or solar"
                                              : "illuminance");
            return NULL;
        }
    }
    e->sym = sym;
    return sym;
}

/* True if condition c encloses the point being checked. */
static bool inside(Checker *ck, const Node *c)
{
    for (int i = 0; i < ck->vdepth; i++)
        if (vcond_at(ck, i) == c)
            return true;
    return false;
}

void check_tainted(Checker *ck, Symbol *sym)
{
    diag_error(ck->rc, sym->taint_write->loc, "cannot assign to uniform variable "
               "'%s' under a varying condition", sym->name);
    diag_note(ck->rc, sym->taint_region->loc, "the condition is varying here");
    sym->taint_write = NULL;
}

void check_read(Checker *ck, const Node *use, Symbol *sym)
{
    if (sym->taint_write && !inside(ck, sym->taint_region)) {
        check_tainted(ck, sym);
        diag_note(ck->rc, use->loc, "'%s' is read here, outside the condition",
                  sym->name);
    }
    if (sym->kind != SYM_VAR || sym->param || sym->assigned || !sym->decl ||
        sym->decl->kid[0] || sym->decl->spec.is_extern)
        return;
    diag_warning(ck->rc, use->loc, "variable '%s' may be used uninitialized", sym->name);
    sym->assigned = true;   /* once is enough */
}

static void check_ident(Checker *ck, Node *e)
{
    Symbol *sym = resolve_ident(ck, e);
    if (!sym) {
        set_type(e, TY_ERROR, DETAIL_UNIFORM);
        return;
    }
    switch (sym->kind) {
    case SYM_GLOBAL:
        set_type(e, sym->global->type, sym->global->detail);
        break;
    case SYM_CONST:
        set_type(e, TY_FLOAT, DETAIL_UNIFORM);
        break;
    default:
        e->type = sym->type;
        e->detail = sym->detail;
        if (!ck->defer_read)
            check_read(ck, e, sym);
        break;
    }
}

/* ---- indexing -------------------------------------------------------------------- */

void check_index(Checker *ck, Node *e, bool defer_root)
{
    Node *arr = e->kid[0], *idx = e->kid[1];
    check_expr(ck, idx, want_none());
    bool saved = ck->defer_read;
    ck->defer_read = defer_root && arr->kind == N_IDENT;
    check_expr(ck, arr, want_none());
    ck->defer_read = saved;
    set_type(e, TY_ERROR, DETAIL_UNIFORM);
    bool_to_float(ck, idx);
    if (failed(arr) || failed(idx))
        return;
    char buf[32];
    if (arr->type.arraylen == 0) {
        if (arr->kind == N_IDENT)
            diag_error(ck->rc, arr->loc, "cannot index '%s': it is not an array",
                       arr->name);
        else
            diag_error(ck->rc, arr->loc, "cannot index a value of type '%s'",
                       tname(arr->type, buf));
        return;
    }
    if (idx->type.base != TY_FLOAT || idx->type.arraylen) {
        diag_error(ck->rc, idx->loc, "array index must be a float, not '%s'",
                   tname(idx->type, buf));
        return;
    }
    if (idx->kind == N_FLOATLIT && arr->type.arraylen > 0 &&
        (idx->num < 0 || idx->num >= arr->type.arraylen)) {
        diag_error(ck->rc, idx->loc, "index %g is out of range for '%s'", idx->num,
                   tname(arr->type, buf));
        return;
    }
    set_type(e, arr->type.base, detail_join(arr->detail, idx->detail));
}

/* ---- operators ------------------------------------------------------------------ */

/* The result of arithmetic op on two types, or TY_ERROR. */
static TypeBase arith_result(Op op, Type ta, Type tb)
{
    TypeBase a = ta.base, b = tb.base;
    if (ta.arraylen || tb.arraylen)
        return TY_ERROR;
    if (a == TY_MATRIX || b == TY_MATRIX) {
        bool ok = (op == OP_MUL || op == OP_DIV) &&
                  (a == TY_MATRIX || a == TY_FLOAT) &&
                  (b == TY_MATRIX || b == TY_FLOAT);
        return ok ? TY_MATRIX : TY_ERROR;
    }
    if (a == TY_FLOAT && (b == TY_FLOAT || type_is_triple(b)))
        return b;
    if (b == TY_FLOAT && type_is_triple(a))
        return a;
    if (a == TY_COLOR || b == TY_COLOR)
        return a == b ? TY_COLOR : TY_ERROR;
    if (!type_is_spatial(a) || !type_is_spatial(b))
        return TY_ERROR;
    if (op == OP_ADD || op == OP_SUB) {
        /* Points weigh 1, directions 0: the sum's weight says which. */
        int wa = a == TY_POINT, wb = b == TY_POINT;
        int w = op == OP_ADD ? wa + wb : wa - wb;
        if (w != 0)
            return TY_POINT;
        return a == TY_NORMAL && b == TY_NORMAL ? TY_NORMAL : TY_VECTOR;
    }
    if (a == b)
        return a;
    return a == TY_POINT || b == TY_POINT ? TY_POINT : TY_VECTOR;
}

/* Gives a triple literal operand the type of the other operand. */
static void adopt_literal(Checker *ck, Node *lit, const Node *other)
{
    TypeBase t = other->type.base;
    if (other->type.arraylen == 0 && lit->type.base != t &&
        (expr_alt(ck, lit, false) & (1u << t)) && type_is_triple(t))
        expr_retype(ck, lit, t);
}

static void operand_error(Checker *ck, const Node *e, const char *op, const Node *a,
                          const Node *b)
{
    char ba[32], bb[32];
    diag_error(ck->rc, e->loc, "invalid operands to '%s' ('%s' and '%s')", op,
               tname(a->type, ba), tname(b->type, bb));
}

static bool is_float(Type t)
{
    return t.base == TY_FLOAT && t.arraylen == 0;
}

static bool is_condition(Type t)
{
    return t.base == TY_BOOL || is_float(t);
}

static void check_binary(Checker *ck, Node *e, Type want)
{
    Node *a = e->kid[0], *b = e->kid[1];
    Op op = e->op;
    bool arith = op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_DIV;
    Type w = want;
    if (arith && w.base != TY_ERROR)
        w.arraylen = WANT_WEAK;
    check_expr(ck, a, arith ? w : want_none());
    check_expr(ck, b, arith ? w : want_none());
    set_type(e, TY_ERROR, DETAIL_UNIFORM);
    if (failed(a) || failed(b))
        return;
    Detail d = detail_join(a->detail, b->detail);
    const char *name = ast_op_name(op);

    if (op == OP_AND || op == OP_OR) {
        if (!is_condition(a->type) || !is_condition(b->type))
            operand_error(ck, e, name, a, b);
        else
            set_type(e, TY_BOOL, d);
        return;
    }
    bool_to_float(ck, a);
    bool_to_float(ck, b);
    adopt_literal(ck, a, b);
    adopt_literal(ck, b, a);
    Type ta = a->type, tb = b->type;
    TypeBase r = TY_ERROR;
    switch (op) {
    case OP_LT: case OP_LE: case OP_GT: case OP_GE:
        r = is_float(ta) && is_float(tb) ? TY_BOOL : TY_ERROR;
        break;
    case OP_EQ: case OP_NE:
        r = !ta.arraylen && !tb.arraylen && ta.base != TY_VOID &&
            (type_assignable(ta, tb) || type_assignable(tb, ta)) ? TY_BOOL
                                                                 : TY_ERROR;
        break;
    case OP_DOT:
        if (!ta.arraylen && !tb.arraylen &&
            ((type_is_spatial(ta.base) && type_is_spatial(tb.base)) ||
             (ta.base == TY_COLOR && tb.base == TY_COLOR)))
            r = TY_FLOAT;
        break;
    case OP_CROSS:
        if (!ta.arraylen && !tb.arraylen && type_is_spatial(ta.base) &&
            type_is_spatial(tb.base))
            r = TY_VECTOR;
        break;
    default:
        r = arith_result(op, ta, tb);
        if (r == TY_ERROR && op == OP_MUL && !ta.arraylen && !tb.arraylen &&
            ((ta.base == TY_MATRIX && type_is_spatial(tb.base)) ||
             (tb.base == TY_MATRIX && type_is_spatial(ta.base)))) {
            char ba[32], bb[32];
            diag_error(ck->rc, e->loc, "cannot multiply '%s' by '%s'; use transform()",
                       tname(ta, ba), tname(tb, bb));
            return;
        }
        break;
    }
    if (r == TY_ERROR)
        operand_error(ck, e, name, a, b);
    else
        set_type(e, r, d);
}

static void check_unary(Checker *ck, Node *e, Type want)
{
    Node *a = e->kid[0];
    check_expr(ck, a, e->op == OP_NEG ? want : want_none());
    set_type(e, TY_ERROR, DETAIL_UNIFORM);
    if (failed(a))
        return;
    char buf[32];
    if (e->op == OP_NOT) {
        if (is_condition(a->type))
            set_type(e, TY_BOOL, a->detail);
        else
            diag_error(ck->rc, e->loc, "invalid operand to '!' ('%s')", tname(a->type, buf));
        return;
    }
    bool_to_float(ck, a);
    TypeBase t = a->type.base;
    if (a->type.arraylen || !(t == TY_FLOAT || type_is_triple(t) || t == TY_MATRIX))
        diag_error(ck->rc, e->loc, "invalid operand to '-' ('%s')", tname(a->type, buf));
    else
        set_type(e, t, a->detail);
}

void check_cond(Checker *ck, Node *e)
{
    check_expr(ck, e, want_none());
    if (failed(e) || is_condition(e->type))
        return;
    char buf[32];
    diag_error(ck->rc, e->loc, "condition must be a comparison or a float, not '%s'",
               tname(e->type, buf));
}

static void check_ternary(Checker *ck, Node *e, Type want)
{
    Node *c = e->kid[0], *a = e->kid[1], *b = e->kid[2];
    check_cond(ck, c);
    check_expr(ck, a, want);
    check_expr(ck, b, want);
    set_type(e, TY_ERROR, DETAIL_UNIFORM);
    bool_to_float(ck, a);
    bool_to_float(ck, b);
    if (failed(c) || failed(a) || failed(b))
        return;
    adopt_literal(ck, a, b);
    adopt_literal(ck, b, a);
    if (type_assignable(a->type, b->type)) {
        e->type = a->type;
    } else if (type_assignable(b->type, a->type)) {
        e->type = b->type;
    } else {
        operand_error(ck, e, "?:", a, b);
        return;
    }
    e->detail = detail_join(c->detail, detail_join(a->detail, b->detail));
}

/* ---- literals and casts ---------------------------------------------------------- */

/* Checks one component of a triple or matrix literal, which must be a
   float, and joins its detail into *d. */
static bool check_component(Checker *ck, Node *k, const char *what, Detail *d)
{
    check_expr(ck, k, want_none());
    bool_to_float(ck, k);
    if (failed(k))
        return false;
    *d = detail_join(*d, k->detail);
    if (is_float(k->type))
        return true;
    char buf[32];
    diag_error(ck->rc, k->loc, "%s component must be a float, not '%s'", what,
               tname(k->type, buf));
    return false;
}

static void check_triple(Checker *ck, Node *e, Type want)
{
    Detail d = DETAIL_UNIFORM;
    bool ok = true;
    for (int i = 0; i < 3; i++)
        ok &= check_component(ck, e->kid[i], "triple", &d);
    TypeBase t = type_is_triple(want.base) ? want.base : TY_POINT;
    set_type(e, ok ? t : TY_ERROR, d);
}

static void check_matrix16(Checker *ck, Node *e)
{
    Detail d = DETAIL_UNIFORM;
    bool ok = true;
    for (Node *k = e->kid[0]; k; k = k->next)
        ok &= check_component(ck, k, "matrix", &d);
    set_type(e, ok ? TY_MATRIX : TY_ERROR, d);
}

/* Color spaces RISpec 3.2 names; points may use any coordinate system. */
static bool known_color_space(const char *name)
{
    static const char spaces[][4] = { "rgb", "hsv", "hsl", "xyz", "XYZ", "xyY", "YIQ" };
    for (size_t i = 0; i < sizeof spaces / sizeof *spaces; i++)
        if (strcmp(spaces[i], name) == 0)
            return true;
    return false;
}

static void check_cast(Checker *ck, Node *e)
{
    TypeBase to = e->spec.type.base;
    Node *a = e->kid[0];
    check_expr(ck, a, type_make(to));
    set_type(e, TY_ERROR, DETAIL_UNIFORM);
    bool_to_float(ck, a);
    if (failed(a))
        return;
    char ba[32], bb[32];
    if (e->name && !type_is_triple(to) && to != TY_MATRIX) {
        diag_error(ck->rc, e->loc, "a '%s' cannot be given a coordinate space",
                   type_base_name(to));
        return;
    }
    if (e->name && to == TY_COLOR && !known_color_space(e->name))
        diag_warning(ck->rc, e->loc, "unknown color space '%s'", e->name);
    TypeBase from = a->type.base;
    bool ok = !a->type.arraylen &&
              (from == to || (from == TY_FLOAT && (type_is_triple(to) || to == TY_MATRIX)) ||
               (type_is_triple(from) && type_is_triple(to)));
    if (!ok) {
        diag_error(ck->rc, e->loc, "cannot cast '%s' to '%s'", tname(a->type, ba),
                   tname(type_make(to), bb));
        return;
    }
    set_type(e, to, a->detail);
}

/* ---- stores ------------------------------------------------------------------------ */

static void check_arrayinit(Checker *ck, Node *e, Type to, const char *what)
{
    set_type(e, TY_ERROR, DETAIL_UNIFORM);
    if (to.arraylen == 0) {
        diag_error(ck->rc, e->loc, "cannot initialize %s with an array initializer",
                   what);
        for (Node *k = e->kid[0]; k; k = k->next)
            check_expr(ck, k, want_none());
        return;
    }
    Detail d = DETAIL_UNIFORM;
    bool ok = true;
    int n = 0;
    for (Node *k = e->kid[0]; k; k = k->next, n++) {
        ok &= check_value_for(ck, k, type_make(to.base), what);
        d = detail_join(d, k->detail);
    }
    if (!ok)
        return;
    if (to.arraylen > 0 && n != to.arraylen) {
        diag_error(ck->rc, e->loc, "array initializer has %d element%s, but %s has %d",
                   n, n == 1 ? "" : "s", what, to.arraylen);
        return;
    }
    e->type = to;
    e->type.arraylen = n;
    e->detail = d;
}

bool check_value_for(Checker *ck, Node *e, Type to, const char *what)
{
    if (e->kind == N_ARRAYINIT) {
        check_arrayinit(ck, e, to, what);
        return !failed(e);
    }
    check_expr(ck, e, to);
    if (failed(e) || to.base == TY_ERROR)
        return false;
    bool_to_float(ck, e);
    if (!type_assignable(to, e->type)) {
        char ba[32], bb[32];
        diag_error(ck->rc, e->loc, "cannot assign '%s' to %s of type '%s'",
                   tname(e->type, ba), what, tname(to, bb));
        return false;
    }
    return true;
}

/* The detail e would have if random() were uniform; with apply, makes
   it so: e's random() calls and the expressions over them become
   uniform. Only operations whose detail joins their operands' are seen
   through; a user function's call, or a builtin always varying, stays
   varying. */
static Detail random_detail(Node *e, bool apply)
{
    if (e->detail != DETAIL_VARYING)
        return e->detail;
    Detail d = DETAIL_UNIFORM;
    switch (e->kind) {
    case N_CALL:
        if (e->sym || !e->builtin)
            return DETAIL_VARYING;
        if (e->builtin->id == BI_RANDOM)
            break;
        if (builtin_row(e->builtin)->flags & (BF_VARYING | BF_OUTDETAIL))
            return DETAIL_VARYING;
        for (Node *c = e->kid[0]; c; c = c->next)   /* a builtin's detail joins its arguments' */
            d = detail_join(d, random_detail(c, apply));
        break;
    case N_MATRIX16: case N_ARRAYINIT:
        for (Node *c = e->kid[0]; c; c = c->next)
            d = detail_join(d, random_detail(c, apply));
        break;
    case N_BINARY: case N_UNARY: case N_TERNARY: case N_CAST: case N_TRIPLE: case N_INDEX:
        for (int k = 0; k < 4; k++)
            if (e->kid[k])
                d = detail_join(d, random_detail(e->kid[k], apply));
        break;
    default:
        return DETAIL_VARYING;
    }
    if (apply && d != DETAIL_VARYING)
        e->detail = d;
    return d;
}

Detail check_uniform_random(Node *e, Detail want)
{
    if (want != DETAIL_UNIFORM || e->detail != DETAIL_VARYING
        || random_detail(e, false) == DETAIL_VARYING)
        return e->detail;
    return random_detail(e, true);
}

/* The first variable in e whose value is varying, looking only into
   varying operands; NULL if there is none (a varying call's own result,
   such as noise(u)'s, is not one). */
static const Node *varying_variable(const Node *e)
{
    if (e->detail != DETAIL_VARYING)
        return NULL;
    if (e->kind == N_IDENT)
        return e;
    for (int k = 0; k < 4; k++)
        for (const Node *a = e->kid[k]; a; a = a->next) {
            const Node *v = varying_variable(a);
            if (v)
                return v;
        }
    return NULL;
}

void note_varying_source(Checker *ck, const Node *value)
{
    const Node *src = varying_variable(value);
    const Symbol *sym = src ? src->sym : NULL;
    if (sym && sym->kind == SYM_VAR && !sym->param && sym->decl
        && sym->decl->spec.detail == DETAIL_DEFAULT)
        diag_note(ck->rc, sym->decl->loc, "'%s' is varying: a local variable declared without "
                  "'uniform' is varying", sym->name);
    else if (sym)
        diag_note(ck->rc, src->loc, "'%s' is varying", sym->name);
}

Symbol *check_assign_target(Checker *ck, Node *lhs, Detail detail, bool whole,
                            const Node *value)
{
    Node *root = lvalue_root(lhs);
    Symbol *sym = root ? root->sym : NULL;
    if (!sym)
        return NULL;
    const GlobalVar *g = sym->global;
    if (sym->kind == SYM_CONST) {
        diag_error(ck->rc, root->loc, "cannot assign to constant '%s'", sym->name);
        return NULL;
    }
    if (g && !(g->write & (ck->kind == SHADER_FUNCTION ? ~0u : SHADER_BIT(ck->kind)))) {
        if (ck->kind == SHADER_FUNCTION)
            diag_error(ck->rc, root->loc, "cannot assign to '%s': it is read-only",
                       sym->name);
        else
            diag_error(ck->rc, root->loc, "cannot assign to '%s': it is read-only in "
                       "%s shaders", sym->name, shader_kind_name(ck->kind));
        return NULL;
    }
    if (sym->param && !sym->output) {
        diag_error(ck->rc, root->loc, "cannot assign to '%s': it is not an output "
                   "parameter", sym->name);
        return NULL;
    }
    sym->assigned = true;
    Detail target = g ? g->detail : sym->detail;
    if (target == DETAIL_UNIFORM && detail == DETAIL_VARYING) {
        diag_error(ck->rc, root->loc, "cannot assign varying value to uniform variable "
                   "'%s'", sym->name);
        if (value)
            note_varying_source(ck, value);
        return NULL;
    }
    /* Under a varying condition the value a uniform variable ends up with
       depends on which points ran the assignment, which is harmless while
       only code inside the condition reads it (a loop counter); reads
       elsewhere are caught by check_read. */
    int outer = sym->vdepth > ck->vfloor ? sym->vdepth : ck->vfloor;
    if (target == DETAIL_UNIFORM && ck->vdepth > outer) {
        sym->taint_write = root;
        sym->taint_region = vcond_at(ck, outer);
    } else if (target == DETAIL_UNIFORM && whole) {
        sym->taint_write = NULL;
    }
    if (target == DETAIL_DEFAULT)
        sym->written = detail_join(sym->written, detail_join(detail, ck->ctx));
    return sym;
}

/* Checks the target of an assignment without counting it as a read. */
static void check_target_expr(Checker *ck, Node *lhs, bool read)
{
    if (lhs->kind == N_INDEX) {
        check_index(ck, lhs, !read);
        return;
    }
    bool saved = ck->defer_read;
    ck->defer_read = !read;
    check_expr(ck, lhs, want_none());
    ck->defer_read = saved;
}

/* The global L when lhs names it in a light shader's body outside
   illuminate and solar, else NULL. */
static Symbol *light_L_outside_region(Checker *ck, const Node *lhs)
{
    bool crossed;
    if (ck->kind != SHADER_LIGHT || ck->region || ck->func || lhs->kind != N_IDENT)
        return NULL;
    Symbol *sym = scope_find(ck->scope, lhs->name, &crossed);
    return sym && sym->kind == SYM_GLOBAL && strcmp(sym->name, "L") == 0 ? sym : NULL;
}

/* PRMan accepts "L = ..." outside illuminate and solar in a light (an
   ambient light's "L = 0"), where it changes nothing: only illuminate
   and solar give a light its L. The value is checked, then dropped
   (lower.c), with a warning saying so. */
static void check_ignored_L(Checker *ck, Node *e, Symbol *L)
{
    Node *lhs = e->kid[0];
    lhs->sym = L;
    set_type(lhs, L->global->type, L->global->detail);
    if (!check_value_for(ck, e->kid[1], lhs->type, "'L'"))
        return;
    diag_warning(ck->rc, lhs->loc, "'L' set outside illuminate or solar has no effect: only "
                 "they give a light its direction");
    e->type = lhs->type;
    e->detail = lhs->detail;
}

static void check_assign(Checker *ck, Node *e)
{
    Node *lhs = e->kid[0], *rhs = e->kid[1];
    set_type(e, TY_ERROR, DETAIL_UNIFORM);
    Node *root = lvalue_root(lhs);
    Symbol *ignored_L = e->op == OP_ASSIGN ? light_L_outside_region(ck, lhs) : NULL;
    if (ignored_L) {
        check_ignored_L(ck, e, ignored_L);
        return;
    }
    if (!root) {
        check_expr(ck, lhs, want_none());
        check_expr(ck, rhs, want_none());
        diag_error(ck->rc, lhs->loc, "expression is not assignable");
        return;
    }
    check_target_expr(ck, lhs, e->op != OP_ASSIGN);
    if (failed(lhs)) {
        if (rhs->kind != N_ARRAYINIT)
            check_expr(ck, rhs, want_none());
        return;
    }
    char what[96];
    snprintf(what, sizeof what, "'%s'", root->name);
    if (e->op == OP_ASSIGN) {
        if (!check_value_for(ck, rhs, lhs->type, what))
            return;
    } else {
        Type w = lhs->type;
        w.arraylen = WANT_WEAK;
        check_expr(ck, rhs, w);
        bool_to_float(ck, rhs);
        if (failed(rhs))
            return;
        adopt_literal(ck, rhs, lhs);
        TypeBase r = arith_result(e->op, lhs->type, rhs->type);
        if (r == TY_ERROR || !type_assignable(lhs->type, type_make(r))) {
            char op[4];
            snprintf(op, sizeof op, "%s=", ast_op_name(e->op));
            operand_error(ck, e, op, lhs, rhs);
            return;
        }
    }
    const GlobalVar *g = root->sym ? root->sym->global : NULL;
    Detail d = root->sym ? check_uniform_random(rhs, g ? g->detail : root->sym->detail)
                         : rhs->detail;
    if (lhs->kind == N_INDEX)
        d = detail_join(d, lhs->kid[1]->detail);
    const Node *value = lhs->kind == N_INDEX && lhs->kid[1]->detail == DETAIL_VARYING
                            ? lhs->kid[1] : rhs;
    if (!check_assign_target(ck, lhs, d, e->op == OP_ASSIGN && lhs->kind == N_IDENT, value))
        return;
    e->type = lhs->type;
    e->detail = lhs->detail;
}

/* ---- context-typed expressions ----------------------------------------------------- */

unsigned expr_alt(Checker *ck, const Node *e, bool calls)
{
    if (failed(e) || e->type.arraylen)
        return 0;
    unsigned own = 1u << e->type.base;
    switch (e->kind) {
    case N_TRIPLE:
        return TRIPLE_MASK;
    case N_UNARY:
        return e->op == OP_NEG ? expr_alt(ck, e->kid[0], calls) : own;
    case N_TERNARY:
        return expr_alt(ck, e->kid[1], calls) & expr_alt(ck, e->kid[2], calls);
    case N_CALL:
        return calls ? call_alt(ck, e) | own : own;
    default:
        return own;
    }
}

void expr_retype(Checker *ck, Node *e, TypeBase t)
{
    switch (e->kind) {
    case N_UNARY:
        expr_retype(ck, e->kid[0], t);
        break;
    case N_TERNARY:
        expr_retype(ck, e->kid[1], t);
        expr_retype(ck, e->kid[2], t);
        break;
    case N_CALL:
        call_retype(ck, e, t);
        break;
    default:
        break;
    }
    e->type = type_make(t);
}

/* ---- dispatch ------------------------------------------------------------------------ */

void check_expr(Checker *ck, Node *e, Type want)
{
    switch (e->kind) {
    case N_FLOATLIT:
        set_type(e, TY_FLOAT, DETAIL_UNIFORM);
        break;
    case N_STRINGLIT:
        set_type(e, TY_STRING, DETAIL_UNIFORM);
        break;
    case N_IDENT:
        check_ident(ck, e);
        break;
    case N_INDEX:
        check_index(ck, e, false);
        break;
    case N_UNARY:
        check_unary(ck, e, want);
        break;
    case N_BINARY:
        check_binary(ck, e, want);
        break;
    case N_ASSIGN:
        check_assign(ck, e);
        break;
    case N_TERNARY:
        check_ternary(ck, e, want);
        break;
    case N_CALL:
        check_call(ck, e, want.arraylen == WANT_WEAK ? want_none() : want);
        break;
    case N_CAST:
        check_cast(ck, e);
        break;
    case N_TRIPLE:
        check_triple(ck, e, want);
        break;
    case N_MATRIX16:
        check_matrix16(ck, e);
        break;
    case N_ARRAYINIT:
        diag_error(ck->rc, e->loc, "an array initializer is not allowed here");
        for (Node *k = e->kid[0]; k; k = k->next)
            check_expr(ck, k, want_none());
        set_type(e, TY_ERROR, DETAIL_UNIFORM);
        break;
    default:
        diag_die("check_expr: %s is not an expression", ast_kind_name(e->kind));
    }
}

/*
** debug_expr.c: print's expressions (debug_impl.h: dbg_eval). A
** recursive-descent evaluator over one lane's values: variables come
** from the engine (dbg_var_value), numbers are floats, and arithmetic
** goes componentwise with a float spreading over a triple or matrix.
**
**   expr -> term {('+'|'-') term};  term -> unary {('*'|'/') unary};
**   unary -> '-' unary | postfix;   postfix -> primary {'[' INT ']'};
**   primary -> NUMBER | NAME | '(' expr ')'
*/
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "vm/debug_impl.h"

typedef struct Parser {
    Rsldb *db;
    const char *p;
    int lane;
    char err[200];
} Parser;

static void skip(Parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static int perr(Parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(Parser *ps, const char *fmt, ...)
{
    if (!ps->err[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ps->err, sizeof ps->err, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int expr(Parser *ps, Val *v);

static int primary(Parser *ps, Val *v)
{
    skip(ps);
    memset(v, 0, sizeof *v);
    if (*ps->p == '(') {
        ps->p++;
        if (expr(ps, v))
            return -1;
        skip(ps);
        if (*ps->p != ')')
            return perr(ps, "')' expected at '%s'", ps->p);
        ps->p++;
        return 0;
    }
    if (isdigit((unsigned char)*ps->p) || *ps->p == '.') {
        char *end;
        v->f[0] = strtof(ps->p, &end);
        if (end == ps->p)
            return perr(ps, "bad number at '%s'", ps->p);
        ps->p = end;
        v->n = 1;
        return 0;
    }
    if (isalpha((unsigned char)*ps->p) || *ps->p == '_') {
        char name[64];
        size_t n = 0;
        while ((isalnum((unsigned char)*ps->p) || *ps->p == '_') && n + 1 < sizeof name)
            name[n++] = *ps->p++;
        name[n] = '\0';
        char why[160];
        if (dbg_var_value(ps->db, name, ps->lane, v, why, sizeof why))
            return perr(ps, "%s", why);
        return 0;
    }
    return perr(ps, "unsupported expression at '%s' (print takes variables, components "
                "such as x[0], numbers, and + - * / with parentheses)", *ps->p ? ps->p : "the end");
}

static int postfix(Parser *ps, Val *v)
{
    if (primary(ps, v))
        return -1;
    for (skip(ps); *ps->p == '['; skip(ps)) {
        char *end;
        ps->p++;
        long i = strtol(ps->p, &end, 10);
        if (end == ps->p || *end != ']')
            return perr(ps, "a component needs a constant index, as in x[0]");
        ps->p = end + 1;
        if (v->string)
            return perr(ps, "a string has no components");
        /* An array's element, or a triple's or matrix's component. */
        unsigned per = v->arraylen ? v->n / v->arraylen : 1;
        unsigned count = v->arraylen ? v->arraylen : v->n;
        if (i < 0 || (unsigned long)i >= count)
            return perr(ps, "index %ld is outside 0..%u", i, count - 1);
        memmove(v->f, v->f + (size_t)i * per, per * sizeof *v->f);
        v->n = per;
        v->type = per == 1 ? VM_T_FLOAT : v->type;
        v->arraylen = 0;
    }
    return 0;
}

static int unary(Parser *ps, Val *v)
{
    skip(ps);
    if (*ps->p == '-') {
        ps->p++;
        if (unary(ps, v))
            return -1;
        if (v->string || v->arraylen)
            return perr(ps, "cannot negate a %s", v->string ? "string" : "whole array");
        for (unsigned k = 0; k < v->n; k++)
            v->f[k] = -v->f[k];
        return 0;
    }
    return postfix(ps, v);
}

/* a = a op b, componentwise; a float spreads over the other side. */
static int arith(Parser *ps, Val *a, const Val *b, char op)
{
    if (a->string || b->string || a->arraylen || b->arraylen)
        return perr(ps, "'%c' works on floats, triples and matrices, not %s", op,
                    a->string || b->string ? "strings" : "whole arrays");
    if (a->n != b->n && a->n != 1 && b->n != 1)
        return perr(ps, "cannot combine values of %u and %u components", a->n, b->n);
    unsigned n = a->n > b->n ? a->n : b->n;
    float x[MAX_VAL];
    for (unsigned k = 0; k < n; k++) {
        float l = a->f[a->n == 1 ? 0 : k], r = b->f[b->n == 1 ? 0 : k];
        x[k] = op == '+' ? l + r : op == '-' ? l - r : op == '*' ? l * r : l / r;
    }
    memcpy(a->f, x, n * sizeof *x);
    if (a->n == 1)
        a->type = b->type;
    a->n = n;
    a->varying |= b->varying;
    a->inactive |= b->inactive;
    return 0;
}

/* One level of left-associative operators: operand {op operand}. */
static int binary(Parser *ps, Val *v, const char *ops, int (*operand)(Parser *, Val *))
{
    if (operand(ps, v))
        return -1;
    for (skip(ps); *ps->p && strchr(ops, *ps->p); skip(ps)) {
        char op = *ps->p++;
        Val *r = malloc(sizeof *r);
        int rc = !r ? perr(ps, "out of memory") : operand(ps, r) ? -1 : arith(ps, v, r, op);
        free(r);
        if (rc)
            return -1;
    }
    return 0;
}

static int term(Parser *ps, Val *v)
{
    return binary(ps, v, "*/", unary);
}

static int expr(Parser *ps, Val *v)
{
    return binary(ps, v, "+-", term);
}

int dbg_eval(Rsldb *db, const char *text, int lane, Val *v, char *err, size_t nerr)
{
    Parser ps = { db, text, lane, "" };
    if (expr(&ps, v) == 0) {
        skip(&ps);
        if (!*ps.p)
            return 0;
        perr(&ps, "unexpected '%s' after the expression", ps.p);
    }
    snprintf(err, nerr, "%s", ps.err);
    return -1;
}

/*
** irparse.c: reads the text form irprint.c writes (grammar at the top of
** irprint.c), for the pass tests and for debugging a pass on a saved
** dump. Values and blocks keep the numbers of the text, so expectations
** can name them.
**
** A function is read in three sweeps over its lines: first every block
** and instruction is created (so operands may refer forward), then the
** operands and terminators are filled in (which builds the predecessor
** lists), and last the phis, whose operands are put in the order of their
** block's predecessors.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rslc/builtins.h"
#include "rslc/diag.h"
#include "rslc/ir.h"

typedef enum { T_END, T_NAME, T_NUM, T_VAL, T_BLOCK, T_STR, T_PUNCT } TokKind;

typedef struct Tok {
    TokKind kind;
    const char *text;          /* NAME, BLOCK (without '@'), STR (unescaped) */
    float num;
    int ival;                  /* VAL, BLOCK numbers; PUNCT character */
    int col;
} Tok;

typedef struct Line {
    int lineno;
    Tok *tok;
    int ntok;
    IrIns *ins;                /* made in the first sweep */
    int oppos;                 /* the opcode's token */
} Line;

typedef struct Parser {
    RslcCtx *rc;             /* where errors are reported */
    const char *file;
    Line *lines;
    int nlines;
    int at, pos;               /* current line and token */
    bool failed;
    IrFunc *fn;
    IrIns **vals;              /* by text id */
    int nvals;
    IrBlock **blocks;          /* by text id */
    int nblocks;
} Parser;

/* ---- tokens ------------------------------------------------------------------------------ */

static char *unescape(const char *s, int *len)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    const char *p = s + 1;
    while (*p && *p != '"') {
        if (*p == '\\' && p[1]) {
            p++;
            if (*p >= '0' && *p <= '7') {
                int v = 0;
                for (int k = 0; k < 3 && *p >= '0' && *p <= '7'; k++)
                    v = v * 8 + (*p++ - '0');
                *o++ = (char)v;
                continue;
            }
            *o++ = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
            p++;
        } else {
            *o++ = *p++;
        }
    }
    *o = '\0';
    *len = *p == '"' ? (int)(p + 1 - s) : -1;
    return out;
}

static bool ident_char(char c)
{
    return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
}

static Tok *tokenize(const char *line, int *ntok, char ***strs, int *nstrs)
{
    int cap = 8, n = 0;
    Tok *t = malloc((size_t)cap * sizeof *t);
    const char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (n + 1 >= cap)
            t = realloc(t, (size_t)(cap *= 2) * sizeof *t);
        Tok *k = &t[n++];
        *k = (Tok){ .kind = T_END, .col = (int)(p - line) + 1 };
        if (!*p || *p == '#')
            break;
        if (*p == '%' && p[1] >= '0' && p[1] <= '9') {
            k->kind = T_VAL;
            k->ival = (int)strtol(p + 1, (char **)&p, 10);
        } else if (*p == '@' && ident_char(p[1])) {
            const char *s = ++p;
            while (ident_char(*p) || *p == '.')
                p++;
            char *name = strndup(s, (size_t)(p - s));
            *strs = realloc(*strs, (size_t)(*nstrs + 1) * sizeof **strs);
            (*strs)[(*nstrs)++] = name;
            k->kind = T_BLOCK;
            k->text = name;
            k->ival = (*s >= '0' && *s <= '9') ? atoi(s) : -1;
        } else if (*p == '"') {
            int len;
            char *s = unescape(p, &len);
            *strs = realloc(*strs, (size_t)(*nstrs + 1) * sizeof **strs);
            (*strs)[(*nstrs)++] = s;
            if (len < 0) {
                k->kind = T_PUNCT, k->ival = '"';
                p += strlen(p);
                continue;
            }
            k->kind = T_STR;
            k->text = s;
            p += len;
        } else if ((*p >= '0' && *p <= '9') || ((*p == '-' || *p == '.') && p[1]
                   && ((p[1] >= '0' && p[1] <= '9') || p[1] == '.' || p[1] == 'i'))) {
            char *end;
            k->kind = T_NUM;
            k->num = strtof(p, &end);
            if (end == p)
                k->kind = T_PUNCT, k->ival = *p, end = (char *)p + 1;
            p = end;
        } else if (ident_char(*p) && !(*p >= '0' && *p <= '9')) {
            const char *s = p;
            while (ident_char(*p))
                p++;
            char *name = strndup(s, (size_t)(p - s));
            *strs = realloc(*strs, (size_t)(*nstrs + 1) * sizeof **strs);
            (*strs)[(*nstrs)++] = name;
            k->kind = T_NAME;
            k->text = name;
            if (!strcmp(name, "inf") || !strcmp(name, "nan")) {
                k->kind = T_NUM;
                k->num = name[0] == 'i' ? INFINITY : NAN;
            }
        } else {
            k->kind = T_PUNCT;
            k->ival = (unsigned char)*p++;
        }
    }
    *ntok = n;
    return t;
}

/* ---- the cursor ------------------------------------------------------------------------- */

static Tok *peek(Parser *p)
{
    return &p->lines[p->at].tok[p->pos];
}

static Tok *take(Parser *p)
{
    Tok *t = peek(p);
    if (t->kind != T_END)
        p->pos++;
    return t;
}

static void error(Parser *p, const Tok *t, const char *fmt, const char *arg)
{
    SrcLoc loc = { p->file, p->lines[p->at].lineno, t ? t->col : 1, 0 };
    if (!p->failed) /* later errors are mostly echoes of the first */
        diag_error(p->rc, loc, fmt, arg);
    p->failed = true;
}

static bool punct(Parser *p, int c)
{
    if (peek(p)->kind == T_PUNCT && peek(p)->ival == c) {
        take(p);
        return true;
    }
    return false;
}

static bool expect_punct(Parser *p, int c)
{
    if (punct(p, c))
        return true;
    char s[2] = { (char)c, 0 };
    error(p, peek(p), "expected '%s'", s);
    return false;
}

static bool word(Parser *p, const char *w)
{
    if (peek(p)->kind == T_NAME && !strcmp(peek(p)->text, w)) {
        take(p);
        return true;
    }
    return false;
}

static int integer(Parser *p)
{
    Tok *t = take(p);
    if (t->kind != T_NUM || t->num != floorf(t->num) || t->num < 0 || t->num > 1e6) {
        error(p, t, "expected a number%s", "");
        return 0;
    }
    return (int)t->num;
}

/* ---- types and values ------------------------------------------------------------------- */

static bool kind_of(const char *name, IrKind *k)
{
    for (int i = IRT_VOID; i <= IRT_TUPLE; i++)
        if (!strcmp(name, ir_kind_name((IrKind)i))) {
            *k = (IrKind)i;
            return true;
        }
    return false;
}

static IrType parse_type(Parser *p)
{
    Tok *t = take(p);
    IrType ty = ir_type(IRT_FLOAT);
    if (t->kind != T_NAME || !kind_of(t->text, &ty.kind)) {
        error(p, t, "expected a type%s", "");
        return ty;
    }
    if (punct(p, '[')) {
        ty.arraylen = integer(p);
        if (ty.arraylen < 1)
            error(p, t, "array length must be positive%s", "");
        expect_punct(p, ']');
    }
    return ty;
}

static int floats(Parser *p, float *out, int max)
{
    int n = 0;
    if (!expect_punct(p, '('))
        return 0;
    while (!punct(p, ')')) {
        Tok *t = take(p);
        if (t->kind != T_NUM || n == max) {
            error(p, t, "expected a number or ')'%s", "");
            return n;
        }
        out[n++] = t->num;
    }
    return n;
}

static IrVal *block_ref_is_not_value(Parser *p, Tok *t)
{
    error(p, t, "expected a value%s", "");
    return &ir_const_float(p->fn, 0)->val;
}

static IrVal *parse_value(Parser *p)
{
    Tok *t = peek(p);
    IrFunc *fn = p->fn;
    switch (t->kind) {
    case T_VAL:
        take(p);
        if (t->ival >= p->nvals || !p->vals[t->ival]) {
            char num[16];
            snprintf(num, sizeof num, "%%%d", t->ival);
            error(p, t, "use of undefined value %s", num);
            return &ir_const_float(fn, 0)->val;
        }
        return &p->vals[t->ival]->val;
    case T_NUM:
        take(p);
        return &ir_const_float(fn, t->num)->val;
    case T_STR:
        take(p);
        return &ir_const_string(fn, t->text)->val;
    case T_NAME:
        break;
    default:
        return block_ref_is_not_value(p, t);
    }
    if (word(p, "true") || word(p, "false"))
        return &ir_const_bool(fn, t->text[0] == 't')->val;
    if (word(p, "undef")) {
        expect_punct(p, ':');
        return ir_undef(fn, parse_type(p));
    }
    IrType ty = parse_type(p);
    int per = ty.kind == IRT_MATRIX ? 16 : ir_is_triple(ty.kind) ? 3 : 1;
    if (ty.arraylen) {
        int want = per * ty.arraylen;
        float *v = calloc((size_t)want, sizeof *v);
        if (floats(p, v, want) != want)
            error(p, t, "wrong number of elements in %s constant", ir_type_name(ty).s);
        IrVal *k = &ir_const_array(fn, ty, v)->val;
        free(v);
        return k;
    }
    float v[16];
    if ((per != 3 && per != 16) || floats(p, v, per) != per) {
        error(p, t, "malformed %s constant", ir_type_name(ty).s);
        return &ir_const_float(fn, 0)->val;
    }
    return per == 16 ? &ir_const_matrix(fn, v)->val : &ir_const_triple(fn, ty.kind, v[0], v[1], v[2])->val;
}

static IrBlock *parse_block_ref(Parser *p)
{
    Tok *t = take(p);
    if (t->kind != T_BLOCK || t->ival < 0 || t->ival >= p->nblocks || !p->blocks[t->ival]) {
        error(p, t, "expected a defined block%s", "");
        return NULL;
    }
    return p->blocks[t->ival];
}

/* ---- functions -------------------------------------------------------------------------- */

static bool is_label(const Line *l)
{
    return l->ntok >= 2 && l->tok[0].kind == T_BLOCK && l->tok[1].kind == T_PUNCT
        && l->tok[1].ival == ':';
}

static void parse_header(Parser *p, IrFunc *fn)
{
    Tok *t;
    take(p);
    t = take(p);
    if (t->kind != T_BLOCK) {
        error(p, t, "expected '@name' after 'func'%s", "");
        return;
    }
    const char *name = t->text;
    t = take(p);
    int kind = -1;
    for (int k = 0; k <= SHADER_FUNCTION; k++)
        if (t->kind == T_NAME && !strcmp(t->text, shader_kind_name((ShaderKind)k)))
            kind = k;
    if (kind < 0)
        error(p, t, "expected a shader kind or 'function'%s", "");
    IrType ret = parse_type(p);
    fn->name = ir_intern(fn, name);
    fn->kind = kind < 0 ? SHADER_FUNCTION : (ShaderKind)kind;
    fn->ret = ret;
}

static void parse_param(Parser *p, IrFunc *fn)
{
    take(p);
    IrParam q = { 0 };
    if (word(p, "varying"))
        q.varying = true;
    else if (!word(p, "uniform"))
        error(p, peek(p), "expected 'uniform' or 'varying'%s", "");
    q.type = parse_type(p);
    Tok *t = take(p);
    if (t->kind != T_NAME) {
        error(p, t, "expected a parameter name%s", "");
        return;
    }
    q.name = ir_intern(fn, t->text);
    q.output = word(p, "output");
    if (punct(p, '=')) {
        IrVal *v = parse_value(p);
        q.def = v->kind == IRV_CONST ? (IrConst *)v : NULL;
    }
    fn->params = realloc(fn->params, (size_t)(fn->nparams + 1) * sizeof *fn->params);
    fn->params[fn->nparams++] = q;
}

static void parse_region_decl(Parser *p, IrFunc *fn)
{
    take(p);
    int r = integer(p);
    Tok *t = take(p);
    int kind = -1;
    for (int k = 0; k <= IRR_GATHER; k++)
        if (t->kind == T_NAME && !strcmp(t->text, ir_region_kind_name((IrRegionKind)k)))
            kind = k;
    if (kind < 0 || r > 10000) {
        error(p, t, "expected a region kind%s", "");
        return;
    }
    if (r >= fn->nregions) {
        fn->regions = realloc(fn->regions, (size_t)(r + 1) * sizeof *fn->regions);
        memset(fn->regions + fn->nregions, 0, (size_t)(r + 1 - fn->nregions) * sizeof *fn->regions);
        fn->nregions = r + 1;
    }
    IrRegion *g = &fn->regions[r];
    g->kind = (IrRegionKind)kind;
    while (peek(p)->kind == T_NAME) {
        const char *w = take(p)->text;
        if (!strcmp(w, "category")) {
            Tok *s = take(p);
            if (s->kind == T_STR)
                g->category = ir_intern(fn, s->text);
            else
                error(p, s, "expected a string%s", "");
            continue;
        }
        IrBlock *b = parse_block_ref(p);
        if (!strcmp(w, "header"))
            g->header = b;
        else if (!strcmp(w, "body"))
            g->body = b;
        else if (!strcmp(w, "miss"))
            g->miss = b;
        else if (!strcmp(w, "exit"))
            g->exit = b;
        else
            error(p, peek(p), "unknown region field '%s'", w);
    }
    if (!g->header || !g->body || !g->exit)
        error(p, peek(p), "a region needs header, body and exit blocks%s", "");
}

static bool op_of(const char *name, IrOp *op)
{
    for (int i = 0; i < IR_NOPS; i++)
        if (!strcmp(name, ir_op_name((IrOp)i))) {
            *op = (IrOp)i;
            return true;
        }
    return false;
}

/* First sweep over one instruction line: make the instruction. */
static void make_ins(Parser *p, Line *l, IrBlock *b)
{
    p->pos = 0;
    int id = -1;
    IrType ty = ir_type(IRT_VOID);
    bool varying = false;
    if (peek(p)->kind == T_VAL) {
        id = take(p)->ival;
        expect_punct(p, '=');
        Tok *uv = take(p);
        if (uv->kind != T_NAME || (strcmp(uv->text, "u") && strcmp(uv->text, "v")))
            error(p, uv, "expected 'u' or 'v'%s", "");
        else
            varying = uv->text[0] == 'v';
        ty = parse_type(p);
    }
    l->oppos = p->pos;
    Tok *t = take(p);
    IrOp op;
    if (t->kind != T_NAME || !op_of(t->text, &op)) {
        error(p, t, "unknown opcode '%s'", t->kind == T_NAME ? t->text : "?");
        return;
    }
    if (id >= 0 && (id >= p->nvals || p->vals[id])) {
        error(p, l->tok, "value defined twice%s", "");
        return;
    }
    SrcLoc loc = { p->file, l->lineno, 1, 0 };
    IrIns *ins = ir_ins_new(p->fn, op, ty, loc);
    if (id >= 0) {
        ins->val.id = id;
        p->vals[id] = ins;
    }
    ins->val.varying = varying;
    ir_append(b, ins);
    l->ins = ins;
}

static void args_until_end(Parser *p, IrIns *ins, bool comma_first)
{
    bool first = true;
    while (peek(p)->kind != T_END && !p->failed) {
        if ((!first || comma_first) && !expect_punct(p, ','))
            return;
        first = false;
        if (peek(p)->kind == T_BLOCK)
            return;
        ir_ins_add_arg(ins, parse_value(p));
    }
}

static bool takes(const BuiltinSig *sig, int n)
{
    return n == sig->nparams || (sig->tail && n > sig->nparams);
}

/* The row of the first overload of b's name that takes nargs arguments,
   with or without its implicit ones (a test may leave them out), or -1.
   The passes care only which function a row is, so the first that fits
   will do. */
static int overload_row(const Builtin *b, int nargs)
{
    for (; b; b = builtin_next(b)) {
        BuiltinSig sig;
        for (int r = b->first; builtin_overload_next(b, &r, &sig);) {
            int own = nargs - builtin_implicit_count(builtin_rows[r - 1].implicit);
            if (takes(&sig, nargs) || (own >= 0 && takes(&sig, own)))
                return r - 1;
        }
    }
    return -1;
}

/* Second sweep: operands and edges of everything but phis. */
static void fill_ins(Parser *p, IrIns *ins)
{
    p->pos = p->lines[p->at].oppos + 1;
    switch (ins->op) {
    case IR_phi:
        return;
    case IR_param: case IR_light:
        ins->imm = integer(p);
        break;
    case IR_pset: case IR_callout:
        ins->imm = integer(p);
        args_until_end(p, ins, true);
        break;
    case IR_gget: case IR_gset: {
        Tok *t = take(p);
        if (t->kind != T_NAME) {
            error(p, t, "expected a global name%s", "");
            return;
        }
        ins->sym = ir_intern(p->fn, t->text);
        args_until_end(p, ins, true);
        break;
    }
    case IR_intrin: {
        Tok *t = take(p);
        const Builtin *b = t->kind == T_NAME ? builtin_find(t->text) : NULL;
        if (!b) {
            error(p, t, "unknown builtin '%s'", t->kind == T_NAME ? t->text : "?");
            return;
        }
        if (peek(p)->kind == T_NAME && !strcmp(peek(p)->text, "pervarying"))
            take(p), ins->pin = IR_PIN_VARYING;
        else if (peek(p)->kind == T_NAME && !strcmp(peek(p)->text, "peruniform"))
            take(p), ins->pin = IR_PIN_UNIFORM;
        args_until_end(p, ins, false);
        ins->imm = overload_row(b, ins->nargs);
        if (ins->imm < 0)
            error(p, t, "no overload of '%s' takes these arguments", b->name);
        break;
    }
    case IR_call: {
        Tok *t = take(p);
        if (t->kind != T_BLOCK) {
            error(p, t, "expected '@function'%s", "");
            return;
        }
        ins->sym = ir_intern(p->fn, t->text);
        args_until_end(p, ins, false);
        break;
    }
    case IR_region:
        ins->imm = integer(p);
        punct(p, ',');
        while (peek(p)->kind != T_BLOCK && peek(p)->kind != T_END && !p->failed) {
            ir_ins_add_arg(ins, parse_value(p));
            expect_punct(p, ',');
        }
        ir_set_succ(ins, 0, parse_block_ref(p));
        expect_punct(p, ',');
        ir_set_succ(ins, 1, parse_block_ref(p));
        break;
    case IR_jmp: case IR_next:
        ir_set_succ(ins, 0, parse_block_ref(p));
        break;
    case IR_br:
        ir_ins_add_arg(ins, parse_value(p));
        expect_punct(p, ',');
        ir_set_succ(ins, 0, parse_block_ref(p));
        expect_punct(p, ',');
        ir_set_succ(ins, 1, parse_block_ref(p));
        break;
    default:
        args_until_end(p, ins, false);
        break;
    }
    if (peek(p)->kind != T_END)
        error(p, peek(p), "unexpected text after the operands%s", "");
}

/* Third sweep: a phi's operands, in its block's predecessor order. */
static void fill_phi(Parser *p, IrIns *ins)
{
    p->pos = p->lines[p->at].oppos + 1;
    IrBlock *b = ins->block;
    IrVal **by_pred = calloc((size_t)b->npreds + 1, sizeof *by_pred);
    while (peek(p)->kind != T_END && !p->failed) {
        IrVal *v = parse_value(p);
        IrBlock *from = parse_block_ref(p);
        int slot = -1;
        for (int k = 0; k < b->npreds && slot < 0; k++)
            if (b->preds[k] == from && !by_pred[k])
                slot = k;
        if (from && slot < 0)
            error(p, peek(p), "phi names @%s, which is not a predecessor (or twice)",
                  p->lines[p->at].tok[p->pos - 1].text);
        else if (slot >= 0)
            by_pred[slot] = v;
        if (peek(p)->kind != T_END)
            expect_punct(p, ',');
    }
    for (int k = 0; k < b->npreds && !p->failed; k++) {
        if (!by_pred[k]) {
            error(p, p->lines[p->at].tok, "phi has no operand for a predecessor%s", "");
            break;
        }
        ir_ins_add_arg(ins, by_pred[k]);
    }
    free(by_pred);
}

/* Parses lines [from, to) (the function's body after its header). */
static void parse_body(Parser *p, int from, int to)
{
    int maxval = -1, maxblock = -1;
    for (int i = from; i < to; i++)
        for (int k = 0; k < p->lines[i].ntok; k++) {
            Tok *t = &p->lines[i].tok[k];
            if (t->kind == T_VAL && t->ival > maxval && t->ival < 1000000)
                maxval = t->ival;
            if (t->kind == T_BLOCK && t->ival > maxblock && t->ival < 1000000)
                maxblock = t->ival;
        }
    IrFunc *fn = p->fn;
    p->nvals = maxval + 1;
    p->vals = calloc((size_t)p->nvals + 1, sizeof *p->vals);
    p->nblocks = maxblock + 1;
    p->blocks = calloc((size_t)p->nblocks + 1, sizeof *p->blocks);
    fn->next_val_id = maxval + 1;
    fn->next_block_id = maxblock + 1;
    IrBlock *cur = NULL;
    for (int i = from; i < to && !p->failed; i++) {
        p->at = i;
        Line *l = &p->lines[i];
        if (is_label(l)) {
            if (l->tok[0].ival < 0 || p->blocks[l->tok[0].ival]) {
                error(p, l->tok, "bad or repeated block label%s", "");
                break;
            }
            cur = ir_block_new(fn);
            cur->id = l->tok[0].ival;
            p->blocks[cur->id] = cur;
        } else if (!cur) {
            p->pos = 0;
            if (word(p, "param"))
                p->pos = 0, parse_param(p, fn);
            else if (!word(p, "region")) /* regions name blocks: read below */
                error(p, peek(p), "expected 'param', 'region' or a block label%s", "");
        } else {
            make_ins(p, l, cur);
        }
    }
    /* Region declarations name blocks before their labels: read them again. */
    for (int i = from; i < to && !p->failed; i++)
        if (p->lines[i].ntok && p->lines[i].tok[0].kind == T_NAME
            && !strcmp(p->lines[i].tok[0].text, "region") && !p->lines[i].ins) {
            p->at = i;
            p->pos = 0;
            parse_region_decl(p, fn);
        }
    for (int pass = 0; pass < 2; pass++)
        for (int i = from; i < to && !p->failed; i++) {
            IrIns *ins = p->lines[i].ins;
            p->at = i;
            if (ins && (ins->op == IR_phi) == (pass == 1))
                (pass ? fill_phi : fill_ins)(p, ins);
        }
    free(p->vals);
    free(p->blocks);
    p->vals = NULL;
    p->blocks = NULL;
}

static void link_calls(Parser *p, IrModule *m)
{
    for (int f = 0; f < m->nfuncs; f++)
        for (IrBlock *b = m->funcs[f]->entry; b; b = b->next)
            for (IrIns *i = b->first; i; i = i->next) {
                if (i->op != IR_call)
                    continue;
                for (int g = 0; g < m->nfuncs; g++)
                    if (!strcmp(m->funcs[g]->name, i->sym))
                        i->callee = m->funcs[g];
                if (!i->callee) {
                    diag_error(p->rc, i->loc, "call of undefined function '@%s'", i->sym);
                    p->failed = true;
                }
            }
}

IrModule *ir_parse(RslcCtx *rc, const char *text, const char *filename)
{
    Parser p = { .rc = rc, .file = filename };
    char **strs = NULL;
    int nstrs = 0;
    const char *s = text;
    for (int lineno = 1; *s; lineno++) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        char *line = strndup(s, len);
        Line l = { .lineno = lineno };
        l.tok = tokenize(line, &l.ntok, &strs, &nstrs);
        free(line);
        if (l.ntok > 1) {
            p.lines = realloc(p.lines, (size_t)(p.nlines + 1) * sizeof *p.lines);
            p.lines[p.nlines++] = l;
        } else {
            free(l.tok);
        }
        s += len + (e != NULL);
    }
    IrModule *m = ir_module_new();
    for (int i = 0; i < p.nlines && !p.failed;) {
        p.at = i;
        p.pos = 0;
        if (!word(&p, "func")) {
            error(&p, peek(&p), "expected 'func'%s", "");
            break;
        }
        int end = i + 1;
        while (end < p.nlines && !(p.lines[end].tok[0].kind == T_NAME
                                   && !strcmp(p.lines[end].tok[0].text, "end")))
            end++;
        if (end == p.nlines) {
            error(&p, peek(&p), "function without 'end'%s", "");
            break;
        }
        p.fn = ir_func_new(m, "", SHADER_FUNCTION, ir_type(IRT_VOID));
        p.pos = 0;
        parse_header(&p, p.fn);
        parse_body(&p, i + 1, end);
        i = end + 1;
    }
    if (!p.failed)
        link_calls(&p, m);
    for (int i = 0; i < p.nlines; i++)
        free(p.lines[i].tok);
    free(p.lines);
    for (int i = 0; i < nstrs; i++)
        free(strs[i]);
    free(strs);
    if (p.failed) {
        ir_module_free(m);
        return NULL;
    }
    return m;
}

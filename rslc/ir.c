/*
** ir.c: building and editing the SSA IR (ir.h): functions, blocks,
** instructions, interned constants, and the def-use chains and CFG edges
** that every edit keeps consistent.
**
** Memory: instructions and blocks are allocated one by one and freed when
** deleted; constants live in their function's pool until the module goes.
** Every instruction, constant and undef gets an id from next_val_id, so a
** pass can index arrays by any value's id.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rslc/ir.h"

/* Constants and names, each interned through a hash index (open
   addressing; consts/strs index + 1, 0 free) beside the list: a long
   shader has thousands of constants, and a search of the list for each
   made lowering and every pass that folds quadratic. */
struct IrPool {
    IrConst **consts;
    unsigned *hashes;          /* of each constant */
    int nconsts, capconsts, capindex;
    int *index;
    char **strs;               /* names the function owns (ir_intern) */
    int nstrs, capstrs, capsindex;
    int *sindex;
};

static void *xalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p) {
        perror("rslc");
        exit(1);
    }
    return p;
}

static void *xgrow(void *p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return p;
    int n = *cap ? *cap * 2 : 4;
    while (n < need)
        n *= 2;
    p = realloc(p, (size_t)n * size);
    if (!p) {
        perror("rslc");
        exit(1);
    }
    *cap = n;
    return p;
}

static void internal_error(const char *what, int id)
{
    fprintf(stderr, "rslc: internal error: %s (%%%d)\n", what, id);
    abort();
}

/* ---- opcodes and types ---------------------------------------------------------------- */

static const struct {
    char name[16];
    int nargs;
    unsigned flags;
} op_table[IR_NOPS] = {
#define X(name, nargs, flags) { #name, nargs, flags },
    IR_OPS(X)
#undef X
};

const char *ir_op_name(IrOp op) { return op_table[op].name; }
int ir_op_nargs(IrOp op) { return op_table[op].nargs; }
unsigned ir_op_flags(IrOp op) { return op_table[op].flags; }

bool ir_type_equal(IrType a, IrType b)
{
    return a.kind == b.kind && a.arraylen == b.arraylen;
}

bool ir_is_triple(IrKind k)
{
    return k == IRT_COLOR || k == IRT_POINT || k == IRT_VECTOR || k == IRT_NORMAL;
}

static const char kind_names[][8] = {
    [IRT_VOID] = "void", [IRT_BOOL] = "bool", [IRT_FLOAT] = "float", [IRT_COLOR] = "color",
    [IRT_POINT] = "point", [IRT_VECTOR] = "vector", [IRT_NORMAL] = "normal",
    [IRT_MATRIX] = "matrix", [IRT_STRING] = "string", [IRT_TUPLE] = "tuple",
};

const char *ir_kind_name(IrKind k)
{
    return kind_names[k];
}

TypeName ir_type_name(IrType t)
{
    TypeName n;
    if (!t.arraylen)
        snprintf(n.s, sizeof n.s, "%s", kind_names[t.kind]);
    else
        snprintf(n.s, sizeof n.s, "%s[%d]", kind_names[t.kind], t.arraylen);
    return n;
}

/* ---- modules, functions, blocks ----------------------------------------------------------- */

IrModule *ir_module_new(void)
{
    return xalloc(sizeof(IrModule));
}

IrFunc *ir_func_new(IrModule *m, const char *name, ShaderKind kind, IrType ret)
{
    IrFunc *fn = xalloc(sizeof *fn);
    fn->name = name;
    fn->kind = kind;
    fn->ret = ret;
    fn->pool = xalloc(sizeof *fn->pool);
    int cap = m->nfuncs;
    m->funcs = xgrow(m->funcs, &cap, m->nfuncs + 1, sizeof *m->funcs);
    m->funcs[m->nfuncs++] = fn;
    return fn;
}

static IrBlock *block_alloc(IrFunc *fn)
{
    IrBlock *b = xalloc(sizeof *b);
    b->id = fn->next_block_id++;
    b->fn = fn;
    b->rpo = -1;
    b->dom_pre = b->dom_last = -1;
    fn->nblocks++;
    return b;
}

IrBlock *ir_block_new(IrFunc *fn)
{
    IrBlock *last = fn->entry;
    while (last && last->next)
        last = last->next;
    if (last)
        return ir_block_new_after(last);
    return fn->entry = block_alloc(fn);
}

IrBlock *ir_block_new_after(IrBlock *after)
{
    IrBlock *b = block_alloc(after->fn);
    b->prev = after;
    b->next = after->next;
    if (after->next)
        after->next->prev = b;
    after->next = b;
    return b;
}

/* ---- uses ------------------------------------------------------------------------------------ */

static void add_use(IrVal *v, IrIns *user, int index)
{
    v->uses = xgrow(v->uses, &v->capuses, v->nuses + 1, sizeof *v->uses);
    v->uses[v->nuses++] = (IrUse){ user, index };
}

static void remove_use(IrVal *v, IrIns *user, int index)
{
    for (int i = 0; i < v->nuses; i++)
        if (v->uses[i].user == user && v->uses[i].index == index) {
            v->uses[i] = v->uses[--v->nuses];
            return;
        }
}

static void renumber_use(IrVal *v, IrIns *user, int from, int to)
{
    for (int i = 0; i < v->nuses; i++)
        if (v->uses[i].user == user && v->uses[i].index == from) {
            v->uses[i].index = to;
            return;
        }
}

/* ---- instructions ------------------------------------------------------------------------------ */

IrIns *ir_ins_new(IrFunc *fn, IrOp op, IrType type, SrcLoc loc)
{
    IrIns *i = xalloc(sizeof *i);
    i->val.kind = IRV_INS;
    i->val.type = type;
    i->val.id = fn->next_val_id++;
    i->op = op;
    i->loc = loc;
    return i;
}

void ir_ins_add_arg(IrIns *ins, IrVal *arg)
{
    ins->args = xgrow(ins->args, &ins->capargs, ins->nargs + 1, sizeof *ins->args);
    ins->args[ins->nargs] = arg;
    add_use(arg, ins, ins->nargs);
    ins->nargs++;
}

void ir_ins_set_arg(IrIns *ins, int index, IrVal *arg)
{
    IrVal *old = ins->args[index];
    if (old == arg)
        return;
    remove_use(old, ins, index);
    ins->args[index] = arg;
    add_use(arg, ins, index);
}

/* Removes operand k, shifting the later ones down. */
static void remove_arg(IrIns *ins, int k)
{
    remove_use(ins->args[k], ins, k);
    for (int j = k + 1; j < ins->nargs; j++) {
        renumber_use(ins->args[j], ins, j, j - 1);
        ins->args[j - 1] = ins->args[j];
    }
    ins->nargs--;
}

void ir_append(IrBlock *b, IrIns *ins)
{
    ins->block = b;
    ins->next = NULL;
    ins->prev = b->last;
    *(b->last ? &b->last->next : &b->first) = ins;
    b->last = ins;
}

void ir_insert_before(IrIns *pos, IrIns *ins)
{
    IrBlock *b = pos->block;
    ins->block = b;
    ins->next = pos;
    ins->prev = pos->prev;
    *(pos->prev ? &pos->prev->next : &b->first) = ins;
    pos->prev = ins;
}

static void free_ins(IrIns *ins)
{
    for (int k = 0; k < ins->nargs; k++)
        remove_use(ins->args[k], ins, k);
    free(ins->dbg);
    free(ins->args);
    free(ins->val.uses);
    free(ins);
}

void ir_ins_delete(IrIns *ins)
{
    if (ins->val.nuses)
        internal_error("deleting an instruction whose value is still used", ins->val.id);
    IrBlock *b = ins->block;
    if (b) {
        *(ins->prev ? &ins->prev->next : &b->first) = ins->next;
        *(ins->next ? &ins->next->prev : &b->last) = ins->prev;
    }
    free_ins(ins);
}

void ir_dbg_name(IrVal *v, int var)
{
    if (v->kind != IRV_INS || var < 0)
        return;
    IrIns *i = (IrIns *)v;
    for (int k = 0; k < i->ndbg; k++)
        if (i->dbg[k] == var)
            return;
    ir_dbg_name_fresh(v, var);
}

void ir_dbg_name_fresh(IrVal *v, int var)
{
    if (v->kind != IRV_INS || var < 0)
        return;
    IrIns *i = (IrIns *)v;
    i->dbg = xgrow(i->dbg, &i->capdbg, i->ndbg + 1, sizeof *i->dbg);
    i->dbg[i->ndbg++] = var;
}

int ir_frame_add(IrFunc *fn, const char *func, SrcLoc call, int parent)
{
    if (!fn->nframes) {
        fn->frames = xgrow(fn->frames, &fn->capframes, 1, sizeof *fn->frames);
        fn->frames[fn->nframes++] = (IrFrame){ fn->name, { NULL, 0, 0, 0 }, -1 };
    }
    if (!func)
        return 0;
    fn->frames = xgrow(fn->frames, &fn->capframes, fn->nframes + 1, sizeof *fn->frames);
    fn->frames[fn->nframes] = (IrFrame){ func, call, parent };
    return fn->nframes++;
}

int ir_dbgvar_add(IrFunc *fn, const char *name, IrType type, int frame)
{
    fn->dbgvars = xgrow(fn->dbgvars, &fn->capdbgvars, fn->ndbgvars + 1, sizeof *fn->dbgvars);
    fn->dbgvars[fn->ndbgvars] = (IrDbgVar){ ir_intern(fn, name), type, frame };
    return fn->ndbgvars++;
}

void ir_replace_uses(IrVal *old, IrVal *new_val)
{
    if (old == new_val)
        return;
    if (old->kind == IRV_INS && new_val->kind == IRV_INS)
        for (int k = 0; k < ((IrIns *)old)->ndbg; k++)
            ir_dbg_name(new_val, ((IrIns *)old)->dbg[k]);
    while (old->nuses) {
        IrUse u = old->uses[--old->nuses];
        u.user->args[u.index] = new_val;
        add_use(new_val, u.user, u.index);
    }
}

/* ---- edges ------------------------------------------------------------------------------------- */

void ir_remove_pred(IrBlock *b, IrBlock *pred)
{
    int k = -1;
    for (int i = 0; i < b->npreds && k < 0; i++)
        if (b->preds[i] == pred)
            k = i;
    if (k < 0)
        return;
    for (int i = k + 1; i < b->npreds; i++)
        b->preds[i - 1] = b->preds[i];
    b->npreds--;
    for (IrIns *p = b->first; p && p->op == IR_phi; p = p->next)
        if (k < p->nargs)
            remove_arg(p, k);
}

void ir_set_succ(IrIns *term, int which, IrBlock *to)
{
    IrBlock *from = term->block;
    if (term->succ[which])
        ir_remove_pred(term->succ[which], from);
    term->succ[which] = to;
    if (to) {
        to->preds = xgrow(to->preds, &to->cappreds, to->npreds + 1, sizeof *to->preds);
        to->preds[to->npreds++] = from;
    }
}

void ir_block_delete(IrBlock *b)
{
    IrFunc *fn = b->fn;
    /* The block's values may only be used inside it: drop every operand
       first so the instructions can go in any order. */
    for (IrIns *i = b->first; i; i = i->next)
        while (i->nargs)
            remove_arg(i, i->nargs - 1);
    for (IrIns *i = b->first, *next; i; i = next) {
        next = i->next;
        i->val.nuses = 0;
        free_ins(i);
    }
    *(b->prev ? &b->prev->next : &fn->entry) = b->next;
    if (b->next)
        b->next->prev = b->prev;
    fn->nblocks--;
    free(b->preds);
    free(b);
}

/* ---- constants ---------------------------------------------------------------------------------- */

static unsigned hash_bytes(unsigned h, const void *p, size_t n)
{
    for (const unsigned char *c = p; n--; c++)
        h = (h ^ *c) * 16777619u;
    return h;
}

/* Puts entry i (hash h) into an index of cap slots (a power of two). */
static void index_put(int *index, int cap, unsigned h, int i)
{
    unsigned mask = (unsigned)cap - 1;
    while (index[h & mask])
        h++;
    index[h & mask] = i + 1;
}

/* Makes room for one more of n entries in *index (cap *cap), rehashing
   with hash_of(pool, entry). */
static void index_grow(struct IrPool *pool, int **index, int *cap, int n,
                       unsigned (*hash_of)(const struct IrPool *, int))
{
    if (2 * (n + 1) <= *cap)
        return;
    free(*index);
    *cap = *cap ? 2 * *cap : 64;
    *index = xalloc((size_t)*cap * sizeof **index);
    for (int i = 0; i < n; i++)
        index_put(*index, *cap, hash_of(pool, i), i);
}

static unsigned const_hash(const struct IrPool *pool, int i)
{
    return pool->hashes[i];
}

static unsigned str_hash(const struct IrPool *pool, int i)
{
    return hash_bytes(2166136261u, pool->strs[i], strlen(pool->strs[i]));
}

static IrConst *intern(IrFunc *fn, IrValKind vk, IrType t, const float *f, int n,
                       const char *s)
{
    struct IrPool *pool = fn->pool;
    unsigned h = hash_bytes(2166136261u, &vk, sizeof vk);
    h = hash_bytes(h, &t.kind, sizeof t.kind);
    h = hash_bytes(h, &t.arraylen, sizeof t.arraylen);
    if (n)
        h = hash_bytes(h, f, (size_t)n * sizeof *f);
    if (s)
        h = hash_bytes(h, s, strlen(s));
    unsigned mask = (unsigned)pool->capindex - 1;
    for (unsigned p = h; pool->index && pool->index[p & mask]; p++) {
        IrConst *k = pool->consts[pool->index[p & mask] - 1];
        if (pool->hashes[pool->index[p & mask] - 1] != h || k->val.kind != vk
            || !ir_type_equal(k->val.type, t))
            continue;
        const float *kf = t.arraylen ? k->fa : k->f;
        if ((n && memcmp(kf, f, (size_t)n * sizeof *f) != 0)
            || (s && (!k->s || strcmp(k->s, s) != 0)))
            continue;
        return k;
    }
    IrConst *k = xalloc(sizeof *k);
    k->val.kind = vk;
    k->val.type = t;
    k->val.id = fn->next_val_id++;
    if (t.arraylen) {
        /* Zeroed elements for an undef array too: readers may look. */
        int per = t.kind == IRT_MATRIX ? 16 : ir_is_triple(t.kind) ? 3 : 1;
        k->fa = xalloc((size_t)(per * t.arraylen) * sizeof *k->fa);
        if (n)
            memcpy(k->fa, f, (size_t)n * sizeof *f);
    } else if (n) {
        memcpy(k->f, f, (size_t)n * sizeof *f);
    }
    if (s) {
        char *copy = xalloc(strlen(s) + 1);
        k->s = strcpy(copy, s);
    }
    index_grow(pool, &pool->index, &pool->capindex, pool->nconsts, const_hash);
    int cap = pool->capconsts;
    pool->consts = xgrow(pool->consts, &pool->capconsts, pool->nconsts + 1, sizeof *pool->consts);
    pool->hashes = xgrow(pool->hashes, &cap, pool->nconsts + 1, sizeof *pool->hashes);
    pool->hashes[pool->nconsts] = h;
    index_put(pool->index, pool->capindex, h, pool->nconsts);
    pool->consts[pool->nconsts++] = k;
    return k;
}

IrConst *ir_const_float(IrFunc *fn, float f)
{
    return intern(fn, IRV_CONST, ir_type(IRT_FLOAT), &f, 1, NULL);
}

IrConst *ir_const_bool(IrFunc *fn, bool b)
{
    float f = b ? 1.0f : 0.0f;
    return intern(fn, IRV_CONST, ir_type(IRT_BOOL), &f, 1, NULL);
}

IrConst *ir_const_triple(IrFunc *fn, IrKind kind, float x, float y, float z)
{
    float f[3] = { x, y, z };
    return intern(fn, IRV_CONST, ir_type(kind), f, 3, NULL);
}

IrConst *ir_const_matrix(IrFunc *fn, const float m[16])
{
    return intern(fn, IRV_CONST, ir_type(IRT_MATRIX), m, 16, NULL);
}

IrConst *ir_const_string(IrFunc *fn, const char *s)
{
    return intern(fn, IRV_CONST, ir_type(IRT_STRING), NULL, 0, s);
}

IrConst *ir_const_array(IrFunc *fn, IrType type, const float *vals)
{
    int per = type.kind == IRT_MATRIX ? 16 : ir_is_triple(type.kind) ? 3 : 1;
    return intern(fn, IRV_CONST, type, vals, per * type.arraylen, NULL);
}

IrVal *ir_undef(IrFunc *fn, IrType type)
{
    return &intern(fn, IRV_UNDEF, type, NULL, 0, NULL)->val;
}

const char *ir_intern(IrFunc *fn, const char *s)
{
    struct IrPool *pool = fn->pool;
    unsigned h = hash_bytes(2166136261u, s, strlen(s)), mask = (unsigned)pool->capsindex - 1;
    for (unsigned p = h; pool->sindex && pool->sindex[p & mask]; p++)
        if (strcmp(pool->strs[pool->sindex[p & mask] - 1], s) == 0)
            return pool->strs[pool->sindex[p & mask] - 1];
    char *copy = xalloc(strlen(s) + 1);
    strcpy(copy, s);
    index_grow(pool, &pool->sindex, &pool->capsindex, pool->nstrs, str_hash);
    pool->strs = xgrow(pool->strs, &pool->capstrs, pool->nstrs + 1, sizeof *pool->strs);
    index_put(pool->sindex, pool->capsindex, h, pool->nstrs);
    pool->strs[pool->nstrs++] = copy;
    return copy;
}

/* ---- freeing ------------------------------------------------------------------------------------ */

static void func_free(IrFunc *fn)
{
    /* Everything goes: no use lists to keep up. */
    for (IrBlock *b = fn->entry, *nb; b; b = nb) {
        nb = b->next;
        for (IrIns *i = b->first, *ni; i; i = ni) {
            ni = i->next;
            free(i->args);
            free(i->dbg);
            free(i->val.uses);
            free(i);
        }
        free(b->preds);
        free(b);
    }
    for (int i = 0; i < fn->pool->nconsts; i++) {
        IrConst *k = fn->pool->consts[i];
        free(k->fa);
        free((char *)k->s);
        free(k->val.uses);
        free(k);
    }
    for (int i = 0; i < fn->pool->nstrs; i++)
        free(fn->pool->strs[i]);
    free(fn->pool->strs);
    free(fn->pool->consts);
    free(fn->pool->hashes);
    free(fn->pool->index);
    free(fn->pool->sindex);
    free(fn->pool);
    free(fn->params);
    free(fn->regions);
    free(fn->frames);
    free(fn->dbgvars);
    free(fn);
}

void ir_module_free(IrModule *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->nfuncs; i++)
        func_free(m->funcs[i]);
    free(m->funcs);
    free(m);
}

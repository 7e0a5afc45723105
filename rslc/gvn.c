/*
** gvn.c: global value numbering by scoped hashing over the dominator tree
** (the "dominator-based value numbering" of Briggs, Cooper and Simpson).
**
** Walking the dominator tree in preorder, each movable instruction is
** looked up in a table holding the instructions of its dominators: an
** equal one (same op, type, immediate, symbol and operands; commutative
** operands in either order) replaces it. Phis are equal when they sit in
** the same block with the same operands. Side effects, derivatives and
** renderer queries are never merged (see opt_movable): their values
** depend on the execution mask or the world, not only on the operands.
**
** A uniform instruction is never replaced by a varying one: instead it
** shadows the varying one for the blocks it dominates. The walk repeats
** until it changes nothing, for phis whose back-edge operands merged.
**
** requires: ssa, rpo, dom; preserves: cfg, dom, loops, regions.
*/
#include <stdint.h>
#include <stdlib.h>

#include "rslc/pass.h"

typedef struct Entry {
    IrIns *ins;
    uint32_t slot;             /* operands may change later: keep the slot */
    struct Entry *next;        /* bucket chain; scopes pop from the head */
} Entry;

typedef struct Table {
    Entry **bucket;
    unsigned mask;
    PtrVec log;                /* entries in insertion order */
} Table;

static uint32_t hash_ptr(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
    return (uint32_t)(x ^ (x >> 32));
}

static bool commutes(const IrIns *i)
{
    return (ir_op_flags(i->op) & OP_COMM) && i->nargs == 2;
}

static uint32_t hash_ins(const IrIns *i)
{
    uint32_t h = (uint32_t)i->op * 31u + (uint32_t)i->val.type.kind * 7u
               + (uint32_t)i->val.type.arraylen + (uint32_t)i->imm * 131u
               + hash_ptr(i->sym) + (i->op == IR_phi ? hash_ptr(i->block) : 0);
    for (int k = 0; k < i->nargs; k++)
        h = commutes(i) ? h + hash_ptr(i->args[k]) : h * 16777619u ^ hash_ptr(i->args[k]);
    return h;
}

static bool same_ins(const IrIns *a, const IrIns *b)
{
    if (a->op != b->op || !ir_type_equal(a->val.type, b->val.type) || a->imm != b->imm
        || a->sym != b->sym || a->nargs != b->nargs
        || (a->op == IR_phi && a->block != b->block))
        return false;
    bool direct = true;
    for (int k = 0; k < a->nargs && direct; k++)
        direct = a->args[k] == b->args[k];
    return direct
        || (commutes(a) && a->args[0] == b->args[1] && a->args[1] == b->args[0]);
}

static bool numbered(const IrIns *i)
{
    return i->op == IR_phi || opt_movable(i);
}

/* Walks the dominator subtree of b; kids[b->rpo] lists its children. */
static bool walk(Table *t, IrBlock *b, PtrVec *kids)
{
    bool changed = false;
    int mark = t->log.n;
    for (IrIns *i = b->first, *next; i; i = next) {
        next = i->next;
        if (!numbered(i))
            continue;
        uint32_t h = hash_ins(i) & t->mask;
        Entry *e = t->bucket[h];
        while (e && !same_ins(e->ins, i))
            e = e->next;
        if (e && !(e->ins->val.varying && !i->val.varying)) {
            opt_replace(i, &e->ins->val);
            changed = true;
            continue;
        }
        e = malloc(sizeof *e);
        e->ins = i;
        e->slot = h;
        e->next = t->bucket[h];
        t->bucket[h] = e;
        vec_push(&t->log, e);
    }
    PtrVec *k = &kids[b->rpo];
    for (int c = 0; c < k->n; c++)
        changed |= walk(t, k->p[c], kids);
    while (t->log.n > mark) {
        Entry *e = t->log.p[--t->log.n];
        t->bucket[e->slot] = e->next;
        free(e);
    }
    return changed;
}

bool pass_gvn(IrFunc *fn)
{
    ir_fill_rpo(fn);
    ir_fill_dominators(fn);
    int nins = 0;
    for (IrBlock *b = fn->entry; b; b = b->next)
        for (IrIns *i = b->first; i; i = i->next)
            nins++;
    Table t = { 0 };
    t.mask = 63;
    while (t.mask < (unsigned)nins)
        t.mask = t.mask * 2 + 1;
    t.bucket = calloc(t.mask + 1, sizeof *t.bucket);
    PtrVec *kids = calloc((size_t)fn->nblocks + 1, sizeof *kids);
    for (IrBlock *b = fn->entry; b; b = b->next)
        if (b->rpo >= 0 && b->idom && b != fn->entry)
            vec_push(&kids[b->idom->rpo], b);
    /* Merges in a loop's latch can make its header phis equal, but the
       header was walked first: walk again until nothing changes. */
    bool changed = false;
    while (walk(&t, fn->entry, kids))
        changed = true;
    for (int i = 0; i <= fn->nblocks; i++)
        vec_free(&kids[i]);
    free(kids);
    free(t.bucket);
    vec_free(&t.log);
    return changed;
}

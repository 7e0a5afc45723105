/*
** rega.c: register allocation for the VM. Each file (uniform, varying) is
** coloured on its own; a "colour" is a slot offset and a register takes
** `width` consecutive slots, so colouring packs ranges.
**
** Liveness is an interval over the linear code: from the first to the
** last position that mentions the register. Linearised code has no other
** notion of place: a varying block may run for some lanes between a
** definition and a use in another, so the whole stretch stays live. Loops
** (back jumps) stretch an interval to the whole loop when the register is
** used before it is defined in it (live around the back edge) or is live
** into or out of it. Parameters, globals and constants are live from the
** start: their slots hold inputs and preloaded values.
**
** Two registers of a file interfere when their intervals overlap. The
** graph of an interval family is chordal, and colouring in order of
** increasing start is optimal for it; within that order each register
** first tries the slot of its "friend" (the other side of a copy or phi
** move), or else of the register its only definition copies, so
** coalescable copies become moves of a slot onto itself, which emit.c
** drops.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/vm/vmgen.h"

typedef struct Live {
    int first, last;          /* positions; first > last: never mentioned */
    int first_def, first_use;
    int defs;                 /* instructions that write it */
    int copy_of;              /* its only definition is "MOV it, copy_of", or -1 */
} Live;

static void mention(Live *l, const MOpnd *o, int pos, bool def)
{
    if (o->reg < 0)
        return;
    /* ASET writes element by element while it still reads: its operands
       must not share a slot with its result. */
    Live *r = &l[o->reg];
    if (pos < r->first)
        r->first = pos;
    if (pos > r->last)
        r->last = pos;
    if (def && pos < r->first_def)
        r->first_def = pos;
    r->defs += def;
    if (!def && pos < r->first_use)
        r->first_use = pos;
}

/* Instructions whose A operand is read as well as (or instead of)
   written. */
static bool reads_a(VmOp op)
{
    return op == VM_OP_MADD || op == VM_OP_MASK || op == VM_OP_JZ || op == VM_OP_JNZ
        || op == VM_OP_JNONE;
}

static void compute_live(const MFunc *mf, Live *l)
{
    for (int r = 0; r < mf->nregs; r++)
        l[r] = (Live){ mf->nins + 1, -1, mf->nins + 1, mf->nins + 1, 0, -1 };
    for (int p = 0; p < mf->nins; p++) {
        const MIns *i = &mf->ins[p];
        if (reads_a(i->op))
            mention(l, &i->a, p, false);
        if (i->op != VM_OP_MASK && i->op != VM_OP_JZ && i->op != VM_OP_JNZ
            && i->op != VM_OP_JNONE) {
            mention(l, &i->a, p, true);
            if (i->op == VM_OP_MOV && i->a.reg >= 0 && i->b.reg >= 0 && !i->a.off && !i->b.off
                && i->w == mf->regs[i->a.reg].width && i->w == mf->regs[i->b.reg].width)
                l[i->a.reg].copy_of = i->b.reg;
        }
        int q = i->op == VM_OP_ASET ? p + 1 : p;
        mention(l, &i->b, q, false);
        mention(l, &i->c, q, false);
        mention(l, &i->d, q, false);
        for (int k = 0; k < i->nargs; k++)
            mention(l, &i->args[k], p, false);
    }
    /* Preloaded values (constants) are live from the start. The
       interface (parameters and globals) keeps its slots for the whole
       run, so that the host, rslvm --print and the debugger read every
       variable's value after it. */
    for (int r = 0; r < mf->nregs; r++) {
        const MReg *x = &mf->regs[r];
        if (x->init)
            l[r].first = 0;
        if (x->iface)
            l[r].first = 0, l[r].last = mf->nins;
    }
    /* -O0 -g: a source variable's registers live to the end, as if it
       had a home in memory. */
    for (int k = 0; mf->keep_vars && k < mf->ndbg; k++)
        if (l[mf->dbg[k].reg].first <= l[mf->dbg[k].reg].last)
            l[mf->dbg[k].reg].last = mf->nins;
    /* Loops: [target, jump] of every backward jump, to a fixpoint because
       stretching for an inner loop can make an interval cross an outer
       one. */
    for (bool changed = true; changed;) {
        changed = false;
        for (int p = 0; p < mf->nins; p++) {
            const MIns *i = &mf->ins[p];
            if (i->label < 0 || mf->label_at[i->label] > p)
                continue;
            int lo = mf->label_at[i->label], hi = p;
            for (int r = 0; r < mf->nregs; r++) {
                Live *x = &l[r];
                if (x->first > x->last || x->last < lo || x->first > hi)
                    continue;
                bool around = x->first_use <= x->first_def && x->first_use >= lo;
                bool crosses = x->first < lo || x->last > hi;
                if ((around || crosses) && (x->first > lo || x->last < hi)) {
                    if (x->first > lo)
                        x->first = lo;
                    if (x->last < hi)
                        x->last = hi;
                    changed = true;
                }
            }
        }
    }
}

/* A register to colour, keyed by the start of its interval. */
typedef struct Start {
    int first, reg;
} Start;

static int by_start(const void *a, const void *b)
{
    const Start *x = a, *y = b;
    return x->first != y->first ? (x->first > y->first) - (x->first < y->first)
                                : (x->reg > y->reg) - (x->reg < y->reg);
}

/* The input that r copies, through a chain of single copies; r itself if
   nothing writes it; -1 if r holds a value of its own. An interface
   register that the code writes holds its own value however it is
   written: the host's value before, which it may read (alpha in
   "Ci += (1 - alpha) * c; alpha = 1"), and the host stores inputs into
   its slots, which would clobber a constant sharing them. */
static int input_root(const MFunc *mf, const Live *l, int r)
{
    for (int hops = 0; hops < 64; hops++) {
        if (l[r].defs == 0)
            return r;
        if (l[r].defs != 1 || l[r].copy_of < 0 || mf->regs[r].iface)
            return -1;
        r = l[r].copy_of;
    }
    return -1;
}

/* May r take exactly the slots of o, a coloured register whose interval
   overlaps r's? Two intervals that only touch (one's last use is the
   other's definition) may share exactly the same slots, which is what
   makes a copy whose source dies there disappear; a partial overlap would
   not survive an instruction that reads one component after writing
   another. Copies of a register nothing writes (an input), and copies of
   those, may share its slots however they overlap: they hold the same
   value throughout. root[] is input_root of each register. */
static bool may_share(const MFunc *mf, const Live *l, const int *root, int r, int o)
{
    const Live *a = &l[r], *b = &l[o];
    if (mf->regs[r].width != mf->regs[o].width)
        return false;
    bool touch = b->last == a->first || a->last == b->first;
    return (root[r] >= 0 && root[r] == root[o]) || (touch && b->first != a->first);
}

/* The coloured registers r must not collide with: those of its file
   whose interval overlaps r's. Colouring goes in order of increasing
   start, so every coloured interval starts at or before r's and it
   overlaps unless it ended before r starts. */
static bool neighbour(const MFunc *mf, const Live *l, int r, int o)
{
    return mf->regs[o].varying == mf->regs[r].varying && l[o].last >= l[r].first;
}

/* Is [slot, slot+width) free of every coloured neighbour of r among
   act[0..nact)? */
static bool fits(const MFunc *mf, const Live *l, const int *root, const int *act, int nact,
                 int r, unsigned slot)
{
    const MReg *me = &mf->regs[r];
    for (int k = 0; k < nact; k++) {
        const MReg *o = &mf->regs[act[k]];
        if (!neighbour(mf, l, r, act[k]))
            continue;
        bool overlap = slot < (unsigned)o->slot + o->width && (unsigned)o->slot < slot + me->width;
        if (overlap && !(slot == (unsigned)o->slot && may_share(mf, l, root, r, act[k])))
            return false;
    }
    return true;
}

/* The lowest slot where r fits: each neighbour blocks the starts whose
   range would overlap its own, except its own slot when r may share it;
   the answer is the first start that nothing blocks. This is the lowest
   s with fits(s), found in time linear in the neighbours' widths rather
   than by trying every slot against every neighbour, which was cubic
   when many registers are live at once (a deep nest of varying ifs keeps
   every mask live). cover[] counts the blockers of each start; it has
   *cap entries, all zero on entry and on return. */
static unsigned lowest_fit(const MFunc *mf, const Live *l, const int *root, const int *act,
                           int nact, int r, int **cover, size_t *cap)
{
    size_t top = 0;
    long w = mf->regs[r].width;
    for (int k = 0; k < nact; k++)
        if (neighbour(mf, l, r, act[k]))
            top = top > (size_t)mf->regs[act[k]].slot + mf->regs[act[k]].width
                      ? top : (size_t)mf->regs[act[k]].slot + mf->regs[act[k]].width;
    if (top + 1 > *cap) {
        free(*cover);
        *cap = 2 * (top + 1);
        *cover = calloc(*cap, sizeof **cover);
        if (!*cover) {
            perror("rslc");
            exit(1);
        }
    }
    int *c = *cover;
    for (int k = 0; k < nact; k++) {
        const MReg *o = &mf->regs[act[k]];
        if (!neighbour(mf, l, r, act[k]))
            continue;
        bool share = may_share(mf, l, root, r, act[k]);
        for (long s = o->slot - w + 1 < 0 ? 0 : o->slot - w + 1; s < o->slot + (long)o->width; s++)
            c[s] += !(share && s == o->slot);
    }
    size_t slot = 0;
    while (c[slot])
        slot++;
    memset(c, 0, (top + 1) * sizeof *c);
    return (unsigned)slot;
}

void vmgen_allocate(MFunc *mf, unsigned *nuniform, unsigned *nvarying)
{
    size_t nr = (size_t)mf->nregs + 1;
    Live *l = malloc(nr * sizeof *l);
    Start *order = malloc(nr * sizeof *order);
    int n = 0;
    /* act: the coloured registers still live at the current start. */
    int *act = malloc(nr * sizeof *act), nact = 0;
    int *root = malloc(nr * sizeof *root);
    int *cover = NULL;
    size_t cap = 0;
    compute_live(mf, l);
    for (int r = 0; r < mf->nregs; r++)
        root[r] = input_root(mf, l, r);
    /* Where each register holds its value, for the debugger: after its
       first definition to its last mention; from the start of its
       interval when it is read before it is written (around a loop's
       back edge, or an input). */
    for (int r = 0; r < mf->nregs; r++) {
        Live *x = &l[r];
        bool before = x->first_use <= x->first_def;
        mf->regs[r].dbg_lo = x->first > x->last ? 0 : before ? x->first : x->first_def + 1;
        mf->regs[r].dbg_hi = x->first > x->last ? -1 : x->last;
    }
    unsigned size[2] = { 0, 0 };
    /* The interface first, packed at the bottom of each file in order. */
    for (int r = 0; r < mf->nregs; r++) {
        MReg *x = &mf->regs[r];
        x->slot = -1;
        if (x->iface) {
            x->slot = (int)size[x->varying];
            size[x->varying] += x->width;
            act[nact++] = r;
        } else if (l[r].first <= l[r].last) {
            order[n++] = (Start){ l[r].first, r };
        }
    }
    qsort(order, (size_t)n, sizeof *order, by_start);
    for (int k = 0; k < n; k++) {
        int r = order[k].reg;
        MReg *x = &mf->regs[r];
        int kept = 0;
        for (int j = 0; j < nact; j++)
            if (l[act[j]].last >= l[r].first)
                act[kept++] = act[j];
        nact = kept;
        int f = x->friend >= 0 ? x->friend : l[r].copy_of;
        if (f >= 0 && mf->regs[f].slot >= 0 && mf->regs[f].varying == x->varying
            && fits(mf, l, root, act, nact, r, (unsigned)mf->regs[f].slot))
            x->slot = mf->regs[f].slot;
        else
            x->slot = (int)lowest_fit(mf, l, root, act, nact, r, &cover, &cap);
        act[nact++] = r;
        if ((unsigned)x->slot + x->width > size[x->varying])
            size[x->varying] = (unsigned)x->slot + x->width;
    }
    *nuniform = size[0];
    *nvarying = size[1];
    free(l);
    free(order);
    free(act);
    free(root);
    free(cover);
}

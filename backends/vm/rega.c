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

/* Is [slot, slot+width) free of every coloured neighbour of r? Two
   intervals that only touch (one's last use is the other's definition)
   may share exactly the same slots, which is what makes a copy whose
   source dies there disappear; a partial overlap would not survive an
   instruction that reads one component after writing another. Copies of
   a register nothing writes (an input), and copies of those, may share
   its slots however they overlap: they hold the same value throughout. */
static bool fits(const MFunc *mf, const Live *l, const int *done, int ndone, int r,
                 unsigned slot)
{
    const MReg *me = &mf->regs[r];
    const Live *a = &l[r];
    for (int k = 0; k < ndone; k++) {
        const MReg *o = &mf->regs[done[k]];
        const Live *b = &l[done[k]];
        if (o->varying != me->varying || b->last < a->first || b->first > a->last)
            continue;
        bool overlap = slot < (unsigned)o->slot + o->width && (unsigned)o->slot < slot + me->width;
        bool touch = b->last == a->first || a->last == b->first;
        bool same = slot == (unsigned)o->slot && me->width == o->width;
        int root = input_root(mf, l, r);
        bool twin = same && root >= 0 && root == input_root(mf, l, done[k]);
        if (overlap && !twin && !(touch && same && b->first != a->first))
            return false;
    }
    return true;
}

void vmgen_allocate(MFunc *mf, unsigned *nuniform, unsigned *nvarying)
{
    Live *l = malloc(((size_t)mf->nregs + 1) * sizeof *l);
    Start *order = malloc(((size_t)mf->nregs + 1) * sizeof *order);
    int n = 0;
    int *done = malloc(((size_t)mf->nregs + 1) * sizeof *done), ndone = 0;
    compute_live(mf, l);
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
            done[ndone++] = r;
        } else if (l[r].first <= l[r].last) {
            order[n++] = (Start){ l[r].first, r };
        }
    }
    qsort(order, (size_t)n, sizeof *order, by_start);
    for (int k = 0; k < n; k++) {
        int r = order[k].reg;
        MReg *x = &mf->regs[r];
        int f = x->friend >= 0 ? x->friend : l[r].copy_of;
        if (f >= 0 && mf->regs[f].slot >= 0 && mf->regs[f].varying == x->varying
            && fits(mf, l, done, ndone, r, (unsigned)mf->regs[f].slot)) {
            x->slot = mf->regs[f].slot;
        } else {
            unsigned s = 0;
            while (!fits(mf, l, done, ndone, r, s))
                s++;
            x->slot = (int)s;
        }
        done[ndone++] = r;
        if ((unsigned)x->slot + x->width > size[x->varying])
            size[x->varying] = (unsigned)x->slot + x->width;
    }
    *nuniform = size[0];
    *nvarying = size[1];
    free(l);
    free(order);
    free(done);
}

/*
** sched.c: instruction scheduling for the VM, and fusion of multiply-add.
**
** The latency model (vm_op_latency, vm/opcodes.c) is an in-order machine
** that issues one instruction a cycle and stalls until its operands are
** ready; the VM counts the same model while it runs (rslvm --stats). Within each straight-line segment (between
** labels, jumps and mask changes, which stay in place) a list scheduler
** issues, among the instructions whose predecessors in the dependence
** graph have issued, the one with the longest latency path to the end of
** the segment, so long chains start early and independent work fills the
** wait.
**
** Fusion, before scheduling: "t = b * c; d = t + e" with t used nowhere
** else becomes "d = e; d += b * c" (MADD). The move is copy-related, so when e dies
** there the allocator gives d and e one slot and the move disappears.
*/
#include <stdlib.h>
#include <string.h>

#include "backends/vm/vmgen.h"

/* The list scheduler is quadratic in a segment's length (the dependence
   matrix alone is n * n): a longer segment, such as thousands of
   straight-line statements, is scheduled in windows of this many
   instructions, which only loses overlap across a window's edge. */
enum { SCHED_WINDOW = 512 };

/* Does the instruction end a segment (or must stay where it is)? */
static bool barrier(VmOp op)
{
    return op == VM_OP_MASK || op == VM_OP_MASKALL || op == VM_OP_JMP || op == VM_OP_JZ
        || op == VM_OP_JNZ || op == VM_OP_JNONE || op == VM_OP_RET;
}

/* The registers an instruction reads (up to 3 + args) and writes. */
static int reads(const MIns *i, int *out)
{
    int n = 0;
    if (i->op == VM_OP_MADD)
        out[n++] = i->a.reg;
    const MOpnd *o[3] = { &i->b, &i->c, &i->d };
    for (int k = 0; k < 3; k++)
        if (o[k]->reg >= 0)
            out[n++] = o[k]->reg;
    for (int k = 0; k < i->nargs; k++)
        out[n++] = i->args[k].reg;
    return n;
}

static bool depends(const MIns *later, const MIns *earlier)
{
    int rl[40], re[40];
    int nl = later->nargs <= 36 ? reads(later, rl) : -1;
    int ne = earlier->nargs <= 36 ? reads(earlier, re) : -1;
    if (nl < 0 || ne < 0)
        return true;
    /* Builtin calls keep their order among themselves: random() advances
       the point's stream, printf prints, a host call may count. */
    if (later->op == VM_OP_CALLB && earlier->op == VM_OP_CALLB)
        return true;
    int wl = later->a.reg, we = earlier->a.reg;
    for (int k = 0; k < nl; k++)
        if (rl[k] == we)            /* read after write */
            return true;
    for (int k = 0; k < ne; k++)
        if (re[k] == wl)            /* write after read */
            return true;
    return wl >= 0 && wl == we;     /* write after write (masked moves, parts) */
}

static void schedule_segment(MIns *ins, int n)
{
    if (n < 3)
        return;
    bool *dep = calloc((size_t)n * (size_t)n, sizeof *dep);   /* dep[j*n+i]: j after i */
    unsigned *prio = calloc((size_t)n, sizeof *prio);
    int *npred = calloc((size_t)n, sizeof *npred);
    bool *done = calloc((size_t)n, sizeof *done);
    MIns *out = malloc((size_t)n * sizeof *out);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < j; i++)
            if (depends(&ins[j], &ins[i]))
                dep[j * n + i] = true, npred[j]++;
    for (int i = n - 1; i >= 0; i--) {
        unsigned best = 0;
        for (int j = i + 1; j < n; j++)
            if (dep[j * n + i] && prio[j] > best)
                best = prio[j];
        prio[i] = best + vm_op_latency(ins[i].op, ins[i].w);
    }
    for (int k = 0; k < n; k++) {
        int pick = -1;
        for (int i = 0; i < n; i++)
            if (!done[i] && npred[i] == 0 && (pick < 0 || prio[i] > prio[pick]))
                pick = i;
        done[pick] = true;
        out[k] = ins[pick];
        for (int j = 0; j < n; j++)
            if (dep[j * n + pick])
                npred[j]--;
    }
    memcpy(ins, out, (size_t)n * sizeof *out);
    free(dep);
    free(prio);
    free(npred);
    free(done);
    free(out);
}

static int uses_of(const MFunc *mf, int reg)
{
    int n = 0, r[40];
    for (int p = 0; p < mf->nins; p++) {
        int k = mf->ins[p].nargs <= 36 ? reads(&mf->ins[p], r) : 0;
        for (int j = 0; j < k; j++)
            n += r[j] == reg;
        for (int j = 36; j < mf->ins[p].nargs; j++)
            n += mf->ins[p].args[j].reg == reg;
    }
    return n;
}

/* MUL then ADD of its result, adjacent and with no label between: the
   pair becomes MOV + MADD. */
static void fuse(MFunc *mf, const bool *labelled)
{
    for (int p = 0; p + 1 < mf->nins; p++) {
        MIns *m = &mf->ins[p], *a = &mf->ins[p + 1];
        if (labelled[p + 1] || m->op != VM_OP_MUL || a->op != VM_OP_ADD || m->w != a->w || m->a.off || a->a.off)
            continue;
        int t = m->a.reg;
        MOpnd other = a->b.reg == t ? a->c : a->c.reg == t ? a->b : (MOpnd){ -1, 0 };
        if (other.reg < 0 || other.reg == t || a->a.reg == m->b.reg || a->a.reg == m->c.reg
            || mf->regs[t].iface || uses_of(mf, t) != 1)
            continue;
        MOpnd b = m->b, c = m->c, d = a->a;
        /* d = other; d += b * c */
        m->op = VM_OP_MOV;
        m->a = d, m->b = other, m->c = (MOpnd){ -1, 0 };
        a->op = VM_OP_MADD;
        a->a = d, a->b = b, a->c = c;
        MReg *rd = &mf->regs[d.reg], *ro = &mf->regs[other.reg];
        if (rd->varying == ro->varying && rd->width == ro->width)
            rd->friend = other.reg;
    }
}

/* DOT then RSQRT of its result, adjacent: one DOTRSQ (the first half of
   a normalisation written out by hand). */
static void fuse_dot_rsqrt(MFunc *mf, const bool *labelled)
{
    for (int p = 0; p + 1 < mf->nins; p++) {
        MIns *d = &mf->ins[p], *r = &mf->ins[p + 1];
        int t = d->a.reg;
        if (labelled[p + 1] || d->op != VM_OP_DOT || r->op != VM_OP_RSQRT || r->w != 1
            || r->b.reg != t || r->b.off || d->a.off || mf->regs[t].iface || uses_of(mf, t) != 1)
            continue;
        MOpnd dest = r->a;
        *r = *d;
        r->op = VM_OP_DOTRSQ;
        r->a = dest;
        d->op = VM_OP_NOP;
        d->a = d->b = d->c = (MOpnd){ -1, 0 };
    }
}

void vmgen_schedule(MFunc *mf)
{
    bool *labelled = calloc((size_t)mf->nins + 1, sizeof *labelled);
    for (int l = 0; l < mf->nlabels; l++)
        if (mf->label_at[l] >= 0)
            labelled[mf->label_at[l]] = true;
    fuse(mf, labelled);
    fuse_dot_rsqrt(mf, labelled);
    int start = 0;
    for (int p = 0; p <= mf->nins; p++) {
        bool end = p == mf->nins || labelled[p] || barrier(mf->ins[p].op);
        if (!end)
            continue;
        for (int w = start; w < p; w += SCHED_WINDOW)
            schedule_segment(mf->ins + w, p - w < SCHED_WINDOW ? p - w : SCHED_WINDOW);
        start = p + 1;
        if (p < mf->nins && !barrier(mf->ins[p].op))
            start = p; /* a labelled instruction begins the next segment */
    }
    free(labelled);
}

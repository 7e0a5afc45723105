/*
** dce.c: dead code elimination, mark and sweep. Unreachable blocks go
** first; then every value is dead except what terminators and
** instructions with effects (gset, pset, call, side-effect builtins) use,
** transitively. Instructions without a result are never removed.
** Sweeping that way also removes cycles of dead phis, which use counts
** alone never see.
**
** requires: ssa; preserves: regions; breaks: rpo, dom (if blocks go).
*/
#include <stdlib.h>

#include "rslc/pass.h"

bool pass_dce(IrFunc *fn)
{
    bool changed = opt_remove_unreachable(fn);
    bool *live = calloc((size_t)fn->next_val_id, sizeof *live);
    PtrVec work = { 0 }, dead = { 0 };
    for (IrBlock *b = fn->entry; b; b = b->next)
        for (IrIns *i = b->first; i; i = i->next)
            if (i->val.type.kind == IRT_VOID) {
                vec_push(&work, i);
            } else if (!opt_removable(i)) {
                live[i->val.id] = true;
                vec_push(&work, i);
            }
    while (work.n) {
        IrIns *i = work.p[--work.n];
        for (int k = 0; k < i->nargs; k++) {
            IrVal *a = i->args[k];
            if (a->kind == IRV_INS && !live[a->id]) {
                live[a->id] = true;
                vec_push(&work, a);
            }
        }
    }
    for (IrBlock *b = fn->entry; b; b = b->next)
        for (IrIns *i = b->first; i; i = i->next)
            if (i->val.type.kind != IRT_VOID && !live[i->val.id])
                vec_push(&dead, i);
    opt_delete_all((IrIns **)dead.p, dead.n);
    changed |= dead.n > 0;
    free(live);
    vec_free(&work);
    vec_free(&dead);
    return changed;
}

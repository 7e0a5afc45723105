/*
** copy.c: copy propagation. Every use of r = copy a becomes a use of a and
** the copy goes; lowering emits copies for assignments of whole values.
**
** requires: ssa; preserves: cfg, dom, loops, regions.
*/
#include "rslc/pass.h"

bool pass_copy(IrFunc *fn)
{
    bool changed = false;
    for (IrBlock *b = fn->entry; b; b = b->next)
        for (IrIns *i = b->first, *next; i; i = next) {
            next = i->next;
            if (i->op != IR_copy || !ir_type_equal(i->val.type, i->args[0]->type))
                continue;
            opt_replace(i, i->args[0]);
            changed = true;
        }
    return changed;
}

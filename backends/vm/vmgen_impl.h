/*
** vmgen_impl.h: what the files of IR -> MIR share (vmgen.c for
** instructions, vmcall.c for builtin calls, linearize.c for block layout
** and control flow, masked or plain): the selection state and the
** helpers that grow the machine function. Private to the VM back end.
*/
#ifndef RSLC_VMGEN_IMPL_H
#define RSLC_VMGEN_IMPL_H

#include "backends/vm/vmgen.h"

typedef struct Gen {
    MFunc *mf;
    const IrFunc *fn;
    int *vreg;               /* IR value id -> register, -1 if none yet */
    int nvals;
    IrBlock **order;         /* the layout */
    int norder;
    int *label;              /* block id -> its label */
    int *mask;               /* block id -> its mask register (masked mode) */
    int *loop_end;           /* header id -> layout index of its loop's last block */
    int *loop_exit;          /* header id -> label after its loop's back jump */
    int *region_of;          /* block id -> innermost region around it, or -1 */
    int *light_cnt, *light_val; /* per region: the light index (uniform) and
                                   the current light's L, Cl, Ol, flag */
    IrVal **kval;            /* constants seen, and their registers */
    int *kreg;
    int nk, capk;
    bool masked;             /* the function has a varying branch */
    int one;                 /* uniform constant 1.0 */
    bool failed;
} Gen;

static inline MOpnd R(int reg) { return (MOpnd){ reg, 0 }; }
static inline MOpnd RO(int reg, unsigned off) { return (MOpnd){ reg, off }; }

/* vmgen.c */
void *vg_grow(void *p, int *cap, int need, size_t size);
int vg_new_reg(Gen *g, bool varying, unsigned width);
MIns *vg_emit(Gen *g, VmOp op, unsigned w, SrcLoc loc);
void vg_emit3(Gen *g, VmOp op, unsigned w, MOpnd a, MOpnd b, MOpnd c, SrcLoc loc);
unsigned vg_kind_width(IrKind k);
unsigned vg_type_width(IrType t);
/* A uniform register preloaded with n values (zeros if vals is NULL). */
int vg_const_reg(Gen *g, const float *vals, unsigned n);
/* The register of an operand value, made on first use. */
int vg_reg_of(Gen *g, IrVal *v);
/* Reports what the VM back end cannot compile (and fails the function). */
void vg_unsupported(Gen *g, const IrIns *ins, const char *what);
/* The register of a parameter or global of the interface, added to
   list on first use. */
int vg_add_var(Gen *g, MVar **list, int *n, const char *name, IrType t, bool varying,
               unsigned flags);
/* Registers a and b are the two sides of a move or phi: rega.c tries
   to give them one slot. */
void vg_befriend(Gen *g, int a, int b);
/* Selects a non-terminator instruction of a block's body. */
void vg_select_ins(Gen *g, IrIns *ins);

/* linearize.c: lays the blocks out (labels, loops, regions, whether the
   function runs masked), then emits them with their control flow. */
void vg_layout(Gen *g);
void vg_linearize(Gen *g);

/* vmcall.c: a builtin's CALLB index, its callee (the runtime binds it by
   row) added on first use; the type letter (runtime/builtins.def's) of an
   IR type; a builtin call (intrin) into dst; and where a callout's value
   sits in its call's tuple. */
int vg_callee_index(Gen *g, const VmCallee *c);
char vg_type_letter(IrType t);
/* Is argument k of a gather region's terminator t a name whose value
   the loop fetches from each hit (linearize.c)? */
bool vg_gather_output(const IrIns *t, int k);
void vg_select_intrin(Gen *g, IrIns *ins, int dst);

#endif /* RSLC_VMGEN_IMPL_H */

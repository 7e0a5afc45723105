/*
** vmgen.h: the VM back end's own code form, between the SSA IR and the
** bytecode: VM instructions (vm/opcodes.h) over virtual registers. The
** back end runs in order:
**
**   vmgen.c      IR -> MIR: instruction selection (builtin calls in
**                vmcall.c)
**   linearize.c  block layout, and linearisation of varying control
**                flow into masked straight-line blocks
**   sched.c      list scheduling within blocks, superinstruction fusion
**   rega.c       register allocation: graph colouring with coalescing,
**                uniform and varying files separately
**   emit.c       slots and labels resolved, the object (vm/object.h) built
*/
#ifndef RSLC_VMGEN_H
#define RSLC_VMGEN_H

#include "rslc/ir.h"
#include "vm/object.h"

/* An operand: component `off` onwards of virtual register `reg`
   (reg < 0: none). */
typedef struct MOpnd {
    int reg;
    unsigned off;
} MOpnd;

typedef struct MIns {
    VmOp op;
    unsigned w;
    MOpnd a, b, c;
    MOpnd d;                 /* SEL's else value, ASET's new element */
    unsigned imm;            /* AGET/ASET: array length; CALLB: builtin index;
                                DERIV: direction */
    MOpnd *args;             /* CALLB's arguments and their widths */
    unsigned *argw;
    int nargs;
    int label;               /* jumps: the target label */
    SrcLoc loc;
} MIns;

typedef struct MReg {
    bool varying;
    unsigned width;          /* slots */
    bool iface;              /* a parameter or global: allocated first */
    unsigned iface_flags;    /* its VM_VAR_READ / VM_VAR_OUTPUT */
    const float *init;       /* initial values (constants, parameter defaults) */
    bool owns_init;
    int friend;              /* a copy-related register to share a slot with */
    int slot;                /* the allocation (rega.c) */
    int dbg_lo, dbg_hi;      /* where it holds its value (rega.c): from
                                before instruction lo to hi, inclusive */
} MReg;

/* Debug information: register reg holds (a value of) the source
   variable var, an index of the IR function's dbgvars. */
typedef struct MDbg {
    int reg, var;
} MDbg;

/* A variable of the shader's interface, living in register reg. */
typedef struct MVar {
    VmVar var;               /* var.reg is filled in by emit.c */
    int reg;
} MVar;

typedef struct MFunc {
    RslcCtx *rc;             /* the compilation: where errors are reported */
    const IrFunc *ir;
    MIns *ins;
    int nins, capins;
    MReg *regs;
    int nregs, capregs;
    int *label_at;           /* label -> index of the instruction it precedes */
    int nlabels, caplabels;
    VmCallee *callees;       /* the builtins CALLB indexes, by row */
    int ncallees;
    const char **strings;    /* string constants */
    int nstrings;
    MVar *params, *globals;
    int nparams, nglobals;
    MDbg *dbg;               /* the registers of source variables */
    int ndbg, capdbg;
    bool debug;              /* emit debug information (rslc -g) */
    bool keep_vars;          /* -O0 -g: variables' registers stay live to
                                the end, so the debugger sees them */
} MFunc;

/* Rewrites what the VM's calls cannot take before selection: a spline
   of more knots than a builtin call has arguments becomes a spline over
   an array of them. */
void vmgen_legalize(IrFunc *fn);

/* Builtin calls, as both back ends bind them (vmcall.c; the native one,
   backends/llvm/calls.c): the callee of a call (an intrin), by its row
   and the types it passes, its implicit arguments included (a call
   returning a tuple names its row's result type); and where a
   callout's value sits in its call's tuple (callout -1: the result),
   in floats. */
void vmgen_intrin_callee(const IrIns *ins, VmCallee *c);
unsigned vg_tuple_offset(const IrIns *call, int which);

/* The callee of a light region's call (linearize.c): illuminance's
   __light(counter, P[, axis, angle][, category]), illuminate's and
   solar's (their arguments, then Ps); given counts the region's own
   arguments, the category not included. It returns L, Cl, Ol and
   whether the light takes part, in a matrix's 16 floats. */
void vmgen_light_callee(IrRegionKind kind, int given, bool category, VmCallee *c);

/* Selects and linearises fn, a shader with every call inlined. Reports
   what the VM cannot run through rc's diag and returns NULL. */
MFunc *vmgen_select(RslcCtx *rc, const IrFunc *fn);
void mfunc_free(MFunc *mf);

/* Reorders each block's instructions by the latency model and fuses
   mul+add pairs into MADD (sched.c). */
void vmgen_schedule(MFunc *mf);

/* Assigns every register a slot of its file (rega.c). *nuniform and
   *nvarying receive the file sizes. */
void vmgen_allocate(MFunc *mf, unsigned *nuniform, unsigned *nvarying);

/* The VM type of an IR type's element kind. */
VmType vg_vm_type(IrKind k);

/* Builds the object from an allocated function (emit.c); free with
   vm_object_free. NULL when a limit of the format is exceeded (reported). */
VmObject *vmgen_emit(const MFunc *mf, unsigned nuniform, unsigned nvarying);

#endif /* RSLC_VMGEN_H */

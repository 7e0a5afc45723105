/*
** pass.h: the optimisation passes and the helpers they share (optutil.c).
**
** Each pass takes one function (inlining: the module), edits it in place
** and returns true if it changed anything. Passes keep the IR verifiable:
** SSA dominance, uniformity flags (a uniform value never gets a varying
** operand), source locations, and the structured regions (region blocks
** are never merged away, `region` and `next` edges are never rewritten).
** What each pass requires and preserves is stated at the top of its file.
*/
#ifndef RSLC_PASS_H
#define RSLC_PASS_H

#include "rslc/ir.h"
#include "rslc/limits.h"
#include "rslc/passes.h"

bool pass_copy(IrFunc *fn);      /* copy.c: copy propagation */
bool pass_fold(IrFunc *fn);      /* fold.c: constant folding, simplification */
bool pass_phisimp(IrFunc *fn);   /* phisimp.c: trivial and redundant phis */
bool pass_gvn(IrFunc *fn);       /* gvn.c: value numbering over the dom tree */
bool pass_sccp(IrFunc *fn);      /* sccp.c: sparse conditional constants */
bool pass_dce(IrFunc *fn);       /* dce.c: mark-sweep dead code */
bool pass_licm(IrFunc *fn);      /* licm.c: loop-invariant code motion */
bool pass_cfgclean(IrFunc *fn);  /* cfgclean.c: merge, thread, remove blocks */
bool pass_inline(IrModule *m);   /* inline.c: inline small user functions */
/* specialize.c: the shaders of m read spec's constants for their
   parameters (passes.h); NULL spec: nothing to fold. */
bool pass_specialize(IrModule *m, const IrSpec *spec);

/* inline.c, for the VM (which has no calls): inlines every call into fn
   that can be, and the calls those bring, unless the result would be
   over RSLC_MAX_INLINED_SIZE instructions (limits.h): then, with rc, an error at the call
   that crosses the limit; without, quietly. False if over the limit (fn
   is left as it was); *changed tells whether anything was inlined. */
bool pass_inline_into(RslcCtx *rc, IrModule *m, IrFunc *fn, bool *changed);

/* ---- fold.c: evaluation shared by fold and sccp ---------------------------- */

/* The constant ins would produce if its operands were args (each a
   constant; nargs == ins->nargs), or NULL if it cannot be folded: the op or
   builtin is not foldable, or the result is not finite. */
IrConst *fold_eval(IrFunc *fn, const IrIns *ins, IrVal *const *args);

/* ---- optutil.c -------------------------------------------------------------- */

/* What an instruction may be subjected to. */
bool opt_removable(const IrIns *ins);   /* deleted when its result is unused */
bool opt_movable(const IrIns *ins);     /* moved, merged, speculated */
bool opt_speculable(const IrIns *ins);  /* movable, and cannot stop the run */

/* The name of the builtin whose row (an intrin's imm) is `row`, for folding
   by name. */
const char *opt_builtin_name(int row);

/* The constant behind v, or NULL. */
IrConst *opt_const(const IrVal *v);
/* The value of a bool constant; false if v is not one. */
bool opt_const_bool(const IrVal *v, bool *out);
/* Number of float components of a kind: 1, 3 or 16 (0 for others). */
int opt_ncomp(IrKind k);

/* Replaces every use of ins by v and deletes ins. v must be uniform if
   ins is. */
void opt_replace(IrIns *ins, IrVal *v);
/* Deletes the instructions dead[0..n-1] (whose results are used only
   among themselves), in any order. */
void opt_delete_all(IrIns **dead, int n);

/* The terminator of b. */
static inline IrIns *opt_term(const IrBlock *b) { return b->last; }
/* Number of successors of a terminator. */
int opt_nsucc(const IrIns *term);
/* True if b is a header, body, miss or exit block of a region. */
bool opt_region_block(const IrFunc *fn, const IrBlock *b);
/* Index of the k-th edge from `from` in to->preds (-1 if none). */
int opt_pred_index(const IrBlock *to, const IrBlock *from, int k);
/* Turns a br into a jmp to its successor `keep`, dropping the other edge. */
void opt_br_to_jmp(IrIns *br, int keep);
/* The block that enters loop header h from outside (inloop[block id]),
   made if there is none (*created then set); NULL if an outside edge is a
   `region` or `next` edge, which cannot be redirected. */
IrBlock *opt_preheader(IrFunc *fn, IrBlock *h, const bool *inloop, bool *created);
/* Moves ins (not a phi or terminator) before pos, in pos's block. */
void opt_move_before(IrIns *ins, IrIns *pos);
/* Splits b before ins: ins and what follows move to a new block, which
   takes over b's successors; b is left without a terminator. */
IrBlock *opt_split_block(IrIns *ins);
/* Points edge `slot` of term at `to`; the phis of `to` take vals[i] (the
   i-th phi) for the new edge. */
void opt_retarget(IrIns *term, int slot, IrBlock *to, IrVal *const *vals);
/* Appends s (whose single predecessor b jumps to it) to b; s goes. */
void opt_merge_blocks(IrBlock *b, IrBlock *s);
/* Deletes the blocks not reachable from the entry; true if any. A region
   whose header goes is left with NULL blocks: nothing enters it. */
bool opt_remove_unreachable(IrFunc *fn);

/* Growable array of pointers. */
/* ---- callgraph.c: the module's call graph, for the inliner ------------------ */

typedef struct CallGraph {
    int n;                     /* m->nfuncs; indices are m->funcs's */
    struct Entry *by_addr;     /* (function, index) sorted by address */
    int *sites;                /* calls naming each function */
    bool *cyclic;              /* reaches itself through calls */
    int **edges, *nedges;      /* the callee of each call of each function */
} CallGraph;

void callgraph_build(CallGraph *g, const IrModule *m);
int callgraph_index(const CallGraph *g, const IrFunc *fn); /* -1: not in m */
void callgraph_free(CallGraph *g);

typedef struct PtrVec {
    void **p;
    int n, cap;
} PtrVec;
void vec_push(PtrVec *v, void *x);
void vec_free(PtrVec *v);

#endif /* RSLC_PASS_H */

/*
** vm.h: running bytecode (opcodes.h) over a batch of shading points.
**
** The caller owns the register files: it stores the inputs (globals and
** parameters, at the slots the code generator assigned) before vm_run and
** reads the outputs after. The uniform file starts as the program's
** initial image (its constants and defaults) and varying parameters at
** their defaults; vm_reset puts them in.
*/
#ifndef RSL_VM_H
#define RSL_VM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vm/opcodes.h"

enum {
    VM_MAX_BATCH = 256,
    VM_MAX_VALUE = 255,   /* floats in one builtin argument or result */
    VM_MAX_ARGS = 32      /* arguments of one builtin call */
};

/* A builtin as the VM calls it: once per active lane (or once for a
   uniform result), on gathered scalar values.

   A builtin with output arguments (fresnel, setcomp, textureinfo) returns
   a tuple: its result's self->retn floats (none for void), then every
   argument in order, each at its full width. The VM fills the argument
   part with the arguments' values before the call, so the builtin writes
   only its outputs and in-out arguments keep their value otherwise. */
typedef struct VmBuiltin VmBuiltin;
typedef struct VmState VmState;
typedef struct VmCall {
    const VmBuiltin *self;
    VmState *state;
    int lane;                         /* 0 for a uniform result */
    int nargs;
    const float *const *args;         /* args[i] holds argn[i] floats */
    const int *argn;
} VmCall;
/* out has room for self->outn floats, zeroed (or the tuple, filled). */
typedef void (*VmLaneFn)(float *out, const VmCall *call);

struct VmHost;

/* A builtin a program calls: the row of runtime/builtins.def its call
   resolved to, and the type letters (builtins.def's, and b for bool) of
   the call's result and arguments, which a row's ?, * and . parameters
   leave to the call. */
typedef struct VmCallee {
    uint32_t row;
    char result;                      /* x: none */
    uint8_t nargs;                    /* the implicit arguments included */
    char type[VM_MAX_ARGS];
    uint16_t arraylen[VM_MAX_ARGS];   /* 0: not an array */
} VmCallee;

struct VmBuiltin {
    VmLaneFn fn;
    uint32_t row;                     /* in runtime/builtins.def */
    int id;                           /* the row's function (BuiltinId) */
    const char *base;                 /* the function's RSL name */
    char letters[VM_MAX_ARGS + 1];    /* one type letter per argument */
    int nown;                         /* arguments before the row's
                                         implicit ones */
    int outn;                         /* floats in the result (or tuple) */
    int retn;                         /* for a tuple: the floats before
                                         the arguments; -1 if no tuple */
    const struct MathFn *math;        /* a pure math builtin's entry (mathlib.h) */
    struct VmStrings *strings;        /* the table string values index */
    const struct VmHost *host;        /* lights (and later textures, rays) */
    const char *shader;               /* the running shader's name (the
                                         session's object), or NULL */
};

typedef struct VmProgram {
    const VmIns *code;
    uint32_t ncode;
    uint32_t nuniform, nvarying;      /* register file sizes, in slots */
    const float *uniform_init;        /* nuniform values */
    const char *const *strings;       /* the string table */
    uint32_t nstrings;
    const VmBuiltin *builtins;        /* CALLB's B indexes this */
    uint32_t nbuiltins;
    /* Varying slots that start with a value in every lane (the defaults
       of varying parameters); vm_reset stores them. */
    const struct VmInit *varying_init;
    uint32_t nvarying_init;
} VmProgram;

typedef struct VmInit {
    uint32_t slot;
    float value;
} VmInit;

typedef struct VmStats {
    uint64_t instructions;            /* executed, each once per batch */
    uint64_t lanes;                   /* lane operations of varying ones */
    uint64_t cycles;                  /* modelled (vm_op_latency), if enabled */
} VmStats;

/* The layout of a batch for derivatives. Lane i has two neighbours in
   the batch, lanes na[i] and nb[i], whose surface parameters differ from
   lane i's by (dua[i], dva[i]) and (dub[i], dvb[i]). A value's change to
   each neighbour is df = f_u du + f_v dv; the two equations give f_u and
   f_v. On a grid the neighbours lie along u and along v (dva = dub = 0);
   a renderer's neighbours are the adjacent pixels' hits, anywhere on the
   surface. A neighbour at offset (0, 0) is none: with one neighbour left,
   only the derivative along its own parameter is known; the rest are 0.
   flip says the batch's surface has its orientation reversed (RISpec's
   Orientation against the handedness of its coordinate system): its Ng
   is -Du(P) ^ Dv(P), and calculatenormal turns around with it. */
typedef struct VmDeriv {
    uint8_t na[VM_MAX_BATCH], nb[VM_MAX_BATCH];
    float dua[VM_MAX_BATCH], dva[VM_MAX_BATCH];
    float dub[VM_MAX_BATCH], dvb[VM_MAX_BATCH];
    bool flip;
} VmDeriv;

/* Lane i's derivatives along u and v of a value whose changes towards
   its two neighbours are dfa and dfb (vm.c, shared with the debugger). */
void vm_deriv_solve(const VmDeriv *d, int i, float dfa, float dfb, float *fu, float *fv);
/* Lane i's derivative along u (dir 0) or v (dir 1) of the value whose
   lanes are f[0], f[stride], ... in a batch of n: 0 without neighbours
   (d NULL, or one outside the batch). The VM and native code both take
   it (backends/llvm/prelude.c). */
float vm_deriv_lane(const VmDeriv *d, int n, int i, const float *f, size_t stride, int dir);

struct VmState {
    int n;                            /* lanes in the batch, 1..VM_MAX_BATCH */
    const uint8_t *active;            /* requested lanes (NULL: all n) */
    float *U;                         /* nuniform floats */
    float *V;                         /* nvarying * n floats, slot-major */
    const VmDeriv *deriv;             /* NULL: every derivative is 0 */
    VmStats stats;
    /* Optional: when both are set (nuniform and nvarying entries, zeroed
       before the first run), vm_run also counts modelled cycles. */
    uint64_t *ready_u, *ready_v;
    /* Each lane's stream of random() numbers (noise.h's rsl_random):
       the caller seeds it per shading point, so results do not depend on
       batching or threads; vm_reset restarts every stream. */
    uint32_t random_seed[VM_MAX_BATCH];
    uint32_t random_drawn[VM_MAX_BATCH];
    /* A builtin that cannot go on (a missing texture) leaves its message
       here and vm_run stops with it (vm_lane_fault). */
    char fault[240];
    uint32_t fault_pc;                /* the CALLB that faulted */
    /* Optional: called before every instruction (the debugger,
       vm/debug.h); a nonzero return stops the run with an error. */
    int (*hook)(VmState *s, uint32_t pc, void *data);
    void *hook_data;
    /* Runaway code: the run stops (VM_HALT_STEPS) once it has executed
       more than max_steps instructions (0: no limit), or (VM_HALT_STOP)
       once *stop is set by another thread (a render's time limit). Both
       are checked at taken backward jumps only, since only a loop can
       run on: straight-line code ends within ncode instructions of a
       check. */
    uint64_t max_steps;
    const atomic_bool *stop;
    enum { VM_HALT_NONE, VM_HALT_FAULT, VM_HALT_STEPS, VM_HALT_STOP } halt;
    /* Optional: told of an array index out of bounds at the AGET or ASET
       at pc, once per lane (the value used is the clamped one); the
       session reports each source line once (session.h). */
    void (*bad_index)(VmState *s, uint32_t pc, float index, void *data);
    void *bad_index_data;
    /* Optional: a builtin's warning (vm_lane_warn) from the CALLB at pc;
       the session gives each source line's once. NULL: to stderr. */
    void (*warn)(VmState *s, uint32_t pc, const char *msg, void *data);
    void *warn_data;
    uint32_t call_pc;                 /* the CALLB running now */
    bool call_warned;                 /* it has warned for this batch: its
                                         lanes' warnings are the same one */
    /* Native code has no pc: it sets the source line of the call running
       now, and the first fault keeps its call's (vm_lane_fault); a NULL
       file means the VM's call_pc and fault_pc say where. */
    const char *call_file, *fault_file;
    uint32_t call_line, fault_line;
    /* Private: the execution mask. */
    uint8_t mask[VM_MAX_BATCH];
};

/* Stops the run from inside a builtin with a printf-style message. */
void vm_lane_fault(const VmCall *call, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A warning from inside a builtin ("caustic(): no photon map; 0"),
   given once per call site when the state has a warn hook. */
void vm_lane_warn(const VmCall *call, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Copies the program's initial uniform image into s->U, stores the
   varying initial values in every lane of s->V, and restarts the random
   streams. */
void vm_reset(const VmProgram *p, VmState *s);

/* Runs p from instruction 0 to RET. Returns 0, or -1 with a message in
   err (and s->halt saying why) if a builtin faults (vm_lane_fault), if
   the run passes s->max_steps or s->stop is set (s->fault_pc is then
   the backward jump), or if the code misbehaves in a way the loader's
   verifier should have caught (an unknown opcode, a jump out of
   range). */
int vm_run(const VmProgram *p, VmState *s, char *err, int errlen);

#endif /* RSL_VM_H */

/*
** native.h: shading in native code through LLVM (issue 13). A shader's
** optimised IR is lowered to LLVM IR that runs W shading points at once
** (SPMD: uniform values scalar, varying values <W x float> vectors,
** varying control flow under execution masks), compiled by ORC LLJIT for
** the widest ISA the CPU has: W = 4 (SSE4.2), 8 (AVX2) or 16 (AVX-512).
**
** Native code exchanges its inputs and outputs with the VM's layout: it
** is compiled against the shader's VM object (the same IR, compiled
** first by backend_vm_object) and reads and writes a VmState's register
** files at the slots of the object's parameters and globals. So every
** host of the VM (grid filling, the renderer's globals, the tests) feeds
** native code unchanged, and a batch may run on either.
**
** The runtime's pure math and noise are linked from its LLVM bitcode and
** inlined, vectorised across the lanes (bitcode.c); other builtins run
** through the VM runtime's bound lane functions (calls.c), once per
** active lane; the session binds them as a VmSession does. Derivatives
** read their operand at each lane's neighbours (the VmState's VmDeriv)
** from a buffer that a second entry, the prelude, fills for the whole
** batch first (prelude.c).
*/
#ifndef BACKENDS_NATIVE_H
#define BACKENDS_NATIVE_H

#include <stdint.h>
#include <stdio.h>

#include "rslc/ctx.h"
#include "rslc/ir.h"
#include "backends/compile.h"
#include "vm/session.h"

typedef enum NativeIsa {
    NATIVE_ISA_AUTO,       /* the widest the CPU runs */
    NATIVE_ISA_SSE42,      /* W = 4 */
    NATIVE_ISA_AVX2,       /* W = 8 */
    NATIVE_ISA_AVX512,     /* W = 16 */
    /* W = 1: one lane, as a GPU thread runs it (ptx.c), on any x86-64.
       Last, so that loops over the SIMD ISAs leave it out. */
    NATIVE_ISA_SCALAR
} NativeIsa;

/* The lanes of an ISA, its name ("sse4.2", "avx2", "avx512"), and the
   widest the CPU runs. */
int native_isa_width(NativeIsa isa);
const char *native_isa_name(NativeIsa isa);
NativeIsa native_isa_best(void);
/* An ISA by name or width ("avx2", "8"); NATIVE_ISA_AUTO for "auto". -1
   if unknown. */
int native_isa_parse(const char *s);

typedef struct NativeShader NativeShader;

/* Native code kept on disk in a folder (codecache.c), by a SHA-256 of
   everything that determines it: the shader's lowered code (with an
   instance's constants), the ISA, the optimisation level, LLVM's version
   and the runtime's bitcode. A later compile of the same loads the
   object file rather than compiling. Compiles look entries up on one
   thread; the deferred compiles (native_finish) may store them from
   several at once. Runs (processes) may share the folder. */
typedef struct NativeCache NativeCache;
/* The cache in folder dir, made if missing (not its parents). NULL with
   the reason in err. */
NativeCache *native_cache_open(const char *dir, char *err, int errlen);
/* The bound on the entries' bytes in the folder: past it, a store
   removes the entries used least recently (codecache.c). 256 MiB is a
   few thousand shaders' code, and far less than a disk holds. */
#define NATIVE_CACHE_LIMIT ((uint64_t)256 << 20)
void native_cache_limit(NativeCache *c, uint64_t bytes);
void native_cache_close(NativeCache *c);

typedef struct NativeOptions {
    int level;             /* LLVM pipeline: 0 = mem2reg only, else O2 */
    NativeIsa isa;
    /* When compilation fails because native code lacks a construct, its
       name ("illuminance", "derivatives") goes here (else ""). */
    char *lacks;
    int lackslen;
    NativeCache *cache;    /* NULL: none */
    /* Return the shader once lowered, its compilation (LLVM's pipeline
       and the JIT, nearly all the time) left to native_finish, which may
       run on another thread: a renderer compiles a frame's shaders at
       once. */
    bool defer;
    /* Keep the optimised LLVM IR as text, for native_print_llvm (else,
       the time of printing it, about 2% of a compile, is saved). */
    bool keep_llvm;
} NativeOptions;

/* Lowers shader (IR made ready by backend_vm_object: defaults prepared,
   calls inlined) against obj's layout and JIT-compiles it. NULL after a
   diagnostic through rc naming the construct and its line: a construct
   native code lacks, a CPU without the ISA asked for, an LLVM failure. */
NativeShader *native_compile(RslcCtx *rc, IrFunc *shader, const VmObject *obj,
                             const NativeOptions *opt);
void native_free(NativeShader *ns);

/* Compiles ns where native_compile deferred it (opt->defer), on the
   calling thread, or waits while another thread compiles it; returns at
   once where it is compiled. Any thread may call it, any number of
   times; the other functions here take ns only after it returned (but
   native_free, native_from_cache, and native_session_open, which calls
   it). Whether ns has
   code; if not, native_error says why. A shader that failed runs no
   batch: native_session_run returns that error. */
bool native_finish(NativeShader *ns);
const char *native_error(const NativeShader *ns);

/* The pipeline for the .sl file at path, as rslvm takes it: its VM
   object into *obj (the layout native code exchanges) and its native
   code at opt->level. NULL after diagnostics through rc (*obj NULL). */
NativeShader *native_compile_file(RslcCtx *rc, const char *path, const NativeOptions *opt,
                                  VmObject **obj);
/* The same with cpp's options (NULL: none), keeping the object when
   only native compilation fails, as a renderer that falls back to the VM
   wants: *obj is NULL after the front end's diagnostics through rc, and
   the result NULL, with *obj kept, after native_compile's through nrc
   (rc again, or a context of the caller's that collects them apart).
   known (NULL: none), a cache, sees the object first: native code it
   returns for it is the result, and nothing is compiled. spec (NULL:
   none) holds an instance's constants, folded in before optimisation
   (rslc/passes.h), so the object and native code are that instance's. */
typedef NativeShader *NativeKnown(const VmObject *obj, void *data);
NativeShader *native_compile_file_cpp(RslcCtx *rc, RslcCtx *nrc, const char *path,
                                      const CppOptions *cpp, const IrSpec *spec,
                                      const NativeOptions *opt,
                                      NativeKnown *known, void *data, VmObject **obj);

/* The ISA it was compiled for, and the milliseconds that lowering,
   optimisation and JIT compilation took (or lowering and loading). */
NativeIsa native_isa(const NativeShader *ns);
double native_compile_ms(const NativeShader *ns);
/* Whether its code was read from the code cache rather than compiled. */
bool native_from_cache(const NativeShader *ns);

/* Writes the LLVM IR (after optimisation) as text, where compiled with
   keep_llvm; otherwise, and for code read from the code cache, a comment
   says why there is none. */
void native_print_llvm(const NativeShader *ns, FILE *out);

/* A shader bound to a VM session's string table and host, as the
   session binds its builtins. */
typedef struct NativeSession {
    NativeShader *ns;
    VmSession *vm;
    VmBuiltin *builtins;
    const struct VmHost *host;
} NativeSession;

/* Returns 0, or -1 with a message in err (a builtin the runtime lacks). */
int native_session_open(NativeSession *nss, NativeShader *ns, VmSession *vm,
                        const struct VmHost *host, char *err, int errlen);
void native_session_close(NativeSession *nss);

/* Runs the batch s (from vm_session_batch on nss->vm, filled as for
   vm_run) in native code. Returns 0, or -1 with a builtin's fault in err. */
int native_session_run(NativeSession *nss, VmState *s, char *err, int errlen);

/* ---- NVIDIA GPUs: PTX through LLVM's NVPTX target (ptx.c) ------------------ */

/* What a shader's kernel gets (ptx.c's header gives the ABI): the VM's
   register files for n points, and what the launch shares. */
typedef struct NativeGpuBatch {
    const float *Uin;          /* the uniform file as the batch began */
    float *U;                  /* the uniform file written */
    float *V;                  /* the varying file, n points per slot */
    int64_t n;
    const int32_t *active;     /* NULL: every point runs */
    int64_t steps;             /* loop iterations each thread may run */
    int32_t overrun;           /* 0, or a back edge's number + 1 where one ran out */
    void *host;                /* the host's own, for its device functions */
} NativeGpuBatch;

/* sm_75 (Turing) is the oldest architecture CUDA 13 compiles for: its PTX
   runs on every GPU that toolkit supports. */
#define NATIVE_GPU_DEFAULT "sm_75"
/* Whether rslc emits PTX for sm ("sm_86"), and those it does, as a list
   for messages. */
bool native_gpu_known(const char *sm);
const char *native_gpu_list(void);
/* The libdevice bitcode PTX maths links: $RSLC_LIBDEVICE, else the one
   configure found. */
const char *native_libdevice_path(void);

/* The PTX of shader (made ready as for native_compile) for gpu (NULL:
   NATIVE_GPU_DEFAULT), at opt->level, in a malloc'd string. NULL after
   a diagnostic through rc: an unknown GPU, libdevice missing, a construct
   native code lacks, an LLVM failure. */
char *native_compile_ptx(RslcCtx *rc, IrFunc *shader, const VmObject *obj,
                         const NativeOptions *opt, const char *gpu);

#endif /* BACKENDS_NATIVE_H */

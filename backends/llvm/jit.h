/*
** jit.h: optimisation and ORC LLJIT for the native back end (jit.c).
*/
#ifndef BACKENDS_NATIVE_JIT_H
#define BACKENDS_NATIVE_JIT_H

#include <llvm-c/Orc.h>
#include <llvm-c/TargetMachine.h>

#include "backends/llvm/native.h"

typedef struct NativeJit NativeJit;

/* Registers LLVM's target for the host. Before the first compile on any
   thread: the registry is LLVM's global state, which the compiles on
   other threads then only read. */
void nj_init(void);
/* The host's target machine for isa (not AUTO), after nj_init; NULL with
   a malloc'd message in *err. */
LLVMTargetMachineRef nj_target_machine(NativeIsa isa, char **err);
/* Keeps LLVM's remarks and warnings about ctx's modules off stderr. */
void nj_quiet(LLVMContextRef ctx);
/* Gives mod tm's triple and data layout (the vectoriser's costs need
   them; the runtime's bitcode links against them). */
void nj_set_target(LLVMModuleRef mod, LLVMTargetMachineRef tm);
/* Runs LLVM's pipeline (mem2reg at level 0, else default<O2>) after
   dropping what nothing calls; NULL, or a malloc'd message. */
char *nj_optimize(LLVMModuleRef mod, LLVMTargetMachineRef tm, int level);
/* Compiles mod (created in tsc's context; taken) and finds entry in *fn.
   NULL with a malloc'd message in *err. */
NativeJit *nj_compile(LLVMOrcThreadSafeContextRef tsc, LLVMModuleRef mod, NativeIsa isa,
                      const char *entry, void **fn, char **err);
/* The same for the object file that nj_object gave (size bytes, copied):
   code compiled before, loaded without compiling. */
NativeJit *nj_load(const void *object, size_t size, NativeIsa isa, const char *entry, void **fn,
                   char **err);
/* The object file nj_compile compiled its module to, owned by nj, and
   its size; NULL from nj_load, or where LLJIT compiled more than one. */
const void *nj_object(const NativeJit *nj, size_t *size);
/* Another function of the compiled module; NULL with a malloc'd message
   in *err. */
void *nj_lookup(NativeJit *nj, const char *name, char **err);
void nj_free(NativeJit *nj);

#endif /* BACKENDS_NATIVE_JIT_H */

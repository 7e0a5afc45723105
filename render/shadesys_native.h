/*
** shadesys_native.h: the native code of a render's shaders (issue 13),
** for shadesys_vm.c, which runs a shader's batches in it where it has
** some and on the VM otherwise. It compiles each shader's source once to
** its VM object and native code, keeps the native code in memory by a
** content hash of the object and the ISA (the same shader found twice is
** JIT-compiled once, and so is the same specialised code), optionally on
** disk too (the code cache: backends/llvm/native.h's NativeCache), and
** says why a shader runs on the VM: a warning,
** once per shader, when native compilation fails or cannot be done; a
** note, asked for, when the shader uses what native code lacks
** (gather, some derivatives: backends/llvm/prelude.c), which the VM
** runs as a matter of course.
*/
#ifndef RT_RENDER_SHADESYS_NATIVE_H
#define RT_RENDER_SHADESYS_NATIVE_H

#include <stdbool.h>

#include "backends/llvm/native.h"
#include "rslc/cpp.h"
#include "vm/object.h"

typedef struct NativeLib NativeLib;

/* Native code for isa (NATIVE_ISA_AUTO: the widest the CPU runs); with
   notes, every shader's backend is told on stderr. threads is the
   render's (0: one per processor): compiles overlap loading on one fewer
   worker threads, and with one, each is done where it is asked for. NULL,
   after one warning, when the CPU runs none of native code's ISAs. */
NativeLib *native_lib_new(NativeIsa isa, bool notes, int threads);
void native_lib_free(NativeLib *lib);

/* The -O2 VM object of the .sl at file (NULL after its diagnostics, which
   are shown only then: the caller compiled the file before), and
   in *ns its native code, owned by lib, or NULL when it runs on the VM
   (after a warning or note saying why). With spec (NULL: none), both are
   specialised for an instance's constants (rslc/passes.h); `what`
   follows the shader's name in the notes (" for the instance at ...").
   code_cache (NULL: none) is the folder of the code cache on disk, the
   same at every call (opened at the first). */
VmObject *native_lib_compile(NativeLib *lib, const char *code_cache, const char *file,
                             const CppOptions *cpp, const IrSpec *spec, const char *what,
                             NativeShader **ns);

/* The native code JIT-compiled so far, and read from the code cache. */
unsigned native_lib_compiled(const NativeLib *lib);
unsigned native_lib_loaded(const NativeLib *lib);

/* An object read from file holds bytecode only: a warning that its
   shader runs on the VM. */
void native_lib_bytecode_only(const char *file);

#endif /* RT_RENDER_SHADESYS_NATIVE_H */

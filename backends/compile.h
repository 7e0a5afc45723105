/*
** compile.h: compiling shader source to a VM object in one call, for the
** rslc driver and for tools that take .sl files directly (rslvm, rsldb,
** rtrender): rslc's target-free stages (rslc/pipeline.h), then for the
** VM inline everything and generate bytecode (backends/vm). Every call
** compiles for the context it is given (rslc/ctx.h), which takes its
** diagnostics; compilations with contexts of their own may run at once.
*/
#ifndef BACKENDS_COMPILE_H
#define BACKENDS_COMPILE_H

#include "rslc/pipeline.h"
#include "vm/object.h"

/* The VM object of the one shader in m (its calls inlined first); NULL
   after diagnostics. path names the source in messages. debug adds the
   debugger's information (rslc -g; at level 0 it also keeps every
   variable's register live to the end). */
VmObject *backend_vm_object(RslcCtx *rc, IrModule *m, int level, const char *path,
                            bool debug);

/* An object whose shader "__call" calls the function `name` taking nargs
   arguments once (rslvm --call): parameters named like the function's,
   with an output "result" for its value (or the function's outputs).
   NULL with an error if there is no such function. */
VmObject *backend_vm_call_object(RslcCtx *rc, IrModule *m, const char *name, int nargs,
                                 int level, const char *path, bool debug);

/* The whole pipeline for the file at path, as rslvm and rtrender take
   .sl files: the object of its one shader, or with call set, of
   backend_vm_call_object(call, nargs); with debug, with rslc -g's debug
   information. NULL after diagnostics (through rc: its counts and
   settings are reset first, its output stream stays). */
VmObject *backend_compile_file(RslcCtx *rc, const char *path, int level, const char *call,
                               int nargs, bool debug);
/* The same with options for cpp (its -I, -D and -U; NULL: none), as
   rtrender compiles a scene's .sl with the scene's include folders. */
VmObject *backend_compile_file_cpp(RslcCtx *rc, const char *path, const CppOptions *cpp,
                                   int level, const char *call, int nargs, bool debug);

#endif /* BACKENDS_COMPILE_H */

/*
** compile.h: compiling shader source in one call, for the rslc driver and
** for tools that take .sl files directly (rslvm, rtrender), so they all
** run the same pipeline: preprocess, parse, check, lower, optimise, and
** for the VM inline everything and generate bytecode.
*/
#ifndef RSLC_COMPILE_H
#define RSLC_COMPILE_H

#include "rslc/ast.h"
#include "rslc/cpp.h"
#include "rslc/ir.h"
#include "rslc/passes.h"
#include "vm/object.h"

/* Preprocesses, parses and checks path; NULL after diagnostics. The tree
   lives until rslc_compile_done. */
Unit *rslc_front_end(const char *path, const CppOptions *cpp);

/* Lowers a checked unit and runs the pipeline of `level`; NULL after
   diagnostics (or a verifier failure). */
IrModule *rslc_middle_end(const Unit *unit, int level, const PassOptions *passes);

/* The VM object of the one shader in m (its calls inlined first); NULL
   after diagnostics. path names the source in messages. debug adds the
   debugger's information (rslc -g; at level 0 it also keeps every
   variable's register live to the end). */
VmObject *rslc_vm_object(IrModule *m, int level, const char *path, bool debug);

/* An object whose shader "__call" calls the function `name` taking nargs
   arguments once (rslvm --call): parameters named like the function's,
   with an output "result" for its value (or the function's outputs).
   NULL with an error if there is no such function. */
VmObject *rslc_vm_call_object(IrModule *m, const char *name, int nargs, int level,
                              const char *path, bool debug);

/* The shaders' computed parameter defaults (defaults.c): folded to
   constants where they can be, computed by a prologue otherwise. */
void rslc_prepare_defaults(IrModule *m);

/* The whole pipeline for the file at path, as rslvm and rtrender take
   .sl files: the object of its one shader, or with call set, of
   rslc_vm_call_object(call, nargs); with debug, with rslc -g's debug
   information. NULL after diagnostics (on stderr). */
VmObject *rslc_compile_file(const char *path, int level, const char *call, int nargs,
                            bool debug);

/* Frees what the front end kept (the tree, symbols, check state). */
void rslc_compile_done(void);

#endif /* RSLC_COMPILE_H */

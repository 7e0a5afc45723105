/*
** pipeline.h: the target-free stages of compiling shader source, one call
** each, so that every tool runs the same pipeline: preprocess, parse and
** check (the front end), then lower and optimise (the middle end). The
** back ends (backends/compile.h) take the IR from here. Each stage works
** for the compile context it is given (ctx.h): its diagnostics, its tree.
*/
#ifndef RSLC_PIPELINE_H
#define RSLC_PIPELINE_H

#include "rslc/ast.h"
#include "rslc/cpp.h"
#include "rslc/ctx.h"
#include "rslc/ir.h"
#include "rslc/passes.h"

/* Preprocesses, parses and checks path; NULL after diagnostics. The tree
   lives in rc until rslc_compile_done. */
Unit *rslc_front_end(RslcCtx *rc, const char *path, const CppOptions *cpp);

/* Lowers a checked unit and runs the pipeline of `level`; NULL after
   diagnostics (or a verifier failure). */
IrModule *rslc_middle_end(RslcCtx *rc, const Unit *unit, int level,
                          const PassOptions *passes);

/* The shaders' computed parameter defaults (defaults.c): folded to
   constants where they can be, computed by a prologue otherwise. */
void rslc_prepare_defaults(IrModule *m);

/* A surface shader "__call" added to m that calls callee once (rslvm
   --call): its parameters are the callee's (outputs stay outputs), plus
   an output "result" for the returned value. */
IrFunc *rslc_call_wrapper(IrModule *m, IrFunc *callee);

/* Frees what the compilation kept in rc (the tree, the symbols, the
   source read for diagnostics), so that rc holds no memory; the
   diagnostics' counts and settings stay. */
void rslc_compile_done(RslcCtx *rc);

#endif /* RSLC_PIPELINE_H */

/*
** parse.h: the loader's entry points inside the library: setting up and
** finishing a load context, and reading one input stream into it (the
** main file, or an archive it reads).
*/
#ifndef RTCORE_RIB_PARSE_H
#define RTCORE_RIB_PARSE_H

#include "render/rib/lex.h"

/* opt may be NULL for the defaults. */
void rib_ctx_init(RibCtx *c, const RibLoadOptions *opt, RibDiag *diag);
/* Checks that every block was closed, frees the context and returns the
   scene, or NULL (scene freed) after a fatal error. */
RibScene *rib_ctx_finish(RibCtx *c);
/* Reads requests from lx until its end or a fatal error. */
void rib_parse_stream(RibCtx *c, RibLexer *lx);

#endif /* RTCORE_RIB_PARSE_H */

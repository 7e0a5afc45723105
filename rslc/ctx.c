/*
** ctx.c: releasing a compile context (ctx.h): each module's part through
** that module's own reset.
*/
#include "rslc/cpp.h"
#include "rslc/diag.h"
#include "rslc/pipeline.h"

void rslc_ctx_free(RslcCtx *rc)
{
    rslc_compile_done(rc);
    cpp_reset(rc);
    diag_reset(rc);
    rc->diag_out = NULL;
}

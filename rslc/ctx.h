/*
** ctx.h: the compile context, everything one compilation keeps between
** calls. rslc and the back ends hold no mutable file-scope or static
** state, so any number of compilations may run at once, each in its own
** thread with its own context: every stage that reports, allocates tree
** nodes or interns names takes the context it works for.
**
** A context is plain data: zero-initialise it (RslcCtx rc = { 0 };), use
** it for one compilation after another, then free it with rslc_ctx_free.
** Its fields belong to the modules named beside them; nothing else
** touches them.
*/
#ifndef RSLC_CTX_H
#define RSLC_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct RslcCtx {
    /* diag.c: counts and settings until diag_reset, where messages go
       (NULL: stderr), and the file last read for source lines. */
    FILE *diag_out;
    int nerrors, nwarnings, error_limit;
    int ninternal;              /* of the errors, the compiler's own bugs */
    bool werror;
    char *cached_path, *cached_text;

    /* cpp.c: the preprocessed lines by origin (cpp_index), which map
       diagnostics' columns back; cpp_reset forgets them. */
    struct PPLine *pp_lines;
    size_t pp_nlines, pp_caplines;

    /* ast.c: the arena of nodes, units and interned strings, and the
       intern table; ast_free_all frees them. */
    struct Chunk *chunks;
    const char **intern;
    size_t intern_cap, intern_count;

    /* sym.c: the symbol pool; sym_free_all frees it. */
    struct PoolBlock *pool;
} RslcCtx;

/* Frees everything rc holds and leaves it as freshly zeroed (diagnostics
   back on stderr). */
void rslc_ctx_free(RslcCtx *rc);

#endif /* RSLC_CTX_H */

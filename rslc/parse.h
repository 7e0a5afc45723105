/*
** parse.h: the RSL parser's entry point (the scanner is lex.l, the
** grammar gram.y).
*/
#ifndef RSLC_PARSE_H
#define RSLC_PARSE_H

#include <stddef.h>

#include "rslc/ast.h"

/* Parses preprocessed RSL text. filename names the text for diagnostics until
   the first "# line" marker. Reports syntax errors through rc's diag and keeps
   going to report several; returns NULL if there were any. The unit lives in
   rc's AST arena (ast_free_all frees it). */
/* How deep expressions and statements may nest. Real shaders stay far
   below; the limit keeps recursive phases within the C stack. */
#define RSL_MAX_NESTING 2000

Unit *parse_rsl(RslcCtx *rc, const char *text, size_t len, const char *filename);

#endif /* RSLC_PARSE_H */

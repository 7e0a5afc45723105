/*
** diag.h: compiler diagnostics.
**
** Every message comes out as "file:line:col: error: text", then the
** original source line and a caret under the column. Errors accumulate so
** one run reports several; later phases run only if there were none.
*/
#ifndef RSLC_DIAG_H
#define RSLC_DIAG_H

#include "rslc/ast.h"
#include "rslc/ctx.h"

typedef enum DiagLevel { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagLevel;

/* Every call but diag_die works on the diagnostics of the compilation rc
   (ctx.h): its counts, settings and output stream. */

/* Reports an error at loc. The format is printf's. */
void diag_error(RslcCtx *rc, SrcLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Reports a warning at loc (an error under -Werror). */
void diag_warning(RslcCtx *rc, SrcLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Reports an error of rslc's own at loc, "internal error: " and the
   text: a check of the compiler's output failed, which no program should
   make happen. Counted as an error and apart (diag_internal_count), so
   that a tool or a fuzzer can tell a compiler bug from a bad program
   without reading the text. */
void diag_internal(RslcCtx *rc, SrcLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Adds a note to the previous diagnostic (e.g. "declared here"). */
void diag_note(RslcCtx *rc, SrcLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Number of errors reported since the last diag_reset. */
int diag_error_count(const RslcCtx *rc);
/* Number of internal errors reported since the last diag_reset. */
int diag_internal_count(const RslcCtx *rc);
/* Number of warnings reported since the last diag_reset. */
int diag_warning_count(const RslcCtx *rc);
/* Forgets the counts and settings (the output stream stays); used
   between compilations. */
void diag_reset(RslcCtx *rc);
/* Drops the source file read for carets (read again when needed), so
   that between compilations rc holds no memory. */
void diag_forget_source(RslcCtx *rc);
/* Treats warnings as errors. */
void diag_set_werror(RslcCtx *rc, bool on);
/* Sends diagnostics to out instead of stderr (NULL restores stderr). */
void diag_set_output(RslcCtx *rc, FILE *out);
/* Stops reporting (but keeps counting) after max errors; 0 = no limit. */
void diag_set_error_limit(RslcCtx *rc, int max);

/* Aborts with "rslc: internal error: ..." for a broken invariant: a bug in
   rslc, never a user's mistake. */
void diag_die(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

#endif /* RSLC_DIAG_H */

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

typedef enum DiagLevel { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagLevel;

/* Reports an error at loc. The format is printf's. */
void diag_error(SrcLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Reports a warning at loc (an error under -Werror). */
void diag_warning(SrcLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Adds a note to the previous diagnostic (e.g. "declared here"). */
void diag_note(SrcLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Number of errors reported since the last diag_reset. */
int diag_error_count(void);
/* Number of warnings reported since the last diag_reset. */
int diag_warning_count(void);
/* Forgets the counts and settings; used between compilations. */
void diag_reset(void);
/* Treats warnings as errors. */
void diag_set_werror(bool on);
/* Sends diagnostics to out instead of stderr (NULL restores stderr). */
void diag_set_output(FILE *out);
/* Stops reporting (but keeps counting) after max errors; 0 = no limit. */
void diag_set_error_limit(int max);

/* Aborts with "rslc: internal error: ..." for a broken invariant: a bug in
   rslc, never a user's mistake. */
void diag_die(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

#endif /* RSLC_DIAG_H */

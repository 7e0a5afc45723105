/*
** diag.c: RIB diagnostics. Each message is "file:line:col: error: text"
** (or warning), kept in the RibDiag for callers and tests and optionally
** printed as it comes. Too many errors make loading give up.
*/
#include <stdlib.h>
#include <string.h>

#include "render/rib/internal.h"

#define DEFAULT_MAX_ERRORS 100

void rib_diag_init(RibDiag *diag, FILE *out)
{
    memset(diag, 0, sizeof *diag);
    diag->out = out;
    diag->max_errors = DEFAULT_MAX_ERRORS;
}

void rib_diag_free(RibDiag *diag)
{
    for (size_t i = 0; i < diag->nmessages; i++)
        free(diag->messages[i]);
    free(diag->messages);
    diag->messages = NULL;
    diag->nmessages = diag->cap = 0;
}

const char *rib_diag_find(const RibDiag *diag, const char *text)
{
    for (size_t i = 0; i < diag->nmessages; i++)
        if (strstr(diag->messages[i], text))
            return diag->messages[i];
    return NULL;
}

void rib_report(RibDiag *d, RibLoc loc, bool error, const char *fmt,
                va_list ap)
{
    char text[1024], where[512];
    vsnprintf(text, sizeof text, fmt, ap);
    const char *file = loc.file ? loc.file : "rib";
    if (loc.line > 0)
        snprintf(where, sizeof where, "%s:%d:%d", file, loc.line, loc.col);
    else
        snprintf(where, sizeof where, "%s", file);
    size_t n = strlen(where) + strlen(text) + 16;
    char *msg = rib_xmalloc(n);
    snprintf(msg, n, "%s: %s: %s", where, error ? "error" : "warning", text);
    if (error)
        d->nerrors++;
    else
        d->nwarnings++;
    if (d->out)
        fprintf(d->out, "%s\n", msg);
    *RIB_PUSH(d->messages, d->nmessages, d->cap) = msg;
}

void rib_error(RibCtx *c, RibLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rib_report(c->diag, loc, true, fmt, ap);
    va_end(ap);
    int max = c->diag->max_errors > 0 ? c->diag->max_errors
                                      : DEFAULT_MAX_ERRORS;
    if (c->diag->nerrors >= max && !c->fatal)
        rib_fatal(c, loc, "too many errors, giving up");
}

void rib_warning(RibCtx *c, RibLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rib_report(c->diag, loc, false, fmt, ap);
    va_end(ap);
}

void rib_unsupported(RibCtx *c, RibLoc loc, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (c->opt.strict)
        rib_error(c, loc, "%s", text);
    else
        rib_warning(c, loc, "%s", text);
}

void rib_fatal(RibCtx *c, RibLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rib_report(c->diag, loc, true, fmt, ap);
    va_end(ap);
    c->fatal = true;
}

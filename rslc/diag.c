/*
** diag.c: prints diagnostics with the source line and a caret.
**
** Locations come from the lexer after preprocessing: the file and line are
** the original ones (through cpp's line markers), the column is mapped back
** by cpp_original_column. The source line is read from the original file,
** which is cached so that many diagnostics in one file read it once.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rslc/cpp.h"
#include "rslc/diag.h"

static FILE *out(const RslcCtx *rc)
{
    return rc->diag_out ? rc->diag_out : stderr;
}

static const char *source_text(RslcCtx *rc, const char *path)
{
    if (rc->cached_path && strcmp(rc->cached_path, path) == 0)
        return rc->cached_text;
    free(rc->cached_path);
    free(rc->cached_text);
    rc->cached_path = strdup(path);
    rc->cached_text = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n < 2) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger)
                free(buf);
            buf = bigger;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    rc->cached_text = buf;
    return buf;
}

/* Returns the start of line number `line` (from 1) in text, or NULL. */
static const char *find_source_line(const char *text, int line)
{
    for (int l = 1; text && l < line; l++) {
        text = strchr(text, '\n');
        if (text)
            text++;
    }
    return text && *text ? text : NULL;
}

static void print_caret(FILE *f, const char *src, int col)
{
    size_t len = strcspn(src, "\r\n");
    fprintf(f, "%.*s\n", (int)len, src);
    /* Tabs are copied so the caret lines up however tabs are displayed. */
    for (int i = 0; i < col - 1 && (size_t)i < len; i++)
        fputc(src[i] == '\t' ? '\t' : ' ', f);
    fputs("^\n", f);
}

static void report(RslcCtx *rc, DiagLevel level, SrcLoc loc, const char *fmt, va_list ap)
{
    static const char names[][8] = { "error", "warning", "note" };
    if (level == DIAG_WARNING && rc->werror)
        level = DIAG_ERROR;
    if (level == DIAG_ERROR)
        rc->nerrors++;
    else if (level == DIAG_WARNING)
        rc->nwarnings++;
    if (rc->error_limit > 0 && rc->nerrors > rc->error_limit)
        return;

    FILE *f = out(rc);
    const char *src = NULL;
    int col = loc.col;
    if (loc.file && loc.line > 0) {
        src = find_source_line(source_text(rc, loc.file), loc.line);
        if (src)
            col = cpp_original_column(rc, loc.file, loc.line, loc.col, src);
    }
    /* "#line 0" makes the next line number 0: a place in the source still
       (with a column), unlike a message about the command line. */
    if (loc.file && loc.line >= 0 && col > 0)
        fprintf(f, "%s:%d:%d: %s: ", loc.file, loc.line, col, names[level]);
    else if (loc.file && loc.line > 0)
        fprintf(f, "%s:%d: %s: ", loc.file, loc.line, names[level]);
    else
        fprintf(f, "%s: %s: ", loc.file ? loc.file : "rslc", names[level]);
    vfprintf(f, fmt, ap);
    fputc('\n', f);
    if (src && col > 0)
        print_caret(f, src, col);

    if (rc->error_limit > 0 && rc->nerrors == rc->error_limit && level == DIAG_ERROR)
        fprintf(f, "rslc: too many errors; stopping after %d\n", rc->error_limit);
}

void diag_error(RslcCtx *rc, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(rc, DIAG_ERROR, loc, fmt, ap);
    va_end(ap);
}

void diag_internal(RslcCtx *rc, SrcLoc loc, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    rc->ninternal++;
    diag_error(rc, loc, "internal error: %s", text);
}

void diag_warning(RslcCtx *rc, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(rc, DIAG_WARNING, loc, fmt, ap);
    va_end(ap);
}

void diag_note(RslcCtx *rc, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(rc, DIAG_NOTE, loc, fmt, ap);
    va_end(ap);
}

int diag_error_count(const RslcCtx *rc) { return rc->nerrors; }
int diag_internal_count(const RslcCtx *rc) { return rc->ninternal; }
int diag_warning_count(const RslcCtx *rc) { return rc->nwarnings; }
void diag_set_werror(RslcCtx *rc, bool on) { rc->werror = on; }
void diag_set_output(RslcCtx *rc, FILE *f) { rc->diag_out = f; }
void diag_set_error_limit(RslcCtx *rc, int max) { rc->error_limit = max; }

void diag_forget_source(RslcCtx *rc)
{
    free(rc->cached_path);
    free(rc->cached_text);
    rc->cached_path = rc->cached_text = NULL;
}

void diag_reset(RslcCtx *rc)
{
    rc->nerrors = rc->nwarnings = rc->error_limit = rc->ninternal = 0;
    rc->werror = false;
    diag_forget_source(rc);
}

void diag_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("rslc: internal error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

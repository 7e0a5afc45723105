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

static FILE *diag_out;
static int nerrors, nwarnings, error_limit;
static bool werror;

/* The last file read for source lines. */
static char *cached_path, *cached_text;

static FILE *out(void)
{
    return diag_out ? diag_out : stderr;
}

static const char *source_text(const char *path)
{
    if (cached_path && strcmp(cached_path, path) == 0)
        return cached_text;
    free(cached_path);
    free(cached_text);
    cached_path = strdup(path);
    cached_text = NULL;
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
    cached_text = buf;
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

static void report(DiagLevel level, SrcLoc loc, const char *fmt, va_list ap)
{
    static const char *names[] = { "error", "warning", "note" };
    if (level == DIAG_WARNING && werror)
        level = DIAG_ERROR;
    if (level == DIAG_ERROR)
        nerrors++;
    else if (level == DIAG_WARNING)
        nwarnings++;
    if (error_limit > 0 && nerrors > error_limit)
        return;

    FILE *f = out();
    const char *src = NULL;
    int col = loc.col;
    if (loc.file && loc.line > 0) {
        src = find_source_line(source_text(loc.file), loc.line);
        if (src)
            col = cpp_original_column(loc.file, loc.line, loc.col, src);
    }
    if (loc.file && loc.line > 0 && col > 0)
        fprintf(f, "%s:%d:%d: %s: ", loc.file, loc.line, col, names[level]);
    else if (loc.file && loc.line > 0)
        fprintf(f, "%s:%d: %s: ", loc.file, loc.line, names[level]);
    else
        fprintf(f, "%s: %s: ", loc.file ? loc.file : "rslc", names[level]);
    vfprintf(f, fmt, ap);
    fputc('\n', f);
    if (src && col > 0)
        print_caret(f, src, col);

    if (error_limit > 0 && nerrors == error_limit && level == DIAG_ERROR)
        fprintf(f, "rslc: too many errors; stopping after %d\n", error_limit);
}

void diag_error(SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(DIAG_ERROR, loc, fmt, ap);
    va_end(ap);
}

void diag_warning(SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(DIAG_WARNING, loc, fmt, ap);
    va_end(ap);
}

void diag_note(SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(DIAG_NOTE, loc, fmt, ap);
    va_end(ap);
}

int diag_error_count(void) { return nerrors; }
int diag_warning_count(void) { return nwarnings; }
void diag_set_werror(bool on) { werror = on; }
void diag_set_output(FILE *f) { diag_out = f; }
void diag_set_error_limit(int max) { error_limit = max; }

void diag_reset(void)
{
    nerrors = nwarnings = error_limit = 0;
    werror = false;
    free(cached_path);
    free(cached_text);
    cached_path = cached_text = NULL;
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

/*
** strfmt.c: format/printf and match. Conversions are parsed here and each
** component is printed by C's snprintf with the same flags, so "%6.2p"
** means what a C programmer guesses: every component 6 wide with 2
** decimals.
**
** Widths and precisions are bounded (RSL_FORMAT_MAX_FIELD) and so is the
** result (VM_STRING_MAX, the string table's own limit): "%999999999f"
** would otherwise ask snprintf for a gigabyte per shading point.
*/
#include <regex.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/strfmt.h"
#include "runtime/strings.h"

/* Appends to a growing buffer; the first failure sticks. */
typedef enum Failure { FMT_OK, FMT_MEMORY, FMT_TOO_LONG } Failure;
typedef struct Buf {
    char *p;
    size_t n, cap;
    Failure failed;
} Buf;

static void put(Buf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (n > VM_STRING_MAX - b->n) {
        b->failed = FMT_TOO_LONG;
        return;
    }
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = FMT_MEMORY;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

/* f as %d prints it: truncated toward zero, the nearest long long past
   either end of its range (a float's infinity, 1e30), and NaN as 0 (a
   C cast of any of those is undefined; found by fuzz-object). */
static long long integer_of(double f)
{
    return f != f ? 0 : f >= 0x1p63 ? LLONG_MAX : f < -0x1p63 ? LLONG_MIN : (long long)f;
}

/* Prints one C conversion ("%-6.2" + conv) of a float or a string. */
static void put_one(Buf *b, const char *flags, size_t nflags, char conv, double f, const char *s)
{
    char spec[64];
    if (nflags > sizeof spec - 5)
        nflags = sizeof spec - 5;
    memcpy(spec, flags, nflags);
    /* %d takes the long long integer_of gives it: "%lld" */
    snprintf(spec + nflags, sizeof spec - nflags, "%s%c", conv == 'd' ? "ll" : "", conv);
    int n = conv == 's' ? snprintf(NULL, 0, spec, s)
          : conv == 'd' ? snprintf(NULL, 0, spec, integer_of(f)) : snprintf(NULL, 0, spec, f);
    if (n < 0)
        return;
    char *tmp = malloc((size_t)n + 1);
    if (!tmp) {
        b->failed = FMT_MEMORY;
        return;
    }
    if (conv == 's')
        snprintf(tmp, (size_t)n + 1, spec, s);
    else if (conv == 'd')
        snprintf(tmp, (size_t)n + 1, spec, integer_of(f));
    else
        snprintf(tmp, (size_t)n + 1, spec, f);
    put(b, tmp, (size_t)n);
    free(tmp);
}

/* Prints an argument under a conversion letter; the components of a
   triple or matrix are separated by spaces. */
static void put_val(Buf *b, const char *flags, size_t nflags, char letter, const RslVal *v)
{
    if (v->kind == RSL_VAL_STRING) {
        put_one(b, flags, nflags, 's', 0, v->s ? v->s : "");
        return;
    }
    char conv = letter == 'd' || letter == 'i' ? 'd'
              : letter == 'g' || letter == 'e' ? letter : 'f';
    int n = v->kind == RSL_VAL_FLOAT ? 1 : v->kind == RSL_VAL_TRIPLE ? 3 : 16;
    for (int i = 0; i < n; i++) {
        if (i)
            put(b, " ", 1);
        put_one(b, flags, nflags, conv, v->f[i], NULL);
    }
}

/* The number the digits at *p spell (advancing past them), saturating
   above RSL_FORMAT_MAX_FIELD so that any larger one reads as too large. */
static long field(const char *p, size_t *len)
{
    long v = 0;
    for (; p[*len] >= '0' && p[*len] <= '9'; ++*len)
        if (v <= RSL_FORMAT_MAX_FIELD)
            v = v * 10 + (p[*len] - '0');
    return v;
}

char *rsl_format(const char *pattern, const RslVal *args, int nargs, int *unfilled, char *err,
                 int errlen)
{
    Buf b = { 0 };
    int next = 0;
    *unfilled = 0;
    put(&b, "", 0);
    for (const char *p = pattern; *p;) {
        if (*p != '%') {
            const char *q = strchr(p, '%');
            size_t n = q ? (size_t)(q - p) : strlen(p);
            put(&b, p, n);
            p += n;
            continue;
        }
        if (p[1] == '%') {
            put(&b, "%", 1);
            p += 2;
            continue;
        }
        /* %[flags][width][.precision]letter */
        size_t len = 1 + strspn(p + 1, "-+ #0");
        long width = field(p, &len), precision = 0;
        if (p[len] == '.') {
            len++;
            precision = field(p, &len);
        }
        if (width > RSL_FORMAT_MAX_FIELD || precision > RSL_FORMAT_MAX_FIELD) {
            snprintf(err, (size_t)errlen, "format \"%.*s\": %s over the limit of %d", (int)len + 1,
                     p, width > RSL_FORMAT_MAX_FIELD ? "width" : "precision",
                     RSL_FORMAT_MAX_FIELD);
            free(b.p);
            return NULL;
        }
        char letter = p[len];
        if (!letter || !strchr("fpcmsdige", letter) || next >= nargs) {
            /* Not a conversion we know, or nothing left to print: copy it. */
            size_t n = letter ? len + 1 : len;
            if (letter && strchr("fpcmsdige", letter))
                ++*unfilled;
            put(&b, p, n);
            p += n;
            continue;
        }
        put_val(&b, p, len, letter, &args[next++]);
        p += len + 1;
    }
    if (b.failed) {
        if (b.failed == FMT_TOO_LONG)
            snprintf(err, (size_t)errlen, "the result would be longer than %u bytes",
                     VM_STRING_MAX);
        else
            snprintf(err, (size_t)errlen, "out of memory");
        free(b.p);
        return NULL;
    }
    return b.p;
}

int rsl_match(const char *pattern, const char *subject)
{
    regex_t re;
    int rc = regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB);
    if (rc != 0)
        return rc == REG_ESPACE ? -2 : -1;
    rc = regexec(&re, subject, 0, NULL, 0);
    regfree(&re);
    return rc == 0 ? 1 : rc == REG_NOMATCH ? 0 : -2;
}

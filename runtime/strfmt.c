/*
** strfmt.c: format/printf and match. Conversions are parsed here and each
** component is printed by C's snprintf with the same flags, so "%6.2p"
** means what a C programmer guesses: every component 6 wide with 2
** decimals.
*/
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/strfmt.h"

/* Appends to a growing buffer; sticky failure on out-of-memory. */
typedef struct Buf {
    char *p;
    size_t n, cap;
    bool failed;
} Buf;

static void put(Buf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

/* Prints one C conversion ("%-6.2" + conv) of a float or a string. */
static void put_one(Buf *b, const char *flags, size_t nflags, char conv, double f, const char *s)
{
    char spec[64];
    if (nflags > sizeof spec - 3)
        nflags = sizeof spec - 3;
    memcpy(spec, flags, nflags);
    spec[nflags] = conv;
    spec[nflags + 1] = '\0';
    int n = conv == 's' ? snprintf(NULL, 0, spec, s)
          : conv == 'd' ? snprintf(NULL, 0, spec, (long long)f) : snprintf(NULL, 0, spec, f);
    if (n < 0)
        return;
    char *tmp = malloc((size_t)n + 1);
    if (!tmp) {
        b->failed = true;
        return;
    }
    if (conv == 's')
        snprintf(tmp, (size_t)n + 1, spec, s);
    else if (conv == 'd')
        snprintf(tmp, (size_t)n + 1, spec, (long long)f);
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

char *rsl_format(const char *pattern, const RslVal *args, int nargs)
{
    Buf b = { 0 };
    int next = 0;
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
        len += strspn(p + len, "0123456789");
        if (p[len] == '.')
            len += 1 + strspn(p + len + 1, "0123456789");
        char letter = p[len];
        if (!letter || !strchr("fpcmsdige", letter) || next >= nargs) {
            /* Not a conversion we know, or nothing left to print: copy it. */
            size_t n = letter ? len + 1 : len;
            put(&b, p, n);
            p += n;
            continue;
        }
        put_val(&b, p, len, letter, &args[next++]);
        p += len + 1;
    }
    if (b.failed) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

int rsl_match(const char *pattern, const char *subject)
{
    regex_t re;
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
        return -1;
    int r = regexec(&re, subject, 0, NULL, 0) == 0;
    regfree(&re);
    return r;
}

/*
** numparse.c: strict command-line numbers (numparse.h).
*/
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "runtime/numparse.h"

/* An integer at *p, which moves past it; strtoll's own leniency (leading
   blanks, a '+') refused. */
static bool one_int(const char **p, long long min, long long max, long long *out)
{
    const char *s = *p;
    if (!(isdigit((unsigned char)s[0]) || (s[0] == '-' && isdigit((unsigned char)s[1]))))
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno == ERANGE || v < min || v > max)
        return false;
    *out = v;
    *p = end;
    return true;
}

bool num_parse_int(const char *text, long long min, long long max, long long *out)
{
    return num_parse_ints(text, '\0', 1, min, max, out);
}

bool num_parse_ints(const char *text, char sep, int n, long long min, long long max,
                    long long *out)
{
    const char *p = text;
    for (int i = 0; i < n; i++) {
        if (i > 0 && *p++ != sep)
            return false;
        if (!one_int(&p, min, max, &out[i]))
            return false;
    }
    return *p == '\0';
}

bool num_parse_floats(const char *text, char sep, int n, float *out)
{
    const char *p = text;
    for (int i = 0; i < n; i++) {
        if (i > 0 && *p++ != sep)
            return false;
        if (!*p || isspace((unsigned char)*p))
            return false;
        char *end;
        out[i] = strtof(p, &end);
        if (end == p || !isfinite(out[i]))
            return false;
        p = end;
    }
    return *p == '\0';
}

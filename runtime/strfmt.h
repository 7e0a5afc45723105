/*
** strfmt.h: RSL's string builtins that need more than concatenation
** (RISpec 3.2 section 15.5): format/printf and match.
**
** format's pattern takes "%f" (float), "%p" (point, vector, normal),
** "%c" (color), "%m" (matrix) and "%s" (string), each with C's flags,
** width and precision ("%5.2f", "%-8s"), plus "%%". A triple prints its
** three components and a matrix its sixteen, each with the conversion's
** width and precision, separated by single spaces. "%d"/"%i" print a
** float truncated toward zero and "%g"/"%e" use C's forms, as shader
** writers coming from C expect.
*/
#ifndef RSL_STRFMT_H
#define RSL_STRFMT_H

#include <stdbool.h>

typedef enum RslValKind { RSL_VAL_FLOAT, RSL_VAL_TRIPLE, RSL_VAL_MATRIX, RSL_VAL_STRING } RslValKind;

/* One argument of format/printf: f holds 1, 3 or 16 floats. */
typedef struct RslVal {
    RslValKind kind;
    const float *f;
    const char *s;
} RslVal;

/* The largest width or precision a conversion may ask for. */
#define RSL_FORMAT_MAX_FIELD 4096

/* The formatted string (malloc'd), or NULL with a message in err when a
   width or precision passes RSL_FORMAT_MAX_FIELD, the result would pass
   VM_STRING_MAX bytes (strings.h) or memory runs out. A conversion with
   no argument left is copied as written, and counted in *unfilled (the
   VM warns of them); an argument whose kind does not fit its conversion
   prints in its own kind's form with the conversion's flags, width and
   precision. */
char *rsl_format(const char *pattern, const RslVal *args, int nargs, int *unfilled, char *err,
                 int errlen);

/* 1 if the POSIX extended regular expression pattern matches anywhere in
   subject, 0 if not, -1 if pattern is not a valid expression, -2 if the
   regex library runs out of memory. */
int rsl_match(const char *pattern, const char *subject);

#endif /* RSL_STRFMT_H */

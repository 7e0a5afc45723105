/*
** numparse.h: numbers from the command line, read strictly: the whole
** text is the number (no trailing letters, no blanks), and an integer
** must lie in the range the option gives, so that "4294967297" is an
** error and not 1 after wrapping around. The one number reader of the
** tools (rslc, rslvm, rsldb, rtrender, ribinfo).
*/
#ifndef RSL_NUMPARSE_H
#define RSL_NUMPARSE_H

#include <stdbool.h>

/* text as a decimal integer in [min, max]. */
bool num_parse_int(const char *text, long long min, long long max, long long *out);

/* n integers separated by sep ("64x48" with 'x', "3,4" with ','), each in
   [min, max]. */
bool num_parse_ints(const char *text, char sep, int n, long long min, long long max,
                    long long *out);

/* n finite floats separated by sep. */
bool num_parse_floats(const char *text, char sep, int n, float *out);

#endif /* RSL_NUMPARSE_H */

/*
** strlanes.c: the string builtins as the VM calls them. A string value
** is an index into the run's string table (strings.h); concat and format
** intern what they make, so equal strings compare equal whatever made
** them. A string that cannot be made (longer than VM_STRING_MAX, the
** table past VM_STRINGS_MAX_BYTES, memory gone, a bad format) stops the
** run with a fault rather than yielding a wrong string.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/lanes.h"
#include "runtime/strfmt.h"
#include "runtime/strings.h"

const char *vm_lane_string(const VmCall *call, int arg)
{
    return vm_strings_get(call->self->strings, vm_string_index(call->args[arg][0]));
}

const VmStringOptions *vm_lane_options(const VmCall *call, int arg)
{
    return vm_strings_options(call->self->strings, vm_string_index(call->args[arg][0]));
}

void vm_lane_put_string(float *out, const VmCall *call, const char *s)
{
    VmStrings *t = call->self->strings;
    uint32_t i = vm_strings_intern(t, s);
    size_t n = strlen(s);
    if (i != UINT32_MAX)
        out[0] = vm_string_value(i);
    else if (n > VM_STRING_MAX)
        vm_lane_fault(call, "made a string longer than %u bytes", VM_STRING_MAX);
    else if (vm_strings_bytes(t) + n > VM_STRINGS_MAX_BYTES)
        vm_lane_fault(call, "the run's strings would take more than %u bytes", VM_STRINGS_MAX_BYTES);
    else
        vm_lane_fault(call, "out of memory");
}

void vm_lane_concat(float *out, const VmCall *call)
{
    size_t n = 0, at = 0;
    for (int i = 0; i < call->nargs; i++)
        n += strlen(vm_lane_string(call, i));
    if (n > VM_STRING_MAX) { /* the table would refuse it: do not even copy */
        vm_lane_fault(call, "made a string longer than %u bytes", VM_STRING_MAX);
        return;
    }
    char *s = malloc(n + 1);
    if (!s) {
        vm_lane_fault(call, "out of memory");
        return;
    }
    for (int i = 0; i < call->nargs; i++) {
        const char *a = vm_lane_string(call, i);
        size_t len = strlen(a);
        memcpy(s + at, a, len);
        at += len;
    }
    s[at] = '\0';
    vm_lane_put_string(out, call, s);
    free(s);
}

/* How much of a pattern a warning quotes: its first line, up to 60 bytes. */
static int line_end(const char *s)
{
    int n = 0;
    while (s[n] && s[n] != '\n' && n < 60)
        n++;
    return n;
}

/* The formatted string of a format or printf call (malloc'd), or NULL
   after a fault. */
static char *format(const VmCall *call)
{
    RslVal vals[VM_MAX_ARGS];
    int n = call->nargs - 1;
    for (int i = 0; i < n; i++) {
        char letter = call->self->letters[i + 1];
        int w = call->argn[i + 1];
        vals[i] = (RslVal){ letter == 's' ? RSL_VAL_STRING
                            : w == 16    ? RSL_VAL_MATRIX
                            : w == 3     ? RSL_VAL_TRIPLE
                                         : RSL_VAL_FLOAT,
                            call->args[i + 1], NULL };
        if (letter == 's')
            vals[i].s = vm_lane_string(call, i + 1);
    }
    char err[200];
    int unfilled;
    const char *pattern = vm_lane_string(call, 0);
    char *s = rsl_format(pattern, vals, n, &unfilled, err, sizeof err);
    if (!s)
        vm_lane_fault(call, "%s", err);
    else if (unfilled)
        vm_lane_warn(call, "%d conversion%s in \"%.*s%s\" without an argument, printed as "
                     "written", unfilled, unfilled == 1 ? "" : "s", line_end(pattern), pattern,
                     pattern[line_end(pattern)] ? "..." : "");
    return s;
}

void vm_lane_format(float *out, const VmCall *call)
{
    char *s = format(call);
    if (s)
        vm_lane_put_string(out, call, s);
    free(s);
}

void vm_lane_printf(float *out, const VmCall *call)
{
    (void)out;
    char *s = format(call);
    if (s)
        fputs(s, stdout);
    free(s);
}

/* A malformed pattern matches nothing; running out of memory faults. */
void vm_lane_match(float *out, const VmCall *call)
{
    int r = rsl_match(vm_lane_string(call, 0), vm_lane_string(call, 1));
    if (r == -2)
        vm_lane_fault(call, "out of memory");
    out[0] = r == 1;
}

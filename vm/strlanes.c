/*
** strlanes.c: the string builtins as the VM calls them. A string value
** is an index into the run's string table (strings.h); concat and format
** intern what they make, so equal strings compare equal whatever made
** them.
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

/* Stores s (malloc'd, or NULL when out of memory) as the string result. */
static void put_string(float *out, const VmCall *call, char *s)
{
    uint32_t i = s ? vm_strings_intern(call->self->strings, s) : UINT32_MAX;
    free(s);
    out[0] = vm_string_value(i == UINT32_MAX ? vm_strings_intern(call->self->strings, "") : i);
}

void vm_lane_concat(float *out, const VmCall *call)
{
    size_t n = 1;
    for (int i = 0; i < call->nargs; i++)
        n += strlen(vm_lane_string(call, i));
    char *s = malloc(n);
    if (s) {
        s[0] = '\0';
        for (int i = 0; i < call->nargs; i++)
            strcat(s, vm_lane_string(call, i));
    }
    put_string(out, call, s);
}

/* The formatted string of a format or printf call (malloc'd). */
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
    return rsl_format(vm_lane_string(call, 0), vals, n);
}

void vm_lane_format(float *out, const VmCall *call)
{
    put_string(out, call, format(call));
}

void vm_lane_printf(float *out, const VmCall *call)
{
    (void)out;
    char *s = format(call);
    if (s)
        fputs(s, stdout);
    free(s);
}

/* A malformed pattern matches nothing. */
void vm_lane_match(float *out, const VmCall *call)
{
    out[0] = rsl_match(vm_lane_string(call, 0), vm_lane_string(call, 1)) == 1;
}

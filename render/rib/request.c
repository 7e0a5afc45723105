/*
** request.c: helpers that take a request's positional arguments apart,
** accepting both RIB spellings of fixed-size arguments ("Color 1 0 0" and
** "Color [1 0 0]") and reporting mismatches at the argument's location.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/rib/request.h"

/* Where to blame a missing argument: the last argument, or the request. */
static RibLoc loc_at(const RibRequest *r, size_t pos)
{
    if (pos < r->nargs)
        return r->args[pos].loc;
    return r->loc;
}

static bool is_number(const RibArg *a)
{
    return a->kind == RIB_ARG_NUMBER || a->kind == RIB_ARG_NUMBERS;
}

bool rib_arg_numbers(RibCtx *c, const RibRequest *r, size_t *pos, size_t n,
                     double *out, const char *what)
{
    size_t p = *pos;
    if (p < r->nargs && r->args[p].kind == RIB_ARG_NUMBERS) {
        if (r->args[p].n != n) {
            rib_error(c, r->args[p].loc,
                      "%s: expected %zu numbers for %s, got an array of %zu",
                      r->name, n, what, r->args[p].n);
            return false;
        }
        memcpy(out, r->args[p].nums, n * sizeof *out);
        *pos = p + 1;
        return true;
    }
    for (size_t i = 0; i < n; i++, p++) {
        if (p >= r->nargs || r->args[p].kind != RIB_ARG_NUMBER) {
            rib_error(c, loc_at(r, p), "%s: expected %zu numbers for %s",
                      r->name, n, what);
            return false;
        }
        out[i] = r->args[p].nums[0];
    }
    *pos = p;
    return true;
}

bool rib_int_at(RibCtx *c, const RibRequest *r, const RibArg *a, size_t i,
                long min, long max, long *out, const char *what)
{
    double v = a->nums[i];
    if (!(v >= (double)min && v <= (double)max) || v != floor(v)) {
        char index[32] = "";
        if (a->kind == RIB_ARG_NUMBERS)
            snprintf(index, sizeof index, "[%zu]", i);
        rib_error(c, a->loc, "%s: expected an integer in [%ld, %ld] for "
                  "%s%s, got %g", r->name, min, max, what, index, v);
        return false;
    }
    *out = (long)v;
    return true;
}

bool rib_arg_int(RibCtx *c, const RibRequest *r, size_t *pos, long min,
                 long max, long *out, const char *what)
{
    size_t p = *pos;
    if (p >= r->nargs || !is_number(&r->args[p]) || r->args[p].n != 1) {
        rib_error(c, loc_at(r, p), "%s: expected an integer for %s", r->name,
                  what);
        return false;
    }
    if (!rib_int_at(c, r, &r->args[p], 0, min, max, out, what))
        return false;
    *pos = p + 1;
    return true;
}

const char *rib_arg_string(RibCtx *c, const RibRequest *r, size_t *pos,
                           const char *what)
{
    size_t p = *pos;
    if (p >= r->nargs ||
        (r->args[p].kind != RIB_ARG_STRING &&
         !(r->args[p].kind == RIB_ARG_STRINGS && r->args[p].n == 1))) {
        rib_error(c, loc_at(r, p), "%s: expected a string for %s", r->name,
                  what);
        return NULL;
    }
    *pos = p + 1;
    return r->args[p].strs[0];
}

const RibArg *rib_arg_number_array(RibCtx *c, const RibRequest *r,
                                   size_t *pos, const char *what)
{
    size_t p = *pos;
    if (p >= r->nargs || !is_number(&r->args[p])) {
        rib_error(c, loc_at(r, p), "%s: expected an array of numbers for %s",
                  r->name, what);
        return NULL;
    }
    *pos = p + 1;
    return &r->args[p];
}

const char *rib_arg_handle(RibCtx *c, const RibRequest *r, size_t *pos,
                           const char *what)
{
    size_t p = *pos;
    if (p < r->nargs && r->args[p].n == 1 && is_number(&r->args[p])) {
        long v;
        char key[32];
        if (!rib_int_at(c, r, &r->args[p], 0, -2147483647L, 2147483647L, &v,
                        what))
            return NULL;
        snprintf(key, sizeof key, "%ld", v);
        *pos = p + 1;
        return rib_intern(c->store, key);
    }
    const char *s = rib_arg_string(c, r, pos, what);
    if (!s)
        return NULL;
    /* A quote in front keeps the string "1" apart from the number 1. */
    size_t n = strlen(s);
    char *key = rib_xmalloc(n + 2);
    key[0] = '"';
    memcpy(key + 1, s, n + 1);
    const char *k = rib_intern(c->store, key);
    free(key);
    return k;
}

const char *rib_handle_text(const char *key)
{
    return key[0] == '"' ? key + 1 : key;
}

bool rib_args_end(RibCtx *c, const RibRequest *r, size_t pos)
{
    if (pos < r->nargs) {
        rib_error(c, r->args[pos].loc, "%s: too many arguments", r->name);
        return false;
    }
    return true;
}

/*
** limits.h: the bounds rslc puts on its input, in one place. Each keeps
** a phase that is not linear in the input from running away, and past
** each the compile stops with a located error. README.md ("Limits") and
** rslc --help list them; a change here goes there too.
*/
#ifndef RSLC_LIMITS_H
#define RSLC_LIMITS_H

enum {
    /* Instructions of a shader once the VM back end has inlined every
       call (a tree of calls doubles with each level). */
    RSLC_MAX_INLINED_SIZE = 100000,
    /* Variables (parameters and locals) declared in one function or
       shader. */
    RSLC_MAX_VARS = 2000,
    /* Bytes the preprocessor may produce for one file, seconds it may
       take and its address space (a macro that expands exponentially, an
       #include of a device). */
    RSLC_MAX_CPP_OUTPUT = 16 << 20,
    RSLC_MAX_CPP_SECONDS = 10,
    RSLC_MAX_CPP_MEMORY = 128 << 20,
    /* The line number a line marker may set: the one bound that is no
       error, since a line number only places messages. Lines past it are
       not counted further, so a marker's huge number overflows nothing. */
    RSLC_MAX_LINE = 1000000000
};

#endif /* RSLC_LIMITS_H */

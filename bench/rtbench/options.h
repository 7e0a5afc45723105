/*
** options.h: rtbench's command line.
*/
#ifndef RTBENCH_OPTIONS_H
#define RTBENCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

enum { MAX_THREAD_COUNTS = 8 };

typedef struct Options {
    const char *mesh;           /* NULL: the procedural scene */
    bool procedural;            /* --procedural: said explicitly */
    const char *rays;           /* --rays: read instead of generating */
    const char *dump;           /* --dump-rays: prefix of the files written */
    const char *isa;            /* --isa: device setting for both tracers */
    unsigned sets;              /* bit (1 << SetKind) per selected set */
    unsigned kernels;           /* bit (1 << Kernel) per selected kernel */
    int threads[MAX_THREAD_COUNTS];
    int nthreads;
    unsigned res;               /* primary rays per image side */
    int reps;                   /* timing repetitions; the best counts */
    bool cpu_clock;             /* --clock cpu: trace times by thread CPU time */
    bool embree, help;
} Options;

/* Parses argv into *o (defaults first). False with "rtbench: error: ..."
   in err on a bad command line. */
bool parse_options(int argc, char **argv, Options *o, char *err, size_t errlen);

extern const char usage_text[];

#endif

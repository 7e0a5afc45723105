/*
** options.c: parsing rtbench's command line into Options.
*/
#include "config.h"
#include "bench/rtbench/options.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/rtbench/backend.h"
#include "bench/rtbench/rays.h"

const char usage_text[] =
    "usage: rtbench [MESH.ply[.gz] | --procedural] [options]\n"
    "  --rays FILE       trace the rays in FILE (or FILE.<set>) instead of generating them\n"
    "  --dump-rays FILE  write the generated sets to FILE.<set>\n"
    "  --set LIST        primary,diffuse,random,shadow or all (default all)\n"
    "  --kernel LIST     single,packet4,packet8,packet16,stream or all (default all)\n"
    "  --threads LIST    trace (and build) with each of these thread counts (default 1)\n"
    "  --res N           primary rays per image side (default 1024)\n"
    "  --reps N          timing repetitions, the best counts (default 3)\n"
    "  --clock CLOCK     wall, or cpu: trace times as the CPU time of the slowest\n"
    "                    tracing thread, which other processes on the machine\n"
    "                    barely change (default wall)\n"
    "  --isa ISA         avx512, avx2, sse4.2 or auto for both tracers (default auto:\n"
    "                    the best available)\n"
    "  --embree          also run Embree 3 on the same mesh and rays\n";

static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
    int n = snprintf(err, errlen, "rtbench: error: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - n, fmt, ap);
    va_end(ap);
    return false;
}

/* A comma-separated list of names from names[0..count) or "all", as a bit
   mask; 0 when a name is unknown. */
static unsigned parse_names(const char *arg, const char *const *names, int count)
{
    if (strcmp(arg, "all") == 0)
        return (1u << count) - 1;
    unsigned mask = 0;
    for (const char *p = arg; *p;) {
        size_t len = strcspn(p, ",");
        int i = 0;
        while (i < count && !(strlen(names[i]) == len && strncmp(p, names[i], len) == 0))
            i++;
        if (i == count)
            return 0;
        mask |= 1u << i;
        p += len + (p[len] == ',');
    }
    return mask;
}

/* A whole number in lo..hi ending at a comma or the end; NULL if not. */
static const char *parse_int(const char *p, long lo, long hi, long *out)
{
    char *end;
    *out = strtol(p, &end, 10);
    if (end == p || (*end && *end != ',') || *out < lo || *out > hi)
        return NULL;
    return end;
}

static bool parse_threads(const char *arg, Options *o)
{
    o->nthreads = 0;
    for (const char *p = arg; *p; p += *p == ',') {
        long v;
        if (o->nthreads == MAX_THREAD_COUNTS || !(p = parse_int(p, 1, 256, &v)))
            return false;
        o->threads[o->nthreads++] = (int)v;
    }
    return o->nthreads > 0;
}

bool parse_options(int argc, char **argv, Options *o, char *err, size_t errlen)
{
    *o = (Options){ .sets = (1u << SET_COUNT) - 1,
                    .kernels = (1u << KERNEL_COUNT) - 1,
                    .threads = { 1 }, .nthreads = 1, .res = 1024, .reps = 3 };
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (opt[0] != '-') {
            if (o->mesh)
                return fail(err, errlen, "more than one mesh given");
            o->mesh = opt;
            continue;
        }
        if (strcmp(opt, "--embree") == 0) {
            o->embree = true;
            continue;
        }
        if (strcmp(opt, "--procedural") == 0) {
            o->procedural = true;
            continue;
        }
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            o->help = true;
            continue;
        }
        if (i + 1 == argc)
            return fail(err, errlen, "%s needs a value (see --help)", opt);
        const char *arg = argv[++i];
        long v;
        if (strcmp(opt, "--rays") == 0)
            o->rays = arg;
        else if (strcmp(opt, "--dump-rays") == 0)
            o->dump = arg;
        else if (strcmp(opt, "--isa") == 0)
            o->isa = strcmp(arg, "auto") == 0 ? NULL : arg;
        else if (strcmp(opt, "--set") == 0) {
            if (!(o->sets = parse_names(arg, set_names, SET_COUNT)))
                return fail(err, errlen, "--set: unknown set in '%s'", arg);
        } else if (strcmp(opt, "--kernel") == 0) {
            if (!(o->kernels = parse_names(arg, kernel_names, KERNEL_COUNT)))
                return fail(err, errlen, "--kernel: unknown kernel in '%s'", arg);
        } else if (strcmp(opt, "--threads") == 0) {
            if (!parse_threads(arg, o))
                return fail(err, errlen, "--threads: want counts 1..256 like 1,2, not '%s'", arg);
        } else if (strcmp(opt, "--res") == 0) {
            if (!parse_int(arg, 1, 16384, &v) || strchr(arg, ','))
                return fail(err, errlen, "--res: want 1..16384, not '%s'", arg);
            o->res = (unsigned)v;
        } else if (strcmp(opt, "--clock") == 0) {
            if (strcmp(arg, "wall") != 0 && strcmp(arg, "cpu") != 0)
                return fail(err, errlen, "--clock: want wall or cpu, not '%s'", arg);
            o->cpu_clock = strcmp(arg, "cpu") == 0;
        } else if (strcmp(opt, "--reps") == 0) {
            if (!parse_int(arg, 1, 1000, &v) || strchr(arg, ','))
                return fail(err, errlen, "--reps: want 1..1000, not '%s'", arg);
            o->reps = (int)v;
        } else {
            return fail(err, errlen, "unknown option %s (see --help)", opt);
        }
    }
    if (o->procedural && o->mesh)
        return fail(err, errlen, "both a mesh and --procedural given");
    return true;
}

/*
** report.c: printing the build and trace tables, aligned, with "-" where a
** side did not run.
*/
#include "config.h"
#include "bench/rtbench/report.h"

#include <stdio.h>
#include <string.h>

void print_builds(const BuildRow *rows, int n, size_t ntris, int reps)
{
    printf("\nbuild (best of %d)\n%-24s %4s %10s %12s %8s %8s\n", reps, "tracer",
           "thr", "build ms", "bytes", "B/tri", "SAH");
    for (int i = 0; i < n; i++) {
        const BuildInfo *b = &rows[i].info;
        char sah[32] = "-";
        if (b->sah >= 0)
            snprintf(sah, sizeof sah, "%.2f", b->sah);
        printf("%-24s %4d %10.2f %12zu %8.1f %8s\n", b->what, rows[i].threads,
               b->ms, b->bytes, ntris ? (double)b->bytes / ntris : 0.0, sah);
    }
}

void print_traces(const TraceRow *rows, int n, int reps, bool cpu)
{
    printf("\ntrace (Mrays/s%s, best of %d; checksum: sum of primID+1 over hits)\n"
           "%-8s %-9s %3s %8s %9s %9s %6s %9s %15s  %s\n",
           cpu ? " by the slowest thread's CPU time" : "", reps, "set", "kernel",
           "thr", "rays", "rtcore", "Embree", "ratio", "hits", "checksum", "agree");
    for (int i = 0; i < n; i++) {
        const TraceRow *r = &rows[i];
        char theirs[32] = "-", ratio[32] = "-", agree[32] = "-";
        if (r->theirs >= 0 && r->rays) {
            snprintf(theirs, sizeof theirs, "%.2f", r->theirs);
            snprintf(ratio, sizeof ratio, "%.2f", r->ours / r->theirs);
            if (r->differ)
                snprintf(agree, sizeof agree, "%zu differ", r->differ);
            else
                snprintf(agree, sizeof agree, "yes");
        }
        printf("%-8s %-9s %3d %8zu %9.2f %9s %6s %9llu %15llu  %s\n", r->set,
               kernel_names[r->kernel], r->threads, r->rays, r->ours, theirs,
               ratio, (unsigned long long)r->hits, (unsigned long long)r->sum,
               agree);
    }
}

int best_kernels(const TraceRow *rows, int n, BestRow *best)
{
    int nb = 0;
    for (int i = 0; i < n; i++) {
        const TraceRow *r = &rows[i];
        BestRow *b = best;
        while (b < best + nb && !(b->threads == r->threads && strcmp(b->set, r->set) == 0))
            b++;
        if (b == best + nb)
            best[nb++] = (BestRow){ r->set, r->threads, -1, -1, 0, 0 };
        if (b->ours_kernel < 0 || r->ours > b->ours)
            b->ours_kernel = (int)r->kernel, b->ours = r->ours;
        if (r->theirs >= 0 && (b->theirs_kernel < 0 || r->theirs > b->theirs))
            b->theirs_kernel = (int)r->kernel, b->theirs = r->theirs;
    }
    return nb;
}

void print_best(const BestRow *best, int n)
{
    printf("\nbest kernel of each tracer (Mrays/s)\n%-8s %3s %9s %-9s %9s %-9s %6s\n",
           "set", "thr", "rtcore", "kernel", "Embree", "kernel", "ratio");
    for (int i = 0; i < n; i++) {
        const BestRow *b = &best[i];
        char theirs[32] = "-", ratio[32] = "-";
        const char *tk = "-";
        if (b->theirs_kernel >= 0) {
            snprintf(theirs, sizeof theirs, "%.2f", b->theirs);
            snprintf(ratio, sizeof ratio, "%.2f", b->ours / b->theirs);
            tk = kernel_names[b->theirs_kernel];
        }
        printf("%-8s %3d %9.2f %-9s %9s %-9s %6s\n", b->set, b->threads, b->ours,
               kernel_names[b->ours_kernel], theirs, tk, ratio);
    }
}

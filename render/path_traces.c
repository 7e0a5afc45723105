/*
** path_traces.c: a surface shader's trace() and environment() calls as
** lobes of the surface in the path tracer. The calls are recorded, not
** traced or looked up, in the path tracer's runs (ShadeGiven.traces,
** host.c); each call's weight is what the shader multiplies its result
** by, found by running the hit with that call alone answering 1, the
** hits of a batch together (the host is told each call's lane). The next
** segment follows a call, picked by its weight's luminance against 1 for
** the lighting lobes' mixture, or that mixture (path_shade.c).
*/
#include <math.h>

#include "render/path.h"

/* The weights T[l][k] of the trace() calls of hits l (on[l]): each hit
   run once a call, without lights, that call answering 1 and the others
   0; less Ci0 (the first run's, all answering 0), that is the colour
   the call's result is multiplied by. */
int path_trace_weights(ShadeCtx *c, const RibMesh *mesh, const RLook *look,
                       const ShadeIn *hits, const bool *on, const ShadeTraces *tr, int n,
                       const float (*Ci0)[3], float (*T)[SHADE_MAX_TRACES][3], char *err,
                       int errlen)
{
    ShadeIn h[VM_MAX_BATCH];
    ShadeTraces calls[VM_MAX_BATCH];
    int white[VM_MAX_BATCH], of[VM_MAX_BATCH], m = 0;
    float Ci[VM_MAX_BATCH][3], Oi[VM_MAX_BATCH][3];
    ShadeGiven none = { .traces = calls, .white = white };
    for (int l = 0; l <= n; l++) {
        int k = l < n && on[l] ? tr[l].n : 0;
        if (m && (l == n || m + k > VM_MAX_BATCH)) {
            if (path_shade_given(c, &none, mesh, look, h, m, Ci, Oi, err, errlen) < 0)
                return -1;
            for (int j = 0; j < m; j++)
                for (int ch = 0; ch < 3; ch++)
                    T[of[j]][white[j]][ch] = Ci[j][ch] - Ci0[of[j]][ch];
            m = 0;
        }
        for (int j = 0; j < k; j++)
            h[m] = hits[l], white[m] = j, of[m++] = l;
    }
    return 0;
}

static float luminance(const float c[3])
{
    return rt_maxf(0.0f, 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2]);
}

/* The share of a hit's next directions that its lighting lobes' mixture
   takes: the rest go along its trace() calls, each by its weight's
   luminance against 1 for the lobes (none if it made no lighting
   call). */
float path_lobes_share(const ShadeLobes *lb, const ShadeTraces *tr, const float (*T)[3])
{
    float lobes = lb->n > 0 ? 1.0f : 0.0f, sum = lobes;
    for (int k = 0; k < tr->n; k++)
        sum += luminance(T[k]);
    return sum > 0 ? lobes / sum : 1;
}

/* The chance of trace() call k, given the lobes' share pc. */
float path_trace_share(const ShadeTraces *tr, const float (*T)[3], float pc, int k)
{
    float sum = 0;
    for (int j = 0; j < tr->n; j++)
        sum += luminance(T[j]);
    return (1 - pc) * luminance(T[k]) / sum;
}

/* The trace() call that uniform u picks, or -1 for the lobes. */
int path_pick_trace(const ShadeTraces *tr, const float (*T)[3], float pc, float u)
{
    if (u < pc)
        return -1;
    float at = pc;
    for (int k = 0; k < tr->n; k++) {
        float share = path_trace_share(tr, T, pc, k);
        if (share > 0 && u < (at += share))
            return k;
    }
    for (int k = tr->n - 1; k >= 0; k--) /* rounding: the last with a share */
        if (path_trace_share(tr, T, pc, k) > 0)
            return k;
    return -1;
}

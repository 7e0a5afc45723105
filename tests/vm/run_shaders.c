/*
** run_shaders.c: compile-run-verify cases for shading: the standard
** matte and plastic shaders and hand-written illuminance loops, under the
** test light set of runtime/host.h (an ambient light of 0.1; a distant white
** light shining along +z, so L = (0,0,-1); a point light of intensity
** (0.5, 0.25, 0) at (0,2,0) falling off with the squared distance).
**
** The expectations re-derive the lighting from the RISpec definitions of
** ambient, diffuse and specular at each grid point (P = (u-.5, v-.5, 1),
** N = (0,0,-1) facing the camera, which faceforward keeps).
*/
#include <math.h>

#include "check_run.h"

typedef struct Light {
    float L[3], Cl[3];
} Light;

/* The two non-ambient lights seen from the grid point (u, v). */
static void lights_at(float u, float v, Light out[2])
{
    const float P[3] = { u - 0.5f, v - 0.5f, 1 };
    out[0] = (Light){ { 0, 0, -1 }, { 1, 1, 1 } };
    float L[3] = { -P[0], 2 - P[1], -P[2] }, d2 = L[0] * L[0] + L[1] * L[1] + L[2] * L[2];
    out[1] = (Light){ { L[0], L[1], L[2] }, { 0.5f / d2, 0.25f / d2, 0 } };
}

static float len3(const float *a) { return sqrtf(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

/* diffuse(N) with N = (0,0,-1): sum Cl * normalize(L).N over lights in
   the hemisphere around N. */
static void diffuse_at(float u, float v, float *c)
{
    Light l[2];
    lights_at(u, v, l);
    c[0] = c[1] = c[2] = 0;
    for (int i = 0; i < 2; i++) {
        float ln = -l[i].L[2] / len3(l[i].L);
        if (ln >= 0)
            for (int k = 0; k < 3; k++)
                c[k] += l[i].Cl[k] * ln;
    }
}

/* specular(N, V, r): sum Cl * max(0, N.normalize(normalize(L) + V))^(8/r),
   PRMan's and BMRT's exponent (vm/lights.c). */
static void specular_at(float u, float v, float r, float *c)
{
    Light l[2];
    lights_at(u, v, l);
    const float I[3] = { u - 0.5f, v - 0.5f, 1 };
    float V[3] = { -I[0] / len3(I), -I[1] / len3(I), -I[2] / len3(I) };
    c[0] = c[1] = c[2] = 0;
    for (int i = 0; i < 2; i++) {
        float n = len3(l[i].L), H[3];
        if (-l[i].L[2] / n < 0)
            continue;
        for (int k = 0; k < 3; k++)
            H[k] = l[i].L[k] / n + V[k];
        float d = -H[2] / len3(H);
        for (int k = 0; k < 3; k++)
            c[k] += l[i].Cl[k] * powf(d > 0 ? d : 0, 8 / r);
    }
}

static void e_matte(float u, float v, float *o)
{
    float d[3];
    diffuse_at(u, v, d);
    for (int k = 0; k < 3; k++)
        o[k] = 0.1f + d[k];
}

static void e_plastic(float u, float v, float *o)
{
    float d[3], s[3];
    diffuse_at(u, v, d);
    specular_at(u, v, 0.1f, s);
    for (int k = 0; k < 3; k++)
        o[k] = (0.1f + 0.5f * d[k]) + 0.5f * s[k];
}

/* An explicit loop: the lights within 0.3 radians of -N's opposite...
   illuminance(P, N, PI/2) summing Cl, and counting the lights. */
static void e_count(float u, float v, float *o)
{
    Light l[2];
    lights_at(u, v, l);
    o[0] = o[1] = o[2] = 0;
    for (int i = 0; i < 2; i++)
        if (-l[i].L[2] / len3(l[i].L) >= 0) {
            o[0] += 1;
            o[1] += l[i].Cl[1];
        }
}

/* A narrow cone around (0,0,-1): only the distant light is inside 0.3
   radians (the point light is at least atan(1.5/1) away). */
static void e_cone(float u, float v, float *o)
{
    (void)u, (void)v;
    o[0] = 1, o[1] = 1, o[2] = 0;
}

/* A varying branch inside the light loop: lanes with u < 0.5 add Cl,
   the others Cl/2. */
static void e_branchy(float u, float v, float *o)
{
    Light l[2];
    lights_at(u, v, l);
    o[0] = o[1] = o[2] = 0;
    for (int i = 0; i < 2; i++)
        if (-l[i].L[2] / len3(l[i].L) >= 0)
            for (int k = 0; k < 3; k++)
                o[k] += u < 0.5f ? l[i].Cl[k] : l[i].Cl[k] / 2;
}

const RunCase run_shaders[] = {
    { "matte under the test lights", "#include \"matte.sl\"\n", "Ci", 3, e_matte, 1e-5f },
    { "plastic under the test lights", "#include \"plastic.sl\"\n", "Ci", 3, e_plastic, 1e-4f },
    { "illuminance counts lights", "surface t() { float n = 0; float g = 0;"
      " illuminance(P, N, PI / 2) { n += 1; g += comp(Cl, 1); } Ci = color(n, g, 0); }",
      "Ci", 3, e_count, 1e-6f },
    { "illuminance cone", "surface t() { float n = 0; color c = 0;"
      " illuminance(P, normal(0, 0, -1), 0.3) { n += 1; c += Cl; } Ci = color(n, comp(c, 0), 0); }",
      "Ci", 3, e_cone, 1e-6f },
    { "varying branch in the light loop", "surface t() { color c = 0;"
      " illuminance(P, N, PI / 2) { if (u < 0.5) c += Cl; else c += Cl / 2; } Ci = c; }",
      "Ci", 3, e_branchy, 1e-6f },
};
const int run_shaders_count = sizeof run_shaders / sizeof *run_shaders;

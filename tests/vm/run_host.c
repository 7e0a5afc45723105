/*
** run_host.c: compile-run-verify cases for the builtins that ask the
** host, against the test host's documented values (runtime/host.h):
** textures test:st, test:dir and test:shadow, rays, queries, message
** passing, shadername and the ray context; phong and specularbrdf from
** RISpec's formulas; caustic's black; and the value properties of
** random (mean and variance) and the noise family beyond their range.
**
** Grid point (u, v): P = I = (u - .5, v - .5, 1), N = (0, 0, -1),
** s = u, t = v (vm/grid.h).
*/
#include <math.h>

#include "check_run.h"
#include "runtime/noise.h"

static float len3(const float *a) { return sqrtf(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

static void e_one(float u, float v, float *o) { (void)u, (void)v, o[0] = 1; }
static void e_zero(float u, float v, float *o) { (void)u, (void)v, o[0] = 0; }
static void e_black(float u, float v, float *o) { (void)u, (void)v, o[0] = o[1] = o[2] = 0; }

/* phong(N, V, 20) (RISpec 3.2 section 15.6): sum over the lights in the
   hemisphere around N of Cl * max(0, normalize(L).R)^20, R the
   reflection of -V = normalize(I) about N. Test lights: distant
   L = (0, 0, -1) white; point at (0, 2, 0), (0.5, 0.25, 0) / d^2. */
static void e_phong(float u, float v, float *o)
{
    const float P[3] = { u - 0.5f, v - 0.5f, 1 }, N[3] = { 0, 0, -1 };
    float i[3] = { P[0] / len3(P), P[1] / len3(P), P[2] / len3(P) };
    float in = i[0] * N[0] + i[1] * N[1] + i[2] * N[2], R[3];
    for (int k = 0; k < 3; k++)
        R[k] = i[k] - 2 * in * N[k];
    float Lp[3] = { -P[0], 2 - P[1], -P[2] }, d2 = Lp[0] * Lp[0] + Lp[1] * Lp[1] + Lp[2] * Lp[2];
    const float *L[2] = { N, Lp };
    float Cl[2][3] = { { 1, 1, 1 }, { 0.5f / d2, 0.25f / d2, 0 } };
    o[0] = o[1] = o[2] = 0;
    for (int l = 0; l < 2; l++) {
        float n = len3(L[l]), ln = (L[l][0] * N[0] + L[l][1] * N[1] + L[l][2] * N[2]) / n;
        if (ln < 0)
            continue;
        float c = (L[l][0] * R[0] + L[l][1] * R[1] + L[l][2] * R[2]) / n;
        for (int k = 0; k < 3; k++)
            o[k] += Cl[l][k] * powf(c > 0 ? c : 0, 20);
    }
}

/* The test lights seen from (u, v): L (towards the light) and Cl. */
static void test_lights(float u, float v, float L[2][3], float Cl[2][3])
{
    const float P[3] = { u - 0.5f, v - 0.5f, 1 };
    float d[3] = { -P[0], 2 - P[1], -P[2] }, d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    for (int k = 0; k < 3; k++)
        L[0][k] = k == 2 ? -1.0f : 0.0f, Cl[0][k] = 1, L[1][k] = d[k];
    Cl[1][0] = 0.5f / d2, Cl[1][1] = 0.25f / d2, Cl[1][2] = 0;
}

/* diffuse(N) = sum Cl normalize(L).N over the lights with L.N > 0, plus
   ambient() = 0.1; specular(N, V, 0.8) = sum Cl max(0, N.H)^10 (the
   exponent is 8/roughness, PRMan's and BMRT's, vm/lights.c) with
   H = normalize(normalize(L) + V), V = -normalize(I). N = (0, 0, -1). */
static void e_diffamb(float u, float v, float *o)
{
    float L[2][3], Cl[2][3];
    test_lights(u, v, L, Cl);
    for (int k = 0; k < 3; k++)
        o[k] = 0.1f;
    for (int l = 0; l < 2; l++) {
        float ln = -L[l][2] / len3(L[l]);
        for (int k = 0; k < 3 && ln > 0; k++)
            o[k] += Cl[l][k] * ln;
    }
}

static void e_specular(float u, float v, float *o)
{
    float L[2][3], Cl[2][3], I[3] = { u - 0.5f, v - 0.5f, 1 };
    test_lights(u, v, L, Cl);
    o[0] = o[1] = o[2] = 0;
    for (int l = 0; l < 2; l++) {
        float n = len3(L[l]), H[3];
        if (-L[l][2] / n <= 0)
            continue;
        for (int k = 0; k < 3; k++)
            H[k] = L[l][k] / n - I[k] / len3(I);
        float c = -H[2] / len3(H);
        for (int k = 0; k < 3; k++)
            o[k] += Cl[l][k] * powf(c > 0 ? c : 0, 10);
    }
}

/* trace(P, R) on the test host: normalize(R) * .5 + .5, R = (u, -v, 2). */
static void e_trace(float u, float v, float *o)
{
    float d[3] = { u, -v, 2 };
    for (int k = 0; k < 3; k++)
        o[k] = d[k] / len3(d) * 0.5f + 0.5f;
}

/* transmission 1, occlusion 0 and indirectdiffuse 0 (nothing in the way):
   1 + 10 x 0 + 100 x 0. */

/* specularbrdf(L, N, V, 2) = max(0, N.H)^(8/2), H = normalize(L + V) for
   unit L = (0, .6, -.8), V = (.6, 0, -.8): N.H = 1.6 / sqrt(3.28). */
static void e_specbrdf(float u, float v, float *o)
{
    (void)u, (void)v;
    o[0] = o[1] = o[2] = powf(1.6f / sqrtf(3.28f), 4);
}

/* test:dir at direction (u, v, 1): normalize(d) * .5 + .5. */
static void e_envdir(float u, float v, float *o)
{
    float d[3] = { u, v, 1 };
    for (int k = 0; k < 3; k++)
        o[k] = d[k] / len3(d) * 0.5f + 0.5f;
}

static void e_envx(float u, float v, float *o)
{
    float d[3] = { u, v, 1 };
    o[0] = d[0] / len3(d) * 0.5f + 0.5f;
}

/* test:shadow: 1 where P's x = u - 0.5 is positive. */
static void e_shadow(float u, float v, float *o) { (void)v, o[0] = u - 0.5f > 0 ? 1.0f : 0.0f; }

/* test:st: (s, t, 0.5) at s = u, t = v. */
static void e_st(float u, float v, float *o) { o[0] = u, o[1] = v, o[2] = 0.5f; }
static void e_t(float u, float v, float *o) { (void)u, o[0] = v; }

/* 100 found + 10 x 4 + 4 (resolution 4 x 4). */
static void e_texinfo(float u, float v, float *o) { (void)u, (void)v, o[0] = 144; }
/* option "Format": 100 found + 10 x 4 + 4 + 1 (pixel aspect). */
static void e_format(float u, float v, float *o) { (void)u, (void)v, o[0] = 145; }

/* Message passing: Kd 1 (surface), tint (2, 0.5, 0.25) (displacement). */
static void e_tint(float u, float v, float *o) { (void)u, (void)v, o[0] = 2, o[1] = 0.5f, o[2] = 0.25f; }
/* atmosphere's Kd 4, found: 4 + 10. */
static void e_atmokd(float u, float v, float *o) { (void)u, (void)v, o[0] = 14; }

static void e_ten(float u, float v, float *o) { (void)u, (void)v, o[0] = 10; }
/* surface's Kd 1, found: 10 + 1. */
static void e_eleven(float u, float v, float *o) { (void)u, (void)v, o[0] = 11; }

/* 256 random() draws a point: mean 1/2 within 4 standard errors
   (sqrt(1/12 / 256) = 0.018), variance 1/12 within 0.02. */
static void e_half(float u, float v, float *o) { (void)u, (void)v, o[0] = 0.5f; }
static void e_twelfth(float u, float v, float *o) { (void)u, (void)v, o[0] = 1.0f / 12; }

/* The point's lane in the 4 x 4 grid's one batch (row-major), and the
   test host's message "lane": lane + 10 (Kd - 1) of the shader asked. */
static int lane_of(float u, float v) { return (int)lroundf(v * 3) * 4 + (int)lroundf(u * 3); }
/* displacement's lane (Kd 2), found: 1000 + lane + 10. */
static void e_msglane(float u, float v, float *o) { o[0] = 1000 + (float)lane_of(u, v) + 10; }
/* surface's lane (Kd 1) per point. */
static void e_lane(float u, float v, float *o) { o[0] = (float)lane_of(u, v); }
/* atmosphere's lane (Kd 4) asked once, at lane 0: 30, found: 31. */
static void e_msgfirst(float u, float v, float *o) { (void)u, (void)v, o[0] = 31; }
static void e_thirty(float u, float v, float *o) { (void)u, (void)v, o[0] = 30; }
/* A uniform random() draws once per batch from the first point's stream
   (seed 0: vm/grid.c seeds point (x, y) with y W + x): draws 0, 1, 2,
   the same at every point. */
/* Varying random() calls draw from the point's own stream (seed: its
   lane) in source order, whatever the scheduler does. */
static void e_vrandom(float u, float v, float *o)
{
    o[0] = rsl_random((uint32_t)lane_of(u, v), 0) * 2 / 2;
    o[1] = rsl_random((uint32_t)lane_of(u, v), 1);
    o[2] = 1 - (1 - rsl_random((uint32_t)lane_of(u, v), 2));
}
static void e_urandom(float u, float v, float *o)
{
    (void)u, (void)v;
    for (int k = 0; k < 3; k++)
        o[k] = rsl_random(0, (uint32_t)k);
}

/* gather on the test host's wall at z = 10 (surface:Ci (0.25, 0.5,
   0.75)) from P (z = 1): straight at it, 4 hits at ray:length 9, no
   misses: 4 x 100 + 9 x 1000 + 4 x 0.75. */
static void e_gather_wall(float u, float v, float *o) { (void)u, (void)v, o[0] = 400 + 9000 + 3; }
static void e_gather_cone(float u, float v, float *o)
{
    (void)u, (void)v;
    o[0] = 0.25f, o[1] = 0.5f, o[2] = 0.75f;
}
static void e_eight(float u, float v, float *o) { (void)u, (void)v, o[0] = 8; }
static void e_gather_half(float u, float v, float *o) { (void)u, (void)v, o[0] = 1032; }

const RunCase run_host[] = {
    { "phong under the test lights", "surface t() { Ci = phong(N, -normalize(I), 20); }", "Ci", 3, e_phong,
      1e-4f },
    { "ambient and diffuse under the test lights", "surface t() { Ci = ambient() + diffuse(N); }", "Ci", 3,
      e_diffamb, 1e-5f },
    { "specular under the test lights", "surface t() { Ci = specular(N, -normalize(I), 0.8); }", "Ci", 3,
      e_specular, 1e-4f },
    { "trace on the test host", "surface t() { Ci = trace(P, vector(u, -v, 2)); }", "Ci", 3, e_trace, 1e-5f },
    { "transmission, occlusion and indirectdiffuse with nothing in the way", R_FLOAT
      "r = comp(transmission(P, P + N), 0) + 10 * occlusion(P, N, 8, \"coneangle\", 0.5, \"bias\", 0.01)"
      " + 100 * comp(indirectdiffuse(P, N, 8), 2); }", "r", 1, e_one, 0 },
    { "occlusion with Aqsis's map name, nothing in the way", R_FLOAT
      "r = 1 + 10 * occlusion(\"occl.sm\", P, N, 8, \"bias\", 0.01); }", "r", 1, e_one, 0 },
    { "specularbrdf of unit L and V", "surface t() { Ci = specularbrdf(vector(0, 0.6, -0.8), N,"
      " vector(0.6, 0, -0.8), 2); }", "Ci", 3, e_specbrdf, 1e-5f },
    { "environment test:dir, color", "surface t() { Ci = environment(\"test:dir\", vector(u, v, 1)); }", "Ci", 3,
      e_envdir, 1e-5f },
    { "environment test:dir, float", R_FLOAT "r = environment(\"test:dir\", vector(u, v, 1)); }", "r", 1, e_envx,
      1e-5f },
    { "shadow test:shadow at P", R_FLOAT "r = shadow(\"test:shadow\", P); }", "r", 1, e_shadow, 0 },
    { "texture test:st at s, t", "surface t() { Ci = texture(\"test:st\"); }", "Ci", 3, e_st, 1e-5f },
    { "texture test:st channel 1 at explicit s, t", R_FLOAT "r = texture(\"test:st\"[1], s, t); }", "r", 1, e_t,
      1e-5f },
    { "textureinfo resolution of test:st", R_FLOAT "float res[2] = { 0, 0 };"
      " r = textureinfo(\"test:st\", \"resolution\", res) * 100 + res[0] * 10 + res[1]; }", "r", 1, e_texinfo, 0 },
    { "visibility with nothing in the way", R_FLOAT "color c = visibility(P, P + N); r = comp(c, 1); }", "r", 1,
      e_one, 0 },
    { "printf runs and the shader goes on", R_FLOAT "printf(\"\"); r = 1; }", "r", 1, e_one, 0 },
    { "attribute identifier:name", R_FLOAT "string n = \"\";"
      " r = attribute(\"identifier:name\", n) == 1 && n == \"testobject\" ? 1 : 0; }", "r", 1, e_one, 0 },
    { "option Format", R_FLOAT "float f[3] = { 0, 0, 0 };"
      " r = option(\"Format\", f) * 100 + f[0] * 10 + f[1] + f[2]; }", "r", 1, e_format, 0 },
    { "rendererinfo renderer", R_FLOAT "string n = \"\";"
      " r = rendererinfo(\"renderer\", n) == 1 && n == \"rslvm\" ? 1 : 0; }", "r", 1, e_one, 0 },
    { "rayinfo depth of a camera ray", R_FLOAT "float d = 7; r = rayinfo(\"depth\", d) * 10 + d; }", "r", 1,
      e_ten, 0 },
    { "raylevel, isshadowray, isindirectray of a camera ray", R_FLOAT
      "r = raylevel() + 2 * isshadowray() + 4 * isindirectray(); }", "r", 1, e_zero, 0 },
    { "shadername of the running shader and of others", R_FLOAT "r = shadername() == \"t\""
      " && shadername(\"surface\") == \"testsurface\" && shadername(\"light\") == \"testlight\""
      " && shadername(\"imager\") == \"\" ? 1 : 0; }", "r", 1, e_one, 0 },
    { "surface() reads Kd per point", R_FLOAT "float k = u; r = surface(\"Kd\", k) * 10 + k; }", "r", 1, e_eleven,
      0 },
    { "displacement() reads a color", "surface t() { color c = color(u, 0, 0); displacement(\"tint\", c); Ci = c; }",
      "Ci", 3, e_tint, 0 },
    { "lightsource() reads a string", R_FLOAT "string n = \"\";"
      " r = lightsource(\"name\", n) == 1 && n == \"lightsource\" ? 1 : 0; }", "r", 1, e_one, 0 },
    { "atmosphere() reads Kd into a uniform", R_FLOAT "uniform float k = 0;"
      " r = atmosphere(\"Kd\", k) * 10 + k; }", "r", 1, e_atmokd, 0 },
    { "message passing of a missing name or type", R_FLOAT "float k = 0; color c = 0;"
      " r = surface(\"nothing\", k) + surface(\"Kd\", c) + displacement(\"name\", k) + k; }", "r", 1, e_zero, 0 },
    { "message passing into a varying variable holding a uniform value runs per point", R_FLOAT
      "float k = -1; r = displacement(\"lane\", k) * 1000 + k; }", "r", 1, e_msglane, 0 },
    { "message passing into a varying output parameter runs per point", R_FLOAT
      "surface(\"lane\", r); }", "r", 1, e_lane, 0 },
    { "message passing into a uniform variable runs once, at the first point", R_FLOAT
      "uniform float k = -1; r = atmosphere(\"lane\", k) + k; }", "r", 1, e_msgfirst, 0 },
    { "message passing into a uniform output parameter", "surface t(output uniform float r = 0) {"
      " atmosphere(\"lane\", r); }", "r", 1, e_thirty, 0 },
    { "incident() without volumes is 0", R_FLOAT "float k = 3; r = incident(\"Kd\", k) + k - 3; }", "r", 1, e_zero,
      0 },
    { "opposite() without volumes is 0", R_FLOAT "float k = 3; r = opposite(\"Kd\", k) + k - 3; }", "r", 1, e_zero,
      0 },
    { "caustic without a photon map is black", "surface t() { Ci = caustic(P, N); }", "Ci", 3, e_black, 0 },
    /* gather (category "illuminance") on the test host's wall */
    { "gather straight at a wall: its colour, its distance, no misses", R_FLOAT
      "color c = 0, sum = 0; float d = 0, hits = 0, misses = 0;"
      " gather(\"illuminance\", P, vector(0, 0, 1), 0, 4, \"surface:Ci\", c, \"ray:length\", d) {"
      " hits += 1; sum += c; } else misses += 1; r = hits * 100 + misses + d * 1000 + comp(sum, 2); }",
      "r", 1, e_gather_wall, 1e-3f },
    { "gather away from the wall: every ray misses", R_FLOAT
      "color c = 0; float hits = 0, misses = 0;"
      " gather(\"illuminance\", P, vector(0, 0, -1), PI / 4, 8, \"surface:Ci\", c) hits += 1;"
      " else misses += 1; r = misses + 100 * hits; }", "r", 1, e_eight, 0 },
    { "gather within a cone facing the wall: every hit its colour, on the wall",
      "surface t() { color c = 0, sum = 0; point p = 0; float hits = 0, off = 0;"
      " gather(\"illuminance\", P, vector(0, 0, 1), PI / 4, 16, \"surface:Ci\", c, \"primitive:P\", p) {"
      " hits += 1; sum += c; off += abs(zcomp(p) - 10); } Ci = hits == 16 && off < 1e-3 ? sum / hits : 0; }",
      "Ci", 3, e_gather_cone, 1e-6f },
    { "gather across the wall's edge: hits and misses add up to the samples", R_FLOAT
      "color c = 0; float hits = 0, misses = 0, bad = 0; vector dir = 0;"
      " gather(\"illuminance\", P, vector(1, 0, 0), PI / 2, 32, \"surface:Ci\", c, \"ray:direction\", dir) {"
      " hits += 1; if (xcomp(dir) < -1e-5 || zcomp(dir) <= 0) bad += 1; } else misses += 1;"
      " r = hits + misses + (hits > 0 && misses > 0 && bad == 0 ? 1000 : 0); }", "r", 1, e_gather_half, 0 },
    { "gather beyond maxdist misses", R_FLOAT "color c = 0; float misses = 0;"
      " gather(\"illuminance\", P, vector(0, 0, 1), 0, 8, \"maxdist\", 5, \"surface:Ci\", c) {}"
      " else misses += 1; r = misses; }", "r", 1, e_eight, 0 },
    { "gather samplepattern: every sample a hit, no ray traced", R_FLOAT "vector d = 0; float n = 0;"
      " gather(\"samplepattern\", P, vector(0, 0, -1), 0, 8, \"ray:direction\", d) n += -zcomp(d);"
      " r = n; }", "r", 1, e_eight, 1e-6f },
    /* random(): uniform on [0, 1) */
    { "random() has mean 1/2", R_FLOAT "float i; r = 0; for (i = 0; i < 256; i += 1) r += random() / 256; }", "r",
      1, e_half, 0.072f },
    { "random() has variance 1/12", R_FLOAT "float i, x, m = 0, q = 0; for (i = 0; i < 256; i += 1) {"
      " x = random(); m += x / 256; q += x * x / 256; } r = q - m * m; }", "r", 1, e_twelfth, 0.02f },
    { "uniform random() in a uniform context: one draw per batch", "surface t() {"
      " uniform color c = color(random(), random(), random()); Ci = c; }", "Ci", 3, e_urandom, 0 },
    { "uniform random() through arithmetic and an assignment", "surface t() { uniform float x;"
      " uniform color c = 0; x = random() * 2; c = color(x / 2, random(), 1 - (1 - random())); Ci = c; }", "Ci",
      3, e_urandom, 1e-6f },
    { "random() calls draw in source order", "surface t() { float x = random() * 2;"
      " Ci = color(x / 2, random(), 1 - (1 - random())); }", "Ci", 3, e_vrandom, 1e-6f },
    /* gradient noise: 1/2 on the lattice with a gradient there, so
       noise(k + e) - 1/2 = -(noise(k - e) - 1/2) to first order */
    { "noise is odd about a lattice point", R_FLOAT "float k = round(u * 3) + 4 * round(v * 3);"
      " r = noise(k + 0.001) + noise(k - 0.001) - 1; }", "r", 1, e_zero, 2e-4f },
    { "noise(point) is odd about a lattice point", R_FLOAT "point k = point(round(u * 3), round(v * 3), 2);"
      " vector e = vector(0.0007, -0.0004, 0.0005); r = noise(k + e) + noise(k - e) - 1; }", "r", 1, e_zero,
      2e-4f },
    { "noise is continuous", R_FLOAT "float x = u * 3.3 + v * 1.7 + 0.21;"
      " r = abs(noise(x + 0.0001) - noise(x)) < 0.002 ? 1 : 0; }", "r", 1, e_one, 0 },
    { "pnoise is not 1/2 between lattice points", R_FLOAT "float i, d = 0; for (i = 0; i < 16; i += 1)"
      " d = max(d, abs(pnoise(i * 0.37 + 0.1 + u, 5) - 0.5)); r = d > 0.05 ? 1 : 0; }", "r", 1, e_one, 0 },
    { "pnoise's period is its own", R_FLOAT "float x = u * 2.2 + v * 0.3 + 0.15;"
      " r = abs(pnoise(x + 3, 4) - pnoise(x, 4)) > 1e-4 || abs(pnoise(x + 1, 4) - pnoise(x, 4)) > 1e-4 ? 1 : 0; }",
      "r", 1, e_one, 0 },
    { "cellnoise differs between neighbouring cells", R_FLOAT "float i, same = 0;"
      " for (i = 0; i < 16; i += 1) same += cellnoise(i + 0.5 + u * 16) == cellnoise(i + 1.5 + u * 16) ? 1 : 0;"
      " r = same; }", "r", 1, e_zero, 0 },
};
const int run_host_count = sizeof run_host / sizeof *run_host;

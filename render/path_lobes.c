/*
** path_lobes.c: the directions a path leaves a hit in, drawn from the
** lobes its surface shader's lighting calls reflect into (internal.h's
** ShadeLobes): diffuse() and illuminance the cosine lobe, specular() its
** half-vector lobe max(0, N . H)^(8/roughness), phong() its lobe about
** the mirror direction max(0, R . L)^size. One sample of a mixture: each
** lobe is picked alike, and the direction's density is the mixture's,
** the mean of every lobe's density there (Veach's one-sample model), so
** whatever weights the shader gives the lobes the estimate is unbiased;
** the cosine lobe about the shading normal joins when the shader named no
** lobe or more than SHADE_MAX_LOBES, so that the mixture covers the
** hemisphere. How much each lobe reflects is the shader's to say: the
** path tracer evaluates it by running the shader along the direction.
*/
#include <math.h>

#include "render/path.h"

#define PI 3.14159265f

static float dot3(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The mixture's lobes, cosine lobes without a normal given Nf's. */
static int mixture(const ShadeLobes *lb, const float Nf[3], ShadeLobe out[SHADE_MAX_LOBES + 1])
{
    int n = 0;
    for (int k = 0; k < lb->n; k++) {
        out[n] = lb->lobe[k];
        if (dot3(out[n].N, out[n].N) == 0)
            for (int j = 0; j < 3; j++)
                out[n].N[j] = Nf[j];
        n++;
    }
    if (!lb->n || lb->more)
        out[n++] = (ShadeLobe){ VM_LOBE_COSINE, { Nf[0], Nf[1], Nf[2] }, { 0, 0, 0 }, 0 };
    return n;
}

/* The direction at cos(theta) = z and angle phi about unit n (Duff et
   al.'s basis). */
static void about(const float n[3], float z, float phi, float d[3])
{
    float sign = copysignf(1.0f, n[2]), a = -1.0f / (sign + n[2]), b = n[0] * n[1] * a;
    float t[3] = { 1 + sign * n[0] * n[0] * a, sign * b, -sign * n[0] };
    float s[3] = { b, sign + n[1] * n[1] * a, -n[1] };
    float r = sqrtf(rt_maxf(0.0f, 1 - z * z)), x = r * cosf(phi), y = r * sinf(phi);
    for (int k = 0; k < 3; k++)
        d[k] = x * t[k] + y * s[k] + z * n[k];
}

/* R = reflect(-V, N), phong()'s axis. */
static void mirror(const ShadeLobe *o, float R[3])
{
    float vn = dot3(o->V, o->N);
    for (int k = 0; k < 3; k++)
        R[k] = 2 * vn * o->N[k] - o->V[k];
}

/* The density of lobe o at unit direction wi (solid angle). */
static float lobe_pdf(const ShadeLobe *o, const float wi[3])
{
    float e = o->exponent;
    if (o->kind == VM_LOBE_COSINE)
        return rt_maxf(0.0f, dot3(o->N, wi)) / PI;
    if (o->kind == VM_LOBE_PHONG) {
        float R[3];
        mirror(o, R);
        float c = dot3(R, wi);
        return c > 0 ? (e + 1) / (2 * PI) * powf(c, e) : 0;
    }
    /* The half vector's density (e + 1) / 2pi (N . H)^e, times the
       Jacobian of the reflection about H, 1 / (4 V . H). */
    float h[3] = { o->V[0] + wi[0], o->V[1] + wi[1], o->V[2] + wi[2] }, len = sqrtf(dot3(h, h));
    if (!(len > 0))
        return 0;
    for (int k = 0; k < 3; k++)
        h[k] /= len;
    float c = dot3(o->N, h), vh = dot3(o->V, h);
    return c > 0 && vh > 0 ? (e + 1) / (2 * PI) * powf(c, e) / (4 * vh) : 0;
}

float path_lobes_pdf(const ShadeLobes *lb, const float Nf[3], const float wi[3])
{
    ShadeLobe m[SHADE_MAX_LOBES + 1];
    int n = mixture(lb, Nf, m);
    float p = 0;
    for (int k = 0; k < n; k++)
        p += lobe_pdf(&m[k], wi);
    return p / (float)n;
}

void path_lobes_sample(const ShadeLobes *lb, const float Nf[3], const float u[3], float wi[3])
{
    ShadeLobe m[SHADE_MAX_LOBES + 1];
    int n = mixture(lb, Nf, m);
    const ShadeLobe *o = &m[(int)rt_minf(u[0] * (float)n, (float)n - 1)];
    float phi = 2 * PI * u[2];
    if (o->kind == VM_LOBE_COSINE) {
        about(o->N, sqrtf(1 - u[1]), phi, wi);
    } else if (o->kind == VM_LOBE_PHONG) {
        float R[3];
        mirror(o, R);
        about(R, powf(u[1], 1 / (o->exponent + 1)), phi, wi);
    } else {
        float h[3];
        about(o->N, powf(u[1], 1 / (o->exponent + 1)), phi, h);
        float vh = dot3(o->V, h);
        for (int k = 0; k < 3; k++)
            wi[k] = 2 * vh * h[k] - o->V[k];
    }
}

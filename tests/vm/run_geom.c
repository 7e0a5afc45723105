/*
** run_geom.c: compile-run-verify cases for the geometric, color, matrix
** and string builtins of RISpec 3.2 sections 15.2 to 15.5: components,
** length/normalize/distance/ptlined, faceforward/reflect/refract/fresnel,
** the derivatives over the grid, transforms by a matrix and into the
** test host's spaces, depth, the matrix functions and inverses, color
** spaces and concat/format/match.
**
** The grid (vm/grid.h): P = I = (u-.5, v-.5, 1), N = Ng = (0,0,-1),
** u and v step by du = dv = 1/3, so P is linear in u and v with
** Du(P) = (1,0,0) and Dv(P) = (0,1,0).
*/
#include <math.h>
#include <string.h>

#include "check_run.h"
#include "run_ref.h"

static void set3(float *o, double a, double b, double c) { o[0] = (float)a, o[1] = (float)b, o[2] = (float)c; }
static void out3(float *o, const double *a) { set3(o, a[0], a[1], a[2]); }
static void set16(float *o, const float *m) { memcpy(o, m, 16 * sizeof *o); }
static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static double len(const double *a) { return sqrt(dot(a, a)); }
static void unit(double *a) { double l = len(a); a[0] /= l, a[1] /= l, a[2] /= l; }
/* P and I at (u, v) */
static void eye(float u, float v, double *p) { p[0] = u - 0.5, p[1] = v - 0.5, p[2] = 1; }
static const double Nz[3] = { 0, 0, -1 };

/* ---- components, length, distance --------------------------------------------- */

static void e_xyzP(float u, float v, float *o) { set3(o, u - 0.5, v - 0.5, 1); }
static void e_xyzvn(float u, float v, float *o) { set3(o, u, 2.0 * v, -1); }
static void e_setx(float u, float v, float *o) { set3(o, 2.0 * u, v - 0.5, 1); }
static void e_sety(float u, float v, float *o) { (void)u; set3(o, 1, -v, 3); }
static void e_setz(float u, float v, float *o) { set3(o, 0, 0, u + v); }
static void e_compc(float u, float v, float *o) { set3(o, 0.5, u, v); }
/* index floor(2.99u): 0, 0, 1, 2 */
static void e_compidx(float u, float v, float *o) { (void)v; o[0] = (float)(10 * (1 + floor(u * 2.99))); }
static void e_setcomp(float u, float v, float *o) { set3(o, u, v, u + v); }
/* comp(m, row, col) of a row-major matrix */
static void e_compm(float u, float v, float *o) { set3(o, u, v, 14); }
static void e_compmidx(float u, float v, float *o) { o[0] = (float)(4 * floor(u * 3.99) + floor(v * 3.99)); }
static void e_setcompm(float u, float v, float *o)
{
    (void)v;
    float m[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, u, 1, 0, 0, 0, 0, 1 };
    set16(o, m);
}
static void e_length(float u, float v, float *o) { double p[3]; eye(u, v, p); o[0] = (float)len(p); }
static void e_lengthn(float u, float v, float *o) { o[0] = (float)sqrt(u * u + v * v + 4.0); }
static void e_normI(float u, float v, float *o) { double p[3]; eye(u, v, p); unit(p); out3(o, p); }
static void e_normn(float u, float v, float *o) { double n[3] = { u - 0.5, 2, v }; unit(n); out3(o, n); }
static void e_distance(float u, float v, float *o)
{
    double d[3] = { u - 0.5 - 0.25, v - 0.5 + 0.5, 1 };
    o[0] = (float)len(d);
}
/* Distance from q to the segment a-b: to a before it, to b beyond it,
   to the line between. */
static double seg_dist(const double *a, const double *b, const double *q)
{
    double ab[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, aq[3] = { q[0] - a[0], q[1] - a[1], q[2] - a[2] };
    double bq[3] = { q[0] - b[0], q[1] - b[1], q[2] - b[2] }, l2 = dot(ab, ab);
    if (l2 == 0 || dot(aq, ab) <= 0)
        return len(aq);
    if (dot(bq, ab) >= 0)
        return len(bq);
    double t = dot(aq, ab) / l2, perp[3] = { aq[0] - t * ab[0], aq[1] - t * ab[1], aq[2] - t * ab[2] };
    return len(perp);
}
/* the segment x in [-.25, .25] at y = 0, z = 1: P.x = -.5 lies before it,
   -1/6 and 1/6 along it, .5 beyond it */
static void e_ptlined(float u, float v, float *o)
{
    double a[3] = { -0.25, 0, 1 }, b[3] = { 0.25, 0, 1 }, p[3];
    eye(u, v, p);
    o[0] = (float)seg_dist(a, b, p);
}
static void e_ptlined0(float u, float v, float *o)
{
    double a[3] = { 0.1, 0.2, 0.3 }, p[3];
    eye(u, v, p);
    o[0] = (float)seg_dist(a, a, p);
}

/* ---- faceforward, reflect, refract, fresnel ---------------------------------------- */

/* faceforward(N, I, Nref) = sign(-I.Nref) * N; Nref defaults to Ng. */
static void ff(const double *n, const double *i, const double *nref, float *o)
{
    double s = dot(i, nref) < 0 ? 1 : -1;
    set3(o, s * n[0], s * n[1], s * n[2]);
}
static void e_ff2(float u, float v, float *o) { double n[3] = { u - 0.5, v, -1 }, p[3]; eye(u, v, p); ff(n, p, Nz, o); }
static void e_ff2flip(float u, float v, float *o)
{
    double n[3] = { u - 0.5, v, -1 }, p[3];
    eye(u, v, p);
    for (int k = 0; k < 3; k++)
        p[k] = -p[k];
    ff(n, p, Nz, o);
}
static void e_ff3(float u, float v, float *o)
{
    double n[3] = { 1, 2, 3 }, r[3] = { 0, 0, v - 0.5 }, p[3];
    eye(u, v, p);
    ff(n, p, r, o);
}
static void e_ff3n(float u, float v, float *o)
{
    double n[3] = { 0, 1, 0 }, r[3] = { u - 0.5, 0.1, 0 }, p[3];
    eye(u, v, p);
    ff(n, p, r, o);
}
/* reflect(I, N) = I - 2 (I.N) N */
static void reflect(const double *i, const double *n, double *r)
{
    double k = 2 * dot(i, n);
    for (int c = 0; c < 3; c++)
        r[c] = i[c] - k * n[c];
}
static void e_reflect(float u, float v, float *o) { double p[3], r[3]; eye(u, v, p); reflect(p, Nz, r); out3(o, r); }
static void e_reflect2(float u, float v, float *o)
{
    double p[3], n[3] = { u, 1, -1 }, r[3];
    eye(u, v, p);
    unit(p), unit(n);
    reflect(p, n, r);
    out3(o, r);
}
/* RISpec refract: k = 1 - eta^2 (1 - (I.N)^2); (0,0,0) when k < 0
   (total internal reflection), else eta I - (eta I.N + sqrt k) N. */
static void refract(const double *i, const double *n, double eta, double *t)
{
    double c = dot(i, n), k = 1 - eta * eta * (1 - c * c);
    for (int j = 0; j < 3; j++)
        t[j] = k < 0 ? 0 : eta * i[j] - (eta * c + sqrt(k)) * n[j];
}
static void refract_at(float u, float v, double eta, float *o)
{
    double p[3], t[3];
    eye(u, v, p);
    unit(p);
    refract(p, Nz, eta, t);
    out3(o, t);
}
static void e_refr075(float u, float v, float *o) { refract_at(u, v, 0.75, o); }
static void e_refr2(float u, float v, float *o) { refract_at(u, v, 2, o); }
static void e_refr5(float u, float v, float *o) { refract_at(u, v, 5, o); }
static void e_refr1(float u, float v, float *o) { double p[3]; eye(u, v, p); unit(p); out3(o, p); }
/* eta 1, 1.5, 2 in turn; at 2 the corner lanes reflect instead (their
   refraction is total internal reflection) */
static void e_refrloop(float u, float v, float *o)
{
    double p[3], sum[3] = { 0, 0, 0 };
    eye(u, v, p);
    unit(p);
    for (int i = 0; i < 3; i++) {
        double t[3];
        refract(p, Nz, 1 + i * 0.5, t);
        if (len(t) == 0)
            reflect(p, Nz, t);
        for (int k = 0; k < 3; k++)
            sum[k] += t[k];
    }
    out3(o, sum);
}
/* The Fresnel equations for a dielectric, unpolarised: Kr is the mean of
   the s and p reflectances, Kt = 1 - Kr; Kr = 1 under total internal
   reflection. cos_i = -I.N for unit I facing N; eta = n1 / n2. */
static void fresnel(const double *i, const double *n, double eta, double *kr, double *kt)
{
    double ci = -dot(i, n), st2 = eta * eta * (1 - ci * ci);
    if (st2 > 1) {
        *kr = 1, *kt = 0;
        return;
    }
    double ct = sqrt(1 - st2);
    double rs = (eta * ci - ct) / (eta * ci + ct), rp = (ci - eta * ct) / (ci + eta * ct);
    *kr = (rs * rs + rp * rp) / 2;
    *kt = 1 - *kr;
}
static void fresnel_at(float u, float v, double eta, float *o)
{
    double p[3], kr, kt;
    eye(u, v, p);
    unit(p);
    fresnel(p, Nz, eta, &kr, &kt);
    set3(o, kr, kt, 0);
}
static void e_fresnel(float u, float v, float *o) { fresnel_at(u, v, 1 / 1.5, o); }
static void e_fresneltir(float u, float v, float *o) { fresnel_at(u, v, 3, o); }
static void e_fresnelR(float u, float v, float *o)
{
    double p[3], r[3];
    eye(u, v, p);
    unit(p);
    reflect(p, Nz, r);
    out3(o, r);
}
static void e_fresnelT(float u, float v, float *o) { refract_at(u, v, 1 / 1.5, o); }

/* ---- derivatives: Du(x) = dx/du by differences across the grid --------------------- */

static void e_area(float u, float v, float *o) { (void)u, (void)v; o[0] = 1 / 9.0f; }
/* Du = (2,0,1), Dv = (0,1,1); |Du du x Dv dv| = |(-1,-2,2)| / 9 */
static void e_area2(float u, float v, float *o) { (void)u, (void)v; o[0] = 1 / 3.0f; }
static void e_duv(float u, float v, float *o) { (void)u, (void)v; set3(o, 1, 1, 0); }
static void e_dulin(float u, float v, float *o) { (void)u, (void)v; set3(o, 3, -2, 2); }
static void e_duP(float u, float v, float *o) { (void)u, (void)v; set3(o, 2, 3, 0); }
static void e_dvc(float u, float v, float *o) { (void)u, (void)v; set3(o, 0, 2, 0); }
/* RISpec: Deriv(num, den) = Du(num)/Du(den) + Dv(num)/Dv(den) */
static void e_deriv(float u, float v, float *o) { (void)u, (void)v; o[0] = 6 / 2.0f + 4 / 4.0f; }
static void e_derivP(float u, float v, float *o) { (void)u, (void)v; set3(o, 1, 1, 0); }
/* calculatenormal(p) = Du(p) ^ Dv(p) */
static void e_calcn(float u, float v, float *o) { (void)u, (void)v; set3(o, 0, 0, 1); }
static void e_calcn2(float u, float v, float *o) { (void)u, (void)v; set3(o, -2, -3, 1); }

/* ---- matrices: row major, points are row vectors: p' = (p, 1) M / w ------------------ */

/* how: 0 point (homogeneous), 1 vector (upper 3x3), 2 normal (by the
   inverse transpose: n'_j = sum_i n_i inv(M)[j][i]) */
static void xform(const float *m, const double *p, int how, double *r)
{
    float inv[16];
    double h[4] = { 0, 0, 0, 0 };
    ref_mat_inv(m, inv);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 3; i++)
            h[j] += p[i] * (how == 2 ? inv[j * 4 + i] : m[i * 4 + j]);
    if (how == 0)
        for (int j = 0; j < 4; j++)
            h[j] += m[12 + j];
    for (int j = 0; j < 3; j++)
        r[j] = how == 0 ? h[j] / h[3] : h[j];
}
static const float M_AFF[16] = { 1, 2, 0, 0, 0, 1, 0, 0, 3, 0, 1, 0, 0.5, -1, 2, 1 };
static void e_xfp(float u, float v, float *o) { double p[3], r[3]; eye(u, v, p); xform(M_AFF, p, 0, r); out3(o, r); }
static void e_xfproj(float u, float v, float *o)
{
    float m[16] = { 1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, u, 0, 0, 0, 1 };
    double p[3], r[3];
    eye(u, v, p);
    xform(m, p, 0, r);
    out3(o, r);
}
static void e_xfv(float u, float v, float *o) { double p[3] = { u, v, 1 }, r[3]; xform(M_AFF, p, 1, r); out3(o, r); }
static void e_xfn(float u, float v, float *o)
{
    static const float m[16] = { 2, 0, 0, 0, 1, 1, 0, 0, 0, 0, 4, 0, 5, 6, 7, 1 };
    double n[3] = { u, v, 1 }, r[3];
    xform(m, n, 2, r);
    out3(o, r);
}
/* The test host's spaces (runtime/host.h), as maps to current space: world
   p + (0,0,5); object and shader 2p + (0,0,5); screen, its own inverse,
   (x, y, z) -> (x/z, y/z, 1/z). Into a space is the inverse map. */
static void e_toworld(float u, float v, float *o) { set3(o, u - 0.5, v - 0.5, 1 - 5.0); }
static void e_toobject(float u, float v, float *o) { set3(o, (u - 0.5) / 2, (v - 0.5) / 2, (1 - 5.0) / 2); }
/* world -> current -> object: (p + (0,0,5) - (0,0,5)) / 2 */
static void e_worldobj(float u, float v, float *o) { set3(o, u / 2.0, v / 2.0, 0.5); }
static void e_toscreen(float u, float v, float *o)
{
    double z = 1.0 + u;
    set3(o, (u - 0.5) / z, (v - 0.5) / z, 1 / z);
}
static void e_fromscreen(float u, float v, float *o)
{
    double z = 0.5 + v;
    set3(o, u / z, v / z, 1 / z);
}
/* vectors lose the translation: into object space v/2, world leaves them */
static void e_vspace(float u, float v, float *o) { set3(o, u / 2.0, v / 2.0, 0.5 + u); }
/* normals by the inverse transpose: into object space (scale 1/2) 2n;
   object to world (scale 2) n/2 */
static void e_nobject(float u, float v, float *o) { set3(o, 2.0 * u, 2.0 * v, 2); }
static void e_nobjworld(float u, float v, float *o) { set3(o, u / 2.0, v / 2.0, 0.5); }
/* a point, vector or normal written in a space, brought to current */
static void e_ptworld(float u, float v, float *o) { set3(o, u, v, 5); }
static void e_ptobject(float u, float v, float *o) { set3(o, 2.0 * u, 2.0 * v, 5); }
static void e_vshader(float u, float v, float *o) { set3(o, 2.0 * u, 2.0 * v, 2); }
static void e_nobjcur(float u, float v, float *o) { set3(o, u / 2.0, v / 2.0, 0.5); }
/* depth: camera z from the near plane (0.1) to the far one (100) as 0 to 1 */
static void e_depth(float u, float v, float *o) { o[0] = (float)((1 + 9.0 * u + v - 0.1) / (100 - 0.1)); }
static void e_translate(float u, float v, float *o)
{
    (void)v;
    float m[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, u, 2, -3, 1 };
    set16(o, m);
}
/* RiRotate's matrix for row vectors: (1,0,0) turns toward (0,1,0) about z */
static void rotation(double angle, const double *axis, float *m)
{
    double a[3] = { axis[0], axis[1], axis[2] }, c = cos(angle), s = sin(angle), t = 1 - c;
    unit(a);
    double x = a[0], y = a[1], z = a[2];
    double r[16] = { t * x * x + c, t * x * y + s * z, t * x * z - s * y, 0, t * x * y - s * z, t * y * y + c,
                     t * y * z + s * x, 0, t * x * z + s * y, t * y * z - s * x, t * z * z + c, 0, 0, 0, 0, 1 };
    for (int k = 0; k < 16; k++)
        m[k] = (float)r[k];
}
static void e_rotz(float u, float v, float *o)
{
    (void)u, (void)v;
    static const float m[16] = { 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    set16(o, m);
}
static void e_rotaxis(float u, float v, float *o) { (void)v; double ax[3] = { 1, 2, 2 }; rotation(u * 2.0, ax, o); }
static void e_scale(float u, float v, float *o)
{
    (void)v;
    float m[16] = { 2, 0, 0, 0, 0, u, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1 };
    set16(o, m);
}
/* translate(m, t) appends the translation as RiTranslate does, so it
   applies first: T m. Here m scales by 2: p -> 2 (p + t). */
static void e_transorder(float u, float v, float *o) { set3(o, 2 * (u - 0.5 + 1), 2 * (v - 0.5), 2); }
/* rotate(q, 90 degrees, (.5,0,0), (.5,0,1)): about the vertical line x = .5 */
static void e_rotpt(float u, float v, float *o) { set3(o, 1 - v, u - 1.0, 1); }
static void e_det(float u, float v, float *o)
{
    float m[16] = { u, 1, 2, 0, 3, v, 1, 0, 0, 2, 1, 1, 1, 0, 3, 2 };
    o[0] = (float)ref_mat_det(m);
}
static void m_inv(float u, float v, float *m)
{
    float r[16] = { 2 + u, 1, 0, 0, 0, 3, v, 0, 1, 0, 2, 0, u, v, 1, 1 };
    set16(m, r);
}
static void e_inv(float u, float v, float *o) { float m[16]; m_inv(u, v, m); ref_mat_inv(m, o); }
/* a / b = a * inverse(b) */
static void e_mdiv(float u, float v, float *o)
{
    float a[16] = { 1, 2, 3, 4, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, u, 1 }, b[16], bi[16];
    m_inv(u, v, b);
    ref_mat_inv(b, bi);
    ref_mat_mul(a, bi, o);
}
static void e_ident(float u, float v, float *o)
{
    (void)u, (void)v;
    for (int k = 0; k < 16; k++)
        o[k] = k % 5 == 0;
}
/* 1 / (a b) = (1/b)(1/a), a the translation by (u, v, 1), b as m_inv */
static void e_invprod(float u, float v, float *o)
{
    float a[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, u, v, 1, 1 }, b[16], ai[16], bi[16];
    m_inv(u, v, b);
    ref_mat_inv(a, ai);
    ref_mat_inv(b, bi);
    ref_mat_mul(bi, ai, o);
}
static void e_zero(float u, float v, float *o) { (void)u, (void)v; o[0] = 0; }
static void e_mcmp(float u, float v, float *o) { (void)v; set3(o, 1, u >= 0.5f, u < 0.5f); }

/* ---- color spaces ------------------------------------------------------------------------ */

/* linear sRGB to CIE XYZ (IEC 61966-2-1, D65) and NTSC RGB to YIQ */
static const double XYZ[9] = { 0.4124, 0.3576, 0.1805, 0.2126, 0.7152, 0.0722, 0.0193, 0.1192, 0.9505 };
static const double YIQ[9] = { 0.299, 0.587, 0.114, 0.596, -0.274, -0.322, 0.211, -0.523, 0.312 };
static void mul3(const double *m, const double *c, double *r)
{
    for (int i = 0; i < 3; i++)
        r[i] = m[i * 3] * c[0] + m[i * 3 + 1] * c[1] + m[i * 3 + 2] * c[2];
}
static double det3(const double *a)
{
    return a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6])
         + a[2] * (a[3] * a[7] - a[4] * a[6]);
}
/* r = m^-1 c by Cramer's rule */
static void solve3(const double *m, const double *c, double *r)
{
    for (int k = 0; k < 3; k++) {
        double a[9];
        memcpy(a, m, sizeof a);
        for (int i = 0; i < 3; i++)
            a[i * 3 + k] = c[i];
        r[k] = det3(a) / det3(m);
    }
}
/* the colors the cases convert */
static void c_uv(float u, float v, double *c) { c[0] = u, c[1] = v, c[2] = 0.5; }
static float hue_uv(float u, float v) { return u * 0.8f + v * 0.15f + 0.02f; }
static void e_tohsv(float u, float v, float *o) { float c[3] = { u, v, 0.5f }; ref_rgb2hsv(c, o); }
static void e_fromhsv(float u, float v, float *o) { ref_hsv2rgb(hue_uv(u, v), 0.75f, v * 0.5f + 0.5f, o); }
static void e_hsvgrey(float u, float v, float *o) { (void)u; set3(o, 0, 0, v); }
static void e_tohsl(float u, float v, float *o) { float c[3] = { u, v, 0.5f }; ref_rgb2hsl(c, o); }
static void e_fromhsl(float u, float v, float *o) { ref_hsl2rgb(hue_uv(u, v), 0.6f, v * 0.8f + 0.1f, o); }
static void e_toxyz(float u, float v, float *o) { double c[3], r[3]; c_uv(u, v, c); mul3(XYZ, c, r); out3(o, r); }
static void e_fromxyz(float u, float v, float *o)
{
    double c[3] = { u * 0.9, v, 0.5 }, r[3];
    solve3(XYZ, c, r);
    out3(o, r);
}
/* D65 white (the matrix's row sums) scaled by u is the grey u */
static void e_xyzwhite(float u, float v, float *o) { (void)v; set3(o, u, u, u); }
/* xyY: x = X/(X+Y+Z), y = Y/(X+Y+Z), and Y */
static void e_toxyy(float u, float v, float *o)
{
    double c[3] = { u, v, 0.5 }, x[3];
    mul3(XYZ, c, x);
    double s = x[0] + x[1] + x[2];
    set3(o, x[0] / s, x[1] / s, x[1]);
}
static void e_fromxyy(float u, float v, float *o)
{
    double x = 0.3 + 0.1 * u, y = 0.3 + 0.1 * v, Y = 0.5, c[3] = { x * Y / y, Y, (1 - x - y) * Y / y }, r[3];
    solve3(XYZ, c, r);
    out3(o, r);
}
static void e_toyiq(float u, float v, float *o) { double c[3], r[3]; c_uv(u, v, c); mul3(YIQ, c, r); out3(o, r); }
static void e_fromyiq(float u, float v, float *o)
{
    double c[3] = { u, v * 0.5 - 0.25, 0.1 }, r[3];
    solve3(YIQ, c, r);
    out3(o, r);
}
/* hsv -> rgb -> hsl */
static void e_hsv2hsl(float u, float v, float *o)
{
    float rgb[3];
    ref_hsv2rgb(hue_uv(u, v), 0.75f, 0.8f, rgb);
    ref_rgb2hsl(rgb, o);
}
/* By hand: hsv of (1, .5, 0): red largest, h = (g - b)/(max - min)/6 =
   1/12, s = 1, v = 1; hsl of (.2, .4, .6): blue largest, h = (4 + (r - g)
   / .4)/6 = 7/12, l = .4, s = .4/(.6 + .2) = .5; YIQ of red is the
   matrix's first column; xyY of white: X, Y, Z are the row sums .9505,
   1, 1.089, so x = .9505/3.0395, y = 1/3.0395. */
static void e_byhand(float u, float v, float *o)
{
    (void)u, (void)v;
    const float m[16] = { 1 / 12.0f, 1, 1, 7 / 12.0f, 0.5f, 0.4f, 0.299f, 0.596f, 0.211f,
                          0.9505f / 3.0395f, 1 / 3.0395f, 1, 0, 0, 0, 0 };
    set16(o, m);
}
static void e_rgbid(float u, float v, float *o) { set3(o, u, v, 0.5); }

/* ---- strings ----------------------------------------------------------------------------- */

static void e_str(float u, float v, float *o) { (void)u, (void)v; set3(o, 1, 1, 0); }
static void e_true3(float u, float v, float *o) { (void)u, (void)v; set3(o, 1, 1, 1); }
static void e_match(float u, float v, float *o) { (void)u, (void)v; set3(o, 1, 0, 1); }
static void e_strvary(float u, float v, float *o) { set3(o, u > 0.5f, v < 0.5f, 1); }

/* ---- the table ---------------------------------------------------------------------------- */

#define MVAR "matrix m = matrix(u, 1, 2, 0, 3, v, 1, 0, 0, 2, 1, 1, 1, 0, 3, 2); "
#define MINV "matrix m = matrix(2 + u, 1, 0, 0, 0, 3, v, 0, 1, 0, 2, 0, u, v, 1, 1); "
#define MAFF "matrix m = matrix(1, 2, 0, 0, 0, 1, 0, 0, 3, 0, 1, 0, 0.5, -1, 2, 1); "

const RunCase run_geom[] = {
    { "xcomp ycomp zcomp of a point", "surface t() { Ci = color(xcomp(P), ycomp(P), zcomp(P)); }", "Ci", 3, e_xyzP,
      1e-7f },
    { "xcomp ycomp zcomp of a vector and a normal", "surface t() { Ci = color(xcomp(dPdv + vector(u, 0, 0)),"
      " ycomp(normal(u, v * 2, 3)), zcomp(N)); }", "Ci", 3, e_xyzvn, 1e-7f },
    { "comp of a color", "surface t() { color c = color(u, v, 0.5); Ci = color(comp(c, 2), comp(c, 0), comp(c, 1));"
      " }", "Ci", 3, e_compc, 0 },
    { "comp with a varying index", R_FLOAT "r = comp(color(10, 20, 30), floor(u * 2.99)); }", "r", 1, e_compidx, 0 },
    { "comp of a matrix", "surface t() { matrix m = matrix(u, 2, 3, 4, 5, 6, v, 8, 9, 10, 11, 12, 13, 14, 15, 16);"
      " Ci = color(comp(m, 0, 0), comp(m, 1, 2), comp(m, 3, 1)); }", "Ci", 3, e_compm, 0 },
    { "comp of a matrix by varying row and column", R_FLOAT "matrix m = matrix(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,"
      " 12, 13, 14, 15);"
      " r = comp(m, floor(u * 3.99), floor(v * 3.99)); }", "r", 1, e_compmidx, 0 },
    { "length of a vector", R_FLOAT "r = length(I); }", "r", 1, e_length, 1e-6f },
    { "length of a normal", R_FLOAT "r = length(normal(u, v, 2)); }", "r", 1, e_lengthn, 1e-6f },
    { "normalize a vector", R_VECTOR "r = normalize(I); }", "r", 3, e_normI, 1e-6f },
    { "normalize a normal", R_NORMAL "r = normalize(normal(u - 0.5, 2, v)); }", "r", 3, e_normn, 1e-6f },
    { "distance", R_FLOAT "r = distance(P, point(0.25, -0.5, 0)); }", "r", 1, e_distance, 1e-6f },
    { "ptlined before, along and beyond the segment", R_FLOAT "r = ptlined(point(-0.25, 0, 1), point(0.25, 0, 1), P);"
      " }", "r", 1, e_ptlined, 1e-6f },
    { "ptlined of a segment of length 0", R_FLOAT "r = ptlined(point(0.1, 0.2, 0.3), point(0.1, 0.2, 0.3), P); }",
      "r", 1, e_ptlined0, 1e-6f },
    { "faceforward(N, I) facing the eye", R_NORMAL "r = faceforward(normal(u - 0.5, v, -1), I); }", "r", 3, e_ff2,
      0 },
    { "faceforward(N, I) flipped", R_NORMAL "r = faceforward(normal(u - 0.5, v, -1), -I); }", "r", 3, e_ff2flip, 0 },
    { "faceforward(N, I, Nref) both ways", R_VECTOR "r = faceforward(vector(1, 2, 3), I, vector(0, 0, v - 0.5)); }",
      "r", 3, e_ff3, 0 },
    { "faceforward of a normal by a varying Nref", R_NORMAL "r = faceforward(normal(0, 1, 0), I, vector(u - 0.5, 0.1,"
      " 0)); }", "r", 3, e_ff3n, 0 },
    { "reflect", R_VECTOR "r = reflect(I, N); }", "r", 3, e_reflect, 1e-6f },
    { "reflect about a tilted normal", R_VECTOR "r = reflect(normalize(I), normalize(vector(u, 1, -1))); }", "r", 3,
      e_reflect2, 1e-6f },
    { "refract into a denser medium", R_VECTOR "r = refract(normalize(I), N, 0.75); }", "r", 3, e_refr075, 1e-6f },
    { "refract with eta 1 passes straight", R_VECTOR "r = refract(normalize(I), N, 1); }", "r", 3, e_refr1, 1e-6f },
    { "refract: total internal reflection at the corners", R_VECTOR "r = refract(normalize(I), N, 2); }", "r", 3,
      e_refr2, 1e-6f },
    { "refract: total internal reflection everywhere", R_VECTOR "r = refract(normalize(I), N, 5); }", "r", 3, e_refr5,
      0 },
    { "refract or reflect by lane in a loop", R_VECTOR "float i; vector t; for (i = 0; i < 3; i += 1) {"
      " t = refract(normalize(I), N, 1 + i * 0.5); if (length(t) > 0) r += t; else r += reflect(normalize(I), N); } }",
      "r", 3, e_refrloop, 1e-5f },
    { "transform a point by a matrix", R_POINT MAFF "r = transform(m, P); }", "r", 3, e_xfp, 1e-6f },
    { "transform a point by a projective matrix", R_POINT "matrix m = matrix(1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, u, 0,"
      " 0, 0, 1);"
      " r = transform(m, P); }", "r", 3, e_xfproj, 1e-6f },
    { "vtransform ignores the translation", R_VECTOR MAFF "r = vtransform(m, vector(u, v, 1)); }", "r", 3, e_xfv,
      1e-6f },
    { "ntransform by the inverse transpose", R_NORMAL "matrix m = matrix(2, 0, 0, 0, 1, 1, 0, 0, 0, 0, 4, 0, 5, 6, 7,"
      " 1);"
      " r = ntransform(m, normal(u, v, 1)); }", "r", 3, e_xfn, 1e-6f },
    { "transform into world space", R_POINT "r = transform(\"world\", P); }", "r", 3, e_toworld, 1e-6f },
    { "transform into object space", R_POINT "r = transform(\"object\", P); }", "r", 3, e_toobject, 1e-6f },
    { "transform from world to object space", R_POINT "r = transform(\"world\", \"object\", point(u, v, 1)); }",
      "r", 3, e_worldobj, 1e-6f },
    { "transform into screen space divides by z", R_POINT "r = transform(\"screen\", point(u - 0.5, v - 0.5, 1 + u));"
      " }", "r", 3, e_toscreen, 1e-6f },
    { "transform from screen space", R_POINT "r = transform(\"screen\", \"current\", point(u, v, 0.5 + v)); }",
      "r", 3, e_fromscreen, 1e-6f },
    { "vtransform into named spaces", R_VECTOR "r = vtransform(\"object\", vector(u, v, 1))"
      " + vtransform(\"world\", \"current\", vector(0, 0, u)); }", "r", 3, e_vspace, 1e-6f },
    { "ntransform into object space", R_NORMAL "r = ntransform(\"shader\", normal(u, v, 1)); }", "r", 3, e_nobject,
      1e-6f },
    { "ntransform from object to world space", R_NORMAL "r = ntransform(\"object\", \"world\", normal(u, v, 1)); }",
      "r", 3, e_nobjworld, 1e-6f },
    { "point \"world\" (x, y, z)", R_POINT "r = point \"world\" (u, v, 0); }", "r", 3, e_ptworld, 1e-6f },
    { "point \"object\" (x, y, z)", R_POINT "r = point \"object\" (u, v, 0); }", "r", 3, e_ptobject, 1e-6f },
    { "vector \"shader\" (x, y, z)", R_VECTOR "r = vector \"shader\" (u, v, 1); }", "r", 3, e_vshader, 1e-6f },
    { "normal \"object\" (x, y, z)", R_NORMAL "r = normal \"object\" (u, v, 1); }", "r", 3, e_nobjcur, 1e-6f },
    { "depth between the clipping planes", R_FLOAT "r = depth(point(u, 0, 1 + 9 * u + v)); }", "r", 1, e_depth,
      1e-6f },
    { "determinant", R_FLOAT MVAR "r = determinant(m); }", "r", 1, e_det, 1e-5f },
    { "determinant of a singular matrix", R_FLOAT "r = determinant(matrix(1, 2, 3, 4, u, v, 1, 0, 1 + u, 2 + v, 4, 4,"
      " 0, 0, 0, 1)); }", "r", 1, e_zero, 1e-5f },
    { "inverse as 1/m", R_MATRIX MINV "r = 1 / m; }", "r", 16, e_inv, 1e-6f },
    { "matrix division a/b = a * inverse(b)", R_MATRIX MINV "r = matrix(1, 2, 3, 4, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, u,"
      " 1) / m; }", "r", 16, e_mdiv, 1e-5f },
    { "m * (1 / m) is the identity", R_MATRIX MINV "r = m * (1 / m); }", "r", 16, e_ident, 1e-5f },
    { "(1 / m) * m is the identity", R_MATRIX MINV "r = (1 / m) * m; }", "r", 16, e_ident, 1e-5f },
    { "the inverse of a product", R_MATRIX MINV "matrix a = matrix(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, u, v, 1, 1);"
      " r = 1 / (a * m); }", "r", 16, e_invprod, 1e-5f },
    { "matrix == and !=", "surface t() { matrix a = matrix(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16), b"
      " = a;"
      " matrix c = matrix(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 + step(0.5, u));"
      " Ci = color(a == b ? 1 : 0, a != c ? 1 : 0, a == c ? 1 : 0); }", "Ci", 3, e_mcmp, 0 },
    { "ctransform rgb to hsv", "surface t() { Ci = ctransform(\"hsv\", color(u, v, 0.5)); }", "Ci", 3, e_tohsv,
      1e-6f },
    { "ctransform hsv to rgb", "surface t() { Ci = ctransform(\"hsv\", \"rgb\", color(u * 0.8 + v * 0.15 + 0.02,"
      " 0.75,"
      " v * 0.5 + 0.5)); }", "Ci", 3, e_fromhsv, 1e-6f },
    { "color \"hsv\" (h, s, v)", "surface t() { Ci = color \"hsv\" (u * 0.8 + v * 0.15 + 0.02, 0.75, v * 0.5 + 0.5);"
      " }", "Ci", 3, e_fromhsv, 1e-6f },
    { "hsv of a grey", "surface t() { Ci = ctransform(\"hsv\", color(v, v, v)); }", "Ci", 3, e_hsvgrey, 1e-7f },
    { "ctransform rgb to hsl", "surface t() { Ci = ctransform(\"hsl\", color(u, v, 0.5)); }", "Ci", 3, e_tohsl,
      1e-6f },
    { "ctransform hsl to rgb", "surface t() { Ci = ctransform(\"hsl\", \"rgb\", color(u * 0.8 + v * 0.15 + 0.02, 0.6,"
      " v * 0.8 + 0.1)); }", "Ci", 3, e_fromhsl, 1e-6f },
    { "color \"hsl\" (h, s, l)", "surface t() { Ci = color \"hsl\" (u * 0.8 + v * 0.15 + 0.02, 0.6, v * 0.8 + 0.1);"
      " }", "Ci", 3, e_fromhsl, 1e-6f },
    { "ctransform rgb to XYZ", "surface t() { Ci = ctransform(\"XYZ\", color(u, v, 0.5)); }", "Ci", 3, e_toxyz,
      1e-6f },
    { "ctransform XYZ to rgb", "surface t() { Ci = ctransform(\"XYZ\", \"rgb\", color(u * 0.9, v, 0.5)); }",
      "Ci", 3, e_fromxyz, 1e-5f },
    { "color \"XYZ\" of the white point", "surface t() { Ci = color \"XYZ\" (0.9505 * u, u, 1.089 * u); }",
      "Ci", 3, e_xyzwhite, 1e-5f },
    { "ctransform rgb to xyY", "surface t() { Ci = ctransform(\"xyY\", color(u, v, 0.5)); }", "Ci", 3, e_toxyy,
      1e-6f },
    { "ctransform xyY to rgb", "surface t() { Ci = ctransform(\"xyY\", \"rgb\", color(0.3 + 0.1 * u, 0.3 + 0.1 * v,"
      " 0.5)); }", "Ci", 3, e_fromxyy, 1e-5f },
    { "ctransform rgb to YIQ", "surface t() { Ci = ctransform(\"YIQ\", color(u, v, 0.5)); }", "Ci", 3, e_toyiq,
      1e-6f },
    { "color \"YIQ\" (y, i, q)", "surface t() { Ci = color \"YIQ\" (u, v * 0.5 - 0.25, 0.1); }", "Ci", 3, e_fromyiq,
      1e-5f },
    { "ctransform hsv to hsl", "surface t() { Ci = ctransform(\"hsv\", \"hsl\", color(u * 0.8 + v * 0.15 + 0.02,"
      " 0.75, 0.8)); }", "Ci", 3, e_hsv2hsl, 1e-6f },
    { "color spaces of constant colors, by hand", R_MATRIX "color a = ctransform(\"hsv\", color(1, 0.5, 0)),"
      " b = ctransform(\"hsl\", color(0.2, 0.4, 0.6)), c = ctransform(\"YIQ\", color(1, 0, 0)),"
      " d = ctransform(\"xyY\", color(1)); r = matrix(comp(a, 0), comp(a, 1), comp(a, 2), comp(b, 0), comp(b, 1),"
      " comp(b, 2), comp(c, 0), comp(c, 1), comp(c, 2), comp(d, 0), comp(d, 1), comp(d, 2), 0, 0, 0, 0); }",
      "r", 16, e_byhand, 1e-6f },
    { "ctransform to and from rgb", "surface t() { Ci = ctransform(\"rgb\", \"rgb\", ctransform(\"rgb\", color(u, v,"
      " 0.5))); }", "Ci", 3, e_rgbid, 0 },
    { "hsl round trip", "surface t() { Ci = ctransform(\"hsl\", \"rgb\", ctransform(\"hsl\", color(u, v, 0.5))); }",
      "Ci", 3, e_rgbid, 1e-6f },
    { "setxcomp of a point", R_POINT "r = P; setxcomp(r, u * 2); }", "r", 3, e_setx, 0 },
    { "setycomp of a vector", R_VECTOR "r = vector(1, 2, 3); setycomp(r, -v); }", "r", 3, e_sety, 0 },
    { "setzcomp of a normal", R_NORMAL "r = N; setzcomp(r, u + v); }", "r", 3, e_setz, 0 },
    { "setcomp of a color", "surface t() { Ci = color(u, v, 0); setcomp(Ci, 2, u + v); }", "Ci", 3, e_setcomp,
      1e-7f },
    { "setcomp of a matrix", R_MATRIX "r = 1; setcomp(r, 2, 1, u); }", "r", 16, e_setcompm, 0 },
    { "fresnel(I, N, eta, Kr, Kt)", "surface t() { float kr, kt; fresnel(normalize(I), N, 1 / 1.5, kr, kt);"
      " Ci = color(kr, kt, 0); }", "Ci", 3, e_fresnel, 1e-6f },
    { "fresnel under total internal reflection", "surface t() { float kr, kt; fresnel(normalize(I), N, 3, kr, kt);"
      " Ci = color(kr, kt, 0); }", "Ci", 3, e_fresneltir, 1e-6f },
    { "fresnel's reflected vector", "surface t(output varying vector rr = 0, tt = 0) { float kr, kt;"
      " fresnel(normalize(I), N, 1 / 1.5, kr, kt, rr, tt); }", "rr", 3, e_fresnelR, 1e-6f },
    { "fresnel's transmitted vector", "surface t(output varying vector rr = 0, tt = 0) { float kr, kt;"
      " fresnel(normalize(I), N, 1 / 1.5, kr, kt, rr, tt); }", "tt", 3, e_fresnelT, 1e-6f },
    { "area(P)", R_FLOAT "r = area(P); }", "r", 1, e_area, 1e-6f },
    { "area of a tilted surface", R_FLOAT "r = area(point(u * 2, v, u + v)); }", "r", 1, e_area2, 1e-6f },
    { "Du and Dv of u and v", "surface t() { Ci = color(Du(u), Dv(v), Du(v)); }", "Ci", 3, e_duv, 1e-5f },
    { "Du and Dv of a linear function", "surface t() { float f = 3 * u - 2 * v + 1; Ci = color(Du(f), Dv(f), Du(s) +"
      " Dv(t)); }", "Ci", 3, e_dulin, 1e-5f },
    { "Du and Dv of P", R_POINT "r = Du(P) * 2 + Dv(P) * 3; }", "r", 3, e_duP, 1e-5f },
    { "Dv of a color", "surface t() { Ci = Dv(color(u, 2 * v, 5)); }", "Ci", 3, e_dvc, 1e-5f },
    { "Deriv(num, den)", R_FLOAT "r = Deriv(6 * u + 4 * v, 2 * u + 4 * v); }", "r", 1, e_deriv, 1e-5f },
    { "Deriv of a point", R_POINT "r = Deriv(P, u + v); }", "r", 3, e_derivP, 1e-5f },
    { "calculatenormal(P)", R_NORMAL "r = calculatenormal(P); }", "r", 3, e_calcn, 1e-5f },
    { "calculatenormal of a tilted surface", R_NORMAL "r = calculatenormal(point(u, v, u * 2 + v * 3)); }", "r", 3,
      e_calcn2, 1e-5f },
    { "translate", R_MATRIX "matrix id = 1; r = translate(id, vector(u, 2, -3)); }", "r", 16, e_translate, 1e-7f },
    { "rotate about z", R_MATRIX "matrix id = 1; r = rotate(id, radians(90), vector(0, 0, 1)); }", "r", 16, e_rotz,
      1e-6f },
    { "rotate about an oblique axis", R_MATRIX "matrix id = 1; r = rotate(id, u * 2, vector(1, 2, 2)); }", "r", 16,
      e_rotaxis, 1e-6f },
    { "scale", R_MATRIX "matrix id = 1; r = scale(id, point(2, u, -1)); }", "r", 16, e_scale, 1e-7f },
    { "translate applies before the matrix", R_POINT "matrix id = 1, m = scale(id, point(2, 2, 2));"
      " r = transform(translate(m, vector(1, 0, 0)), P); }", "r", 3, e_transorder, 1e-6f },
    { "rotate a point about a line", R_POINT "r = rotate(P, radians(90), point(0.5, 0, 0), point(0.5, 0, 1)); }",
      "r", 3, e_rotpt, 1e-6f },
    { "concat", "surface t() { Ci = color(concat(\"ab\", \"c\", \"de\") == \"abcde\" ? 1 : 0,"
      " concat(\"x\") == \"x\" ? 1 : 0, concat(\"a\", \"b\") == \"ba\" ? 1 : 0); }", "Ci", 3, e_str, 0 },
    { "format", "surface t() { Ci = color(format(\"%g and %s\", 1.5, \"x\") == \"1.5 and x\" ? 1 : 0,"
      " format(\"%.3f\", 1 / 3) == \"0.333\" ? 1 : 0, format(\"%s-%s\", \"a\", \"b\") == \"a-b\" ? 1 : 0); }", "Ci",
      3, e_true3, 0 },
    { "match", "surface t() { Ci = color(match(\"a.c\", \"abc\"), match(\"^b\", \"abc\"),"
      " match(\"[0-9]+$\", \"abc123\")); }", "Ci", 3, e_match, 0 },
    { "concat and match of varying strings", "surface t() { string a = u > 0.5 ? \"x\" : \"y\","
      " b = v < 0.5 ? \"1\" : \"22\", s = concat(a, \"-\", b);"
      " Ci = color(match(\"^x\", s), match(\"-1$\", s), s == concat(a, \"-\", b) ? 1 : 0); }",
      "Ci", 3, e_strvary, 0 },
    { "format of points, colors and matrices", "surface t() { Ci = color(format(\"%.1p|%.2c\", point(1, 2, 3),"
      " color(0.5, 1, 0)) == \"1.0 2.0 3.0|0.50 1.00 0.00\" ? 1 : 0, format(\"%g%%\", 50) == \"50%\" ? 1 : 0,"
      " format(\"%.0m\", matrix(2)) == \"2 0 0 0 0 2 0 0 0 0 2 0 0 0 0 2\" ? 1 : 0); }", "Ci", 3, e_true3, 0 },
};
const int run_geom_count = sizeof run_geom / sizeof *run_geom;

/*
** quadric.c: Sphere, Cone, Cylinder, Hyperboloid, Paraboloid, Disk and
** Torus, parameterised as in RISpec 3.2: u = theta / thetamax sweeps about
** +z, v runs along the profile. Each is one face with 4 varying (and
** vertex) values at its parametric corners.
**
** Segments: u steps at most the maximum facet angle around the sweep;
** along v the profile's tangent and the surface normal are sampled, and
** the steepest turning between two samples sets the (even) spacing, so
** no facet turns through more than the angle however unevenly the
** profile bends (a paraboloid near its apex): straight profiles
** (cylinder, cone, disk) get one segment and twisted hyperboloids as many
** as their normals need.
*/
#include <math.h>
#include <string.h>

#include "render/rib/tess.h"

typedef enum Kind {
    SPHERE, CONE, CYLINDER, HYPERBOLOID, PARABOLOID, DISK, TORUS
} Kind;

typedef struct Quadric {
    Kind kind;
    double theta;              /* thetamax in radians */
    double r, r2;              /* radius; torus: major, minor */
    double z0, z1;             /* sphere/cylinder/paraboloid z range;
                                  cone: 0..height; disk: height */
    double phi0, phi1;         /* sphere and torus profile angles */
    double p1[3], p2[3];       /* hyperboloid line */
} Quadric;

/* The profile point (radius, z) at v and its derivative; the sweep then
   rotates it about z. */
static void profile(const Quadric *q, double v, double *rad, double *z,
                    double *drad, double *dz, double *twist, double *dtwist)
{
    *rad = *z = *drad = *dz = *twist = *dtwist = 0;
    switch (q->kind) {
    case SPHERE: {
        double phi = q->phi0 + v * (q->phi1 - q->phi0), d = q->phi1 - q->phi0;
        *rad = q->r * cos(phi), *z = q->r * sin(phi);
        *drad = -d * q->r * sin(phi), *dz = d * q->r * cos(phi);
        break;
    }
    case TORUS: {
        double phi = q->phi0 + v * (q->phi1 - q->phi0), d = q->phi1 - q->phi0;
        *rad = q->r + q->r2 * cos(phi), *z = q->r2 * sin(phi);
        *drad = -d * q->r2 * sin(phi), *dz = d * q->r2 * cos(phi);
        break;
    }
    case CYLINDER:
        *rad = q->r, *drad = 0;
        *z = q->z0 + v * (q->z1 - q->z0), *dz = q->z1 - q->z0;
        break;
    case CONE:
    case DISK:
        *rad = q->r * (1 - v), *drad = -q->r;
        *z = q->kind == CONE ? v * q->z1 : q->z0;
        *dz = q->kind == CONE ? q->z1 : 0;
        break;
    case PARABOLOID: {
        /* r = rmax sqrt(z / zmax); the floor keeps the apex's infinite
           slope finite */
        double dzv = q->z1 - q->z0, zz = q->z0 + v * dzv;
        double s = sqrt(fmax(zz / q->z1, 1e-12));
        *rad = q->r * s, *z = zz;
        *drad = q->r * dzv / (2 * q->z1 * s), *dz = dzv;
        break;
    }
    case HYPERBOLOID: {
        /* The line p1-p2 in polar form: radius and angle about z. */
        double x = q->p1[0] + v * (q->p2[0] - q->p1[0]);
        double y = q->p1[1] + v * (q->p2[1] - q->p1[1]);
        double dx = q->p2[0] - q->p1[0], dy = q->p2[1] - q->p1[1];
        double rr = hypot(x, y);
        *rad = rr;
        *z = q->p1[2] + v * (q->p2[2] - q->p1[2]);
        *dz = q->p2[2] - q->p1[2];
        *drad = rr > 0 ? (x * dx + y * dy) / rr : hypot(dx, dy);
        *twist = atan2(y, x);
        *dtwist = rr > 0 ? (x * dy - y * dx) / (rr * rr) : 0;
        break;
    }
    }
}

static void quadric_point(const RibSurface *s, double a, double b,
                          double P[3], double Pa[3], double Pb[3])
{
    const Quadric *q = s->data;
    double rad, z, drad, dz, tw, dtw;
    profile(q, b, &rad, &z, &drad, &dz, &tw, &dtw);
    double th = a * q->theta + tw, c = cos(th), sn = sin(th);
    P[0] = rad * c, P[1] = rad * sn, P[2] = z;
    Pa[0] = -q->theta * rad * sn, Pa[1] = q->theta * rad * c, Pa[2] = 0;
    Pb[0] = drad * c - rad * sn * dtw;
    Pb[1] = drad * sn + rad * c * dtw;
    Pb[2] = dz;
}

static void quadric_uv(const RibSurface *s, int fu, int fv, double a,
                       double b, double uv[2])
{
    uv[0] = a, uv[1] = b;
}

static double angle(const double x[3], const double y[3])
{
    double lx = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    double ly = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
    if (!(lx > 0 && ly > 0))
        return 0;
    double c = (x[0] * y[0] + x[1] * y[1] + x[2] * y[2]) / (lx * ly);
    return acos(c > 1 ? 1 : c < -1 ? -1 : c);
}

#define PROFILE_SAMPLES 64
#define MAX_V_SEGMENTS 1024

static void quadric_segments(const RibSurface *s, double max_angle, int *su,
                             int *sv)
{
    const Quadric *q = s->data;
    *su = rib_angle_segments(q->theta, max_angle);
    double peak = 0, prevPb[3], prevN[3];
    for (int i = 0; i <= PROFILE_SAMPLES; i++) {
        double P[3], Pa[3], Pb[3], N[3];
        /* a = 0.5 keeps the sample off a zero sweep's null tangent */
        quadric_point(s, 0.5, (double)i / PROFILE_SAMPLES, P, Pa, Pb);
        N[0] = Pa[1] * Pb[2] - Pa[2] * Pb[1];
        N[1] = Pa[2] * Pb[0] - Pa[0] * Pb[2];
        N[2] = Pa[0] * Pb[1] - Pa[1] * Pb[0];
        if (i)
            peak = fmax(peak, fmax(angle(prevPb, Pb), angle(prevN, N)));
        memcpy(prevPb, Pb, sizeof prevPb);
        memcpy(prevN, N, sizeof prevN);
    }
    *sv = rib_angle_segments(peak * PROFILE_SAMPLES, max_angle);
    if (*sv > MAX_V_SEGMENTS)
        *sv = MAX_V_SEGMENTS;
}

/* Tessellates q, swept through thetamax degrees, with the parameter list
   from args[pos]. */
static void quadric(RibCtx *c, const RibRequest *r, size_t pos, Quadric *q,
                    double thetamax)
{
    static const RibPrimCounts counts = {1, 4, 4, 4};
    RibPrim prim;
    if (!rib_prim_parse(c, r, pos, RIB_POS_NONE, &prim))
        return;
    if (fabs(thetamax) > 360) {
        rib_warning(c, r->loc, "%s: thetamax %g is beyond a full turn; "
                    "%g used", r->name, thetamax, thetamax > 0 ? 360.0
                                                          : -360.0);
        thetamax = thetamax > 0 ? 360 : -360;
    }
    q->theta = thetamax * (M_PI / 180.0);
    /* A zero sweep has no surface. */
    if (q->theta != 0 && rib_prim_check(c, r, &prim, &counts)) {
        RibSurface s = {
            .nfu = 1, .nfv = 1, .point = quadric_point, .uv = quadric_uv,
            .segments = quadric_segments, .data = q,
        };
        rib_tessellate(c, r, &s, &prim);
    }
    rib_prim_free(&prim);
}

/* The n leading numbers of a quadric request; false after an error. */
static bool args(RibCtx *c, const RibRequest *r, size_t n, double *v,
                 const char *what, size_t *pos)
{
    *pos = 0;
    return rib_arg_numbers(c, r, pos, n, v, what);
}

static double asin_clamped(double x)
{
    return asin(x > 1 ? 1 : x < -1 ? -1 : x);
}

void rib_req_Sphere(RibCtx *c, const RibRequest *r)
{
    double v[4];
    size_t pos;
    if (!args(c, r, 4, v, "radius zmin zmax thetamax", &pos))
        return;
    Quadric q = {.kind = SPHERE, .r = v[0]};
    /* a zero radius gives NaN angles and no triangles */
    q.phi0 = asin_clamped(v[1] / v[0]);
    q.phi1 = asin_clamped(v[2] / v[0]);
    quadric(c, r, pos, &q, v[3]);
}

void rib_req_Cone(RibCtx *c, const RibRequest *r)
{
    double v[3];
    size_t pos;
    if (!args(c, r, 3, v, "height radius thetamax", &pos))
        return;
    Quadric q = {.kind = CONE, .r = v[1], .z1 = v[0]};
    quadric(c, r, pos, &q, v[2]);
}

void rib_req_Cylinder(RibCtx *c, const RibRequest *r)
{
    double v[4];
    size_t pos;
    if (!args(c, r, 4, v, "radius zmin zmax thetamax", &pos))
        return;
    Quadric q = {.kind = CYLINDER, .r = v[0], .z0 = v[1], .z1 = v[2]};
    quadric(c, r, pos, &q, v[3]);
}

void rib_req_Hyperboloid(RibCtx *c, const RibRequest *r)
{
    double v[7];
    size_t pos;
    if (!args(c, r, 7, v, "x1 y1 z1 x2 y2 z2 thetamax", &pos))
        return;
    Quadric q = {.kind = HYPERBOLOID};
    memcpy(q.p1, v, sizeof q.p1);
    memcpy(q.p2, v + 3, sizeof q.p2);
    quadric(c, r, pos, &q, v[6]);
}

void rib_req_Paraboloid(RibCtx *c, const RibRequest *r)
{
    double v[4];
    size_t pos;
    if (!args(c, r, 4, v, "rmax zmin zmax thetamax", &pos))
        return;
    if (v[2] == 0) {
        rib_error(c, r->loc, "Paraboloid: zmax must not be 0");
        return;
    }
    Quadric q = {.kind = PARABOLOID, .r = v[0], .z0 = v[1], .z1 = v[2]};
    quadric(c, r, pos, &q, v[3]);
}

void rib_req_Disk(RibCtx *c, const RibRequest *r)
{
    double v[3];
    size_t pos;
    if (!args(c, r, 3, v, "height radius thetamax", &pos))
        return;
    Quadric q = {.kind = DISK, .r = v[1], .z0 = v[0]};
    quadric(c, r, pos, &q, v[2]);
}

void rib_req_Torus(RibCtx *c, const RibRequest *r)
{
    double v[5];
    size_t pos;
    if (!args(c, r, 5, v, "rmajor rminor phimin phimax thetamax", &pos))
        return;
    Quadric q = {.kind = TORUS, .r = v[0], .r2 = v[1],
                 .phi0 = v[2] * (M_PI / 180.0), .phi1 = v[3] * (M_PI / 180.0)};
    if (fabs(q.phi1 - q.phi0) > 2 * M_PI)
        q.phi1 = q.phi0 + (q.phi1 > q.phi0 ? 2 * M_PI : -2 * M_PI);
    quadric(c, r, pos, &q, v[4]);
}

/*
** path_env.h: the path tracer's environment light, a lat-long map of the
** radiance arriving from every direction, and its importance sampling.
**
** RIB: `LightSource "envlight" 1 "string mapname" ["sky.exr"]
** "float intensity" [1] "color lightcolor" [1 1 1]` (shaders/envlight.sl;
** PRMan's dome light). The radiance along a direction d (towards the
** light) is intensity * lightcolor * the map's texel that d falls in, d
** taken to the light's shader space and read in RenderMan's lat-long
** convention (image/texture.h: +z at t = 0); no map: a constant
** environment. In the path tracer's radiometry (path.h) a map of 1 is
** what a white matte surface open to it reflects, as a constant surface
** of 1 around it would be. The classic integrator, which samples no
** light directions, sees envlight as the ambient light of the map's mean.
**
** The map is piecewise constant over its cells (at most PATH_ENV_MAX_W x
** PATH_ENV_MAX_H of them, box-filtered from the texture), and a cell is
** drawn with probability its luminance times its exact solid angle
** (2pi / w)(cos theta0 - cos theta1), the sin(theta) weighting integrated:
** a row from the rows' marginal, a column from the row's conditional,
** then a direction uniform in solid angle within the cell. The density
** is the cell's probability over its solid angle, times the Jacobian of
** the light's transform, so that it integrates to 1 over camera-space
** directions whatever the transform (tests/render/check_path_env.c).
*/
#ifndef RT_RENDER_PATH_ENV_H
#define RT_RENDER_PATH_ENV_H

#include "render/internal.h"

enum { PATH_ENV_MAX_W = 1024, PATH_ENV_MAX_H = 512 };

typedef struct PathEnv {
    const RShader *light;    /* the envlight instance */
    const char *category;    /* its __category ("" for none) */
    int w, h;                /* cells: s across, t down */
    float (*rgb)[3];         /* [t * w + s]: radiance, intensity * lightcolor
                                applied */
    double *row_cdf;         /* h + 1: the rows' marginal */
    double *col_cdf;         /* h rows of w + 1: each row's conditional */
    double total;            /* sum of luminance x solid angle; 0: black */
    RibMatrix to_camera, from_camera;  /* the light's shader space */
    double det;              /* |det| of to_camera's linear part */
} PathEnv;

/* An environment of w x h cells of radiance rgb (copied) in the space
   to_camera takes to camera space. 0, or -1 (out of memory, or
   to_camera singular). */
int path_env_build(PathEnv *e, const float (*rgb)[3], int w, int h, const RibMatrix *to_camera);
/* The envlight among world's lights into *e (e->light NULL when there is
   none): its parameters through shading, its map through the world's
   textures. 0, or -1 with "file:line:col: error: ..." (a map that cannot
   be read, a second envlight). */
int path_env_load(PathEnv *e, const RWorld *world, ShadeSys *shading, char *err, int errlen);
void path_env_free(PathEnv *e);

/* The radiance arriving along unit camera-space direction d (pointing
   away from the receiver). */
void path_env_radiance(const PathEnv *e, const float d[3], float L[3]);
/* The density of path_env_sample's directions at unit d (solid angle). */
float path_env_pdf(const PathEnv *e, const float d[3]);
/* A direction d drawn by uniform numbers u[0..2) with its radiance L;
   returns its density, 0 (and no direction) for a black environment. */
float path_env_sample(const PathEnv *e, const float u[2], float d[3], float L[3]);

#endif /* RT_RENDER_PATH_ENV_H */

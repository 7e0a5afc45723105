/*
** path_env.c: the path tracer's environment light (path_env.h): the map
** read into cells, the 2D piecewise-constant distribution over their
** luminance times solid angle, and sampling, density and radiance in
** camera space.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/image/texture.h"
#include "render/path_env.h"

#define PI 3.14159265358979323846

static float luminance(const float c[3])
{
    return 0.2126f * fmaxf(0.0f, c[0]) + 0.7152f * fmaxf(0.0f, c[1]) + 0.0722f * fmaxf(0.0f, c[2]);
}

/* Cell row j's solid angle (each of its cells is this over w). */
static double row_solid_angle(const PathEnv *e, int j)
{
    return 2 * PI * (cos(PI * j / e->h) - cos(PI * (j + 1) / e->h));
}

/* Index of the bin of cdf[0..n] (cdf[0] = 0, cdf[n] = 1) that u falls in,
   skipping empty bins. */
static int bin(const double *cdf, int n, double u)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (cdf[mid + 1] <= u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int path_env_build(PathEnv *e, const float (*rgb)[3], int w, int h, const RibMatrix *to_camera)
{
    memset(e, 0, sizeof *e);
    e->w = w, e->h = h;
    e->rgb = malloc((size_t)w * h * sizeof *e->rgb);
    e->row_cdf = malloc((size_t)(h + 1) * sizeof *e->row_cdf);
    e->col_cdf = malloc((size_t)h * (w + 1) * sizeof *e->col_cdf);
    if (!e->rgb || !e->row_cdf || !e->col_cdf) {
        path_env_free(e);
        return -1;
    }
    memcpy(e->rgb, rgb, (size_t)w * h * sizeof *e->rgb);
    e->to_camera = *to_camera;
    if (!rib_matrix_invert(to_camera, &e->from_camera)) {
        path_env_free(e);
        return -1;
    }
    const double *m = to_camera->m;
    e->det = fabs(m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8])
                  + m[2] * (m[4] * m[9] - m[5] * m[8]));
    e->row_cdf[0] = 0;
    for (int j = 0; j < h; j++) {
        double *c = e->col_cdf + (size_t)j * (w + 1), cell = row_solid_angle(e, j) / w;
        c[0] = 0;
        for (int i = 0; i < w; i++)
            c[i + 1] = c[i] + luminance(rgb[(size_t)j * w + i]) * cell;
        e->row_cdf[j + 1] = e->row_cdf[j] + c[w];
        for (int i = 1; i <= w && c[w] > 0; i++)
            c[i] /= c[w];
    }
    e->total = e->row_cdf[h];
    for (int j = 1; j <= h && e->total > 0; j++)
        e->row_cdf[j] /= e->total;
    return 0;
}

void path_env_free(PathEnv *e)
{
    free(e->rgb);
    free(e->row_cdf);
    free(e->col_cdf);
    memset(e, 0, sizeof *e);
}

/* Camera-space d in the light's space (unit in *ds), its cell, and the
   Jacobian |B d|^3 |det A| of the change of solid angle (A the light's
   linear map to camera space, B its inverse): pdf_camera = pdf_light /
   that. */
static double locate(const PathEnv *e, const float d[3], int *i, int *j)
{
    float v[3];
    rmat_vector(&e->from_camera, d, v);
    double len = sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
    if (!(len > 0))
        return 0;
    double s = atan2(v[1], v[0]) / (2 * PI) + 0.5, t = acos(fmax(-1, fmin(1, v[2] / len))) / PI;
    *i = (int)fmin(e->w - 1, fmax(0, floor(s * e->w)));
    *j = (int)fmin(e->h - 1, fmax(0, floor(t * e->h)));
    return len * len * len * e->det;
}

void path_env_radiance(const PathEnv *e, const float d[3], float L[3])
{
    int i, j;
    if (!(locate(e, d, &i, &j) > 0)) {
        L[0] = L[1] = L[2] = 0;
        return;
    }
    memcpy(L, e->rgb[(size_t)j * e->w + i], 3 * sizeof *L);
}

/* The density in the light's space of a direction in cell (i, j). */
static double cell_pdf(const PathEnv *e, int i, int j)
{
    const double *c = e->col_cdf + (size_t)j * (e->w + 1);
    double p = (e->row_cdf[j + 1] - e->row_cdf[j]) * (c[i + 1] - c[i]);
    return p / (row_solid_angle(e, j) / e->w);
}

float path_env_pdf(const PathEnv *e, const float d[3])
{
    int i, j;
    double jac = locate(e, d, &i, &j);
    if (!(e->total > 0) || !(jac > 0))
        return 0;
    return (float)(cell_pdf(e, i, j) / jac);
}

float path_env_sample(const PathEnv *e, const float u[2], float d[3], float L[3])
{
    if (!(e->total > 0))
        return 0;
    /* The row and the column, each number's remainder in its bin placing
       the direction within the cell. */
    int j = bin(e->row_cdf, e->h, u[0]);
    const double *c = e->col_cdf + (size_t)j * (e->w + 1);
    int i = bin(c, e->w, u[1]);
    double fv = (u[0] - e->row_cdf[j]) / (e->row_cdf[j + 1] - e->row_cdf[j]);
    double fu = (u[1] - c[i]) / (c[i + 1] - c[i]);
    fv = fmin(1, fmax(0, fv)), fu = fmin(1, fmax(0, fu));
    double z0 = cos(PI * j / e->h), z1 = cos(PI * (j + 1) / e->h);
    double z = z0 + fv * (z1 - z0), r = sqrt(fmax(0, 1 - z * z));
    double phi = 2 * PI * ((i + fu) / e->w - 0.5);
    float v[3] = { (float)(r * cos(phi)), (float)(r * sin(phi)), (float)z };
    rmat_vector(&e->to_camera, v, d);
    float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int k = 0; k < 3; k++)
        d[k] /= len;
    path_env_radiance(e, d, L);
    return path_env_pdf(e, d);
}

/* The map's cell (i, j) of w x h: the texture's box over it, in (s, t)
   (a lat-long map's texels are its cells at their own resolution). */
static int map_cell(TexSystem *ts, const char *name, int w, int h, int i, int j, float out[3],
                    char *err, int errlen)
{
    VmTexLookup q = { .kind = VM_TEXTURE, .name = name, .nchannels = 3, .swidth = 1,
                      .twidth = 1, .samples = 1 };
    for (int k = 0; k < 4; k++) {
        q.corner[k][0] = (float)(i + (k & 1)) / (float)w;
        q.corner[k][1] = (float)(j + (k >> 1)) / (float)h;
    }
    return texsys_lookup(ts, &q, out, err, errlen);
}

/* The environment of light l (an envlight) from its parameters. */
static int load_light(PathEnv *e, const RWorld *world, ShadeCtx *c, const RShader *l, char *err,
                      int errlen)
{
    ShadeSys *sys = c->shading;
    float intensity = 1, color[3] = { 1, 1, 1 };
    const char *map = NULL;
    sys->param(c->thread, 0, l, NULL, false, "intensity", 'f', 1, 0, &intensity, NULL);
    sys->param(c->thread, 0, l, NULL, false, "lightcolor", 'c', 3, 0, color, NULL);
    sys->param(c->thread, 0, l, NULL, false, "mapname", 's', 1, 0, NULL, &map);
    int w = 1, h = 1;
    float res[2], channels = 3;
    char why[400];
    RibMatrix inv;
    if (!rib_matrix_invert(&l->to_camera, &inv)) {
        snprintf(why, sizeof why, "its space is singular (a zero scale?): no direction has a "
                 "place on the map");
        goto bad;
    }
    if (map && *map) {
        const char *format = "";
        if (texsys_info(world->textures, map, "resolution", 'f', 2, res, NULL, why, sizeof why) < 0
            || texsys_info(world->textures, map, "channels", 'f', 1, &channels, NULL, why,
                           sizeof why) < 0
            || texsys_info(world->textures, map, "textureformat", 's', 1, NULL, &format, why,
                           sizeof why) < 0)
            goto bad;
        /* Its cells are the map's texels: a lat-long layout, or a plain
           texture read as one. */
        if (strcmp(format, "LatLong Environment") && strcmp(format, "Plain Texture")) {
            snprintf(why, sizeof why, "'%s' is a %s map; the path tracer's environment light "
                     "takes lat-long maps (MakeLatLongEnvironment)", map, format);
            goto bad;
        }
        w = (int)fmin(PATH_ENV_MAX_W, fmax(4, res[0]));
        h = (int)fmin(PATH_ENV_MAX_H, fmax(2, res[1]));
    }
    float(*rgb)[3] = malloc((size_t)w * h * sizeof *rgb);
    if (!rgb) {
        snprintf(err, (size_t)errlen, "rtrender: error: out of memory for an environment map");
        return -1;
    }
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) {
            float *o = rgb[(size_t)j * w + i];
            o[0] = o[1] = o[2] = 1;
            if (map && *map && map_cell(world->textures, map, w, h, i, j, o, why, sizeof why) < 0) {
                free(rgb);
                goto bad;
            }
            if (channels < 3) /* a grey map */
                o[1] = o[2] = o[0];
            for (int k = 0; k < 3; k++)
                o[k] *= intensity * color[k];
        }
    int rc = path_env_build(e, (const float(*)[3])rgb, w, h, &l->to_camera);
    free(rgb);
    if (rc < 0)
        snprintf(err, (size_t)errlen, "rtrender: error: out of memory for an environment map");
    e->light = l;
    e->category = shade_light_category(c, l);
    return rc;
bad:;
    const RibLoc *loc = &l->rib->loc;
    snprintf(err, (size_t)errlen, "%s:%d:%d: error: environment light \"%s\": %s", loc->file,
             loc->line, loc->col, l->rib->name, why);
    return -1;
}

int path_env_load(PathEnv *e, const RWorld *world, ShadeSys *shading, char *err, int errlen)
{
    memset(e, 0, sizeof *e);
    const RShader *found = NULL;
    for (size_t k = 0; k < world->nlights; k++) {
        const RShader *l = world->lights[k];
        if (!l || strcmp(l->rib->name, "envlight"))
            continue;
        if (found) {
            const RibLoc *loc = &l->rib->loc;
            snprintf(err, (size_t)errlen,
                     "%s:%d:%d: error: a second environment light; the path tracer takes one "
                     "(the first is at line %d)",
                     loc->file, loc->line, loc->col, found->rib->loc.line);
            return -1;
        }
        found = l;
    }
    if (!found)
        return 0;
    ShadeCtx c;
    shade_ctx_init(&c, world, shading, 0, NULL);
    int rc = load_light(e, world, &c, found, err, errlen);
    shade_ctx_free(&c);
    return rc;
}

/*
** camera.c: the frame's camera (RISpec 3.2 section 4.1.1): resolution,
** screen window, crop window, projection and clipping as camera rays,
** and the pixel filters of section 4.1.4.
**
** Depth of field (section 4.1.1's DepthOfField) is a thin lens: rays leave
** from a disk of radius R about the eye and meet the pinhole ray at depth
** focaldistance d. R is focallength f / (2 fstop N), scaled by d / (d - f)
** so that a point at depth z blurs into a real thin lens's circle of
** confusion: radius (f / 2N) |z - d| / (z (d - f)) in units of x/z (the
** screen window's units times tan(fov/2)).
*/
#include <math.h>
#include <string.h>

#include "render/camera.h"
#include "render/internal.h"

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

void camera_setup(Camera *cam, const RibOptions *opt, const RenderSettings *rs)
{
    RibOptions o = *opt;
    if (rs->xres > 0 && rs->yres > 0)
        o.xres = rs->xres, o.yres = rs->yres;
    cam->xres = o.xres, cam->yres = o.yres;
    rib_screen_window(&o, cam->screen);
    cam->perspective = o.projection == RIB_PROJ_PERSPECTIVE;
    cam->tan_half_fov = tanf(o.fov * 3.14159265358979f / 360.0f);
    cam->near_clip = o.near_clip;
    cam->far_clip = o.far_clip;
    cam->lens_radius = 0;
    cam->focal_distance = o.focal_distance;
    if (cam->perspective && isfinite(o.fstop) && o.fstop > 0 && o.focal_distance > o.focal_length)
        cam->lens_radius = o.focal_length / (2 * o.fstop) * o.focal_distance
                           / (o.focal_distance - o.focal_length);
    const float *crop = rs->crop_set ? rs->crop : o.crop;
    /* RISpec 3.2 section 4.1.1's rounding: pixels ceil(xres * xmin)
       through ceil(xres * xmax - 1), inclusive. */
    cam->x0 = clampi((int)ceilf((float)o.xres * crop[0]), 0, o.xres);
    cam->x1 = clampi((int)ceilf((float)o.xres * crop[1] - 1) + 1, cam->x0, o.xres);
    cam->y0 = clampi((int)ceilf((float)o.yres * crop[2]), 0, o.yres);
    cam->y1 = clampi((int)ceilf((float)o.yres * crop[3] - 1) + 1, cam->y0, o.yres);
    cam->filter = o.filter;
    cam->filter_width[0] = o.filter_width[0] > 0 ? o.filter_width[0] : 1;
    cam->filter_width[1] = o.filter_width[1] > 0 ? o.filter_width[1] : 1;
}

void camera_ray(const Camera *cam, float x, float y, float org[3], float dir[3], float *tnear,
                float *tfar)
{
    const float *w = cam->screen;
    float sx = w[0] + (w[1] - w[0]) * x / (float)cam->xres;
    float sy = w[3] - (w[3] - w[2]) * y / (float)cam->yres;
    /* Directions have z = 1, so a hit's t is its depth. */
    if (cam->perspective) {
        org[0] = org[1] = org[2] = 0;
        dir[0] = sx * cam->tan_half_fov, dir[1] = sy * cam->tan_half_fov;
    } else {
        org[0] = sx, org[1] = sy, org[2] = 0;
        dir[0] = dir[1] = 0;
    }
    dir[2] = 1;
    if (cam->lens_radius > 0) {
        /* A point of the lens from the raster position's bits, mapped
           onto the disk by Shirley's concentric map (even density); the
           ray keeps z = 1 and passes the pinhole ray's point at depth d. */
        uint32_t bx, by;
        memcpy(&bx, &x, sizeof bx);
        memcpy(&by, &y, sizeof by);
        float a = 2 * rt_unit(rt_hash(bx, by, 0x1e25u)) - 1;
        float b = 2 * rt_unit(rt_hash(by, bx, 0x1e26u)) - 1;
        float r, phi;
        if (a * a > b * b)
            r = a, phi = 0.785398163f * (b / a);
        else if (b != 0)
            r = b, phi = 1.570796327f - 0.785398163f * (a / b);
        else
            r = 0, phi = 0;
        float lx = cam->lens_radius * r * cosf(phi), ly = cam->lens_radius * r * sinf(phi);
        float d = cam->focal_distance;
        org[0] = lx, org[1] = ly;
        dir[0] -= lx / d, dir[1] -= ly / d;
    }
    *tnear = cam->near_clip;
    *tfar = cam->far_clip;
}

static float sincf(float x)
{
    if (fabsf(x) < 1e-6f)
        return 1;
    float px = 3.14159265358979f * x;
    return sinf(px) / px;
}

static float catmull_rom(float x)
{
    x = fabsf(x);
    float x2 = x * x;
    return x < 1 ? 1.5f * x * x2 - 2.5f * x2 + 1
         : x < 2 ? -0.5f * x * x2 + 2.5f * x2 - 4 * x + 2
                 : 0;
}

void camera_pixel_sample(int sqrt_spp, int x, int y, int k, float *dx, float *dy)
{
    float jx = rt_unit(rt_hash((uint32_t)x, (uint32_t)y, 2u * (uint32_t)k));
    float jy = rt_unit(rt_hash((uint32_t)x, (uint32_t)y, 2u * (uint32_t)k + 1));
    if (sqrt_spp > 0) {
        *dx = ((float)(k % sqrt_spp) + jx) / (float)sqrt_spp;
        *dy = ((float)(k / sqrt_spp) + jy) / (float)sqrt_spp;
    } else {
        *dx = jx, *dy = jy;
    }
}

float camera_filter(const Camera *cam, float dx, float dy)
{
    float hw = cam->filter_width[0] / 2, hh = cam->filter_width[1] / 2;
    if (fabsf(dx) > hw || fabsf(dy) > hh)
        return 0;
    switch (cam->filter) {
    case RIB_FILTER_BOX:
        return 1;
    case RIB_FILTER_TRIANGLE:
        return (1 - fabsf(dx) / hw) * (1 - fabsf(dy) / hh);
    case RIB_FILTER_GAUSSIAN: {
        float x = dx / hw, y = dy / hh;
        return expf(-2 * (x * x + y * y));
    }
    case RIB_FILTER_CATMULLROM:
        return catmull_rom(dx) * catmull_rom(dy);
    case RIB_FILTER_SINC:
        return sincf(dx) * sincf(dy);
    }
    return 0;
}

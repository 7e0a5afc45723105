/*
** camera.h: camera rays and pixel filters (camera.c).
*/
#ifndef RT_RENDER_CAMERA_H
#define RT_RENDER_CAMERA_H

#include <stdbool.h>

#include "render/render.h"

typedef struct Camera {
    int xres, yres;
    int x0, x1, y0, y1;        /* the crop window's pixels: [x0, x1) x [y0, y1) */
    float screen[4];           /* left right bottom top */
    bool perspective;
    float tan_half_fov;
    float near_clip, far_clip;
    float lens_radius;         /* 0: a pinhole */
    float focal_distance;
    RibFilter filter;
    float filter_width[2];
} Camera;

void camera_setup(Camera *cam, const RibOptions *opt, const RenderSettings *rs);
/* The ray through raster position (x, y) (pixel (i, j) spans [i, i+1) x
   [j, j+1), y down), in camera space, with its clipping range. With depth
   of field it leaves from a point of the lens that a hash of (x, y)
   picks, so each pixel sample gets its own. */
void camera_ray(const Camera *cam, float x, float y, float org[3], float dir[3], float *tnear,
                float *tfar);
/* Sample k of pixel (x, y): its offset in the pixel, from a hash of
   both, stratified on a sqrt_spp x sqrt_spp grid when sqrt_spp > 0. */
void camera_pixel_sample(int sqrt_spp, int x, int y, int k, float *dx, float *dy);
/* The filter's weight of a sample at (dx, dy) pixels from a pixel centre. */
float camera_filter(const Camera *cam, float dx, float dy);

#endif /* RT_RENDER_CAMERA_H */

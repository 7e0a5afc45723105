/*
** film.c: the sample buffer and the pixel filter (RISpec 3.2 section
** 4.1.4): each pixel is the filter-weighted mean of the samples within
** the filter's width of its centre.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/film.h"

static int reach(float width)
{
    return (int)ceilf(width / 2 - 0.5f);
}

Film *film_new(const Camera *cam, int spp)
{
    int rx = reach(cam->filter_width[0]), ry = reach(cam->filter_width[1]);
    Film *f = calloc(1, sizeof *f);
    f->x0 = cam->x0 - rx < 0 ? 0 : cam->x0 - rx;
    f->x1 = cam->x1 + rx > cam->xres ? cam->xres : cam->x1 + rx;
    f->y0 = cam->y0 - ry < 0 ? 0 : cam->y0 - ry;
    f->y1 = cam->y1 + ry > cam->yres ? cam->yres : cam->y1 + ry;
    f->spp = spp;
    size_t n = (size_t)(f->x1 - f->x0) * (size_t)(f->y1 - f->y0) * (size_t)spp * FILM_FLOATS;
    /* 2^28 floats (1 GB): beyond that, fewer samples are the answer. */
    if (n > (size_t)1 << 28 || !(f->samples = calloc(n ? n : 1, sizeof *f->samples))) {
        free(f);
        return NULL;
    }
    return f;
}

void film_free(Film *f)
{
    if (f) {
        free(f->samples);
        free(f);
    }
}

static float *sample(const Film *f, int x, int y, int k)
{
    size_t pixel = (size_t)(y - f->y0) * (size_t)(f->x1 - f->x0) + (size_t)(x - f->x0);
    return f->samples + (pixel * (size_t)f->spp + (size_t)k) * FILM_FLOATS;
}

void film_sample_pos(Film *f, int x, int y, int k, float sx, float sy)
{
    float *s = sample(f, x, y, k);
    s[0] = sx, s[1] = sy;
}

void film_sample_value(Film *f, int x, int y, int k, const float C[3], const float A[3], float z)
{
    float *s = sample(f, x, y, k);
    memcpy(s + 2, C, 3 * sizeof *C);
    memcpy(s + 5, A, 3 * sizeof *A);
    s[8] = z;
}

Image *film_resolve(const Film *f, const Camera *cam)
{
    int w = cam->x1 - cam->x0, h = cam->y1 - cam->y0;
    Image *img = image_new(w > 0 ? w : 1, h > 0 ? h : 1, 5);
    if (!img)
        return NULL;
    int rx = reach(cam->filter_width[0]), ry = reach(cam->filter_width[1]);
    for (int y = cam->y0; y < cam->y1; y++)
        for (int x = cam->x0; x < cam->x1; x++) {
            double sum[4] = { 0, 0, 0, 0 }, wsum = 0;
            float z = INFINITY;
            float cx = (float)x + 0.5f, cy = (float)y + 0.5f;
            for (int yy = y - ry; yy <= y + ry; yy++)
                for (int xx = x - rx; xx <= x + rx; xx++) {
                    if (xx < f->x0 || xx >= f->x1 || yy < f->y0 || yy >= f->y1)
                        continue;
                    for (int k = 0; k < f->spp; k++) {
                        const float *s = sample(f, xx, yy, k);
                        float wt = camera_filter(cam, s[0] - cx, s[1] - cy);
                        if (xx == x && yy == y && s[8] < z)
                            z = s[8];
                        if (wt == 0)
                            continue;
                        for (int c = 0; c < 3; c++)
                            sum[c] += wt * s[2 + c];
                        sum[3] += wt * (s[5] + s[6] + s[7]) / 3;
                        wsum += wt;
                    }
                }
            float *p = image_pixel(img, x - cam->x0, y - cam->y0);
            for (int c = 0; c < 4; c++)
                p[c] = wsum != 0 ? (float)(sum[c] / wsum) : 0;
            p[4] = z;
        }
    return img;
}

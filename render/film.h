/*
** film.h: every pixel sample of a render, and the filtered image made
** from them (film.c).
*/
#ifndef RT_RENDER_FILM_H
#define RT_RENDER_FILM_H

#include "render/image/image.h"
#include "render/camera.h"

/* Samples cover [x0, x1) x [y0, y1): the crop window grown by the
   filter's reach, so that pixels at its edge are filtered like any. */
typedef struct Film {
    int x0, x1, y0, y1, spp;
    float *samples;            /* per pixel, per sample: x y r g b ar ag ab z */
} Film;

enum { FILM_FLOATS = 9 };

/* NULL if the buffer would be too large. */
Film *film_new(const Camera *cam, int spp);
void film_free(Film *f);
void film_sample_pos(Film *f, int x, int y, int k, float sx, float sy);
void film_sample_value(Film *f, int x, int y, int k, const float C[3], const float A[3], float z);

/* The crop window's pixels filtered: channels R G B A Z, colors and
   alpha weighted by the pixel filter, Z the nearest sample's depth in
   the pixel (infinity where nothing was hit). */
Image *film_resolve(const Film *f, const Camera *cam);

#endif /* RT_RENDER_FILM_H */

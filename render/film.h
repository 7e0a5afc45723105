/*
** film.h: the film samples land in as they come, filtered at once
** (film.c), so that its memory does not depend on the samples per pixel.
**
** The region samples are taken in (the crop window grown by the filter's
** reach, so that pixels at its edge are filtered like any) is cut into
** FILM_TILE x FILM_TILE tiles. A thread renders a tile's samples into its
** own FilmTile, which spans the tile and the filter's reach around it,
** and stores it in the film's slot for that tile; the image sums every
** tile's slot over each pixel in tile order. Nothing depends on which
** thread rendered which tile, or when: the image is the same for any
** number of threads.
*/
#ifndef RT_RENDER_FILM_H
#define RT_RENDER_FILM_H

#include <stddef.h>

#include "render/image/image.h"
#include "render/camera.h"

enum { FILM_TILE = 16 };

/* The most pixels a film holds (8192 x 8192): about 28 bytes each, so
   under 2 GB whatever the samples per pixel. */
enum { FILM_MAX_PIXELS = 1 << 26 };

typedef struct Film {
    const Camera *cam;         /* it outlives the film */
    int x0, x1, y0, y1;        /* samples are taken in [x0, x1) x [y0, y1) */
    int rx, ry;                /* the filter's reach in pixels */
    int tiles_x, ntiles;
    int pad_w, pad_h;          /* a tile's slot: the tile grown by the reach */
    float *sums;               /* per tile, per slot pixel: r g b a w (sums
                                  of filter-weighted values, and of weights) */
    float *z;                  /* per tile, per tile pixel: nearest depth */
} Film;

/* A thread's tile being rendered: sums in double, however many samples. */
typedef struct FilmTile {
    const Film *film;
    int tile, tx0, ty0;        /* its first pixel */
    int tx1, ty1;              /* past its last pixel */
    double *sums;              /* as the film's slot */
    float *z;
} FilmTile;

/* NULL if out of memory. */
Film *film_new(const Camera *cam);
void film_free(Film *f);
/* Bytes the film holds: the same for any number of samples. */
size_t film_bytes(const Film *f);
/* The pixels of tile t: [x0, x1) x [y0, y1). */
void film_tile_rect(const Film *f, int t, int *x0, int *y0, int *x1, int *y1);

FilmTile *film_tile_new(const Film *f);
void film_tile_free(FilmTile *t);
/* Starts tile `tile` afresh. */
void film_tile_begin(FilmTile *t, int tile);
/* A sample at raster position (sx, sy), inside the tile (or on its far
   edge, where a pixel's position plus an offset just under 1 rounded up:
   it counts with the tile's last pixel): color C, alpha A (per
   channel), depth z. */
void film_tile_add(FilmTile *t, float sx, float sy, const float C[3], const float A[3], float z);
/* Stores the tile in its slot of the film. */
void film_tile_end(Film *f, const FilmTile *t);

/* The crop window's pixels filtered: channels R G B A Z, colors and
   alpha weighted by the pixel filter, Z the nearest sample's depth in
   the pixel (infinity where nothing was hit). */
Image *film_resolve(const Film *f);

#endif /* RT_RENDER_FILM_H */

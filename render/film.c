/*
** film.c: the pixel filter (RISpec 3.2 section 4.1.4) applied as samples
** come: each pixel is the filter-weighted mean of the samples within the
** filter's width of its centre. A sample adds its weighted value to every
** pixel within the filter's reach in its tile's slot; the image sums the
** slots that cover a pixel, in tile order (film.h).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/film.h"

enum { SUMS = 5 };             /* r g b a w */

static int reach(float width)
{
    return (int)ceilf(width / 2 - 0.5f);
}

static size_t slot_floats(const Film *f)
{
    return (size_t)f->pad_w * (size_t)f->pad_h * SUMS;
}

Film *film_new(const Camera *cam)
{
    Film *f = calloc(1, sizeof *f);
    f->cam = cam;
    f->rx = reach(cam->filter_width[0]), f->ry = reach(cam->filter_width[1]);
    f->x0 = cam->x0 - f->rx < 0 ? 0 : cam->x0 - f->rx;
    f->x1 = cam->x1 + f->rx > cam->xres ? cam->xres : cam->x1 + f->rx;
    f->y0 = cam->y0 - f->ry < 0 ? 0 : cam->y0 - f->ry;
    f->y1 = cam->y1 + f->ry > cam->yres ? cam->yres : cam->y1 + f->ry;
    f->tiles_x = (f->x1 - f->x0 + FILM_TILE - 1) / FILM_TILE;
    f->ntiles = f->tiles_x * ((f->y1 - f->y0 + FILM_TILE - 1) / FILM_TILE);
    f->pad_w = FILM_TILE + 2 * f->rx, f->pad_h = FILM_TILE + 2 * f->ry;
    size_t n = f->ntiles > 0 ? (size_t)f->ntiles : 1;
    f->sums = calloc(n * slot_floats(f), sizeof *f->sums);
    f->z = malloc(n * FILM_TILE * FILM_TILE * sizeof *f->z);
    if (!f->sums || !f->z) {
        film_free(f);
        return NULL;
    }
    for (size_t i = 0; i < n * FILM_TILE * FILM_TILE; i++)
        f->z[i] = INFINITY;
    return f;
}

void film_free(Film *f)
{
    if (f) {
        free(f->sums);
        free(f->z);
        free(f);
    }
}

size_t film_bytes(const Film *f)
{
    size_t n = f->ntiles > 0 ? (size_t)f->ntiles : 1;
    return sizeof *f + n * (slot_floats(f) + FILM_TILE * FILM_TILE) * sizeof(float);
}

void film_tile_rect(const Film *f, int t, int *x0, int *y0, int *x1, int *y1)
{
    *x0 = f->x0 + (t % f->tiles_x) * FILM_TILE, *y0 = f->y0 + (t / f->tiles_x) * FILM_TILE;
    *x1 = *x0 + FILM_TILE < f->x1 ? *x0 + FILM_TILE : f->x1;
    *y1 = *y0 + FILM_TILE < f->y1 ? *y0 + FILM_TILE : f->y1;
}

FilmTile *film_tile_new(const Film *f)
{
    FilmTile *t = calloc(1, sizeof *t);
    t->film = f;
    t->sums = malloc(slot_floats(f) * sizeof *t->sums);
    t->z = malloc(FILM_TILE * FILM_TILE * sizeof *t->z);
    return t;
}

void film_tile_free(FilmTile *t)
{
    if (t) {
        free(t->sums);
        free(t->z);
        free(t);
    }
}

void film_tile_begin(FilmTile *t, int tile)
{
    int x1, y1;
    t->tile = tile;
    film_tile_rect(t->film, tile, &t->tx0, &t->ty0, &x1, &y1);
    memset(t->sums, 0, slot_floats(t->film) * sizeof *t->sums);
    for (int i = 0; i < FILM_TILE * FILM_TILE; i++)
        t->z[i] = INFINITY;
}

void film_tile_add(FilmTile *t, float sx, float sy, const float C[3], const float A[3], float z)
{
    const Film *f = t->film;
    /* x + dx rounds to x + 1 for an offset dx within half an ulp of 1
       (from x = 128 on: 512 x 512 at 64 spp has thousands): such a
       sample stays in its tile, not one past its edge (where its depth
       and sums would land outside the tile's buffers). */
    int px = (int)floorf(sx), py = (int)floorf(sy);
    px = px < t->tx0 + FILM_TILE ? px : t->tx0 + FILM_TILE - 1;
    py = py < t->ty0 + FILM_TILE ? py : t->ty0 + FILM_TILE - 1;
    int k = (py - t->ty0) * FILM_TILE + (px - t->tx0);
    if (z < t->z[k])
        t->z[k] = z;
    double a = (A[0] + A[1] + A[2]) / 3.0;
    for (int y = py - f->ry; y <= py + f->ry; y++)
        for (int x = px - f->rx; x <= px + f->rx; x++) {
            float w = camera_filter(f->cam, sx - ((float)x + 0.5f), sy - ((float)y + 0.5f));
            if (w == 0)
                continue;
            double *s = t->sums + ((size_t)(y - t->ty0 + f->ry) * (size_t)f->pad_w
                                   + (size_t)(x - t->tx0 + f->rx)) * SUMS;
            s[0] += w * C[0], s[1] += w * C[1], s[2] += w * C[2], s[3] += w * a, s[4] += w;
        }
}

void film_tile_end(Film *f, const FilmTile *t)
{
    float *slot = f->sums + (size_t)t->tile * slot_floats(f);
    for (size_t i = 0; i < slot_floats(f); i++)
        slot[i] = (float)t->sums[i];
    memcpy(f->z + (size_t)t->tile * FILM_TILE * FILM_TILE, t->z,
           FILM_TILE * FILM_TILE * sizeof *t->z);
}

/* Pixel (x, y) of the image: the slots of the tiles whose reach covers
   it, summed in tile order. */
static void resolve_pixel(const Film *f, int x, int y, float *p)
{
    double sum[SUMS] = { 0, 0, 0, 0, 0 };
    int tx_lo = (x - f->rx - f->x0) / FILM_TILE, tx_hi = (x + f->rx - f->x0) / FILM_TILE;
    int ty_lo = (y - f->ry - f->y0) / FILM_TILE, ty_hi = (y + f->ry - f->y0) / FILM_TILE;
    int tiles_y = f->ntiles / f->tiles_x;
    for (int ty = ty_lo < 0 ? 0 : ty_lo; ty <= ty_hi && ty < tiles_y; ty++)
        for (int tx = tx_lo < 0 ? 0 : tx_lo; tx <= tx_hi && tx < f->tiles_x; tx++) {
            int tile = ty * f->tiles_x + tx;
            int ox = x - (f->x0 + tx * FILM_TILE) + f->rx, oy = y - (f->y0 + ty * FILM_TILE) + f->ry;
            const float *s = f->sums + (size_t)tile * slot_floats(f)
                             + ((size_t)oy * (size_t)f->pad_w + (size_t)ox) * SUMS;
            for (int c = 0; c < SUMS; c++)
                sum[c] += s[c];
        }
    for (int c = 0; c < 4; c++)
        p[c] = sum[4] != 0 ? (float)(sum[c] / sum[4]) : 0;
    int tx = (x - f->x0) / FILM_TILE, ty = (y - f->y0) / FILM_TILE;
    p[4] = f->z[(size_t)(ty * f->tiles_x + tx) * FILM_TILE * FILM_TILE
                + (size_t)((y - f->y0) % FILM_TILE) * FILM_TILE + (size_t)((x - f->x0) % FILM_TILE)];
}

Image *film_resolve(const Film *f)
{
    const Camera *cam = f->cam;
    int w = cam->x1 - cam->x0, h = cam->y1 - cam->y0;
    Image *img = image_new(w > 0 ? w : 1, h > 0 ? h : 1, 5);
    if (!img)
        return NULL;
    for (int y = cam->y0; y < cam->y1; y++)
        for (int x = cam->x0; x < cam->x1; x++)
            resolve_pixel(f, x, y, image_pixel(img, x - cam->x0, y - cam->y0));
    return img;
}

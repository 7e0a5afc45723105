/*
** texture.c: the texture cache, MIP pyramids, area filtering, and the
** texture, environment and shadow lookups (semantics in texture.h).
**
** The cache is a hash table under one mutex, held only to find or add
** an entry; each entry loads once under its own mutex and then is
** read-only, published by an atomic state, so lookups take no lock.
*/
#include "config.h"
#include "render/image/texture.h"
#include "render/image/image.h"
#include "render/image/pathfind.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_LEVELS 20   /* 65536 halves to 1 in 17 steps */
#define MAX_ANISO 16.0  /* longest side over shortest the filter follows */
#define MAX_SPAN 96     /* texels one axis of a filter box may touch */
#define NBUCKETS 256

typedef enum TexWrap { WRAP_BLACK, WRAP_PERIODIC, WRAP_CLAMP } TexWrap;
typedef enum TexKind { KIND_PLAIN, KIND_LATLONG, KIND_CUBE, KIND_SHADOW } TexKind;

typedef struct Level {
    int w, h;
    float *px; /* w * h * channels, row-major, top row first */
} Level;

typedef struct Pyramid {
    int nlevels;
    Level level[MAX_LEVELS]; /* level 0 full size, each next half, down to 1 x 1 */
} Pyramid;

typedef struct Texture {
    char *name;
    struct Texture *next;  /* hash chain */
    pthread_mutex_t load;  /* held while loading */
    int state;             /* 0 not loaded, 1 loaded, -1 failed (atomic) */
    char *error;           /* why it failed */
    char *note;            /* a warning for its first lookup, or NULL */
    int noted;             /* whether a lookup has given the note (atomic) */
    TexKind kind;
    int channels, nfaces;
    Pyramid face[6];       /* one, or a cube's px py pz nx ny nz */
    TexWrap swrap, twrap;
    bool has_matrices;
    float world_to_camera[16], world_to_screen[16];
} Texture;

struct TexSystem {
    pthread_mutex_t lock; /* the table */
    Texture *bucket[NBUCKETS];
    char *searchpath;
    float current_to_world[16];
    size_t max_bytes, bytes; /* the pyramids' limit, and what they take (atomic) */
};

/* ---- the system --------------------------------------------------------------------------- */

static const float identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };

TexSystem *texsys_new(void)
{
    TexSystem *ts = calloc(1, sizeof *ts);
    if (!ts)
        return NULL;
    pthread_mutex_init(&ts->lock, NULL);
    memcpy(ts->current_to_world, identity, sizeof identity);
    ts->max_bytes = TEXSYS_MAX_BYTES;
    return ts;
}

void texsys_free(TexSystem *ts)
{
    if (!ts)
        return;
    for (int b = 0; b < NBUCKETS; b++)
        for (Texture *t = ts->bucket[b], *next; t; t = next) {
            next = t->next;
            for (int f = 0; f < t->nfaces; f++)
                for (int l = 0; l < t->face[f].nlevels; l++)
                    free(t->face[f].level[l].px);
            pthread_mutex_destroy(&t->load);
            free(t->error);
            free(t->note);
            free(t->name);
            free(t);
        }
    pthread_mutex_destroy(&ts->lock);
    free(ts->searchpath);
    free(ts);
}

void texsys_set_searchpath(TexSystem *ts, const char *dirs)
{
    free(ts->searchpath);
    ts->searchpath = dirs && *dirs ? strdup(dirs) : NULL;
}

void texsys_set_memory_limit(TexSystem *ts, size_t bytes)
{
    ts->max_bytes = bytes;
}

void texsys_set_current_to_world(TexSystem *ts, const float m[16])
{
    memcpy(ts->current_to_world, m, sizeof ts->current_to_world);
}

/* ---- loading ------------------------------------------------------------------------------- */

/* The next level down: each texel the box-filtered average of the
   n / m source texels it covers on each axis (2 x 2 for even sizes). */
static bool shrink(const Level *src, Level *dst, int C)
{
    int w = src->w > 1 ? src->w / 2 : 1, h = src->h > 1 ? src->h / 2 : 1;
    float *tmp = malloc((size_t)w * (size_t)src->h * (size_t)C * sizeof(float));
    dst->px = malloc((size_t)w * (size_t)h * (size_t)C * sizeof(float));
    if (!tmp || !dst->px) {
        free(tmp), free(dst->px);
        dst->px = NULL;
        return false;
    }
    dst->w = w, dst->h = h;
    /* along x: source row y to tmp row y */
    double rx = (double)src->w / w, ry = (double)src->h / h;
    for (int y = 0; y < src->h; y++)
        for (int i = 0; i < w; i++) {
            float *o = tmp + ((size_t)y * (size_t)w + (size_t)i) * (size_t)C;
            double a = i * rx, b = a + rx;
            for (int c = 0; c < C; c++)
                o[c] = 0;
            for (int j = (int)floor(a); j < (int)ceil(b) && j < src->w; j++) {
                double wt = (fmin(j + 1, b) - fmax(j, a)) / rx;
                const float *p = src->px + ((size_t)y * (size_t)src->w + (size_t)j) * (size_t)C;
                for (int c = 0; c < C; c++)
                    o[c] += (float)(wt * p[c]);
            }
        }
    /* along y: tmp to dst */
    for (int i = 0; i < h; i++)
        for (int x = 0; x < w; x++) {
            float *o = dst->px + ((size_t)i * (size_t)w + (size_t)x) * (size_t)C;
            double a = i * ry, b = a + ry;
            for (int c = 0; c < C; c++)
                o[c] = 0;
            for (int j = (int)floor(a); j < (int)ceil(b) && j < src->h; j++) {
                double wt = (fmin(j + 1, b) - fmax(j, a)) / ry;
                const float *p = tmp + ((size_t)j * (size_t)w + (size_t)x) * (size_t)C;
                for (int c = 0; c < C; c++)
                    o[c] += (float)(wt * p[c]);
            }
        }
    free(tmp);
    return true;
}

static TexWrap parse_wrap(const char *s, size_t n)
{
    if (n == 8 && !strncmp(s, "periodic", 8))
        return WRAP_PERIODIC;
    if (n == 5 && !strncmp(s, "clamp", 5))
        return WRAP_CLAMP;
    return WRAP_BLACK;
}

/* The file a name refers to: the first directory of the search path
   holding it, then the name as given (the current folder), into buf;
   else one whose name differs only in case (pathfind.c), noted in
   t->note; else the name as given. */
static const char *resolve(const TexSystem *ts, Texture *t, char *buf, size_t size)
{
    const char *name = t->name;
    if (name[0] == '/')
        return name;
    char dirs[8192];
    if ((size_t)snprintf(dirs, sizeof dirs, "%s%s.", ts->searchpath ? ts->searchpath : "",
                         ts->searchpath ? ":" : "") >= sizeof dirs)
        return name;
    static const char *const whole[] = { "", NULL };
    PathFound found = path_find(dirs, name, whole, buf, size);
    if (found == PATH_FOUND_OTHER_CASE) {
        static const char fmt[] = "texture '%s' is not on the texturepath; '%s', whose name "
                                  "differs only in case, is used";
        size_t n = sizeof fmt + strlen(name) + strlen(buf);
        if ((t->note = malloc(n)))
            snprintf(t->note, n, fmt, name, buf);
    }
    return found == PATH_NOT_FOUND ? name : buf;
}

/* Makes py from its level 0 (which it then owns, even on failure);
   false if memory runs out. */
static bool build(Pyramid *py, Level base, int C)
{
    py->level[0] = base;
    py->nlevels = 1;
    if (!base.px)
        return false;
    while (py->nlevels < MAX_LEVELS &&
           (py->level[py->nlevels - 1].w > 1 || py->level[py->nlevels - 1].h > 1)) {
        if (!shrink(&py->level[py->nlevels - 1], &py->level[py->nlevels], C))
            return false;
        py->nlevels++;
    }
    return true;
}

/* Reads the file and builds the pyramids; false with t->error. */
static bool load(TexSystem *ts, Texture *t)
{
    char buf[4096], err[512], msg[700];
    const char *path = resolve(ts, t, buf, sizeof buf);
    if (access(path, R_OK) != 0) { /* image_read checks what it opens is a regular file */
        snprintf(msg, sizeof msg, "cannot open texture '%s': %s", t->name, strerror(errno));
        t->error = strdup(msg);
        return false;
    }
    Image *img = image_read(path, IMAGE_FORMAT_AUTO, err, sizeof err);
    if (!img) {
        /* the image layer's "path: error: " is said once, by us */
        const char *why = strstr(err, ": error: ");
        snprintf(msg, sizeof msg, "cannot read texture '%s': %s", t->name, why ? why + 9 : err);
        t->error = strdup(msg);
        return false;
    }
    /* a pyramid takes at most 4/3 of its base level */
    size_t need = (size_t)img->width * (size_t)img->height * (size_t)img->channels *
                  sizeof(float) / 3 * 4;
    size_t before = __atomic_fetch_add(&ts->bytes, need, __ATOMIC_RELAXED);
    if (before + need > ts->max_bytes) {
        __atomic_fetch_sub(&ts->bytes, need, __ATOMIC_RELAXED);
        snprintf(msg, sizeof msg, "cannot load texture '%s': its %zu bytes would take the "
                 "textures past their limit of %zu bytes (%zu in use)", t->name, need,
                 ts->max_bytes, before);
        t->error = strdup(msg);
        image_free(img);
        return false;
    }
    const ImageMeta *m = &img->meta;
    t->kind = !strcmp(m->texture_format, "Shadow") ? KIND_SHADOW
            : !strcmp(m->texture_format, "LatLong Environment") ? KIND_LATLONG
            : !strcmp(m->texture_format, "CubeFace Environment") ? KIND_CUBE : KIND_PLAIN;
    t->has_matrices = m->has_world_to_camera && m->has_world_to_screen;
    memcpy(t->world_to_camera, m->world_to_camera, sizeof t->world_to_camera);
    memcpy(t->world_to_screen, m->world_to_screen, sizeof t->world_to_screen);
    size_t comma = strcspn(m->wrap_modes, ",");
    t->swrap = parse_wrap(m->wrap_modes, comma);
    t->twrap = m->wrap_modes[comma] ? parse_wrap(m->wrap_modes + comma + 1,
                                                 strlen(m->wrap_modes + comma + 1))
                                    : t->swrap;
    t->channels = img->channels;
    bool ok = true;
    if (t->kind == KIND_CUBE) {
        /* RenderMan's 3 x 2 layout: px py pz over nx ny nz */
        int res = img->width / 3;
        if (res < 1 || img->width != 3 * res || img->height != 2 * res) {
            snprintf(msg, sizeof msg, "cannot use texture '%s': a cube-face map is 3 x 2 square "
                     "faces, not %d x %d pixels", t->name, img->width, img->height);
            t->error = strdup(msg);
            image_free(img);
            return false;
        }
        size_t row = (size_t)res * (size_t)t->channels;
        for (int f = 0; f < 6 && ok; f++) {
            float *px = malloc(row * (size_t)res * sizeof(float));
            for (int y = 0; px && y < res; y++)
                memcpy(px + (size_t)y * row, image_pixel(img, f % 3 * res, f / 3 * res + y),
                       row * sizeof(float));
            ok = px && build(&t->face[f], (Level){ res, res, px }, t->channels);
            t->nfaces += px != NULL;
        }
        image_free(img);
    } else {
        t->nfaces = 1;
        ok = build(&t->face[0], (Level){ img->width, img->height, img->pixels }, t->channels);
        img->pixels = NULL; /* the pyramid owns them now */
        image_free(img);
    }
    if (!ok) {
        snprintf(msg, sizeof msg, "cannot load texture '%s': out of memory", t->name);
        t->error = strdup(msg);
        return false;
    }
    return true;
}

/* The texture called name, loaded; NULL with err if it cannot be. */
static Texture *get(TexSystem *ts, const char *name, char *err, int errlen)
{
    uint32_t h = 2166136261u;
    for (const char *p = name; *p; p++)
        h = (h ^ (uint8_t)*p) * 16777619u;
    pthread_mutex_lock(&ts->lock);
    Texture **slot = &ts->bucket[h % NBUCKETS], *t;
    for (t = *slot; t && strcmp(t->name, name); t = t->next)
        ;
    if (!t) { /* first use: a new entry, loaded below */
        t = calloc(1, sizeof *t);
        if (t && !(t->name = strdup(name))) {
            free(t);
            t = NULL;
        }
        if (t) {
            pthread_mutex_init(&t->load, NULL);
            t->next = *slot;
            *slot = t;
        }
    }
    pthread_mutex_unlock(&ts->lock);
    if (!t) {
        snprintf(err, (size_t)errlen, "cannot load texture '%s': out of memory", name);
        return NULL;
    }
    int state = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
    if (state == 0) {
        pthread_mutex_lock(&t->load);
        state = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
        if (state == 0) {
            state = load(ts, t) ? 1 : -1;
            if (state < 0 && !t->error)
                t->error = strdup("cannot load texture: out of memory");
            __atomic_store_n(&t->state, state, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&t->load);
    }
    if (state < 0) {
        snprintf(err, (size_t)errlen, "%s", t->error ? t->error : "cannot load texture");
        return NULL;
    }
    return t;
}

/* ---- filtering ----------------------------------------------------------------------------- */

/* How much of texel j, [j, j + 1), lies in [a, b). */
static double overlap(double j, double a, double b)
{
    double o = fmin(j + 1, b) - fmax(j, a);
    return o > 0 ? o : 0;
}

/* The texels of an axis of n that [a, b) covers, through the wrap mode,
   as (index, weight) pairs; weights outside a black-wrapped axis are
   dropped (they count as black). -1 if more than MAX_SPAN pairs would
   be needed. */
static int axis_weights(double a, double b, int n, TexWrap wrap, int *idx, double *wt)
{
    double lo = floor(a), hi = ceil(b);
    int k = 0;
    if (hi - lo <= MAX_SPAN) {
        for (double j = lo; j < hi; j++) {
            double w = overlap(j, a, b);
            long m = (long)j;
            if (w <= 0 || (wrap == WRAP_BLACK && (m < 0 || m >= n)))
                continue;
            idx[k] = wrap == WRAP_PERIODIC ? (int)(((m % n) + n) % n)
                   : m < 0 ? 0 : m >= n ? n - 1 : (int)m;
            wt[k++] = w;
        }
        return k;
    }
    if (n > MAX_SPAN)
        return -1;
    /* wider than the whole axis: each texel's total weight */
    double shift = floor(a / n) * n, len = b - a, full = floor(len / n);
    double pa = a - shift, pb = pa + (len - full * n); /* the part past whole periods */
    for (int j = 0; j < n; j++) {
        idx[j] = j;
        if (wrap == WRAP_PERIODIC)
            wt[j] = full + overlap(j, pa, pb) + overlap(j + n, pa, pb);
        else
            wt[j] = overlap(j, a, b);
    }
    if (wrap == WRAP_CLAMP) {
        wt[0] += fmax(0, fmin(b, 0) - a);
        wt[n - 1] += fmax(0, b - fmax(a, n));
    }
    return n;
}

/* Averages level lv over the box [x0, x1) x [y0, y1) in its texel
   units, at least a texel wide, channels first.. of n into out (those
   past the texture's are fill). false if the box is too wide here. */
static bool filter_box(int C, const Level *lv, TexWrap sw, TexWrap tw, double x0,
                       double x1, double y0, double y1, int first, int n, float fill, float *out)
{
    if (x1 - x0 < 1) {
        double c = (x0 + x1) / 2;
        x0 = c - 0.5, x1 = c + 0.5;
    }
    if (y1 - y0 < 1) {
        double c = (y0 + y1) / 2;
        y0 = c - 0.5, y1 = c + 0.5;
    }
    int xi[MAX_SPAN], yi[MAX_SPAN];
    double xw[MAX_SPAN], yw[MAX_SPAN], acc[IMAGE_MAX_CHANNELS] = { 0 };
    int nx = axis_weights(x0, x1, lv->w, sw, xi, xw);
    int ny = axis_weights(y0, y1, lv->h, tw, yi, yw);
    if (nx < 0 || ny < 0)
        return false;
    int have = first < C ? (C - first < n ? C - first : n) : 0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            double w = xw[i] * yw[j];
            const float *p = lv->px + ((size_t)yi[j] * (size_t)lv->w + (size_t)xi[i]) * (size_t)C +
                             first;
            for (int c = 0; c < have; c++)
                acc[c] += w * p[c];
        }
    double area = (x1 - x0) * (y1 - y0);
    for (int c = 0; c < n; c++)
        out[c] = c < have ? (float)(acc[c] / area) : fill;
    return true;
}

/* Filters the box [s0, s1] x [t0, t1] of texture space (s, t in [0, 1]
   across the texture) over the MIP level its size asks for, blending
   the two nearest levels; sw and tw wrap s and t. */
static void filter_st(const Pyramid *py, int C, TexWrap sw, TexWrap tw, double s0, double s1,
                      double t0, double t1, int first, int n, float fill, float *out)
{
    const Level *base = &py->level[0];
    double fw = (s1 - s0) * base->w, fh = (t1 - t0) * base->h;
    double minor = fmin(fw, fh), major = fmax(fw, fh);
    double f = fmax(minor, major / MAX_ANISO), lod = f > 1 ? log2(f) : 0;
    int l = (int)lod;
    double frac = lod - l;
    if (l >= py->nlevels - 1)
        l = py->nlevels - 1, frac = 0;
    float a[IMAGE_MAX_CHANNELS], b[IMAGE_MAX_CHANNELS];
    int la = l;
    while (!filter_box(C, &py->level[la], sw, tw, s0 * py->level[la].w, s1 * py->level[la].w,
                       t0 * py->level[la].h, t1 * py->level[la].h, first, n, fill, a))
        la++, frac = 0; /* the top level (1 x 1) always fits */
    if (frac > 0 && la + 1 < py->nlevels) {
        const Level *lv = &py->level[la + 1];
        if (filter_box(C, lv, sw, tw, s0 * lv->w, s1 * lv->w, t0 * lv->h, t1 * lv->h, first, n,
                       fill, b))
            for (int c = 0; c < n; c++)
                a[c] = (float)((1 - frac) * a[c] + frac * b[c]);
    }
    memcpy(out, a, (size_t)n * sizeof(float));
}

/* ---- lookups -------------------------------------------------------------------------------- */

static int check_channels(const VmTexLookup *q, char *err, int errlen)
{
    if (q->nchannels < 1 || q->nchannels > IMAGE_MAX_CHANNELS || q->channel < 0) {
        snprintf(err, (size_t)errlen, "texture '%s': bad channel request (%d from %d)", q->name,
                 q->nchannels, q->channel);
        return -1;
    }
    return 0;
}

static void texture_lookup(const Texture *t, const VmTexLookup *q, float *out)
{
    double s0 = INFINITY, s1 = -INFINITY, t0 = INFINITY, t1 = -INFINITY;
    for (int i = 0; i < 4; i++) {
        s0 = fmin(s0, q->corner[i][0]), s1 = fmax(s1, q->corner[i][0]);
        t0 = fmin(t0, q->corner[i][1]), t1 = fmax(t1, q->corner[i][1]);
    }
    double blur = q->blur > 0 ? q->blur / 2 : 0;
    filter_st(&t->face[0], t->channels, t->swrap, t->twrap, s0 - blur, s1 + blur, t0 - blur, t1 + blur, q->channel,
              q->nchannels, q->fill, out);
}

/* Direction to lat-long (s, t); false for a zero (or NaN) direction. */
static bool latlong(const float d[3], double *s, double *t)
{
    double x = d[0], y = d[1], z = d[2], len = sqrt(x * x + y * y + z * z);
    if (!(len > 0))
        return false;
    *s = atan2(y, x) / (2 * M_PI) + 0.5;
    *t = acos(fmax(-1, fmin(1, z / len))) / M_PI;
    return true;
}

/* Cube faces in file order (px py pz nx ny nz): the major axis, then the
   directions of +s (right) and +t (down) on the face. */
static const float cube_axes[6][3][3] = {
    { { 1, 0, 0 }, { 0, 0, -1 }, { 0, -1, 0 } },  { { 0, 1, 0 }, { 1, 0, 0 }, { 0, 0, 1 } },
    { { 0, 0, 1 }, { 1, 0, 0 }, { 0, -1, 0 } },   { { -1, 0, 0 }, { 0, 0, 1 }, { 0, -1, 0 } },
    { { 0, -1, 0 }, { 1, 0, 0 }, { 0, 0, -1 } },  { { 0, 0, -1 }, { -1, 0, 0 }, { 0, -1, 0 } },
};

static double dot3(const float a[3], const float b[3])
{
    return (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2];
}

/* Where d meets face f, (s, t) in [0, 1] on it; false if d points away. */
static bool cube_st(const float d[3], int f, double *s, double *t)
{
    double m = dot3(d, cube_axes[f][0]);
    if (!(m > 0))
        return false;
    *s = (dot3(d, cube_axes[f][1]) / m + 1) / 2;
    *t = (dot3(d, cube_axes[f][2]) / m + 1) / 2;
    return true;
}

/* A cube-face map: the face the centre direction meets, filtered over
   the box of the corners' projections onto it (clamped at its edges). */
static void cube_lookup(const Texture *t, const float mid[3], const VmTexLookup *q, float *out)
{
    int k = fabsf(mid[0]) >= fabsf(mid[1]) && fabsf(mid[0]) >= fabsf(mid[2]) ? 0
          : fabsf(mid[1]) >= fabsf(mid[2]) ? 1 : 2;
    int f = k + (mid[k] < 0 ? 3 : 0);
    /* mid is on face f, so cube_st sets sc and tc; the zeros are for
       GCC -O3, which cannot see that (-Wmaybe-uninitialized). */
    double sc = 0, tc = 0, ds = 0, dt = 0;
    cube_st(mid, f, &sc, &tc);
    for (int i = 0; i < 4; i++) {
        double s, tt;
        if (cube_st(q->corner[i], f, &s, &tt))
            ds = fmax(ds, fabs(s - sc)), dt = fmax(dt, fabs(tt - tc));
        else
            ds = dt = 0.5;
    }
    double blur = q->blur > 0 ? q->blur / 2 : 0;
    ds = fmin(ds + blur, 0.5), dt = fmin(dt + blur, 0.5);
    filter_st(&t->face[f], t->channels, WRAP_CLAMP, WRAP_CLAMP, sc - ds, sc + ds, tc - dt,
              tc + dt, q->channel, q->nchannels, q->fill, out);
}

static void environment_lookup(const Texture *t, const VmTexLookup *q, float *out)
{
    /* the centre direction, then each corner's offset from it */
    float mid[3] = { 0, 0, 0 };
    for (int i = 0; i < 4; i++) {
        const float *d = q->corner[i];
        double len = sqrt((double)d[0] * d[0] + (double)d[1] * d[1] + (double)d[2] * d[2]);
        for (int k = 0; len > 0 && k < 3; k++)
            mid[k] += (float)(d[k] / len);
    }
    double sc, tc, ds = 0, dt = 0;
    if (!latlong(mid, &sc, &tc)) {
        for (int c = 0; c < q->nchannels; c++)
            out[c] = q->fill;
        return;
    }
    if (t->kind == KIND_CUBE) {
        cube_lookup(t, mid, q, out);
        return;
    }
    for (int i = 0; i < 4; i++) {
        double s, tt;
        if (!latlong(q->corner[i], &s, &tt))
            continue;
        double d = s - sc;
        d -= floor(d + 0.5); /* the short way round */
        ds = fmax(ds, fabs(d)), dt = fmax(dt, fabs(tt - tc));
    }
    double blur = q->blur > 0 ? q->blur / 2 : 0;
    ds = fmin(ds + blur, 0.5), dt += blur;
    /* s wraps and t clamps whatever the file says */
    filter_st(&t->face[0], t->channels, WRAP_PERIODIC, WRAP_CLAMP, sc - ds, sc + ds, tc - dt, tc + dt, q->channel,
              q->nchannels, q->fill, out);
}

/* p M for a row vector (x, y, z, 1): out[0..3]. */
static void xform(const float m[16], const double p[3], double out[4])
{
    for (int j = 0; j < 4; j++)
        out[j] = p[0] * m[j] + p[1] * m[4 + j] + p[2] * m[8 + j] + m[12 + j];
}

/* A stratified, hashed sample in [0, 1)^2: sample i of n. */
static void sample2(uint32_t seed, int i, int n, int rows, double *u, double *v)
{
    int cols = (n + rows - 1) / rows;
    uint32_t h = seed ^ (uint32_t)i * 0x9e3779b9u;
    h ^= h >> 16, h *= 0x7feb352du, h ^= h >> 15, h *= 0x846ca68bu, h ^= h >> 16;
    *u = ((i % cols) + (h & 0xffff) / 65536.0) / cols;
    *v = ((i / cols) + (h >> 16) / 65536.0) / rows;
}

static int shadow_lookup(const TexSystem *ts, const Texture *t, const VmTexLookup *q, float *out,
                         char *err, int errlen)
{
    if (!t->has_matrices) {
        snprintf(err, (size_t)errlen, "texture '%s' is not a shadow map (it has no "
                 "world-to-camera and world-to-screen matrices)", q->name);
        return -1;
    }
    double s0 = INFINITY, s1 = -INFINITY, t0 = INFINITY, t1 = -INFINITY, depth = 0;
    for (int i = 0; i < 4; i++) {
        double p[3] = { q->corner[i][0], q->corner[i][1], q->corner[i][2] }, w[4], cam[4], scr[4];
        xform(ts->current_to_world, p, w);
        double pw[3] = { w[0] / w[3], w[1] / w[3], w[2] / w[3] };
        xform(t->world_to_camera, pw, cam);
        xform(t->world_to_screen, pw, scr);
        if (!(scr[3] > 0) || !(cam[2] / cam[3] > 0)) { /* behind the map's camera: lit */
            for (int c = 0; c < q->nchannels; c++)
                out[c] = 0;
            return 0;
        }
        double s = (scr[0] / scr[3] + 1) / 2, tt = (1 - scr[1] / scr[3]) / 2;
        s0 = fmin(s0, s), s1 = fmax(s1, s), t0 = fmin(t0, tt), t1 = fmax(t1, tt);
        depth += cam[2] / cam[3] / 4;
    }
    double blur = q->blur > 0 ? q->blur / 2 : 0;
    s0 -= blur, s1 += blur, t0 -= blur, t1 += blur;
    const Level *lv = &t->face[0].level[0];
    int n = q->samples >= 1 ? (q->samples < 4096 ? (int)q->samples : 4096) : 1;
    int rows = (int)sqrt((double)n);
    uint32_t seed;
    float key = (float)(s0 + 3 * t0 + 7 * depth);
    memcpy(&seed, &key, 4);
    int shadowed = 0;
    for (int i = 0; i < n; i++) {
        double u = 0.5, v = 0.5;
        if (n > 1)
            sample2(seed, i, n, rows, &u, &v);
        double s = s0 + u * (s1 - s0), tt = t0 + v * (t1 - t0);
        if (!(s >= 0 && s < 1 && tt >= 0 && tt < 1))
            continue; /* off the map: lit */
        int x = (int)(s * lv->w), y = (int)(tt * lv->h);
        x = x < lv->w ? x : lv->w - 1, y = y < lv->h ? y : lv->h - 1;
        float z = lv->px[((size_t)y * (size_t)lv->w + (size_t)x) * (size_t)t->channels];
        shadowed += depth - q->bias > z;
    }
    for (int c = 0; c < q->nchannels; c++)
        out[c] = (float)shadowed / (float)n;
    return 0;
}

int texsys_lookup(TexSystem *ts, const VmTexLookup *q, float *out, char *err, int errlen)
{
    if (check_channels(q, err, errlen))
        return -1;
    Texture *t = get(ts, q->name ? q->name : "", err, errlen);
    if (!t)
        return -1;
    int rc = -1;
    switch (q->kind) {
    case VM_TEXTURE: texture_lookup(t, q, out); rc = 0; break;
    case VM_ENVIRONMENT: environment_lookup(t, q, out); rc = 0; break;
    case VM_SHADOW: rc = shadow_lookup(ts, t, q, out, err, errlen); break;
    default: snprintf(err, (size_t)errlen, "texture '%s': unknown lookup kind", q->name);
    }
    if (rc == 0 && t->note && !__atomic_exchange_n(&t->noted, 1, __ATOMIC_ACQ_REL)) {
        snprintf(err, (size_t)errlen, "%s", t->note);
        return 1;
    }
    return rc;
}

/* ---- textureinfo ---------------------------------------------------------------------------- */

/* a b, for row-vector matrices. */
static void matmul(const float a[16], const float b[16], float out[16])
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double s = 0;
            for (int k = 0; k < 4; k++)
                s += (double)a[4 * i + k] * b[4 * k + j];
            out[4 * i + j] = (float)s;
        }
}

int texsys_info(TexSystem *ts, const char *name, const char *field, char type, int n,
                float *out, const char **str, char *err, int errlen)
{
    Texture *t = get(ts, name ? name : "", err, errlen);
    if (!t)
        return -1;
    if (!strcmp(field, "resolution") && type == 'f' && n == 2) {
        out[0] = (float)t->face[0].level[0].w, out[1] = (float)t->face[0].level[0].h;
        return 1;
    }
    if (!strcmp(field, "channels") && type == 'f' && n == 1) {
        out[0] = (float)t->channels;
        return 1;
    }
    if (!strcmp(field, "type") && type == 's') {
        *str = t->kind == KIND_SHADOW ? "shadow"
             : t->kind == KIND_LATLONG || t->kind == KIND_CUBE ? "environment" : "texture";
        return 1;
    }
    if (!strcmp(field, "textureformat") && type == 's') {
        static const char *const names[] = { [KIND_PLAIN] = "Plain Texture",
                                             [KIND_LATLONG] = "LatLong Environment",
                                             [KIND_CUBE] = "CubeFace Environment",
                                             [KIND_SHADOW] = "Shadow" };
        *str = names[t->kind];
        return 1;
    }
    bool view = !strcmp(field, "viewingmatrix"), proj = !strcmp(field, "projectionmatrix");
    if ((view || proj) && type == 'm' && n == 16 && t->has_matrices) {
        matmul(ts->current_to_world, view ? t->world_to_camera : t->world_to_screen, out);
        return 1;
    }
    return 0;
}

int texsys_host_texture(void *user, const VmTexLookup *q, float *out, char *err, int errlen)
{
    return texsys_lookup(user, q, out, err, errlen);
}

int texsys_host_textureinfo(void *user, const char *name, const char *field, char type, int n,
                            float *out, const char **str, char *err, int errlen)
{
    return texsys_info(user, name, field, type, n, out, str, err, errlen);
}

/*
** output.c: the frame's displays (RiDisplay) written from the rendered
** image: channels by mode, Exposure (RISpec 3.2 section 4.1.3: color =
** (gain * color)^(1/gamma)) and Quantize, the file format by the name's
** extension or else the display type.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/image/image.h"
#include "render/internal.h"

/* Channel indexes into the rendered image (R G B A Z) of a display mode. */
static int mode_channels(const char *mode, int *ch)
{
    int n = 0;
    for (const char *m = mode; *m && n < 5; m++) {
        const char *at = strchr("rgbaz", *m);
        if (!at)
            return -1;
        ch[n++] = (int)(at - "rgbaz");
    }
    return n;
}

static ImageFormat format_of(const RibDisplay *d, const char *path)
{
    ImageFormat f = image_format_from_name(path);
    if (f != IMAGE_FORMAT_AUTO)
        return f;
    switch (d ? d->type : RIB_DISPLAY_FILE) {
    case RIB_DISPLAY_PNG: case RIB_DISPLAY_FRAMEBUFFER: return IMAGE_PNG;
    case RIB_DISPLAY_EXR: case RIB_DISPLAY_ZFILE: case RIB_DISPLAY_SHADOW: return IMAGE_EXR;
    default: return IMAGE_TIFF;
    }
}

/* A depth map's matrices (ImageMeta, as PRMan's zfiles and shadow maps
   hold them): world to camera, and world to screen, whose x/w and y/w
   run over [-1, 1] across the screen window (y up). Row vectors, as
   RibMatrix. */
static void depth_matrices(const RibFrame *f, ImageMeta *m)
{
    const RibOptions *o = &f->options;
    float w[4];
    rib_screen_window(o, w);
    double a = 2 / (double)(w[1] - w[0]), b = 2 / (double)(w[3] - w[2]);
    double cx = (w[0] + w[1]) / 2, cy = (w[2] + w[3]) / 2;
    RibMatrix s = { { 0 } };
    if (o->projection == RIB_PROJ_PERSPECTIVE) {
        double t = tan(o->fov * M_PI / 360);
        /* x/z/t on the screen plane, then the window onto [-1, 1]; w = z */
        s.m[0] = a / t, s.m[5] = b / t;
        s.m[8] = -cx * a, s.m[9] = -cy * b, s.m[10] = 1, s.m[11] = 1;
    } else {
        s.m[0] = a, s.m[5] = b, s.m[10] = 1, s.m[15] = 1;
        s.m[12] = -cx * a, s.m[13] = -cy * b;
    }
    RibMatrix ws = rib_matrix_mul(&f->world_to_camera, &s);
    for (int i = 0; i < 16; i++) {
        m->world_to_camera[i] = (float)f->world_to_camera.m[i];
        m->world_to_screen[i] = (float)ws.m[i];
    }
    m->has_world_to_camera = m->has_world_to_screen = true;
}

static bool is_depth_map(const RibDisplay *d)
{
    return d && (d->type == RIB_DISPLAY_ZFILE || d->type == RIB_DISPLAY_SHADOW);
}

bool render_frame_is_picture(const RibScene *scene, size_t i)
{
    const RibOptions *o = &scene->frames[i].options;
    if (o->ndisplays == 0)
        return true;
    if (is_depth_map(&o->displays[0]))
        return false;
    for (size_t m = 0; m < scene->nmakes; m++)
        for (int k = 0; k < scene->makes[m].ninputs && scene->makes[m].before_frame > i; k++)
            if (!strcmp(scene->makes[m].inputs[k], o->displays[0].name))
                return false;
    return true;
}

static int write_display(const Image *img, const RibDisplay *d, const char *path,
                         const RibFrame *f, char *err, int errlen)
{
    const RibOptions *o = &f->options;
    bool depth_map = is_depth_map(d);
    /* A zfile or shadow map is depth, whatever mode it names. */
    const char *mode = depth_map ? "z" : d ? d->mode : "rgba";
    int ch[5], n = mode_channels(mode, ch);
    if (n <= 0) {
        snprintf(err, (size_t)errlen, "rtrender: error: display \"%s\": unsupported mode \"%s\" "
                 "(use letters of rgbaz)", path, mode);
        return -1;
    }
    Image *out = image_new(img->width, img->height, n);
    if (!out) {
        snprintf(err, (size_t)errlen, "rtrender: error: out of memory for display \"%s\"", path);
        return -1;
    }
    bool depth_only = n == 1 && ch[0] == 4;
    for (int c = 0; c < n; c++)
        snprintf(out->channel_names[c], IMAGE_CHANNEL_NAME, "%c", "RGBAZ"[ch[c]]);
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) {
            const float *p = image_pixel(img, x, y);
            float *q = image_pixel(out, x, y);
            for (int c = 0; c < n; c++) {
                float v = p[ch[c]];
                if (ch[c] < 3 && (o->exposure_gain != 1 || o->exposure_gamma != 1))
                    v = powf(fmaxf(0.0f, o->exposure_gain * v), 1.0f / o->exposure_gamma);
                q[c] = v;
            }
        }
    const RibQuantize *rq = depth_only ? &o->quantize_z : &o->quantize_rgba;
    ImageWriteOptions wo = { .format = format_of(d, path) };
    if (depth_map) {
        depth_matrices(f, &out->meta);
        if (d->type == RIB_DISPLAY_SHADOW)
            snprintf(out->meta.texture_format, sizeof out->meta.texture_format, "Shadow");
        if (wo.format == IMAGE_PNG)  /* depth needs floats */
            wo.format = IMAGE_EXR;
        wo.storage = IMAGE_FLOAT;
    } else if (rq->one <= 0 || wo.format == IMAGE_EXR) {
        wo.storage = wo.format == IMAGE_EXR ? IMAGE_HALF : IMAGE_FLOAT;
        if (wo.format == IMAGE_PNG)
            wo.storage = IMAGE_U8;
    } else {
        wo.storage = rq->one <= 255 || wo.format == IMAGE_PNG ? IMAGE_U8 : IMAGE_U16;
        wo.quantize = (ImageQuantize){ (int)rq->one, (int)rq->min, (int)rq->max, rq->dither };
        if (wo.format == IMAGE_PNG && rq->one > 255)
            wo.quantize = (ImageQuantize){ 255, 0, 255, rq->dither };
    }
    int rc = image_write(out, path, &wo, err, errlen);
    image_free(out);
    return rc;
}

int output_displays(const Image *img, const RibFrame *f, const RenderSettings *rs, char *err,
                    int errlen)
{
    const RibOptions *o = &f->options;
    const char *output = rs->output;
    if (o->ndisplays == 0 || output) {
        const RibDisplay *d = o->ndisplays ? &o->displays[0] : NULL;
        const char *path = output ? output : "rtrender.tif";
        if (write_display(img, d, path, f, err, errlen) < 0)
            return -1;
    }
    for (size_t i = output ? 1 : 0; i < o->ndisplays; i++)
        if (write_display(img, &o->displays[i], o->displays[i].name, f, err, errlen) < 0)
            return -1;
    return 0;
}

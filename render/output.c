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
    case RIB_DISPLAY_EXR: return IMAGE_EXR;
    default: return IMAGE_TIFF;
    }
}

static int write_display(const Image *img, const RibDisplay *d, const char *path,
                         const RibOptions *o, char *err, int errlen)
{
    const char *mode = d ? d->mode : "rgba";
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
    if (rq->one <= 0 || wo.format == IMAGE_EXR) {
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
    if (o->ndisplays == 0 || rs->output) {
        const RibDisplay *d = o->ndisplays ? &o->displays[0] : NULL;
        const char *path = rs->output ? rs->output : "rtrender.tif";
        if (write_display(img, d, path, o, err, errlen) < 0)
            return -1;
    }
    for (size_t i = rs->output ? 1 : 0; i < o->ndisplays; i++)
        if (write_display(img, &o->displays[i], o->displays[i].name, o, err, errlen) < 0)
            return -1;
    return 0;
}

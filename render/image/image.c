/*
** image.c: images in memory, the choice of format, reading whole files,
** RiQuantize, and writing through a temporary file renamed into place.
** The formats themselves live in image_png.c, image_jpeg.c, image_hdr.c,
** image_tiff.c and image_exr.c.
*/
#include "config.h"
#include "render/image/image_impl.h"
#include "runtime/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

void image_error(char *err, int errlen, const char *name, const char *fmt, ...)
{
    if (!err || errlen <= 0)
        return;
    int n = snprintf(err, (size_t)errlen, "%s: error: ", name);
    if (n < 0 || n >= errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, (size_t)(errlen - n), fmt, ap);
    va_end(ap);
}

/* ---- images in memory ------------------------------------------------------------------ */

bool image_size_ok(long width, long height, long channels)
{
    return width > 0 && height > 0 && channels > 0 && channels <= IMAGE_MAX_CHANNELS &&
           width <= 65536 && height <= 65536 && width * height * channels <= (1L << 28);
}

bool image_read_size_ok(long width, long height, long channels, const char *what,
                        const char *name, char *err, int errlen)
{
    if (width <= 0 || height <= 0 || channels <= 0)
        image_error(err, errlen, name, "%s image with no pixels (%ld x %ld, %ld channels)", what,
                    width, height, channels);
    else if (channels > IMAGE_MAX_CHANNELS)
        image_error(err, errlen, name, "%s image with %ld channels (the limit is %d)", what,
                    channels, IMAGE_MAX_CHANNELS);
    else if (width > IMAGE_READ_MAX_SIDE || height > IMAGE_READ_MAX_SIDE)
        image_error(err, errlen, name, "%s image too large: %ld x %ld pixels (the limit is %ld "
                    "a side)", what, width, height, IMAGE_READ_MAX_SIDE);
    else if (width * height * channels > IMAGE_READ_MAX_SAMPLES)
        image_error(err, errlen, name, "%s image too large: %ld x %ld pixels of %ld channels "
                    "(the limit is %ld samples)", what, width, height, channels,
                    IMAGE_READ_MAX_SAMPLES);
    else
        return true;
    return false;
}

void image_default_names(Image *img)
{
    static const char *const by_count[6][5] = {
        { 0 }, { "Y" }, { "Y", "A" }, { "R", "G", "B" }, { "R", "G", "B", "A" },
        { "R", "G", "B", "A", "Z" },
    };
    for (int c = 0; c < img->channels; c++) {
        if (img->channels <= 5)
            snprintf(img->channel_names[c], IMAGE_CHANNEL_NAME, "%s", by_count[img->channels][c]);
        else if (c < 5)
            snprintf(img->channel_names[c], IMAGE_CHANNEL_NAME, "%s", by_count[5][c]);
        else
            snprintf(img->channel_names[c], IMAGE_CHANNEL_NAME, "C%d", c);
    }
}

Image *image_new(int width, int height, int channels)
{
    if (!image_size_ok(width, height, channels))
        return NULL;
    Image *img = calloc(1, sizeof *img);
    if (!img)
        return NULL;
    img->pixels = calloc((size_t)width * (size_t)height * (size_t)channels, sizeof(float));
    if (!img->pixels) {
        free(img);
        return NULL;
    }
    img->width = width, img->height = height, img->channels = channels;
    image_default_names(img);
    return img;
}

void image_free(Image *img)
{
    if (!img)
        return;
    free(img->pixels);
    free(img);
}

int image_channel_index(const Image *img, const char *name)
{
    for (int c = 0; c < img->channels; c++)
        if (!strcmp(img->channel_names[c], name))
            return c;
    return -1;
}

/* ---- formats ----------------------------------------------------------------------------- */

ImageFormat image_format_from_name(const char *path)
{
    static const struct {
        const char *ext;
        ImageFormat f;
    } exts[] = { { "png", IMAGE_PNG },  { "jpg", IMAGE_JPEG },  { "jpeg", IMAGE_JPEG },
                 { "hdr", IMAGE_HDR },  { "tif", IMAGE_TIFF },  { "tiff", IMAGE_TIFF },
                 { "exr", IMAGE_EXR } };
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return IMAGE_FORMAT_AUTO;
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (!strcasecmp(dot + 1, exts[i].ext))
            return exts[i].f;
    return IMAGE_FORMAT_AUTO;
}

const char *image_format_name(ImageFormat f)
{
    switch (f) {
    case IMAGE_PNG: return "PNG";
    case IMAGE_JPEG: return "JPEG";
    case IMAGE_HDR: return "HDR";
    case IMAGE_TIFF: return "TIFF";
    case IMAGE_EXR: return "EXR";
    case IMAGE_FORMAT_AUTO: break;
    }
    return "unknown";
}

/* The format the first bytes show, or IMAGE_FORMAT_AUTO. */
static ImageFormat format_from_magic(const uint8_t *d, size_t n)
{
    if (n >= 8 && !memcmp(d, "\x89PNG\r\n\x1a\n", 8))
        return IMAGE_PNG;
    if (n >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff)
        return IMAGE_JPEG;
    if (n >= 4 && (!memcmp(d, "II*\0", 4) || !memcmp(d, "MM\0*", 4) || !memcmp(d, "II+\0", 4) ||
                   !memcmp(d, "MM\0+", 4)))
        return IMAGE_TIFF;
    if (n >= 4 && !memcmp(d, "\x76\x2f\x31\x01", 4))
        return IMAGE_EXR;
    if ((n >= 10 && !memcmp(d, "#?RADIANCE", 10)) || (n >= 6 && !memcmp(d, "#?RGBE", 6)))
        return IMAGE_HDR;
    return IMAGE_FORMAT_AUTO;
}

Image *image_decode(const void *data, size_t size, const char *name, ImageFormat format,
                    char *err, int errlen)
{
    const uint8_t *d = data;
    ImageFormat f = format != IMAGE_FORMAT_AUTO ? format : format_from_magic(d, size);
    if (f == IMAGE_FORMAT_AUTO)
        f = image_format_from_name(name);
    if (size == 0) {
        image_error(err, errlen, name, "empty file");
        return NULL;
    }
    switch (f) {
    case IMAGE_PNG: return image_decode_png(d, size, name, err, errlen);
    case IMAGE_JPEG: return image_decode_jpeg(d, size, name, err, errlen);
    case IMAGE_HDR: return image_decode_hdr(d, size, name, err, errlen);
    case IMAGE_TIFF: return image_decode_tiff(d, size, name, err, errlen);
    case IMAGE_EXR: return image_decode_exr(d, size, name, err, errlen);
    case IMAGE_FORMAT_AUTO: break;
    }
    image_error(err, errlen, name, "not an image in a known format (PNG, JPEG, HDR, TIFF, EXR)");
    return NULL;
}

/* The whole of an open regular file (malloc'd, size in *size), or NULL
   with err. The size comes from fstat of the open descriptor, so what is
   checked is what is read: a device or FIFO never gets read from. */
static uint8_t *read_whole(int fd, const char *path, size_t *size, char *err, int errlen)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        image_error(err, errlen, path, "cannot read: %s", strerror(errno));
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        image_error(err, errlen, path, "not a regular file (a %s)",
                    S_ISDIR(st.st_mode) ? "directory" : S_ISFIFO(st.st_mode) ? "FIFO"
                    : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "device" : "special file");
        return NULL;
    }
    if (st.st_size > IMAGE_READ_MAX_BYTES) {
        image_error(err, errlen, path, "file too large: %lld bytes (the limit is %ld)",
                    (long long)st.st_size, IMAGE_READ_MAX_BYTES);
        return NULL;
    }
    uint8_t *data = malloc((size_t)st.st_size + 1);
    if (!data) {
        image_error(err, errlen, path, "out of memory for %lld bytes", (long long)st.st_size);
        return NULL;
    }
    size_t n = 0; /* a file that shrinks meanwhile is read as it now is */
    while (n < (size_t)st.st_size) {
        ssize_t got = read(fd, data + n, (size_t)st.st_size - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            image_error(err, errlen, path, "read failed: %s", strerror(errno));
            free(data);
            return NULL;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    *size = n;
    return data;
}

Image *image_read(const char *path, ImageFormat format, char *err, int errlen)
{
    /* O_NONBLOCK: opening a FIFO with no writer would wait forever */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        image_error(err, errlen, path, "cannot open: %s", strerror(errno));
        return NULL;
    }
    size_t size = 0;
    uint8_t *data = read_whole(fd, path, &size, err, errlen);
    close(fd);
    if (!data)
        return NULL;
    Image *img = image_decode(data, size, path, format, err, errlen);
    free(data);
    return img;
}

/* ---- RiQuantize ------------------------------------------------------------------------- */

/* A well-mixed 32-bit hash of a pixel sample's position. */
static uint32_t sample_hash(uint32_t x, uint32_t y, uint32_t c)
{
    uint32_t h = x * 0x9e3779b1u ^ (y + 0x7f4a7c15u) * 0x85ebca77u ^ (c + 1) * 0xc2b2ae3du;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

void image_quantize(const Image *img, const ImageQuantize *q, uint16_t *out)
{
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) {
            const float *p = image_pixel(img, x, y);
            uint16_t *o = out + ((size_t)y * (size_t)img->width + (size_t)x) * (size_t)img->channels;
            for (int c = 0; c < img->channels; c++) {
                double v = isnan(p[c]) ? 0 : (double)q->one * p[c];
                if (q->dither != 0) {
                    /* r uniform in [-1, 1): 24 bits of the hash */
                    double r = (sample_hash((uint32_t)x, (uint32_t)y, (uint32_t)c) >> 8) /
                                   (double)(1 << 23) - 1.0;
                    v += q->dither * r;
                }
                v = floor(v + 0.5);
                v = v < q->min ? q->min : v > q->max ? q->max : v;
                o[c] = (uint16_t)(v < 0 ? 0 : v > 65535 ? 65535 : v);
            }
        }
}

void image_quantize_for(const Image *img, const ImageQuantize *q, int bits, uint16_t *out)
{
    int top = bits == 8 ? 255 : 65535;
    ImageQuantize d = { top, 0, top, 0 };
    if (q && q->one != 0) {
        d = *q;
        d.min = d.min < 0 ? 0 : d.min;
        d.max = d.max > top ? top : d.max;
    }
    image_quantize(img, &d, out);
}

/* ---- writing ------------------------------------------------------------------------------ */

int image_write(const Image *img, const char *path, const ImageWriteOptions *opt, char *err,
                int errlen)
{
    ImageWriteOptions o = { 0 };
    if (opt)
        o = *opt;
    if (o.format == IMAGE_FORMAT_AUTO)
        o.format = image_format_from_name(path);
    if (o.format == IMAGE_FORMAT_AUTO) {
        image_error(err, errlen, path, "cannot tell the format from the name (use .png, .tif, "
                    ".tiff or .exr)");
        return -1;
    }
    if (o.format == IMAGE_JPEG || o.format == IMAGE_HDR) {
        image_error(err, errlen, path, "cannot write %s files (write PNG, TIFF or EXR)",
                    image_format_name(o.format));
        return -1;
    }
    if (!img || !img->pixels || !image_size_ok(img->width, img->height, img->channels)) {
        image_error(err, errlen, path, "no image to write");
        return -1;
    }

    /* Through a temporary file beside path (runtime/outfile.h); the
       encoders open it by name. */
    OutFile of;
    char why[256];
    int fd = outfile_begin(&of, path, why, sizeof why);
    if (fd < 0) {
        image_error(err, errlen, path, "%s", why);
        return -1;
    }
    close(fd);
    int rc;
    switch (o.format) {
    case IMAGE_PNG: rc = image_write_png(img, &o, of.tmp, path, err, errlen); break;
    case IMAGE_TIFF: rc = image_write_tiff(img, &o, of.tmp, path, err, errlen); break;
    default: rc = image_write_exr(img, &o, of.tmp, path, err, errlen); break;
    }
    if (rc == 0 && outfile_commit(&of, why, sizeof why) < 0) {
        image_error(err, errlen, path, "%s", why);
        rc = -1;
    } else if (rc != 0) {
        outfile_abort(&of);
    }
    return rc;
}

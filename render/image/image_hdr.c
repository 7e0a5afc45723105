/*
** image_hdr.c: Radiance HDR (RGBE) images, read from memory, strictly
** and within bounds, by the format as Radiance's own color.c and
** header.c read it:
**
**   "#?RADIANCE" (any "#?" program line), header lines up to an empty
**   line (a FORMAT line must say 32-bit_rle_rgbe), then the resolution
**   line. Only the standard orientation "-Y height +X width" (top row
**   first, each left to right) is taken; the seven others are refused by
**   name.
**
**   Then a scanline per row: when the width is 8 to 32767 and the line
**   starts 2 2 hi lo (hi < 128, hi lo the width), four components (R,
**   G, B, E) each as runs (a count 129..255 then a byte) and literals (a
**   count 1..128 then that many bytes); else flat RGBE pixels, where a
**   pixel 1 1 1 n repeats the one before it n times, n << 8 times if
**   the one before was such a run too, and so on (Radiance's old
**   run-length scheme).
**
** A pixel (r, g, b, e) is (r, g, b) * 2^(e - 136), and black if e is 0,
** without Radiance's half-step offset (as stb_image and Walter's rgbe.c
** decode), so a mantissa of 0 stays 0. EXPOSURE lines are not applied:
** the values are those a viewer shows.
*/
#include "config.h"
#include "render/image/image_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct HdrIn {
    const uint8_t *p, *end;
    const char *name;
    char *err;
    int errlen;
} HdrIn;

static bool truncated(HdrIn *in)
{
    image_error(in->err, in->errlen, in->name, "truncated file: the HDR data ends early");
    return false;
}

/* The next line (without its newline) into line[size], NUL-terminated
   and cut short if longer; false if no newline ends it. */
static bool next_line(HdrIn *in, char *line, size_t size)
{
    const uint8_t *nl = memchr(in->p, '\n', (size_t)(in->end - in->p));
    if (!nl)
        return false;
    size_t n = (size_t)(nl - in->p) < size - 1 ? (size_t)(nl - in->p) : size - 1;
    memcpy(line, in->p, n);
    line[n] = '\0';
    in->p = nl + 1;
    return true;
}

/* One axis of a resolution line at *s ("-Y 480"), moved past: its
   sign and letter, and a count of 1 to 99999999; false if not so. */
static bool axis_at(const char **s, char *sign, char *axis, long *count)
{
    const char *p = *s;
    if (!(*p == '-' || *p == '+') || !(p[1] == 'X' || p[1] == 'Y') || p[2] != ' ')
        return false;
    *sign = p[0], *axis = p[1], *count = 0;
    int digits = 0;
    for (p += 3; *p >= '0' && *p <= '9' && digits < 8; p++, digits++)
        *count = *count * 10 + (*p - '0');
    *s = p;
    return *count > 0 && !(*p >= '0' && *p <= '9');
}

/* The header and resolution line: the image's width and height, or
   false with err. */
static bool read_header(HdrIn *in, long *width, long *height)
{
    char line[256];
    if (!next_line(in, line, sizeof line) || strncmp(line, "#?", 2)) {
        image_error(in->err, in->errlen, in->name, "not a Radiance HDR file (no \"#?\" line "
                    "first)");
        return false;
    }
    for (;;) {
        if (!next_line(in, line, sizeof line)) {
            image_error(in->err, in->errlen, in->name, "truncated file: the HDR header does "
                        "not end");
            return false;
        }
        if (!line[0])
            break;
        if (!strncmp(line, "FORMAT=", 7) && strcmp(line + 7, "32-bit_rle_rgbe")) {
            image_error(in->err, in->errlen, in->name, "HDR pixel format '%s' is not read "
                        "(only 32-bit_rle_rgbe)", line + 7);
            return false;
        }
    }
    if (!next_line(in, line, sizeof line)) {
        image_error(in->err, in->errlen, in->name, "truncated file: no HDR resolution line");
        return false;
    }
    const char *s = line;
    char sign[2], axis[2];
    long n[2];
    if (!axis_at(&s, &sign[0], &axis[0], &n[0]) || *s++ != ' ' ||
        !axis_at(&s, &sign[1], &axis[1], &n[1]) || *s || axis[0] == axis[1]) {
        image_error(in->err, in->errlen, in->name, "bad HDR resolution line '%s'", line);
        return false;
    }
    if (sign[0] != '-' || axis[0] != 'Y' || sign[1] != '+') {
        image_error(in->err, in->errlen, in->name, "HDR orientation '%s' is not read (only "
                    "'-Y height +X width', top row first)", line);
        return false;
    }
    *height = n[0], *width = n[1];
    return true;
}

/* Fewest bytes a scanline of `width` pixels can take: a flat pixel and a
   run after it (old scheme), or a lone pixel. */
static size_t min_scanline(long width)
{
    return width > 1 ? 8 : 4;
}

static bool corrupt_run(HdrIn *in, long count, long left)
{
    image_error(in->err, in->errlen, in->name, "corrupt HDR data (a run of %ld pixels where "
                "%ld are left)", count, left);
    return false;
}

/* One run-length encoded scanline (after its 2 2 hi lo) into scan. */
static bool read_rle(HdrIn *in, uint8_t *scan, long width)
{
    for (int c = 0; c < 4; c++)
        for (long x = 0; x < width;) {
            if (in->p >= in->end)
                return truncated(in);
            bool run = *in->p > 128;
            long count = run ? *in->p - 128 : *in->p;
            in->p++;
            if (count == 0 || count > width - x)
                return corrupt_run(in, count, width - x);
            if (in->end - in->p < (run ? 1 : count))
                return truncated(in);
            for (long k = 0; k < count; k++, x++)
                scan[4 * x + c] = run ? *in->p : in->p[k];
            in->p += run ? 1 : count;
        }
    return true;
}

/* One flat scanline, with old-style runs, into scan. */
static bool read_flat(HdrIn *in, uint8_t *scan, long width)
{
    int shift = 0;
    for (long x = 0; x < width;) {
        if (in->end - in->p < 4)
            return truncated(in);
        const uint8_t *px = in->p;
        in->p += 4;
        if (px[0] == 1 && px[1] == 1 && px[2] == 1) {
            /* past a shift of 24 only a run of 0 still fits in a scanline */
            long count = shift < 24 ? (long)px[3] << shift : px[3] ? width + 1 : 0;
            if (x == 0) {
                image_error(in->err, in->errlen, in->name, "corrupt HDR data (a run with no "
                            "pixel before it in its scanline)");
                return false;
            }
            if (count > width - x)
                return corrupt_run(in, count, width - x);
            for (long k = 0; k < count; k++, x++)
                memcpy(scan + 4 * x, scan + 4 * (x - 1), 4);
            shift = shift < 24 ? shift + 8 : 24;
        } else {
            memcpy(scan + 4 * x, px, 4);
            x++;
            shift = 0;
        }
    }
    return true;
}

/* Decodes the scanlines into img. */
static bool read_pixels(HdrIn *in, Image *img, uint8_t *scan)
{
    long w = img->width;
    for (int y = 0; y < img->height; y++) {
        const uint8_t *p = in->p;
        bool rle = w >= 8 && w < 32768 && in->end - p >= 4 && p[0] == 2 && p[1] == 2 &&
                   !(p[2] & 0x80);
        if (rle && (p[2] << 8 | p[3]) != w) {
            image_error(in->err, in->errlen, in->name, "corrupt HDR data (a scanline of %d "
                        "pixels in an image %ld wide)", p[2] << 8 | p[3], w);
            return false;
        }
        if (rle)
            in->p += 4;
        if (!(rle ? read_rle(in, scan, w) : read_flat(in, scan, w)))
            return false;
        float *out = image_pixel(img, 0, y);
        for (long x = 0; x < w; x++) {
            const uint8_t *px = scan + 4 * x;
            float f = px[3] ? ldexpf(1.0f, px[3] - 136) : 0.0f;
            for (int c = 0; c < 3; c++)
                out[3 * x + c] = px[c] * f;
        }
    }
    return true;
}

Image *image_decode_hdr(const uint8_t *data, size_t size, const char *name, char *err,
                        int errlen)
{
    HdrIn in = { data, data + size, name, err, errlen };
    long w = 0, h = 0;
    if (!read_header(&in, &w, &h) || !image_read_size_ok(w, h, 3, "HDR", name, err, errlen))
        return NULL;
    if ((size_t)(in.end - in.p) / min_scanline(w) < (size_t)h) {
        image_error(err, errlen, name, "truncated file: %zu bytes of HDR data cannot hold %ld "
                    "scanlines", (size_t)(in.end - in.p), h);
        return NULL;
    }
    Image *img = image_new((int)w, (int)h, 3);
    uint8_t *scan = malloc((size_t)w * 4);
    if (!img || !scan) {
        image_error(err, errlen, name, "out of memory for %ld x %ld pixels", w, h);
        image_free(img), free(scan);
        return NULL;
    }
    img->meta.storage = IMAGE_FLOAT;
    bool ok = read_pixels(&in, img, scan);
    free(scan);
    if (ok)
        return img;
    image_free(img);
    return NULL;
}

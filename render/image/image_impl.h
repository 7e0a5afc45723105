/*
** image_impl.h: what image.c shares with the per-format readers and
** writers (image_png.c, image_jpeg.c, image_hdr.c, image_tiff.c,
** image_exr.c): error wording, half floats, default channel names.
*/
#ifndef RT_IMAGE_IMPL_H
#define RT_IMAGE_IMPL_H

#include "render/image/image.h"

#include <stdint.h>
#include <string.h>

/* Writes "name: error: <fmt...>" into err. */
void image_error(char *err, int errlen, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Reading's limits: a file of at most IMAGE_READ_MAX_BYTES, at most
   IMAGE_READ_MAX_SIDE pixels a side and IMAGE_READ_MAX_SAMPLES floats in
   all (a gigabyte), so that a hostile header cannot make us allocate
   what the machine does not have. */
#define IMAGE_READ_MAX_BYTES (1L << 30)
#define IMAGE_READ_MAX_SIDE 32768L
#define IMAGE_READ_MAX_SAMPLES (1L << 28)

/* Whether a file's image of width x height x channels may be read;
   false with "name: error: ..." saying which limit it passes. `what`
   names the format ("PNG") in the message. */
bool image_read_size_ok(long width, long height, long channels, const char *what,
                        const char *name, char *err, int errlen);

/* Sets img's channel names to the defaults for its channel count. */
void image_default_names(Image *img);

/* Quantizes the options' way (defaults filled in for `bits` 8 or 16). */
void image_quantize_for(const Image *img, const ImageQuantize *q, int bits, uint16_t *out);

/* Decoders: data/size are the whole file, name is for messages. */
Image *image_decode_png(const uint8_t *data, size_t size, const char *name, char *err,
                        int errlen);
Image *image_decode_jpeg(const uint8_t *data, size_t size, const char *name, char *err,
                         int errlen);
Image *image_decode_hdr(const uint8_t *data, size_t size, const char *name, char *err,
                        int errlen);
Image *image_decode_tiff(const uint8_t *data, size_t size, const char *name, char *err,
                         int errlen);
Image *image_decode_exr(const uint8_t *data, size_t size, const char *name, char *err,
                        int errlen);

/* Encoders: write the file `tmp` (already created, empty); name is the
   final path, for messages. 0, or -1 with err. */
int image_write_png(const Image *img, const ImageWriteOptions *opt, const char *tmp,
                    const char *name, char *err, int errlen);
int image_write_tiff(const Image *img, const ImageWriteOptions *opt, const char *tmp,
                     const char *name, char *err, int errlen);
int image_write_exr(const Image *img, const ImageWriteOptions *opt, const char *tmp,
                    const char *name, char *err, int errlen);

/* IEEE half <-> float, round to nearest even; overflow goes to infinity. */
static inline float image_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff, bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000 | (man << 13);
    } else if (exp) {
        bits = sign | ((exp + 112) << 23) | (man << 13);
    } else if (man) { /* subnormal: normalize */
        int e = -1;
        do {
            e++;
            man <<= 1;
        } while (!(man & 0x400));
        bits = sign | ((uint32_t)(112 - e) << 23) | ((man & 0x3ff) << 13);
    } else {
        bits = sign;
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static inline uint16_t image_float_to_half(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, 4);
    uint16_t sign = (uint16_t)((bits >> 16) & 0x8000);
    uint32_t exp = (bits >> 23) & 0xff, man = bits & 0x7fffff;
    if (exp == 0xff) /* infinity, NaN (kept quiet) */
        return sign | 0x7c00 | (man ? 0x200 | (uint16_t)(man >> 13) : 0);
    int e = (int)exp - 127 + 15;
    if (e >= 0x1f)
        return sign | 0x7c00;
    if (e <= 0) { /* subnormal or zero */
        if (e < -10)
            return sign;
        man |= 0x800000;
        int shift = 14 - e;
        uint32_t h = man >> shift, rest = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rest > half || (rest == half && (h & 1)))
            h++;
        return sign | (uint16_t)h;
    }
    uint32_t h = ((uint32_t)e << 10) | (man >> 13), rest = man & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
        h++; /* may carry into the exponent, up to infinity: right */
    return sign | (uint16_t)h;
}

#endif /* RT_IMAGE_IMPL_H */

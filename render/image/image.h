/*
** image.h: the renderer's in-memory image (float pixels, RGBA(Z) and
** other channel layouts), reading PNG/JPEG/HDR/TIFF/EXR files into it,
** writing PNG/TIFF/EXR from it, and RiQuantize's quantization for 8 and
** 16-bit output.
**
** Every function that can fail takes err/errlen and fills it with
** "path: error: ..." (the name given as `path` or `name`); none aborts
** or crashes on a bad file.
*/
#ifndef RT_IMAGE_H
#define RT_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IMAGE_MAX_CHANNELS 16
#define IMAGE_CHANNEL_NAME 32

typedef enum ImageFormat {
    IMAGE_FORMAT_AUTO, /* reading: the contents, else the extension; writing: the extension */
    IMAGE_PNG,
    IMAGE_JPEG, /* read only */
    IMAGE_HDR,  /* Radiance RGBE, read only */
    IMAGE_TIFF,
    IMAGE_EXR
} ImageFormat;

/* How a file stores its samples; IMAGE_STORE_DEFAULT when writing means
   the format's natural choice (PNG 8-bit, TIFF 8-bit, EXR half). */
typedef enum ImageStorage {
    IMAGE_STORE_DEFAULT,
    IMAGE_U8,
    IMAGE_U16,
    IMAGE_HALF,
    IMAGE_FLOAT
} ImageStorage;

/* What a file says about itself beyond its pixels. Matrices are
   RenderMan's (row vectors: p' = p M), as in PRMan's TIFF tags
   PixarMatrixWorldToCamera/PixarMatrixWorldToScreen and EXR's m44f
   attributes worldToCamera/worldToScreen. Screen space has x and y in
   [-1, 1] across the whole image, y up. */
typedef struct ImageMeta {
    bool has_world_to_camera, has_world_to_screen;
    float world_to_camera[16], world_to_screen[16];
    /* PRMan's texture format names: "Plain Texture", "LatLong
       Environment", "CubeFace Environment", "Shadow"; "" if unsaid.
       TIFF: the PixarTextureFormat tag; EXR: the envmap attribute. */
    char texture_format[32];
    /* "swrap,twrap" ("periodic", "clamp", "black"); "" if unsaid. TIFF:
       PixarWrapModes; EXR: a string attribute "wrapmodes". */
    char wrap_modes[64];
    ImageStorage storage; /* as the file stored it (set by the readers) */
} ImageMeta;

/* Pixels are row-major, top row first, channels interleaved:
   pixels[(y * width + x) * channels + c]. Channel names default by
   count: Y; Y A; R G B; R G B A; R G B A Z; then C5, C6, ... */
typedef struct Image {
    int width, height, channels;
    float *pixels;
    char channel_names[IMAGE_MAX_CHANNELS][IMAGE_CHANNEL_NAME];
    ImageMeta meta;
} Image;

/* A zeroed image with default channel names; NULL if the size is not
   positive, too large (image_size_ok) or memory runs out. */
Image *image_new(int width, int height, int channels);
void image_free(Image *img);
/* Whether an image of this size may be made: each side at most 65536
   and at most 2^28 floats in all. */
bool image_size_ok(long width, long height, long channels);
static inline float *image_pixel(const Image *img, int x, int y)
{
    return img->pixels + ((size_t)y * (size_t)img->width + (size_t)x) * (size_t)img->channels;
}
/* The index of the channel called `name`, or -1. */
int image_channel_index(const Image *img, const char *name);

/* IMAGE_FORMAT_AUTO unless the name ends in a known extension (.png,
   .jpg/.jpeg, .hdr, .tif/.tiff, .exr; any case). */
ImageFormat image_format_from_name(const char *path);
const char *image_format_name(ImageFormat f);

/* Reads a file whole: a regular file only (a device or FIFO is refused
   without being read), within the reading limits of image_impl.h (file
   bytes, pixels a side, samples), each refusal saying which. The format is `format` if given, else the one
   the first bytes show (so txmake-style names such as "brick.tex"
   work), else the extension's. 8 and 16-bit samples become [0, 1]
   floats (v/255, v/65535), with no color space conversion; PNG: every
   color type and depth, palettes and tRNS expanded (RGB(A), gray(+A));
   JPEG: gray, RGB, and CMYK made RGB; HDR gives Radiance's linear
   floats (RGBE), "-Y height +X width" orientation only. TIFF: 8, 16 and 32-bit unsigned and 16/32-bit
   float samples of gray or RGB (plus extra samples), contiguous or
   planar, strips or tiles; other photometrics (palette, YCbCr, CMYK,
   1-bit) through libtiff's RGBA reader as 8-bit RGBA; the first
   directory only. EXR: part 0, scanline or tiled (level 0), half, float
   or uint channels, ordered R G B Y A Z first, then the rest as stored. */
Image *image_read(const char *path, ImageFormat format, char *err, int errlen);
/* The same from bytes in memory; `name` is used in messages only. */
Image *image_decode(const void *data, size_t size, const char *name, ImageFormat format,
                    char *err, int errlen);

/* RiQuantize (RISpec 3.2 section 4.1.2): each value v becomes
   clamp(round(one * v + dither * r), min, max), r uniform in [-1, 1)
   from a hash of (x, y, channel), so the same image always quantizes
   the same way. */
typedef struct ImageQuantize {
    int one, min, max;
    float dither;
} ImageQuantize;

/* out holds width * height * channels values. */
void image_quantize(const Image *img, const ImageQuantize *q, uint16_t *out);

typedef struct ImageWriteOptions {
    ImageFormat format;   /* IMAGE_FORMAT_AUTO: from the path's extension */
    ImageStorage storage; /* PNG: U8 only; TIFF: U8, U16, HALF, FLOAT; EXR: HALF, FLOAT */
    bool tiled;           /* TIFF and EXR: 64 x 64 tiles instead of scanlines */
    /* For U8 and U16; one == 0 means {255 or 65535, 0, that, 0}. */
    ImageQuantize quantize;
} ImageWriteOptions;

/* Writes img to path (opt NULL: all defaults), through a temporary file
   in the same directory renamed over path at the end, so a failed write
   leaves path as it was and no temporary behind. 0, or -1 with err. */
int image_write(const Image *img, const char *path, const ImageWriteOptions *opt, char *err,
                int errlen);

#endif /* RT_IMAGE_H */

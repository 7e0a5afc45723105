/*
** image_tiff.c: TIFF through libtiff, read from memory and written to a
** file, with PRMan's texture tags (PixarTextureFormat, PixarWrapModes,
** PixarMatrixWorldToCamera/WorldToScreen). Errors go to a handler per
** open file (libtiff 4.5's TIFFOpenOptions), never to stderr.
*/
#include "config.h"
#include "render/image/image_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tiffio.h>

/* The first error libtiff reports for one open file. */
typedef struct TiffErr {
    char msg[256];
} TiffErr;

static int on_error(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap)
{
    (void)tif, (void)module;
    TiffErr *e = user;
    if (!e->msg[0])
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    return 1;
}

static int on_warning(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap)
{
    (void)tif, (void)user, (void)module, (void)fmt, (void)ap;
    return 1;
}

static TIFFOpenOptions *open_options(TiffErr *e)
{
    TIFFOpenOptions *o = TIFFOpenOptionsAlloc();
    if (!o)
        return NULL;
    TIFFOpenOptionsSetErrorHandlerExtR(o, on_error, e);
    TIFFOpenOptionsSetWarningHandlerExtR(o, on_warning, e);
    TIFFOpenOptionsSetMaxSingleMemAlloc(o, (tmsize_t)1 << 30);
    return o;
}

/* ---- reading --------------------------------------------------------------------------- */

typedef struct MemFile {
    const uint8_t *data;
    toff_t size, pos;
} MemFile;

static tmsize_t mem_read(thandle_t h, void *buf, tmsize_t n)
{
    MemFile *m = h;
    if (n < 0)
        return -1;
    toff_t left = m->pos < m->size ? m->size - m->pos : 0;
    toff_t k = (toff_t)n < left ? (toff_t)n : left;
    memcpy(buf, m->data + m->pos, (size_t)k);
    m->pos += k;
    return (tmsize_t)k;
}

static tmsize_t mem_write(thandle_t h, void *buf, tmsize_t n)
{
    (void)h, (void)buf, (void)n;
    return -1;
}

static toff_t mem_seek(thandle_t h, toff_t off, int whence)
{
    MemFile *m = h;
    toff_t base = whence == SEEK_CUR ? m->pos : whence == SEEK_END ? m->size : 0;
    if (off > UINT64_MAX - base)
        return (toff_t)-1;
    m->pos = base + off;
    return m->pos;
}

static int mem_close(thandle_t h)
{
    (void)h;
    return 0;
}

static toff_t mem_size(thandle_t h)
{
    return ((MemFile *)h)->size;
}

static int mem_map(thandle_t h, void **base, toff_t *size)
{
    (void)h, (void)base, (void)size;
    return 0;
}

static void mem_unmap(thandle_t h, void *base, toff_t size)
{
    (void)h, (void)base, (void)size;
}

/* How the samples of a directly readable file are stored. */
typedef struct Layout {
    uint16_t bps, fmt, spp, planar;
    bool invert; /* MINISWHITE */
} Layout;

static float sample(const uint8_t *p, const Layout *l)
{
    float v;
    if (l->fmt == SAMPLEFORMAT_IEEEFP && l->bps == 32) {
        memcpy(&v, p, 4);
    } else if (l->fmt == SAMPLEFORMAT_IEEEFP) {
        uint16_t h;
        memcpy(&h, p, 2);
        v = image_half_to_float(h);
    } else if (l->bps == 8) {
        v = p[0] / 255.0f;
    } else if (l->bps == 16) {
        uint16_t u;
        memcpy(&u, p, 2);
        v = u / 65535.0f;
    } else {
        uint32_t u;
        memcpy(&u, p, 4);
        v = (float)(u / 4294967295.0);
    }
    return l->invert ? 1 - v : v;
}

/* Copies a block (a strip or a tile) of bw x bh samples-per-pixel `n`
   values at (x0, y0) of plane `first` into img. */
static void put_block(Image *img, const uint8_t *buf, const Layout *l, int x0, int y0, int bw,
                      int bh, int first, int n)
{
    size_t bytes = l->bps / 8;
    for (int r = 0; r < bh && y0 + r < img->height; r++)
        for (int c = 0; c < bw && x0 + c < img->width; c++) {
            const uint8_t *p = buf + ((size_t)r * (size_t)bw + (size_t)c) * (size_t)n * bytes;
            float *o = image_pixel(img, x0 + c, y0 + r) + first;
            for (int k = 0; k < n; k++)
                o[k] = sample(p + (size_t)k * bytes, l);
        }
}

static bool read_direct(TIFF *tif, Image *img, const Layout *l, const char *name, TiffErr *e,
                        char *err, int errlen)
{
    int planes = l->planar == PLANARCONFIG_SEPARATE ? l->spp : 1;
    int n = l->planar == PLANARCONFIG_SEPARATE ? 1 : l->spp;
    size_t px = (size_t)n * l->bps / 8;
    bool tiled = TIFFIsTiled(tif);
    uint32_t bw = (uint32_t)img->width, bh = 0;
    if (tiled) {
        if (!TIFFGetField(tif, TIFFTAG_TILEWIDTH, &bw) || !TIFFGetField(tif, TIFFTAG_TILELENGTH, &bh) ||
            bw == 0 || bh == 0 || bw > 65536 || bh > 65536) {
            image_error(err, errlen, name, "bad TIFF tile size");
            return false;
        }
    } else {
        TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &bh);
        if (bh == 0 || bh > (uint32_t)img->height)
            bh = (uint32_t)img->height;
    }
    size_t need = (size_t)bw * bh * px;
    tmsize_t have = tiled ? TIFFTileSize(tif) : TIFFStripSize(tif);
    if (have <= 0 || (size_t)have < need || need > ((size_t)1 << 30)) {
        image_error(err, errlen, name, "bad TIFF %s size", tiled ? "tile" : "strip");
        return false;
    }
    uint8_t *buf = malloc((size_t)have);
    if (!buf) {
        image_error(err, errlen, name, "out of memory");
        return false;
    }
    bool ok = true;
    for (int p = 0; p < planes && ok; p++)
        for (uint32_t y = 0; y < (uint32_t)img->height && ok; y += bh)
            for (uint32_t x = 0; x < (uint32_t)img->width && ok; x += bw) {
                tmsize_t got;
                size_t rows = bh;
                if (tiled) {
                    got = TIFFReadEncodedTile(tif, TIFFComputeTile(tif, x, y, 0, (uint16_t)p), buf,
                                              have);
                } else {
                    rows = (uint32_t)img->height - y < bh ? (uint32_t)img->height - y : bh;
                    got = TIFFReadEncodedStrip(tif, TIFFComputeStrip(tif, y, (uint16_t)p), buf,
                                               (tmsize_t)(rows * bw * px));
                }
                if (got < 0 || (size_t)got < rows * bw * px) {
                    image_error(err, errlen, name, "corrupt or truncated TIFF data%s%s%s",
                                e->msg[0] ? " (" : "", e->msg, e->msg[0] ? ")" : "");
                    ok = false;
                } else {
                    put_block(img, buf, l, (int)x, (int)y, (int)bw, (int)rows, p, n);
                }
            }
    free(buf);
    return ok;
}

/* Anything else libtiff can turn into RGBA (palette, YCbCr, CMYK, 1-bit...). */
static bool read_rgba(TIFF *tif, Image *img, const char *name, TiffErr *e, char *err, int errlen)
{
    char why[1024] = "";
    if (!TIFFRGBAImageOK(tif, why)) {
        image_error(err, errlen, name, "unsupported TIFF layout (%s)", why);
        return false;
    }
    uint32_t *raster = malloc((size_t)img->width * (size_t)img->height * sizeof *raster);
    if (!raster) {
        image_error(err, errlen, name, "out of memory");
        return false;
    }
    if (!TIFFReadRGBAImageOriented(tif, (uint32_t)img->width, (uint32_t)img->height, raster,
                                   ORIENTATION_TOPLEFT, 1)) {
        image_error(err, errlen, name, "corrupt or truncated TIFF data%s%s%s",
                    e->msg[0] ? " (" : "", e->msg, e->msg[0] ? ")" : "");
        free(raster);
        return false;
    }
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) {
            uint32_t v = raster[(size_t)y * (size_t)img->width + (size_t)x];
            float *o = image_pixel(img, x, y);
            o[0] = TIFFGetR(v) / 255.0f, o[1] = TIFFGetG(v) / 255.0f, o[2] = TIFFGetB(v) / 255.0f;
            if (img->channels == 4)
                o[3] = TIFFGetA(v) / 255.0f;
        }
    free(raster);
    return true;
}

static void read_meta(TIFF *tif, ImageMeta *m)
{
    char *s;
    float *f;
    if (TIFFGetField(tif, TIFFTAG_PIXAR_TEXTUREFORMAT, &s) && s)
        snprintf(m->texture_format, sizeof m->texture_format, "%s", s);
    if (TIFFGetField(tif, TIFFTAG_PIXAR_WRAPMODES, &s) && s)
        snprintf(m->wrap_modes, sizeof m->wrap_modes, "%s", s);
    if (TIFFGetField(tif, TIFFTAG_PIXAR_MATRIX_WORLDTOCAMERA, &f) && f) {
        memcpy(m->world_to_camera, f, sizeof m->world_to_camera);
        m->has_world_to_camera = true;
    }
    if (TIFFGetField(tif, TIFFTAG_PIXAR_MATRIX_WORLDTOSCREEN, &f) && f) {
        memcpy(m->world_to_screen, f, sizeof m->world_to_screen);
        m->has_world_to_screen = true;
    }
}

/* Whether every strip or tile has bytes within the file's `size`.
   libtiff reads one with none (offset and byte count 0, as a "sparse"
   file has) as zeros when not memory-mapped, so a few bytes of header
   made a huge image decoded from nothing (found by fuzz-image). */
static bool blocks_in_file(TIFF *tif, toff_t size, const char *name, char *err, int errlen)
{
    bool tiled = TIFFIsTiled(tif);
    uint32_t n = tiled ? TIFFNumberOfTiles(tif) : TIFFNumberOfStrips(tif);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t at = TIFFGetStrileOffset(tif, i), count = TIFFGetStrileByteCount(tif, i);
        if (count == 0 || at > size || count > size - at) {
            image_error(err, errlen, name, "truncated file: TIFF %s %u of %u %s",
                        tiled ? "tile" : "strip", i, n,
                        count == 0 ? "has no data" : "lies past the end of the file");
            return false;
        }
    }
    return true;
}

static Image *decode(TIFF *tif, toff_t size, const char *name, TiffErr *e, char *err,
                     int errlen)
{
    uint32_t w = 0, h = 0;
    uint16_t photo, compression = COMPRESSION_NONE, nextra = 0, *extra = NULL;
    Layout l = { 1, SAMPLEFORMAT_UINT, 1, PLANARCONFIG_CONTIG, false };
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &w) || !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &h)) {
        image_error(err, errlen, name, "TIFF without an image size");
        return NULL;
    }
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &l.bps);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &l.fmt);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &l.spp);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &l.planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
    TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, &nextra, &extra);
    if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photo))
        photo = l.spp >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
    bool gray = photo == PHOTOMETRIC_MINISBLACK || photo == PHOTOMETRIC_MINISWHITE;
    bool direct = (gray || (photo == PHOTOMETRIC_RGB && l.spp >= 3)) &&
                  ((l.fmt == SAMPLEFORMAT_UINT && (l.bps == 8 || l.bps == 16 || l.bps == 32)) ||
                   (l.fmt == SAMPLEFORMAT_IEEEFP && (l.bps == 16 || l.bps == 32)));
    int channels = direct ? l.spp : nextra > 0 ? 4 : 3;
    if (!image_read_size_ok(w, h, channels, "TIFF", name, err, errlen) ||
        !blocks_in_file(tif, size, name, err, errlen))
        return NULL;
    if (direct && (l.bps > 8 || l.fmt != SAMPLEFORMAT_UINT) && compression == COMPRESSION_JPEG) {
        image_error(err, errlen, name, "unsupported TIFF (JPEG-compressed %u-bit samples)", l.bps);
        return NULL;
    }
    Image *img = image_new((int)w, (int)h, channels);
    if (!img) {
        image_error(err, errlen, name, "out of memory for %u x %u pixels", w, h);
        return NULL;
    }
    l.invert = photo == PHOTOMETRIC_MINISWHITE;
    img->meta.storage = !direct || l.bps == 8 ? IMAGE_U8
                      : l.fmt == SAMPLEFORMAT_IEEEFP ? (l.bps == 16 ? IMAGE_HALF : IMAGE_FLOAT)
                      : l.bps == 16 ? IMAGE_U16 : IMAGE_FLOAT;
    read_meta(tif, &img->meta);
    bool ok = direct ? read_direct(tif, img, &l, name, e, err, errlen)
                     : read_rgba(tif, img, name, e, err, errlen);
    if (!ok) {
        image_free(img);
        return NULL;
    }
    return img;
}

Image *image_decode_tiff(const uint8_t *data, size_t size, const char *name, char *err,
                         int errlen)
{
    TiffErr e = { "" };
    MemFile m = { data, size, 0 };
    TIFFOpenOptions *o = open_options(&e);
    if (!o) {
        image_error(err, errlen, name, "out of memory");
        return NULL;
    }
    TIFF *tif = TIFFClientOpenExt(name, "rm", &m, mem_read, mem_write, mem_seek, mem_close,
                                  mem_size, mem_map, mem_unmap, o);
    TIFFOpenOptionsFree(o);
    if (!tif) {
        image_error(err, errlen, name, "not a readable TIFF file (%s)",
                    e.msg[0] ? e.msg : "bad header");
        return NULL;
    }
    Image *img = decode(tif, m.size, name, &e, err, errlen);
    TIFFClose(tif);
    return img;
}

/* ---- writing --------------------------------------------------------------------------- */

int image_write_tiff(const Image *img, const ImageWriteOptions *opt, const char *tmp,
                     const char *name, char *err, int errlen)
{
    ImageStorage st = opt->storage == IMAGE_STORE_DEFAULT ? IMAGE_U8 : opt->storage;
    int bytes = st == IMAGE_U8 ? 1 : st == IMAGE_FLOAT ? 4 : 2;
    int C = img->channels, W = img->width, H = img->height;
    size_t n = (size_t)W * (size_t)H * (size_t)C;
    uint8_t *data = malloc(n * (size_t)bytes);
    uint16_t *q = st == IMAGE_U8 || st == IMAGE_U16 ? malloc(n * sizeof *q) : NULL;
    if (!data || ((st == IMAGE_U8 || st == IMAGE_U16) && !q)) {
        free(data), free(q);
        image_error(err, errlen, name, "out of memory");
        return -1;
    }
    if (q)
        image_quantize_for(img, &opt->quantize, st == IMAGE_U8 ? 8 : 16, q);
    for (size_t i = 0; i < n; i++) {
        if (st == IMAGE_U8) {
            data[i] = (uint8_t)q[i];
        } else if (st == IMAGE_U16) {
            memcpy(data + 2 * i, &q[i], 2);
        } else if (st == IMAGE_HALF) {
            uint16_t h = image_float_to_half(img->pixels[i]);
            memcpy(data + 2 * i, &h, 2);
        } else {
            memcpy(data + 4 * i, &img->pixels[i], 4);
        }
    }
    free(q);

    TiffErr e = { "" };
    TIFFOpenOptions *o = open_options(&e);
    TIFF *tif = o ? TIFFOpenExt(tmp, "w", o) : NULL;
    TIFFOpenOptionsFree(o);
    if (!tif) {
        free(data);
        image_error(err, errlen, name, "cannot write TIFF '%s' (%s)", tmp,
                    e.msg[0] ? e.msg : "out of memory");
        return -1;
    }
    int color = C >= 3 ? 3 : 1, nextra = C - color;
    uint16_t extra[IMAGE_MAX_CHANNELS];
    for (int i = 0; i < nextra; i++)
        extra[i] = i == 0 && !strcmp(img->channel_names[color], "A") ? EXTRASAMPLE_ASSOCALPHA
                                                                   : EXTRASAMPLE_UNSPECIFIED;
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, (uint32_t)W);
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, (uint32_t)H);
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, (uint16_t)C);
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, (uint16_t)(bytes * 8));
    TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT,
                 st == IMAGE_HALF || st == IMAGE_FLOAT ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, color == 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK);
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT);
    TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
    if (nextra > 0)
        TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, (uint16_t)nextra, extra);
    const ImageMeta *m = &img->meta;
    if (m->texture_format[0])
        TIFFSetField(tif, TIFFTAG_PIXAR_TEXTUREFORMAT, m->texture_format);
    if (m->wrap_modes[0])
        TIFFSetField(tif, TIFFTAG_PIXAR_WRAPMODES, m->wrap_modes);
    if (m->has_world_to_camera)
        TIFFSetField(tif, TIFFTAG_PIXAR_MATRIX_WORLDTOCAMERA, m->world_to_camera);
    if (m->has_world_to_screen)
        TIFFSetField(tif, TIFFTAG_PIXAR_MATRIX_WORLDTOSCREEN, m->world_to_screen);

    size_t px = (size_t)C * (size_t)bytes;
    bool ok = true;
    if (opt->tiled) {
        enum { T = 64 };
        TIFFSetField(tif, TIFFTAG_TILEWIDTH, (uint32_t)T);
        TIFFSetField(tif, TIFFTAG_TILELENGTH, (uint32_t)T);
        uint8_t *tile = malloc(T * T * px);
        ok = tile != NULL;
        for (int y = 0; ok && y < H; y += T)
            for (int x = 0; ok && x < W; x += T) {
                memset(tile, 0, T * T * px);
                for (int r = 0; r < T && y + r < H; r++) {
                    int cols = W - x < T ? W - x : T;
                    memcpy(tile + (size_t)r * T * px,
                           data + ((size_t)(y + r) * (size_t)W + (size_t)x) * px, (size_t)cols * px);
                }
                ok = TIFFWriteTile(tif, tile, (uint32_t)x, (uint32_t)y, 0, 0) >= 0;
            }
        free(tile);
    } else {
        TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(tif, 0));
        for (int y = 0; ok && y < H; y++)
            ok = TIFFWriteScanline(tif, data + (size_t)y * (size_t)W * px, (uint32_t)y, 0) >= 0;
    }
    ok = ok && TIFFFlush(tif);
    TIFFClose(tif);
    free(data);
    if (!ok || e.msg[0]) {
        image_error(err, errlen, name, "TIFF write failed (%s)", e.msg[0] ? e.msg : "disk full?");
        return -1;
    }
    return 0;
}

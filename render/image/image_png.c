/*
** image_png.c: PNG through libpng: reading from memory (1 to 16-bit
** gray, gray + alpha, RGB, RGBA and palette images, tRNS made alpha,
** interlaced or not) and writing 8-bit files.
**
** libpng reports an error by a longjmp back to the setjmp in
** png_read_into / png_write_from. Everything those functions allocate
** or change lives in a struct of their caller's (PngIn, PngOut), never
** in a local of theirs, so after the jump the caller still knows what
** to free. A read past the end of the bytes is truncation, whatever
** libpng was reading; png_read_end reads on to the IEND chunk, so a
** file cut anywhere fails. Rows are decoded only as far as the data
** goes, and deflate makes at most 1032 bytes of a byte, so a few bytes
** declaring a huge image cost little more than its (untouched, so
** unpaid) allocation before they fail.
*/
#include "config.h"
#include "render/image/image_impl.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

/* libpng's first error message for one file, and whether it came from
   running out of bytes. */
typedef struct PngFail {
    char msg[200];
    bool truncated;
} PngFail;

static void on_error(png_structp png, png_const_charp msg)
{
    PngFail *f = png_get_error_ptr(png);
    if (!f->msg[0])
        snprintf(f->msg, sizeof f->msg, "%s", msg);
    png_longjmp(png, 1);
}

/* Warnings are about ancillary chunks, which libpng then drops; the
   pixels are still right, so they are not reported. */
static void on_warning(png_structp png, png_const_charp msg)
{
    (void)png, (void)msg;
}

/* ---- reading --------------------------------------------------------------------------- */

typedef struct PngIn {
    PngFail fail;
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size, at;
    uint8_t *rows; /* one decoded row, or all of them for an interlaced image */
    Image *img;
} PngIn;

static void read_data(png_structp png, png_bytep out, size_t n)
{
    PngIn *in = png_get_io_ptr(png);
    if (n > in->size - in->at) {
        in->fail.truncated = true;
        png_error(png, "the data ends early");
    }
    memcpy(out, in->data + in->at, n);
    in->at += n;
}

/* Row samples (big-endian when 16-bit) to [0, 1] floats. */
static void row_to_floats(const uint8_t *row, size_t n, bool wide, float *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = wide ? (float)(row[2 * i] << 8 | row[2 * i + 1]) / 65535.0f : row[i] / 255.0f;
}

/* Decodes in's bytes into in->img; false with err. */
static bool png_read_into(PngIn *in, const char *name, char *err, int errlen)
{
    if (setjmp(png_jmpbuf(in->png))) {
        if (in->fail.truncated)
            image_error(err, errlen, name, "truncated file: the PNG data ends early");
        else
            image_error(err, errlen, name, "cannot read PNG: %s", in->fail.msg);
        return false;
    }
    png_structp png = in->png;
    png_infop info = in->info;
    png_set_read_fn(png, in, read_data);
    png_read_info(png, info);
    png_uint_32 w, h;
    int depth, type, interlace;
    png_get_IHDR(png, info, &w, &h, &depth, &type, &interlace, NULL, NULL);
    /* Everything to 8 or 16-bit gray, gray + alpha, RGB or RGBA. */
    if (type == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_tRNS_to_alpha(png);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    int channels = png_get_channels(png, info);
    bool wide = png_get_bit_depth(png, info) == 16;
    if (!image_read_size_ok(w, h, channels, "PNG", name, err, errlen))
        return false;
    in->img = image_new((int)w, (int)h, channels);
    size_t rowbytes = png_get_rowbytes(png, info);
    /* An interlaced image's passes each fill in part of every row. */
    in->rows = malloc(passes > 1 ? rowbytes * h : rowbytes);
    if (!in->img || !in->rows) {
        image_error(err, errlen, name, "out of memory for %u x %u pixels", w, h);
        return false;
    }
    in->img->meta.storage = wide ? IMAGE_U16 : IMAGE_U8;
    size_t n = (size_t)w * (size_t)channels;
    for (int pass = 0; pass < passes; pass++)
        for (png_uint_32 y = 0; y < h; y++) {
            uint8_t *row = in->rows + (passes > 1 ? rowbytes * y : 0);
            png_read_row(png, row, NULL);
            if (pass == passes - 1)
                row_to_floats(row, n, wide, image_pixel(in->img, 0, (int)y));
        }
    png_read_end(png, NULL);
    return true;
}

Image *image_decode_png(const uint8_t *data, size_t size, const char *name, char *err,
                        int errlen)
{
    PngIn in = { .data = data, .size = size };
    in.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &in.fail, on_error, on_warning);
    in.info = in.png ? png_create_info_struct(in.png) : NULL;
    bool ok = in.info && png_read_into(&in, name, err, errlen);
    if (!in.info)
        image_error(err, errlen, name, "out of memory for libpng");
    png_destroy_read_struct(&in.png, &in.info, NULL);
    free(in.rows);
    if (ok)
        return in.img;
    image_free(in.img);
    return NULL;
}

/* ---- writing --------------------------------------------------------------------------- */

typedef struct PngOut {
    PngFail fail;
    png_structp png;
    png_infop info;
    FILE *fp;
    uint8_t *row;
} PngOut;

/* Writes the quantized samples q (8-bit values) of img to out->fp. */
static bool png_write_from(PngOut *out, const Image *img, const uint16_t *q)
{
    if (setjmp(png_jmpbuf(out->png)))
        return false;
    static const int types[5] = { 0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                  PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA };
    png_init_io(out->png, out->fp);
    png_set_IHDR(out->png, out->info, (png_uint_32)img->width, (png_uint_32)img->height, 8,
                 types[img->channels], PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(out->png, out->info);
    size_t n = (size_t)img->width * (size_t)img->channels;
    for (int y = 0; y < img->height; y++) {
        for (size_t i = 0; i < n; i++)
            out->row[i] = (uint8_t)q[(size_t)y * n + i];
        png_write_row(out->png, out->row);
    }
    png_write_end(out->png, NULL);
    return true;
}

int image_write_png(const Image *img, const ImageWriteOptions *opt, const char *tmp,
                    const char *name, char *err, int errlen)
{
    if (opt->storage != IMAGE_STORE_DEFAULT && opt->storage != IMAGE_U8) {
        image_error(err, errlen, name, "PNG output is 8-bit only (use TIFF or EXR)");
        return -1;
    }
    if (img->channels > 4) {
        image_error(err, errlen, name, "PNG holds at most 4 channels, not %d", img->channels);
        return -1;
    }
    size_t n = (size_t)img->width * (size_t)img->height * (size_t)img->channels;
    uint16_t *q = malloc(n * sizeof *q);
    PngOut out = { .row = malloc((size_t)img->width * (size_t)img->channels) };
    out.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &out.fail, on_error, on_warning);
    out.info = out.png ? png_create_info_struct(out.png) : NULL;
    if (!q || !out.row || !out.info) {
        image_error(err, errlen, name, "out of memory");
        png_destroy_write_struct(&out.png, &out.info);
        free(q), free(out.row);
        return -1;
    }
    image_quantize_for(img, &opt->quantize, 8, q);
    int rc = -1;
    out.fp = fopen(tmp, "wb");
    if (!out.fp)
        image_error(err, errlen, name, "cannot open '%s' for writing: %s", tmp, strerror(errno));
    else if (!png_write_from(&out, img, q))
        image_error(err, errlen, name, "PNG write failed: %s", out.fail.msg);
    else
        rc = 0;
    png_destroy_write_struct(&out.png, &out.info);
    if (out.fp && fclose(out.fp) != 0 && rc == 0) {
        image_error(err, errlen, name, "PNG write failed: %s", strerror(errno));
        rc = -1;
    }
    free(q), free(out.row);
    return rc;
}

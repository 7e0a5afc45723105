/*
** image_jpeg.c: JPEG through libjpeg-turbo, read from memory: gray,
** RGB (YCbCr or RGB in the file) and CMYK (CMYK or YCCK in the file,
** made RGB here, as a renderer's texture wants).
**
** libjpeg reports an error by calling error_exit, which longjmps back
** to the setjmp in jpeg_read_into; what that function allocates lives in
** the caller's JpegIn, never in a local of its own, so the caller frees
** it after the jump. Two of libjpeg's warnings are errors here: the end
** of the bytes (the memory source then feeds libjpeg a fake end marker)
** and a marker in the middle of a scan's data; either way the scan's
** data ends before its blocks do, and libjpeg would decode the rest from
** zeros.
**
** Before anything is allocated the size is checked against the reading
** limits and against the bytes left: every 8 x 8 block of the
** full-resolution component is in some scan whose code for it is at
** least one bit (a DC code, sequential or progressive), so a
** Huffman-coded file needs at least one bit per block. A tiny file
** declaring a huge image is refused at once as truncated instead of
** being decoded from nothing. Arithmetic coding has no such floor: a
** likely decision narrows the coder's interval without moving its low
** end, so a run of them codes as zero bits, and the encoder drops the
** zero bytes that end a scan (the decoder reads zeros past the data):
** a flat image, or a flat end of one, is rightly a few bytes however
** large. No bound on the bytes is sound for it, so an arithmetic-coded
** file gets JPEG_ARITH_FREE_BLOCKS blocks (2^22 pixels) beyond those its
** bytes pay for at the Huffman rate, and past that is refused as a
** possible bomb: a 333-byte file declaring 16000 x 5000 black pixels
** would otherwise keep the decoder busy for seconds. A progressive file
** may have at most JPEG_MAX_SCANS scans, each of which costs a pass over
** the whole image, and most scans can be nearly free: an arithmetic-coded
** scan of a flat image is a header's few bytes, and so is a Huffman-coded
** AC scan of one (one code skips 32767 empty blocks). So the scans
** together may pass over JPEG_FREE_SCANS times the free blocks, and a bit
** per block beyond (a 3.6 KB file making 200 passes over 2048 x 2048
** pixels took two seconds). For an arithmetic-coded file the free blocks
** are JPEG_ARITH_FREE_BLOCKS; for a Huffman-coded one they are the
** image's own, which its bytes have paid for at a bit each (above), so
** that a large flat progressive image in libjpeg's 10 scans still decodes
** while the work stays within JPEG_FREE_SCANS passes per bit of data.
*/
#include "config.h"
#include "render/image/image_impl.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include <jpeglib.h>
#include <jerror.h>

enum { JPEG_MAX_SCANS = 256, JPEG_ARITH_FREE_BLOCKS = 1 << 16, JPEG_FREE_SCANS = 16 };

typedef struct JpegIn {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr jerr;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    char msg[JMSG_LENGTH_MAX];
    bool truncated;
    unsigned long blocks, bytes;  /* the image's 8 x 8 blocks, the data's bytes */
    uint8_t *row;
    Image *img;
} JpegIn;

static void on_error(j_common_ptr c)
{
    JpegIn *in = c->client_data;
    if (!in->msg[0])
        c->err->format_message(c, in->msg);
    longjmp(in->jump, 1);
}

static void on_message(j_common_ptr c, int level)
{
    JpegIn *in = c->client_data;
    int code = c->err->msg_code;
    if (level < 0 && (code == JWRN_JPEG_EOF || code == JWRN_HIT_MARKER)) {
        in->truncated = true;
        longjmp(in->jump, 1);
    }
}

static void on_progress(j_common_ptr c)
{
    JpegIn *in = c->client_data;
    unsigned long scans = (unsigned long)in->cinfo.input_scan_number;
    if (scans > JPEG_MAX_SCANS) {
        snprintf(in->msg, sizeof in->msg, "more than %d scans", JPEG_MAX_SCANS);
        longjmp(in->jump, 1);
    }
    bool arith = in->cinfo.arith_code;
    unsigned long free_passes = (unsigned long)JPEG_FREE_SCANS
                                * (arith ? (unsigned long)JPEG_ARITH_FREE_BLOCKS : in->blocks);
    if (scans * in->blocks > 8 * in->bytes + free_passes) {
        snprintf(in->msg, sizeof in->msg, "%lu scans over %lu blocks are more than %lu bytes "
                 "of %s-coded data pay for (past %lu block passes, at least a bit per block)",
                 scans, in->blocks, in->bytes, arith ? "arithmetic" : "Huffman", free_passes);
        longjmp(in->jump, 1);
    }
}

/* A CMYK row (Adobe's inverted ink values when `inverted`, which is how
   Photoshop writes them) to RGB floats: R = (1 - C)(1 - K) and so on. */
static void cmyk_to_rgb(const uint8_t *row, int width, bool inverted, float *out)
{
    for (int x = 0; x < width; x++, row += 4, out += 3) {
        float k = inverted ? row[3] / 255.0f : 1 - row[3] / 255.0f;
        for (int c = 0; c < 3; c++)
            out[c] = (inverted ? row[c] / 255.0f : 1 - row[c] / 255.0f) * k;
    }
}

/* Decodes the bytes into in->img; false with err. in's error manager is
   set; the decompressor is made here, after the setjmp, since making it
   can fail too (out of memory); jpeg_destroy_decompress takes one made
   halfway. */
static bool jpeg_read_into(JpegIn *in, const uint8_t *data, size_t size, const char *name,
                           char *err, int errlen)
{
    if (setjmp(in->jump)) {
        if (in->truncated)
            image_error(err, errlen, name, "truncated file: the JPEG data ends early");
        else
            image_error(err, errlen, name, "cannot read JPEG: %s", in->msg);
        return false;
    }
    j_decompress_ptr ci = &in->cinfo;
    jpeg_create_decompress(ci);
    ci->progress = &in->progress;
    ci->mem->max_memory_to_use = IMAGE_READ_MAX_BYTES;
    jpeg_mem_src(ci, data, (unsigned long)size);
    jpeg_read_header(ci, TRUE);
    int channels;
    switch (ci->jpeg_color_space) {
    case JCS_GRAYSCALE: ci->out_color_space = JCS_GRAYSCALE, channels = 1; break;
    case JCS_YCbCr:
    case JCS_RGB: ci->out_color_space = JCS_RGB, channels = 3; break;
    case JCS_CMYK:
    case JCS_YCCK: ci->out_color_space = JCS_CMYK, channels = 3; break;
    default:
        image_error(err, errlen, name, "cannot read JPEG: %d components in no color space "
                    "known (gray, YCbCr, RGB, CMYK, YCCK)", ci->num_components);
        return false;
    }
    long w = ci->image_width, h = ci->image_height;
    if (!image_read_size_ok(w, h, channels, "JPEG", name, err, errlen))
        return false;
    unsigned long blocks = (unsigned long)(w + 7) / 8 * (unsigned long)((h + 7) / 8);
    unsigned long bytes = ci->src->bytes_in_buffer, paid = 8 * bytes;
    in->blocks = blocks, in->bytes = bytes;
    if (!ci->arith_code && blocks > paid) {
        image_error(err, errlen, name, "truncated file: %lu bytes of JPEG data cannot hold "
                    "%ld x %ld pixels (at least a bit per 8 x 8 block)", bytes, w, h);
        return false;
    }
    if (ci->arith_code && blocks > paid + JPEG_ARITH_FREE_BLOCKS) {
        image_error(err, errlen, name, "%lu bytes of arithmetic-coded JPEG data cannot hold "
                    "%ld x %ld pixels (past %d, at least a bit per 8 x 8 block)", bytes, w, h,
                    JPEG_ARITH_FREE_BLOCKS * 64);
        return false;
    }
    in->img = image_new((int)w, (int)h, channels);
    in->row = malloc((size_t)w * 4);
    if (!in->img || !in->row) {
        image_error(err, errlen, name, "out of memory for %ld x %ld pixels", w, h);
        return false;
    }
    in->img->meta.storage = IMAGE_U8;
    jpeg_start_decompress(ci);
    while (ci->output_scanline < ci->output_height) {
        float *out = image_pixel(in->img, 0, (int)ci->output_scanline);
        JSAMPROW rows[1] = { in->row };
        jpeg_read_scanlines(ci, rows, 1);
        if (ci->out_color_space == JCS_CMYK)
            cmyk_to_rgb(in->row, (int)w, ci->saw_Adobe_marker, out);
        else
            for (long i = 0; i < w * channels; i++)
                out[i] = in->row[i] / 255.0f;
    }
    jpeg_finish_decompress(ci);
    return true;
}

Image *image_decode_jpeg(const uint8_t *data, size_t size, const char *name, char *err,
                         int errlen)
{
    JpegIn *in = calloc(1, sizeof *in);
    if (!in) {
        image_error(err, errlen, name, "out of memory for libjpeg");
        return NULL;
    }
    in->cinfo.err = jpeg_std_error(&in->jerr);
    in->jerr.error_exit = on_error;
    in->jerr.emit_message = on_message;
    in->progress.progress_monitor = on_progress;
    in->cinfo.client_data = in;
    bool ok = jpeg_read_into(in, data, size, name, err, errlen);
    jpeg_destroy_decompress(&in->cinfo);
    free(in->row);
    Image *img = in->img;
    if (!ok)
        image_free(img), img = NULL;
    free(in);
    return img;
}

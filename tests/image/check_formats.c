/*
** check_formats.c: the PNG, JPEG and Radiance HDR readers on files made
** here, by libpng and libjpeg or byte by byte, whose pixel values follow
** from how they were made: every PNG color type and bit depth, 16-bit
** samples exact, interlacing; JPEG gray, RGB and CMYK within a stated
** tolerance, flat-block JPEG exact (Huffman and arithmetic coding); RGBE exact by its formula.
** And the failures: files cut anywhere say "truncated", a JPEG or HDR
** declaring a huge image in a few bytes is refused before any decoding,
** corrupt data and unsupported variants are named.
*/
#include "config.h"
#include "tests/image/check_image.h"

#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>

static char err[512];

static Image *read_ok(const char *path)
{
    Image *img = image_read(path, IMAGE_FORMAT_AUTO, err, sizeof err);
    ck_assert_msg(img != NULL, "%s", err);
    return img;
}

/* Asserts img's samples are want[] exactly. */
static void expect_exact(const Image *img, int w, int h, int c, const float *want)
{
    ck_assert_int_eq(img->width, w);
    ck_assert_int_eq(img->height, h);
    ck_assert_int_eq(img->channels, c);
    for (int i = 0; i < w * h * c; i++)
        ck_assert_msg(img->pixels[i] == want[i], "sample %d: %.9g, want %.9g", i,
                      img->pixels[i], want[i]);
}

/* ---- PNG ----------------------------------------------------------------------------------- */

/* A PNG written by libpng from rows packed as PNG stores them (bits
   packed high first, 16-bit samples big-endian). */
typedef struct PngSpec {
    int width, height, depth, type;
    bool interlaced;
    const uint8_t *rows;
    const png_color *palette;
    int colors;
    const uint8_t *alphas; /* tRNS: the first palette entries' alpha */
    int nalpha;
} PngSpec;

static void write_png(const char *path, const PngSpec *s)
{
    FILE *fp = fopen(path, "wb");
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    ck_assert(fp && info);
    if (setjmp(png_jmpbuf(png)))
        ck_abort_msg("libpng could not write %s", path);
    png_init_io(png, fp);
    png_set_IHDR(png, info, (png_uint_32)s->width, (png_uint_32)s->height, s->depth, s->type,
                 s->interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (s->palette)
        png_set_PLTE(png, info, s->palette, s->colors);
    if (s->alphas)
        png_set_tRNS(png, info, s->alphas, s->nalpha, NULL);
    png_write_info(png, info);
    size_t rowbytes = png_get_rowbytes(png, info);
    png_bytep rows[64];
    ck_assert(s->height <= 64);
    for (int y = 0; y < s->height; y++)
        rows[y] = (png_bytep)s->rows + rowbytes * (size_t)y;
    png_write_image(png, rows);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    ck_assert(fclose(fp) == 0);
}

/* Writes s, reads it back, asserts its samples are want[] exactly and
   returns the storage the reader says the file had. */
static ImageStorage png_reads_as(const PngSpec *s, int channels, const float *want)
{
    write_png(scratch("t.png"), s);
    Image *img = read_ok(scratch("t.png"));
    expect_exact(img, s->width, s->height, channels, want);
    ImageStorage st = img->meta.storage;
    image_free(img);
    return st;
}

/* Every prefix of the file at path fails, and one cut halfway and one
   cut a byte short say `what`. */
static void cuts_say(const char *path, const char *what)
{
    every_prefix_fails(path, "");
    size_t n;
    uint8_t *d = read_bytes(path, &n);
    const size_t cuts[2] = { n / 2, n - 1 };
    for (int i = 0; i < 2; i++) {
        ck_assert_ptr_null(image_decode(d, cuts[i], "cut.img", IMAGE_FORMAT_AUTO, err, sizeof err));
        expect_error(err, "cut.img", what);
    }
    free(d);
}

/* 16-bit samples come back as v / 65535, exactly, interlaced or not. */
START_TEST(png_16bit_exact)
{
    static const uint16_t v[3 * 2 * 3] = { 0,     1,     257,   65535, 32768, 12345,
                                           54321, 2,     65534, 4660,  22136, 39612,
                                           43981, 61185, 4097,  7,     8,     9 };
    uint8_t rows[36];
    float want[18];
    for (int i = 0; i < 18; i++) {
        rows[2 * i] = (uint8_t)(v[i] >> 8), rows[2 * i + 1] = (uint8_t)v[i];
        want[i] = (float)v[i] / 65535.0f;
    }
    for (int interlaced = 0; interlaced < 2; interlaced++) {
        PngSpec s = { 3, 2, 16, PNG_COLOR_TYPE_RGB, interlaced, rows, .palette = NULL };
        ck_assert_int_eq(png_reads_as(&s, 3, want), IMAGE_U16);
    }
}
END_TEST

START_TEST(png_gray_alpha_and_1bit)
{
    static const uint8_t ga[8] = { 0, 255, 10, 20, 128, 1, 255, 0 };
    float want[10];
    for (int i = 0; i < 8; i++)
        want[i] = ga[i] / 255.0f;
    PngSpec s = { 2, 2, 8, PNG_COLOR_TYPE_GRAY_ALPHA, false, ga, .palette = NULL };
    ck_assert_int_eq(png_reads_as(&s, 2, want), IMAGE_U8);

    /* 1011001110: 1-bit black and white, 0 and 1 */
    static const uint8_t bits[2] = { 0xb3, 0x80 };
    static const float bw[10] = { 1, 0, 1, 1, 0, 0, 1, 1, 1, 0 };
    PngSpec b = { 10, 1, 1, PNG_COLOR_TYPE_GRAY, false, bits, .palette = NULL };
    ck_assert_int_eq(png_reads_as(&b, 1, bw), IMAGE_U8);
}
END_TEST

/* A 2-bit palette image with tRNS: RGBA, alpha from tRNS where it has
   an entry, else opaque. */
START_TEST(png_palette_with_transparency)
{
    static const png_color pal[4] = { { 255, 0, 0 }, { 0, 255, 0 }, { 0, 0, 255 }, { 10, 20, 30 } };
    static const uint8_t alphas[2] = { 255, 128 };
    /* indices 0 1 2 / 3 0 1, two bits each */
    static const uint8_t rows[2] = { 0x18, 0xc4 };
    static const int index[6] = { 0, 1, 2, 3, 0, 1 };
    float want[24];
    for (int i = 0; i < 6; i++) {
        const png_color *p = &pal[index[i]];
        want[4 * i] = p->red / 255.0f, want[4 * i + 1] = p->green / 255.0f;
        want[4 * i + 2] = p->blue / 255.0f;
        want[4 * i + 3] = (index[i] < 2 ? alphas[index[i]] : 255) / 255.0f;
    }
    PngSpec s = { 3, 2, 2, PNG_COLOR_TYPE_PALETTE, false, rows, pal, 4, alphas, 2 };
    ck_assert_int_eq(png_reads_as(&s, 4, want), IMAGE_U8);
}
END_TEST

/* Adam7 over 9 x 7 pixels: every pass has pixels. */
START_TEST(png_interlaced_8bit)
{
    uint8_t rows[9 * 7 * 3];
    float want[9 * 7 * 3];
    for (int i = 0; i < 9 * 7 * 3; i++)
        rows[i] = (uint8_t)(i * 37 + 11), want[i] = rows[i] / 255.0f;
    PngSpec s = { 9, 7, 8, PNG_COLOR_TYPE_RGB, true, rows, .palette = NULL };
    ck_assert_int_eq(png_reads_as(&s, 3, want), IMAGE_U8);
}
END_TEST

/* Cut anywhere, libpng wants bytes that are not there. */
START_TEST(png_truncated)
{
    uint8_t rows[20 * 20 * 3];
    for (size_t i = 0; i < sizeof rows; i++)
        rows[i] = (uint8_t)(i * i);
    PngSpec s = { 20, 20, 8, PNG_COLOR_TYPE_RGB, false, rows, .palette = NULL };
    write_png(scratch("cut.png"), &s);
    cuts_say(scratch("cut.png"), "truncated file: the PNG data ends early");
}
END_TEST

/* ---- JPEG ---------------------------------------------------------------------------------- */

/* How a test JPEG is made: w x h, comps samples a pixel in `space`; of
   one color (comps samples of `color`), or of gray samples gray(x, y),
   or else of noise; arithmetic-coded when `arith`; progressive in
   libjpeg's scans, or in nscans of `scans`. */
typedef struct JpegSpec {
    int w, h, comps;
    J_COLOR_SPACE space;
    const uint8_t *color;
    uint8_t (*gray)(int x, int y);
    int quality;
    bool arith, progressive;
    const jpeg_scan_info *scans;
    int nscans;
} JpegSpec;

/* The JPEG of s written by libjpeg. */
static void write_jpeg_spec(const char *path, const JpegSpec *s)
{
    struct jpeg_compress_struct ci;
    struct jpeg_error_mgr jerr;
    ci.err = jpeg_std_error(&jerr);
    jpeg_create_compress(&ci);
    FILE *fp = fopen(path, "wb");
    ck_assert(fp != NULL);
    jpeg_stdio_dest(&ci, fp);
    ci.image_width = (JDIMENSION)s->w, ci.image_height = (JDIMENSION)s->h;
    ci.input_components = s->comps, ci.in_color_space = s->space;
    jpeg_set_defaults(&ci);
    jpeg_set_quality(&ci, s->quality, TRUE);
    ci.arith_code = s->arith;
    if (s->progressive)
        jpeg_simple_progression(&ci);
    if (s->scans)
        ci.scan_info = s->scans, ci.num_scans = s->nscans;
    jpeg_start_compress(&ci, TRUE);
    int n = s->w * s->comps;
    uint8_t *row = malloc((size_t)n);
    uint32_t seed = 7;
    while (ci.next_scanline < ci.image_height) {
        int y = (int)ci.next_scanline;
        for (int i = 0; i < n; i++)
            row[i] = s->color ? s->color[i % s->comps]
                     : s->gray ? s->gray(i, y)
                               : (uint8_t)((seed = seed * 1664525u + 1013904223u) >> 24);
        JSAMPROW rows[1] = { row };
        jpeg_write_scanlines(&ci, rows, 1);
    }
    jpeg_finish_compress(&ci);
    jpeg_destroy_compress(&ci);
    fclose(fp);
    free(row);
}

/* A w x h Huffman-coded JPEG of one color, or of noise when color is
   NULL. */
static void write_jpeg(const char *path, int w, int h, int comps, J_COLOR_SPACE space,
                       const uint8_t *color, int quality)
{
    write_jpeg_spec(path, &(JpegSpec){ .w = w, .h = h, .comps = comps, .space = space,
                                       .color = color, .quality = quality });
}

/* Every sample of a w x h x c image within tol of want[c]. */
static void expect_flat(const Image *img, int w, int h, int c, const float *want, float tol)
{
    ck_assert_int_eq(img->width, w);
    ck_assert_int_eq(img->height, h);
    ck_assert_int_eq(img->channels, c);
    for (int i = 0; i < w * h * c; i++)
        ck_assert_msg(fabsf(img->pixels[i] - want[i % c]) <= tol, "sample %d: %g, want %g", i,
                      img->pixels[i], want[i % c]);
}

/* Flat colors survive JPEG within a step or three of 8 bits (DCT and
   YCbCr rounding). CMYK as libjpeg writes it carries an Adobe marker,
   so its samples are Adobe's inverted inks: R = C K / 255^2. */
START_TEST(jpeg_gray_rgb_cmyk)
{
    static const uint8_t gray = 100, rgb[3] = { 200, 100, 50 }, cmyk[2][4] = {
        { 255, 128, 64, 255 }, { 255, 255, 255, 128 } };
    write_jpeg(scratch("g.jpg"), 16, 16, 1, JCS_GRAYSCALE, &gray, 100);
    Image *img = read_ok(scratch("g.jpg"));
    expect_flat(img, 16, 16, 1, (float[]){ 100 / 255.0f }, 1 / 255.0f);
    ck_assert_int_eq(img->meta.storage, IMAGE_U8);
    image_free(img);
    write_jpeg(scratch("c.jpg"), 16, 16, 3, JCS_RGB, rgb, 95);
    img = read_ok(scratch("c.jpg"));
    expect_flat(img, 16, 16, 3, (float[]){ 200 / 255.0f, 100 / 255.0f, 50 / 255.0f }, 3 / 255.0f);
    image_free(img);
    for (int k = 0; k < 2; k++) {
        write_jpeg(scratch("k.jpg"), 16, 16, 4, JCS_CMYK, cmyk[k], 100);
        img = read_ok(scratch("k.jpg"));
        float want[3];
        for (int c = 0; c < 3; c++)
            want[c] = cmyk[k][c] * cmyk[k][3] / (255.0f * 255.0f);
        expect_flat(img, 16, 16, 3, want, 2 / 255.0f);
        image_free(img);
    }
}
END_TEST

START_TEST(jpeg_truncated)
{
    write_jpeg(scratch("cut.jpg"), 24, 24, 3, JCS_RGB, NULL, 90);
    cuts_say(scratch("cut.jpg"), "truncated file: the JPEG data ends early");
}
END_TEST

/* Where the frame header (SOFn, whose n says the coding) of the JPEG
   d[n] starts. */
static size_t jpeg_sof(const uint8_t *d, size_t n)
{
    for (size_t i = 2; i + 9 < n; i++)
        if (d[i] == 0xff && (d[i + 1] & 0xf0) == 0xc0 && d[i + 1] != 0xc4 && d[i + 1] != 0xc8
            && d[i + 1] != 0xcc)
            return i;
    ck_abort_msg("no SOFn segment");
    return 0;
}

/* The frame header's height and width of the JPEG d[n] set to h x w. */
static void jpeg_set_size(uint8_t *d, size_t n, int w, int h)
{
    size_t i = jpeg_sof(d, n);
    d[i + 5] = (uint8_t)(h >> 8), d[i + 6] = (uint8_t)h;
    d[i + 7] = (uint8_t)(w >> 8), d[i + 8] = (uint8_t)w;
}

/* A JPEG bomb: a 16 x 16 file saying 2051 x 2144 pixels (as the fuzzer's
   842-byte one did) has about 600 bytes of scan data for 257 x 268
   blocks, which need 8610 bytes at a bit each: refused before decoding.
   Said 64 x 64 (64 blocks, 8 bytes), it gets past that bound, and its
   scan data ends at the end marker with blocks still to decode. */
START_TEST(jpeg_bomb_and_short_scan)
{
    write_jpeg(scratch("bomb.jpg"), 16, 16, 3, JCS_RGB, NULL, 90);
    size_t n;
    uint8_t *d = read_bytes(scratch("bomb.jpg"), &n);
    jpeg_set_size(d, n, 2051, 2144);
    ck_assert_ptr_null(image_decode(d, n, "bomb.jpg", IMAGE_FORMAT_AUTO, err, sizeof err));
    expect_error(err, "bomb.jpg", "of JPEG data cannot hold 2051 x 2144 pixels (at least a bit "
                 "per 8 x 8 block)");
    ck_assert(strstr(err, "truncated file: "));
    jpeg_set_size(d, n, 64, 64);
    ck_assert_ptr_null(image_decode(d, n, "short.jpg", IMAGE_FORMAT_AUTO, err, sizeof err));
    expect_error(err, "short.jpg", "truncated file: the JPEG data ends early");
    free(d);
}
END_TEST

/* A Huffman table of more than 256 codes (which overflowed stb_image's
   tables) is libjpeg's error, not a crash. */
START_TEST(jpeg_bad_huffman_table)
{
    write_jpeg(scratch("huff.jpg"), 8, 8, 3, JCS_RGB, NULL, 90);
    size_t n;
    uint8_t *d = read_bytes(scratch("huff.jpg"), &n), *dht = NULL;
    for (size_t i = 2; i + 1 < n && !dht; i++)
        if (d[i] == 0xff && d[i + 1] == 0xc4)
            dht = d + i;
    ck_assert_ptr_nonnull(dht);
    /* the first table's 16 counts: 255 + 255 codes of 15 and 16 bits */
    memset(dht + 5, 0, 16);
    dht[5 + 14] = dht[5 + 15] = 255;
    ck_assert_ptr_null(image_decode(d, n, "huff.jpg", IMAGE_FORMAT_AUTO, err, sizeof err));
    expect_error(err, "huff.jpg", "cannot read JPEG: Bogus Huffman table definition");
    free(d);
}
END_TEST

/* Gray 8 x 8 blocks, each flat, of values that differ block to block. */
static uint8_t block_gray(int x, int y)
{
    return (uint8_t)((x / 8 * 37 + y / 8 * 71 + 10) % 256);
}

/* JPEG of flat 8 x 8 blocks at quality 100, sequential and progressive,
   Huffman-coded (SOF0, SOF2) and arithmetic-coded (SOF9, SOF10): every
   quantizer is 1 and a flat block is its DC coefficient alone, 8 (v -
   128), so each sample comes back exactly. */
START_TEST(jpeg_flat_blocks_exact)
{
    enum { W = 64, H = 40 };
    static const uint8_t sof[2][2] = { { 0xc0, 0xc2 }, { 0xc9, 0xca } };
    float want[W * H];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            want[y * W + x] = block_gray(x, y) / 255.0f;
    for (int arith = 0; arith < 2; arith++)
        for (int progressive = 0; progressive < 2; progressive++) {
            write_jpeg_spec(scratch("a.jpg"), &(JpegSpec){ .w = W, .h = H, .comps = 1,
                            .space = JCS_GRAYSCALE, .gray = block_gray, .quality = 100,
                            .arith = arith, .progressive = progressive });
            size_t n;
            uint8_t *d = read_bytes(scratch("a.jpg"), &n);
            ck_assert_int_eq(d[jpeg_sof(d, n) + 1], sof[arith][progressive]);
            free(d);
            Image *img = read_ok(scratch("a.jpg"));
            expect_exact(img, W, H, 1, want);
            image_free(img);
        }
}
END_TEST

/* Black but for noise in its first 8 rows. */
static uint8_t black_below_noise(int x, int y)
{
    return y < 8 ? (uint8_t)((uint32_t)(x * 2654435761u + (uint32_t)y * 40503u) >> 24) : 0;
}

/* An arithmetic-coded bomb: libjpeg codes 2304 x 2048 black pixels (288
   x 256 = 73728 blocks) in a few hundred bytes, 8192 blocks past the
   65536 free ones, which need 1024 bytes at a bit each: refused before
   decoding, and so is the file said to be 16000 x 5000 (issue 17's
   333-byte one). With noise in its top rows the same image's bytes pay
   for those blocks, and it decodes (progressive: 6 passes), black
   exactly below the noise. */
START_TEST(jpeg_arith_bomb)
{
    static const uint8_t black = 0;
    JpegSpec spec = { .w = 2304, .h = 2048, .comps = 1, .space = JCS_GRAYSCALE,
                      .color = &black, .quality = 100, .arith = true };
    write_jpeg_spec(scratch("black.jpg"), &spec);
    size_t n;
    uint8_t *d = read_bytes(scratch("black.jpg"), &n);
    ck_assert_msg(n < 1024, "%zu bytes", n);
    ck_assert_ptr_null(image_decode(d, n, "black.jpg", IMAGE_FORMAT_AUTO, err, sizeof err));
    expect_error(err, "black.jpg", "of arithmetic-coded JPEG data cannot hold 2304 x 2048 "
                 "pixels (past 4194304, at least a bit per 8 x 8 block)");
    jpeg_set_size(d, n, 16000, 5000);
    ck_assert_ptr_null(image_decode(d, n, "huge.jpg", IMAGE_FORMAT_AUTO, err, sizeof err));
    expect_error(err, "huge.jpg", "of arithmetic-coded JPEG data cannot hold 16000 x 5000 "
                 "pixels");
    free(d);
    spec.color = NULL, spec.gray = black_below_noise, spec.progressive = true;
    write_jpeg_spec(scratch("noisy.jpg"), &spec);
    Image *img = read_ok(scratch("noisy.jpg"));
    ck_assert_int_eq(img->width, 2304);
    ck_assert_int_eq(img->height, 2048);
    long i = 8 * 2304;
    while (i < 2304L * 2048 && img->pixels[i] == 0)
        i++;
    ck_assert_msg(i == 2304L * 2048, "sample %ld: %g", i, img->pixels[i]);
    image_free(img);
}
END_TEST

/* A progressive arithmetic-coded bomb: 2048 x 2048 black pixels (65536
   blocks, all free) in 20 scans, the DC's first pass and 10 refinements
   and each of three AC coefficients in 3, is a few hundred bytes, which
   pay for a few thousand block passes beyond the 16 x 65536 free ones:
   refused at the 17th scan (200 such scans took two seconds). */
START_TEST(jpeg_arith_scans_bomb)
{
    static jpeg_scan_info scans[20];
    int n = 0;
    scans[n++] = (jpeg_scan_info){ 1, { 0 }, 0, 0, 0, 10 };
    for (int al = 9; al >= 0; al--)
        scans[n++] = (jpeg_scan_info){ 1, { 0 }, 0, 0, al + 1, al };
    for (int k = 1; n + 3 <= 20; k++) {
        scans[n++] = (jpeg_scan_info){ 1, { 0 }, k, k, 0, 2 };
        scans[n++] = (jpeg_scan_info){ 1, { 0 }, k, k, 2, 1 };
        scans[n++] = (jpeg_scan_info){ 1, { 0 }, k, k, 1, 0 };
    }
    static const uint8_t black = 0;
    write_jpeg_spec(scratch("scans.jpg"), &(JpegSpec){ .w = 2048, .h = 2048, .comps = 1,
                    .space = JCS_GRAYSCALE, .color = &black, .quality = 100, .arith = true,
                    .scans = scans, .nscans = n });
    ck_assert_ptr_null(image_read(scratch("scans.jpg"), IMAGE_FORMAT_AUTO, err, sizeof err));
    ck_assert_msg(strstr(err, "cannot read JPEG: 17 scans over 65536 blocks are more than "), "%s",
                  err);
    ck_assert_msg(strstr(err, " bytes of arithmetic-coded data pay for (past 1048576 block "
                          "passes, at least a bit per block)"), "%s", err);
}
END_TEST

/* A progressive Huffman-coded bomb: 1024 x 2048 black pixels (32768
   blocks) in the DC's first pass, which pays a bit per block, and then 39
   AC scans of one coefficient each, a few bytes apiece (an end-of-band
   run skips 32767 blocks). The scans may pass over 16 x 32768 blocks
   free and a bit per block beyond, so the file is refused at the first
   scan past its budget: s scans where s x 32768 > 8 bytes + 524288 >=
   (s - 1) x 32768, with bytes the scan data's, at most the file's. */
START_TEST(jpeg_huffman_scans_bomb)
{
    enum { NSCANS = 40, BLOCKS = 1024 / 8 * (2048 / 8), FREE = 16 * BLOCKS };
    static jpeg_scan_info scans[NSCANS];
    scans[0] = (jpeg_scan_info){ 1, { 0 }, 0, 0, 0, 0 };
    for (int k = 1; k < NSCANS; k++)
        scans[k] = (jpeg_scan_info){ 1, { 0 }, k, k, 0, 0 };
    static const uint8_t black = 0;
    write_jpeg_spec(scratch("hscans.jpg"), &(JpegSpec){ .w = 1024, .h = 2048, .comps = 1,
                    .space = JCS_GRAYSCALE, .color = &black, .quality = 100,
                    .scans = scans, .nscans = NSCANS });
    size_t n;
    uint8_t *d = read_bytes(scratch("hscans.jpg"), &n);
    ck_assert_int_eq(d[jpeg_sof(d, n) + 1], 0xc2);
    free(d);
    ck_assert_ptr_null(image_read(scratch("hscans.jpg"), IMAGE_FORMAT_AUTO, err, sizeof err));
    unsigned long s, blocks, bytes, free_passes;
    const char *at = strstr(err, "cannot read JPEG: ");
    ck_assert_msg(at && sscanf(at, "cannot read JPEG: %lu scans over %lu blocks are more than %lu "
                               "bytes of Huffman-coded data pay for (past %lu block passes",
                               &s, &blocks, &bytes, &free_passes) == 4, "%s", err);
    ck_assert_uint_eq(blocks, BLOCKS);
    ck_assert_uint_eq(free_passes, FREE);
    ck_assert_uint_le(bytes, n);
    ck_assert_uint_ge(bytes, BLOCKS / 8); /* the DC scan's bit per block */
    ck_assert_uint_lt(s, NSCANS);
    ck_assert_uint_gt(s * BLOCKS, 8 * bytes + FREE);
    ck_assert_uint_le((s - 1) * BLOCKS, 8 * bytes + FREE);
}
END_TEST

/* ---- Radiance HDR -------------------------------------------------------------------------- */

/* An HDR file: the usual header, the resolution line, then `n` bytes. */
static const char *hdr_file(const char *name, const char *resolution, const uint8_t *px, size_t n)
{
    char head[128];
    int k = snprintf(head, sizeof head, "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n%s\n", resolution);
    uint8_t buf[512];
    ck_assert((size_t)k + n <= sizeof buf);
    memcpy(buf, head, (size_t)k);
    memcpy(buf + k, px, n);
    write_bytes(scratch(name), buf, (size_t)k + n);
    return scratch(name);
}

/* (r, g, b, e) is (r, g, b) 2^(e - 136): (128, 64, 32, 129) is (1, 0.5,
   0.25). Flat scanlines; 1 1 1 n repeats the pixel before n times. */
START_TEST(hdr_flat_exact)
{
    static const uint8_t px[] = {
        128, 64, 32, 129, 9, 9, 9, 0, 200, 10, 0, 140, /* row 0 */
        16,  32, 48, 130, 1, 1, 1, 2,                  /* row 1: a pixel, then twice again */
    };
    static const float want[18] = { 1,    0.5f, 0.25f, 0, 0,    0,     3200, 160,  0,
                                    0.25f, 0.5f, 0.75f, 0.25f, 0.5f, 0.75f, 0.25f, 0.5f, 0.75f };
    Image *img = read_ok(hdr_file("flat.hdr", "-Y 2 +X 3", px, sizeof px));
    expect_exact(img, 3, 2, 3, want);
    ck_assert_int_eq(img->meta.storage, IMAGE_FLOAT);
    image_free(img);
}
END_TEST

/* An 8-pixel run-length encoded scanline: R a run of 8, G 8 literals, B
   a run of 4 and 4 literals, E a run of 8 of 129 (a scale of 1/128). */
static const uint8_t rle_line[] = { 2,  2,  0,  8,  136, 128, 8,  0, 16, 32, 48, 64,
                                    80, 96, 112, 132, 0,   4,   1, 2, 3,  4,  136, 129 };

START_TEST(hdr_rle_exact)
{
    float want[48]; /* both rows */
    for (int i = 0; i < 16; i++) {
        int x = i % 8;
        want[3 * i] = 1;
        want[3 * i + 1] = (float)x / 8;
        want[3 * i + 2] = x < 4 ? 0 : (float)(x - 3) / 128;
    }
    uint8_t two[2 * sizeof rle_line];
    memcpy(two, rle_line, sizeof rle_line);
    memcpy(two + sizeof rle_line, rle_line, sizeof rle_line);
    Image *img = read_ok(hdr_file("rle.hdr", "-Y 2 +X 8", two, sizeof two));
    expect_exact(img, 8, 2, 3, want);
    image_free(img);
    cuts_say(scratch("rle.hdr"), "truncated file: ");
}
END_TEST

START_TEST(hdr_corrupt_and_unsupported)
{
    uint8_t line[sizeof rle_line];
    memcpy(line, rle_line, sizeof line);
    line[4] = 0; /* a run-length count of 0 (stb_image looped for ever) */
    ck_assert_ptr_null(image_read(hdr_file("z.hdr", "-Y 1 +X 8", line, sizeof line),
                                  IMAGE_FORMAT_AUTO, err, sizeof err));
    expect_error(err, scratch("z.hdr"), "corrupt HDR data (a run of 0 pixels where 8 are left)");
    line[4] = 137; /* a run of 9 */
    ck_assert_ptr_null(image_read(hdr_file("z.hdr", "-Y 1 +X 8", line, sizeof line),
                                  IMAGE_FORMAT_AUTO, err, sizeof err));
    expect_error(err, scratch("z.hdr"), "corrupt HDR data (a run of 9 pixels where 8 are left)");
    ck_assert_ptr_null(image_read(hdr_file("w.hdr", "-Y 1 +X 9", rle_line, sizeof rle_line),
                                  IMAGE_FORMAT_AUTO, err, sizeof err));
    expect_error(err, scratch("w.hdr"), "corrupt HDR data (a scanline of 8 pixels in an image 9 "
                 "wide)");
    static const uint8_t run_first[8] = { 1, 1, 1, 3, 1, 2, 3, 130 };
    ck_assert_ptr_null(image_read(hdr_file("r.hdr", "-Y 1 +X 2", run_first, 8),
                                  IMAGE_FORMAT_AUTO, err, sizeof err));
    expect_error(err, scratch("r.hdr"), "a run with no pixel before it");
    ck_assert_ptr_null(image_read(hdr_file("o.hdr", "+Y 1 +X 8", rle_line, sizeof rle_line),
                                  IMAGE_FORMAT_AUTO, err, sizeof err));
    expect_error(err, scratch("o.hdr"), "HDR orientation '+Y 1 +X 8' is not read (only '-Y "
                 "height +X width', top row first)");
    ck_assert_ptr_null(image_read(hdr_file("b.hdr", "-Y 1 +X x", rle_line, sizeof rle_line),
                                  IMAGE_FORMAT_AUTO, err, sizeof err));
    expect_error(err, scratch("b.hdr"), "bad HDR resolution line '-Y 1 +X x'");
    const char *xyze = "#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n-Y 1 +X 1\n\1\2\3\4";
    ck_assert_ptr_null(image_decode(xyze, strlen(xyze), "x.hdr", IMAGE_FORMAT_AUTO, err,
                                    sizeof err));
    expect_error(err, "x.hdr", "HDR pixel format '32-bit_rle_xyze' is not read");
    const char *open = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n";
    ck_assert_ptr_null(image_decode(open, strlen(open), "h.hdr", IMAGE_FORMAT_AUTO, err,
                                    sizeof err));
    expect_error(err, "h.hdr", "truncated file: the HDR header does not end");
}
END_TEST

/* 8000 scanlines take at least 8 bytes each: a few bytes claiming them
   are refused before the image is made. */
START_TEST(hdr_bomb)
{
    ck_assert_ptr_null(image_read(hdr_file("bomb.hdr", "-Y 8000 +X 8000", rle_line,
                                           sizeof rle_line), IMAGE_FORMAT_AUTO, err, sizeof err));
    expect_error(err, scratch("bomb.hdr"), "truncated file: 24 bytes of HDR data cannot hold "
                 "8000 scanlines");
}
END_TEST

/* ---- any bytes ----------------------------------------------------------------------------- */

/* Bytes of another format (a TGA header, which has no signature: stb
   decoded one claiming 16000 x 16000 pixels from nothing) given to each
   reader by force fail, naming the format. */
START_TEST(other_bytes_forced)
{
    uint8_t tga[64] = { 0, 0, 2 };
    tga[12] = tga[14] = 16000 & 0xff, tga[13] = tga[15] = 16000 >> 8;
    tga[16] = 24;
    static const ImageFormat formats[3] = { IMAGE_PNG, IMAGE_JPEG, IMAGE_HDR };
    static const char *const names[3] = { "cannot read PNG: ", "cannot read JPEG: ",
                                          "not a Radiance HDR file" };
    for (int i = 0; i < 3; i++) {
        ck_assert_ptr_null(image_decode(tga, sizeof tga, "big.tga", formats[i], err, sizeof err));
        expect_error(err, "big.tga", names[i]);
    }
    ck_assert_ptr_null(image_decode(tga, sizeof tga, "big.tga", IMAGE_FORMAT_AUTO, err,
                                    sizeof err));
    expect_error(err, "big.tga", "not an image in a known format");
}
END_TEST

Suite *formats_suite(void)
{
    Suite *s = suite_create("image_formats");
    TCase *tc = tcase_create("formats");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, png_16bit_exact);
    tcase_add_test(tc, png_gray_alpha_and_1bit);
    tcase_add_test(tc, png_palette_with_transparency);
    tcase_add_test(tc, png_interlaced_8bit);
    tcase_add_test(tc, png_truncated);
    tcase_add_test(tc, jpeg_gray_rgb_cmyk);
    tcase_add_test(tc, jpeg_truncated);
    tcase_add_test(tc, jpeg_bomb_and_short_scan);
    tcase_add_test(tc, jpeg_bad_huffman_table);
    tcase_add_test(tc, jpeg_flat_blocks_exact);
    tcase_add_test(tc, jpeg_arith_bomb);
    tcase_add_test(tc, jpeg_arith_scans_bomb);
    tcase_add_test(tc, jpeg_huffman_scans_bomb);
    tcase_add_test(tc, hdr_flat_exact);
    tcase_add_test(tc, hdr_rle_exact);
    tcase_add_test(tc, hdr_corrupt_and_unsupported);
    tcase_add_test(tc, hdr_bomb);
    tcase_add_test(tc, other_bytes_forced);
    suite_add_tcase(s, tc);
    return s;
}

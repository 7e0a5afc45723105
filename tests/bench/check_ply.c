/*
** check_ply.c: the PLY loader on small files the test writes: the same
** mesh as ascii, binary little and big endian, plain and gzip'd, with
** properties and elements to skip; then malformed files, which must fail
** with a message and never crash.
*/
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "bench/rtbench/ply.h"
#include "tests/bench/check_rtbench.h"

/* The mesh every well-formed file describes: a quad (two triangles after
   fanning), a triangle, and a two-vertex face that is dropped. */
static const float VERTS[5][3] = {
    { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0.5f }, { 2.5f, -1.25f, 3 }
};
static const uint32_t TRIS[3][3] = { { 0, 1, 2 }, { 0, 2, 3 }, { 1, 4, 2 } };

static const char ASCII[] =
    "ply\n"
    "format ascii 1.0\n"
    "comment a vertex list property and a face scalar to skip\n"
    "element vertex 5\n"
    "property float x\nproperty float y\nproperty float z\n"
    "property list uchar float junk\n"
    "element face 3\n"
    "property list uchar int vertex_indices\n"
    "property int flags\n"
    "end_header\n"
    "0 0 0 0\n1 0 0 2 7.5 8\n1 1 0 0\n0 1 0.5 1 3\n2.5 -1.25 3 0\n"
    "4 0 1 2 3 9\n3 1 4 2 9\n2 0 1 9\n";

static void expect_mesh(const char *path)
{
    Mesh m = { 0 };
    char err[256] = "";
    ck_assert_msg(ply_load(path, &m, err, sizeof err), "%s", err);
    ck_assert_uint_eq(m.nverts, 5);
    ck_assert_uint_eq(m.ntris, 3);
    ck_assert_mem_eq(m.verts, VERTS, sizeof VERTS);
    ck_assert_mem_eq(m.tris, TRIS, sizeof TRIS);
    mesh_free(&m);
}

static void expect_error(const char *path, const char *substring)
{
    Mesh m = { 0 };
    char err[256] = "";
    ck_assert_msg(!ply_load(path, &m, err, sizeof err), "%s loaded", path);
    ck_assert_msg(strncmp(err, path, strlen(path)) == 0 && strstr(err, ": error: "),
                  "bad message form: %s", err);
    ck_assert_msg(strstr(err, substring), "'%s' lacks '%s'", err, substring);
    ck_assert_ptr_null(m.verts);
    ck_assert_ptr_null(m.tris);
}

/* ---- binary files ------------------------------------------------------------ */

typedef struct Buf {
    unsigned char b[1024];
    size_t n;
    bool big;
} Buf;

static void put(Buf *buf, uint64_t bits, int size)
{
    for (int i = 0; i < size; i++)
        buf->b[buf->n++] = (unsigned char)(bits >> 8 * (buf->big ? size - 1 - i : i));
}

static void put_text(Buf *buf, const char *s)
{
    memcpy(buf->b + buf->n, s, strlen(s));
    buf->n += strlen(s);
}

static void put_coord(Buf *buf, float f, bool dbl)
{
    if (dbl) {
        double d = f;
        uint64_t u;
        memcpy(&u, &d, 8);
        put(buf, u, 8);
    } else {
        uint32_t u;
        memcpy(&u, &f, 4);
        put(buf, u, 4);
    }
}

/* The mesh in binary: double coordinates, uint indices and a CRLF header
   end when dbl, floats and ints otherwise; an "edge" element to skip.
   Returns the header's length. */
static size_t binary_ply(Buf *buf, bool big, bool dbl)
{
    buf->n = 0;
    buf->big = big;
    put_text(buf, big ? "ply\nformat binary_big_endian 1.0\n"
                      : "ply\nformat binary_little_endian 1.0\n");
    put_text(buf, dbl ? "element vertex 5\nproperty uchar red\nproperty double x\n"
                        "property double y\nproperty double z\n"
                      : "element vertex 5\nproperty uchar red\nproperty float x\n"
                        "property float y\nproperty float z\n");
    put_text(buf, "element edge 2\nproperty short a\nproperty list uchar ushort b\n");
    put_text(buf, dbl ? "element face 3\nproperty list uchar uint vertex_indices\n"
                      : "element face 3\nproperty list int int vertex_indices\n");
    put_text(buf, dbl ? "end_header\r\n" : "end_header\n");
    size_t header = buf->n;
    for (int v = 0; v < 5; v++) {
        put(buf, 200, 1);
        for (int k = 0; k < 3; k++)
            put_coord(buf, VERTS[v][k], dbl);
    }
    for (int e = 0; e < 2; e++) {
        put(buf, 1, 2);
        put(buf, 2, 1);
        put(buf, 3, 2);
        put(buf, 4, 2);
    }
    static const int faces[3][5] = { { 4, 0, 1, 2, 3 }, { 3, 1, 4, 2 }, { 2, 0, 1 } };
    int count_size = dbl ? 1 : 4;
    for (int f = 0; f < 3; f++) {
        put(buf, faces[f][0], count_size);
        for (int j = 1; j <= faces[f][0]; j++)
            put(buf, faces[f][j], 4);
    }
    return header;
}

START_TEST(ascii_plain_and_gzip)
{
    expect_mesh(write_tmp("a.ply", ASCII, strlen(ASCII), false));
    expect_mesh(write_tmp("a.ply.gz", ASCII, strlen(ASCII), true));
}
END_TEST

START_TEST(binary_endians_types_gzip)
{
    Buf buf;
    for (int variant = 0; variant < 8; variant++) {
        binary_ply(&buf, variant & 1, variant & 2);
        expect_mesh(write_tmp("b.ply", buf.b, buf.n, variant & 4));
    }
}
END_TEST

START_TEST(truncated_anywhere)
{
    Buf buf;
    size_t header = binary_ply(&buf, false, false);
    for (size_t n = 0; n < buf.n; n++)
        expect_error(write_tmp("t.ply", buf.b, n, false),
                     n < 4 ? "not a PLY file"
                     : n < header ? "end of file in the header"
                                  : "unexpected end of file in ");
    /* A cut gzip stream: zlib's complaint or ours, but an error. */
    expect_error(write_tmp("t.ply.gz", buf.b, buf.n - 3, true), "end of file");
    for (size_t n = 0; n + 1 < strlen(ASCII); n += 7)
        expect_error(write_tmp("t.ply", ASCII, n, false), "");
}
END_TEST

START_TEST(gzip_stream_cut)
{
    Buf buf;
    binary_ply(&buf, true, true);
    const char *path = write_tmp("c.ply.gz", buf.b, buf.n, true);
    FILE *f = fopen(path, "rb");
    unsigned char z[2048];
    size_t zn = fread(z, 1, sizeof z, f);
    fclose(f);
    expect_error(write_tmp("c.ply.gz", z, zn / 2, false), "");
}
END_TEST

typedef struct BadFile {
    const char *text, *expect;
} BadFile;

static const BadFile BAD_HEADER[] = {
    { "plx\n", "not a PLY file" },
    { "ply\nformat ascii 2.0\nend_header\n", "unsupported format" },
    { "ply\nformat binary_middle_endian 1.0\nend_header\n", "unsupported format" },
    { "ply\nelement vertex 1\nproperty float x\nend_header\n", "no format line" },
    { "ply\nformat ascii 1.0\nproperty float x\nend_header\n", "property before any element" },
    { "ply\nformat ascii 1.0\nelement vertex 1\nproperty quad x\nend_header\n", "bad property type" },
    { "ply\nformat ascii 1.0\nelement vertex 1\nproperty list float int x\nend_header\n", "bad list count type" },
    { "ply\nformat ascii 1.0\nelement vertex -1\nend_header\n", "bad count" },
    { "ply\nformat ascii 1.0\nelement vertex 99999999999\nend_header\n", "too large" },
    { "ply\nformat ascii 1.0\nbogus\nend_header\n", "unknown header keyword" },
    { "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\n"
      "element face 0\nproperty list uchar int vertex_indices\nend_header\n1 2\n",
      "lacks x, y or z" },
    { "ply\nformat ascii 1.0\nelement vertex 0\nproperty float x\nend_header\n", "no face element" },
    { "ply\nformat ascii 1.0\nelement face 0\nproperty list uchar int vertex_indices\nend_header\n",
      "no vertex element" },
    { "ply\nformat ascii 1.0\nelement vertex 0\nproperty float x\nproperty float y\nproperty float z\n"
      "element face 1\nproperty list uchar float vertex_indices\nend_header\n",
      "not an integer list" },
};

#define XYZ "property float x\nproperty float y\nproperty float z\n"
#define FACE "element face 1\nproperty list uchar int vertex_indices\nend_header\n"
static const BadFile BAD_BODY[] = {
    { "ply\nformat ascii 1.0\nelement vertex 4000000000\n" XYZ FACE "0 0 0\n1 1 1\n",
      "unexpected end of file in vertex 2 of 4000000000" },
    { "ply\nformat ascii 1.0\nelement vertex 3\n" XYZ FACE "0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n",
      "face 0: vertex index 3 out of range (3 vertices)" },
    { "ply\nformat ascii 1.0\nelement vertex 3\n" XYZ FACE "0 0 0\n1 0 0\n0 1 0\n3 0 -1 2\n",
      "out of range" },
    { "ply\nformat ascii 1.0\nelement vertex 3\n" XYZ FACE "0 0 0\n1 0 0\n0 1 0\n3 0 1.5 2\n",
      "face 0: malformed number" },
    { "ply\nformat ascii 1.0\nelement vertex 3\n" XYZ FACE "0 0 0\n1 0x 0\n0 1 0\n3 0 1 2\n",
      "vertex 1: malformed number" },
    { "ply\nformat ascii 1.0\nelement vertex 3\n" XYZ FACE "0 0 0\n1 0 0\n0 1 0\n-3 0 1 2\n",
      "negative list length" },
    { "ply\nformat ascii 1.0\nelement vertex 3\n" XYZ FACE "0 0 0\n1 0 0\n0 1 0\n200 0 1 2\n",
      "unexpected end of file in face 0 of 1" },
};

static void expect_errors(const BadFile *bad, size_t n)
{
    for (size_t i = 0; i < n; i++)
        expect_error(write_tmp("bad.ply", bad[i].text, strlen(bad[i].text), false),
                     bad[i].expect);
}

START_TEST(bad_header)
{
    expect_errors(BAD_HEADER, sizeof BAD_HEADER / sizeof BAD_HEADER[0]);
}
END_TEST

START_TEST(bad_body)
{
    expect_errors(BAD_BODY, sizeof BAD_BODY / sizeof BAD_BODY[0]);
}
END_TEST

START_TEST(missing_file)
{
    expect_error(tmp_path("no-such.ply"), "cannot open");
}
END_TEST

TCase *ply_tcase(void)
{
    TCase *tc = tcase_create("ply");
    tcase_add_test(tc, ascii_plain_and_gzip);
    tcase_add_test(tc, binary_endians_types_gzip);
    tcase_add_test(tc, truncated_anywhere);
    tcase_add_test(tc, gzip_stream_cut);
    tcase_add_test(tc, bad_header);
    tcase_add_test(tc, bad_body);
    tcase_add_test(tc, missing_file);
    return tc;
}

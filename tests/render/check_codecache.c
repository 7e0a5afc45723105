/*
** check_codecache.c: the code cache on disk (backends/llvm/codecache.c)
** end to end, through rtrender --code-cache and rslvm --code-cache: a
** warm render compiles nothing and writes the cold render's image byte
** for byte; damaged entries warn, are compiled again and replaced; other
** constants or another ISA miss.
*/
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/image/image.h"
#include "runcmd.h"
#include "../common/suite.h"
#include "readimage.h"

static char dir[] = "/tmp/check_codecache.XXXXXX";

/* An orthographic 40 x 20 view (a pixel 0.1 wide, its box filter seeing
   only it) of a square facing the camera, lit head-on by a distant light
   of intensity 1, so that matte's Ci = Cs * Kd * diffuse() = KD. */
#define SCENE(KD)                                                                                 \
    "Format 40 20 1\nPixelSamples 1 1\nPixelFilter \"box\" 1 1\n"                              \
    "Projection \"orthographic\"\nScreenWindow -2 2 -1 1\nWorldBegin\n"                         \
    "LightSource \"distantlight\" 1 \"from\" [0 0 0] \"to\" [0 0 1] \"intensity\" 1\n"         \
    "Color [1 1 1]\nSurface \"matte\" \"Kd\" " KD "\n"                                         \
    "Polygon \"P\" [-1.5 -0.8 5  -1.5 0.8 5  1.5 0.8 5  1.5 -0.8 5]\nWorldEnd\n"

/* A half-float EXR holds 0.5 and 0.25 exactly; the margin is for the
   shading's float arithmetic. */
#define TOL 1e-3f

/* Renders scene.rib with the cache in folder "cache" to out, checking
   that it succeeded and that --stats counts compiled native code
   JIT-compiled and loaded read from the cache; the run's messages are
   returned (freed by the caller). */
static Run render(const char *out, unsigned compiled, unsigned loaded)
{
    char args[256];
    snprintf(args, sizeof args, "--code-cache cache --stats -q --threads 2 scene.rib -o %s", out);
    Run r = run_program(dir, TOP_BUILDDIR "/tools/rtrender", args);
    ck_assert_msg(r.status == 0, "rtrender %s failed:\n%s", args, r.err);
    unsigned c, l;
    const char *line = strstr(r.err, "  native code: ");
    ck_assert_msg(line && sscanf(line, "  native code: %u JIT-compiled, %u read from the code cache",
                                 &c, &l) == 2,
                  "no count of native code in:\n%s", r.err);
    ck_assert_msg(c == compiled && l == loaded, "%s: %u compiled and %u read, not %u and %u:\n%s",
                  out, c, l, compiled, loaded, r.err);
    return r;
}

/* The square's centre in the image at out is kd. */
static void check_square(const char *out, float kd)
{
    Image *img = read_image_in(dir, out);
    const float *p = img->pixels + ((size_t)10 * (size_t)img->width + 20) * (size_t)img->channels;
    for (int c = 0; c < 3; c++)
        ck_assert_msg(fabsf(p[c] - kd) <= TOL, "%s: channel %d is %g, want Kd = %g", out, c,
                      p[c], kd);
    image_free(img);
}

/* Whether files a and b of the folder are byte for byte the same. */
static bool same_file(const char *a, const char *b)
{
    char args[128];
    snprintf(args, sizeof args, "%s %s", a, b);
    Run r = run_program(dir, "cmp", args);
    run_free(&r);
    return r.status == 0;
}

/* The cache's entries, sorted: their names in names (up to max). */
static int entries(char names[][80], int max)
{
    Run r = run_program(dir, "ls", "cache");
    int n = 0;
    for (char *line = strtok(r.out, "\n"); line && n < max; line = strtok(NULL, "\n"))
        snprintf(names[n++], 80, "cache/%s", line);
    run_free(&r);
    return n;
}

static void start(const char *scene)
{
    Run r = run_program(dir, "rm", "-rf cache");
    run_free(&r);
    write_in(dir, "scene.rib", scene);
}

START_TEST(warm_render_compiles_nothing)
{
    start(SCENE("0.5"));
    /* matte's instance and the light's: both compiled, then both read. */
    Run cold = render("cold.exr", 2, 0), warm = render("warm.exr", 0, 2);
    char names[8][80];
    ck_assert_int_eq(entries(names, 8), 2);
    check_square("cold.exr", 0.5f);
    ck_assert_msg(same_file("cold.exr", "warm.exr"), "the warm image differs from the cold one");
    run_free(&cold);
    run_free(&warm);
}
END_TEST

START_TEST(damaged_entries_are_compiled_again)
{
    start(SCENE("0.5"));
    Run r = render("cold.exr", 2, 0);
    run_free(&r);
    char names[8][80], path[256];
    ck_assert_int_eq(entries(names, 8), 2);
    /* One entry cut short to its header's first bytes, the other's last
       byte flipped (its object's, which the checksum covers). */
    write_in(dir, names[0], "RSLJITC");
    snprintf(path, sizeof path, "%s/%s", dir, names[1]);
    FILE *f = fopen(path, "r+b");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fseek(f, -1, SEEK_END), 0);
    int last = fgetc(f);
    ck_assert_int_eq(fseek(f, -1, SEEK_END), 0);
    fputc(last ^ 0x55, f);
    ck_assert_int_eq(fclose(f), 0);
    r = render("again.exr", 2, 0);
    ck_assert_msg(strstr(r.err, "warning: code cache entry unusable: its size is not an entry's; "
                                "compiling again\n") != NULL, "%s", r.err);
    ck_assert_msg(strstr(r.err, "warning: code cache entry unusable: its checksum is wrong; "
                                "compiling again\n") != NULL, "%s", r.err);
    ck_assert_msg(same_file("cold.exr", "again.exr"), "the image differs after damage");
    run_free(&r);
    /* Both entries were written again, whole. */
    r = render("third.exr", 0, 2);
    run_free(&r);
    /* An entry that is not a regular file (a FIFO, which a read would wait
       on) is passed over; outfile.h's rule keeps the compile's entry from
       being written over it. */
    snprintf(path, sizeof path, "%s/%s", dir, names[0]);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    r = render("fifo.exr", 1, 1);
    ck_assert_msg(strstr(r.err, "warning: code cache entry unusable: it is not a regular file; "
                                "compiling again\n") != NULL, "%s", r.err);
    ck_assert_msg(same_file("cold.exr", "fifo.exr"), "the image differs beside a FIFO");
    run_free(&r);
}
END_TEST

START_TEST(other_constants_miss)
{
    start(SCENE("0.5"));
    Run r = render("half.exr", 2, 0);
    run_free(&r);
    /* Kd folds into matte's code: a new entry for it; the light hits. */
    write_in(dir, "scene.rib", SCENE("0.25"));
    r = render("quarter.exr", 1, 1);
    check_square("quarter.exr", 0.25f);
    run_free(&r);
}
END_TEST

/* rslvm --stats's "code-cache" line for the shader at --isa isa. */
static void rslvm_at(const char *isa, const char *want, const char *ci)
{
    char args[512];
    snprintf(args, sizeof args, "%s/shaders/matte.sl --shade matte --grid 2 1 --backend native "
             "--isa %s --code-cache cache --stats --set Kd=0.5 --print Ci", TOP_SRCDIR, isa);
    Run r = run_program(dir, TOP_BUILDDIR "/tools/rslvm", args);
    ck_assert_msg(r.status == 0, "rslvm %s failed:\n%s", args, r.err);
    char line[64];
    snprintf(line, sizeof line, "\ncode-cache %s\n", want);
    ck_assert_msg(strstr(r.out, line) != NULL, "--isa %s: want %s in:\n%s", isa, line + 1, r.out);
    /* The same points shade alike, whichever way the code came. */
    ck_assert_msg(strncmp(r.out, ci, strlen(ci)) == 0, "--isa %s prints\n%s\nnot\n%s", isa, r.out,
                  ci);
    run_free(&r);
}

START_TEST(other_isa_misses)
{
    start("");
    Run first = run_program(dir, TOP_BUILDDIR "/tools/rslvm",
                            TOP_SRCDIR "/shaders/matte.sl --shade matte --grid 2 1 --backend native "
                            "--isa sse4.2 --set Kd=0.5 --print Ci");
    ck_assert_msg(first.status == 0, "%s", first.err);
    /* Without the cache or --stats: only the points' lines. */
    rslvm_at("sse4.2", "miss", first.out);
    rslvm_at("scalar", "miss", first.out);
    rslvm_at("sse4.2", "hit", first.out);
    rslvm_at("scalar", "hit", first.out);
    run_free(&first);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("codecache");
    TCase *tc = tcase_create("codecache");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, warm_render_compiles_nothing);
    tcase_add_test(tc, damaged_entries_are_compiled_again);
    tcase_add_test(tc, other_constants_miss);
    tcase_add_test(tc, other_isa_misses);
    suite_add_tcase(s, tc);
    return run_suite_in(s, dir);
}

/*
** check_render.c: analytic image tests of the classic integrator. Each
** scene is small enough that its exact pixel values follow from RISpec's
** definitions by hand: a constant sphere's coverage is the disk's area,
** a matte sphere under a distant light from the eye is Lambert's cosine,
** crop windows cut the same pixels out of the full frame, filters weigh
** samples by their formulas, exposure is (gain v)^(1/gamma). Tolerances
** are stated per test; they cover tessellation (facets turn at most 2.5
** degrees) and the sampling noise of 16 stratified samples per pixel.
*/
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "render/image/image.h"
#include "render/render.h"
#include "render/shadesys.h"
#include "backends.h"

/* A RIB text with nframes frames, shaders from the library and the
   tests' folder. */
static RibScene *load(const char *rib, size_t nframes, RibDiag *diag)
{
    RibLoadOptions lo;
    rib_load_options_init(&lo);
    lo.default_shader_path = SHADER_DIR ":" TEST_SHADER_DIR;
    rib_diag_init(diag, stderr);
    RibScene *scene = rib_load_memory("test.rib", rib, strlen(rib), &lo, diag);
    ck_assert_msg(scene && diag->nerrors == 0 && scene->nframes == nframes,
                  "the scene does not load");
    return scene;
}

/* Renders the first frame of a RIB text with spp samples per pixel, its
   counters in *st (st may be NULL). */
static Image *render_counted(const char *rib, int spp, int threads, RenderStats *st)
{
    RibDiag diag;
    RibScene *scene = load(rib, 1, &diag);
    RenderSettings rs;
    render_settings_init(&rs);
    rs.spp = spp;
    rs.threads = threads;
    rs.quiet = true;
    char err[1024];
    Render *r = render_new(scene, &rs);
    Image *img = render_frame_image(r, &scene->frames[0], st, err, sizeof err);
    ck_assert_msg(img != NULL, "%s", err);
    render_free(r);
    rib_scene_free(scene);
    rib_diag_free(&diag);
    return img;
}

static Image *render(const char *rib, int spp, int threads)
{
    return render_counted(rib, spp, threads, NULL);
}

static double channel_sum(const Image *img, int c)
{
    double s = 0;
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++)
            s += image_pixel(img, x, y)[c];
    return s;
}

/* An orthographic view of [-1, 1]^2 on 64 x 64 pixels, box filter. */
#define ORTHO_HEAD                                                                                \
    "Format 64 64 1\nProjection \"orthographic\"\nScreenWindow -1 1 -1 1\n"                       \
    "PixelFilter \"box\" 1 1\n"

START_TEST(constant_sphere_coverage)
{
    /* A sphere of radius 0.5 covers pi 0.5^2 of the 2 x 2 screen: in
       pixels, pi * 0.25 * 32^2 = 804.25. Tessellation shrinks it by at
       most 1 - sin(2.5 deg)/(2.5 deg) ~ 0.03%; sampling error of the edge
       pixels is below 0.5%. */
    Image *img = render(ORTHO_HEAD "Translate 0 0 5\nWorldBegin\nSurface \"constant\"\n"
                                   "Sphere 0.5 -0.5 0.5 360\nWorldEnd\n",
                        16, 2);
    ck_assert_int_eq(img->width, 64);
    ck_assert_int_eq(img->height, 64);
    double area = channel_sum(img, 3), want = M_PI * 0.25 * 32 * 32;
    ck_assert_msg(fabs(area - want) < 0.005 * want, "coverage %g, want %g", area, want);
    /* constant: Ci = Cs (white), premultiplied by coverage. */
    ck_assert_msg(fabs(channel_sum(img, 0) - area) < 1e-3 * area, "Ci is not Cs");
    /* Inside the disk the pixel is exactly white and opaque. */
    const float *c = image_pixel(img, 32, 32);
    ck_assert_float_eq_tol(c[0], 1, 1e-6);
    ck_assert_float_eq_tol(c[3], 1, 1e-6);
    ck_assert_float_eq_tol(image_pixel(img, 2, 2)[3], 0, 1e-6);
    /* Z: the sphere's nearest point at the centre lies at 5 - 0.5. */
    ck_assert_float_eq_tol(c[4], 4.5f, 2e-3);
    ck_assert(isinf(image_pixel(img, 2, 2)[4]));
    image_free(img);
}
END_TEST

/* A unit sphere filling the screen window [-1.25, 1.25]^2 of 40 x 40
   pixels, under a distant light shining from the eye: matte gives Cs *
   Kd * N.L * intensity (with Ka's ambient term zero: no ambient light),
   N.L = sqrt(1 - x^2 - y^2) at screen point (x, y). Checks the pixels
   well inside the disk against want (the color times the intensity).
   Tolerance 0.01: smooth normals interpolated across 2.5-degree facets. */
static void check_lambert(const Image *img, const float want[3])
{
    int checked = 0;
    for (int py = 0; py < 40; py++)
        for (int px = 0; px < 40; px++) {
            float x = -1.25f + 2.5f * ((float)px + 0.5f) / 40, y = 1.25f - 2.5f * ((float)py + 0.5f) / 40;
            /* Whole pixels well inside the disk only. */
            float r = sqrtf(x * x + y * y) + 0.0625f * 1.5f;
            if (r > 0.95f)
                continue;
            float cosine = sqrtf(1 - x * x - y * y);
            const float *c = image_pixel(img, px, py);
            ck_assert_msg(fabsf(c[0] - want[0] * cosine) < 0.01f
                              && fabsf(c[1] - want[1] * cosine) < 0.01f
                              && fabsf(c[2] - want[2] * cosine) < 0.01f,
                          "pixel %d,%d: %g %g %g, want %g x (%g, %g, %g)", px, py, c[0], c[1],
                          c[2], cosine, want[0], want[1], want[2]);
            checked++;
        }
    ck_assert_int_gt(checked, 550); /* pi 0.856^2 / 0.0625^2 = 589 whole pixels */
}

START_TEST(matte_sphere_lambert)
{
    Image *img = render("Format 40 40 1\nProjection \"orthographic\"\n"
                        "ScreenWindow -1.25 1.25 -1.25 1.25\nPixelFilter \"box\" 1 1\n"
                        "Translate 0 0 5\nWorldBegin\n"
                        "LightSource \"distantlight\" 1 \"from\" [0 0 -5] \"to\" [0 0 0]\n"
                        "Surface \"matte\"\nColor [1 0.5 0.25]\nSphere 1 -1 1 360\nWorldEnd\n",
                        16, 2);
    check_lambert(img, (const float[3]){ 1, 0.5f, 0.25f });
    image_free(img);
}
END_TEST

START_TEST(light_before_worldbegin)
{
    /* Old RIB: a distant light declared before the camera transform
       lives in camera space, shining from the eye (+z) whatever the
       camera's rotation, so the rotated camera sees the same Lambert
       sphere. Were it placed in world space, its direction would turn
       with the camera's 60 degrees and the cosine be off by up to 0.5. */
    Image *img = render("Format 40 40 1\nProjection \"orthographic\"\n"
                        "ScreenWindow -1.25 1.25 -1.25 1.25\nPixelFilter \"box\" 1 1\n"
                        "LightSource \"distantlight\" 1 \"from\" [0 0 0] \"to\" [0 0 1]\n"
                        "Translate 0 0 5\nRotate 60 0 1 0\nWorldBegin\n"
                        "Surface \"matte\"\nColor [1 0.5 0.25]\nSphere 1 -1 1 360\nWorldEnd\n",
                        16, 2);
    check_lambert(img, (const float[3]){ 1, 0.5f, 0.25f });
    image_free(img);
}
END_TEST

/* RISpec's defaultsurface on the unit sphere of check_lambert's frame,
   with no light: Cs (Ka + Kd cos^2), Ka 0.2, Kd 0.8, cos^2 = 1 - x^2 -
   y^2 for the orthographic view ray. Tolerance 0.01 as there. */
static void check_headlight(const char *rib_surface)
{
    char rib[512];
    snprintf(rib, sizeof rib,
             "Format 40 40 1\nProjection \"orthographic\"\n"
             "ScreenWindow -1.25 1.25 -1.25 1.25\nPixelFilter \"box\" 1 1\n"
             "Translate 0 0 5\nWorldBegin\n%s\nColor [1 0.5 0.25]\n"
             "Sphere 1 -1 1 360\nWorldEnd\n", rib_surface);
    Image *img = render(rib, 16, 2);
    const float cs[3] = { 1, 0.5f, 0.25f };
    int checked = 0;
    for (int py = 0; py < 40; py++)
        for (int px = 0; px < 40; px++) {
            float x = -1.25f + 2.5f * ((float)px + 0.5f) / 40, y = 1.25f - 2.5f * ((float)py + 0.5f) / 40;
            if (sqrtf(x * x + y * y) + 0.0625f * 1.5f > 0.95f)
                continue;
            float k = 0.2f + 0.8f * (1 - x * x - y * y);
            const float *c = image_pixel(img, px, py);
            for (int j = 0; j < 3; j++)
                ck_assert_msg(fabsf(c[j] - cs[j] * k) < 0.01f, "%s: pixel %d,%d[%d] = %g, want %g",
                              rib_surface, px, py, j, c[j], cs[j] * k);
            checked++;
        }
    ck_assert_int_gt(checked, 550);
    image_free(img);
}

START_TEST(default_surface_headlight)
{
    check_headlight("");                              /* no Surface at all */
    check_headlight("Surface \"defaultsurface\"");    /* the library's shader */
}
END_TEST

/* A sphere displaced by pushout (P moved a constant 0.1 along N, then N
   = calculatenormal(P)) keeps its normals: rendered with no Surface
   (defaultsurface, Cs (0.2 + 0.8 cos^2)) and with matte under a light
   from the eye (Cs cos), cos^2 = 1 - x^2 - y^2 as for the undisplaced
   sphere (the ray tracer shades the displaced point where the
   undisplaced surface was hit). calculatenormal differences P towards
   the next pixel, one-sided: its normal lags by half the turn between
   pixels, so cos errs by up to sin(a) (0.0625 / cos(a)) / 2 at the angle
   a from the axis, 0.025 at the radius 0.6 checked: tolerance 0.03 for
   matte, 0.045 for 0.8 cos^2 (whose error is 1.6 cos times that). The
   pole (r < 0.1), where u has no meaning, is left out. Before the fix the
   default surface came out far past white (N not normalized) and the
   seam of u a black line (N turned inwards). */
static void check_displaced(const char *surface, bool lit)
{
    char rib[768];
    snprintf(rib, sizeof rib,
             "Format 40 40 1\nProjection \"orthographic\"\n"
             "ScreenWindow -1.25 1.25 -1.25 1.25\nPixelFilter \"box\" 1 1\n"
             "Translate 0 0 5\nWorldBegin\n%s\n%s\nDisplacement \"pushout\"\n"
             "Color [1 0.5 0.25]\nSphere 1 -1 1 360\nWorldEnd\n",
             lit ? "LightSource \"distantlight\" 1 \"from\" [0 0 -5] \"to\" [0 0 0]" : "",
             surface);
    Image *img = render(rib, 16, 2);
    const float cs[3] = { 1, 0.5f, 0.25f };
    int checked = 0;
    for (int py = 0; py < 40; py++)
        for (int px = 0; px < 40; px++) {
            const float *c = image_pixel(img, px, py);
            for (int j = 0; j < 3; j++)
                ck_assert_msg(c[j] <= cs[j] + 1e-4f, "pixel %d,%d[%d] = %g is past Cs", px, py,
                              j, c[j]);
            float x = -1.25f + 2.5f * ((float)px + 0.5f) / 40, y = 1.25f - 2.5f * ((float)py + 0.5f) / 40;
            float r = sqrtf(x * x + y * y);
            if (r < 0.1f || r + 0.0625f * 1.5f > 0.6f)
                continue;
            float cos2 = 1 - x * x - y * y, k = lit ? sqrtf(cos2) : 0.2f + 0.8f * cos2;
            for (int j = 0; j < 3; j++)
                ck_assert_msg(fabsf(c[j] - cs[j] * k) < (lit ? 0.03f : 0.045f), "%s: pixel %d,%d[%d] = %g, want %g",
                              surface, px, py, j, c[j], cs[j] * k);
            checked++;
        }
    ck_assert_int_gt(checked, 150); /* pi (0.506^2 - 0.1^2) / 0.0625^2 = 200 */
    image_free(img);
}

START_TEST(displacement_along_the_normal)
{
    check_displaced("", false);
    check_displaced("Surface \"matte\"", true);
}
END_TEST

START_TEST(instances_beside_top_meshes)
{
    /* A sphere of the world (red) between two instances of an object's
       sphere (green, blue). rtcore numbers instances after the meshes,
       so a hit on an instance once looked past the end of the instance
       list and crashed. Pixels 32, 12 and 51 of row 32 lie at x = 0.06,
       -1.22 and 1.22, inside each unit-diameter sphere: constant Cs. */
    Image *img = render("Format 64 64 1\nProjection \"orthographic\"\n"
                        "ScreenWindow -2 2 -2 2\nPixelFilter \"box\" 1 1\n"
                        "Translate 0 0 5\nWorldBegin\n"
                        "ObjectBegin 1\nSphere 0.5 -0.5 0.5 360\nObjectEnd\n"
                        "Surface \"constant\"\nColor [1 0 0]\nSphere 0.5 -0.5 0.5 360\n"
                        "AttributeBegin\nTranslate -1.2 0 0\nColor [0 1 0]\nObjectInstance 1\n"
                        "AttributeEnd\n"
                        "AttributeBegin\nTranslate 1.2 0 0\nColor [0 0 1]\nObjectInstance 1\n"
                        "AttributeEnd\nWorldEnd\n",
                        4, 1);
    static const struct { int px; float rgb[3]; } want[] = {
        { 32, { 1, 0, 0 } }, { 12, { 0, 1, 0 } }, { 51, { 0, 0, 1 } }
    };
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++)
            ck_assert_float_eq_tol(image_pixel(img, want[k].px, 32)[j], want[k].rgb[j], 1e-6);
    image_free(img);
}
END_TEST

START_TEST(two_frames_build_each_shader_once)
{
    /* The matte sphere twice, in frames of one render: the second moves
       the camera back (orthographic: the same picture), recolors the
       sphere and halves the light. Its shaders were built for the first
       frame; the second makes new instances of them, and builds nothing. */
    RibDiag diag;
    RibScene *scene = load(
        "Format 40 40 1\nProjection \"orthographic\"\n"
        "ScreenWindow -1.25 1.25 -1.25 1.25\nPixelFilter \"box\" 1 1\n"
        "FrameBegin 1\nTranslate 0 0 5\nWorldBegin\n"
        "LightSource \"distantlight\" 1 \"from\" [0 0 -5] \"to\" [0 0 0]\n"
        "Surface \"matte\"\nColor [1 0.5 0.25]\nSphere 1 -1 1 360\nWorldEnd\nFrameEnd\n"
        "FrameBegin 2\nTranslate 0 0 7\nWorldBegin\n"
        "LightSource \"distantlight\" 1 \"intensity\" 0.5 \"from\" [0 0 -1] \"to\" [0 0 0]\n"
        "Surface \"matte\"\nColor [0.2 0.4 0.8]\nSphere 1 -1 1 360\nWorldEnd\nFrameEnd\n",
        2, &diag);
    RenderSettings rs;
    render_settings_init(&rs);
    rs.spp = 16;
    rs.threads = 2;
    rs.quiet = true;
    Render *r = render_new(scene, &rs);
    static const float want[2][3] = { { 1, 0.5f, 0.25f }, { 0.1f, 0.2f, 0.4f } };
    static const unsigned built[2] = { 2, 0 }; /* matte.sl and distantlight.sl */
    for (int i = 0; i < 2; i++) {
        RenderStats st;
        char err[1024];
        Image *img = render_frame_image(r, &scene->frames[i], &st, err, sizeof err);
        ck_assert_msg(img != NULL, "%s", err);
        ck_assert_uint_eq(st.shaders_built, built[i]);
        check_lambert(img, want[i]);
        image_free(img);
    }
    render_free(r);
    rib_scene_free(scene);
    rib_diag_free(&diag);
}
END_TEST

START_TEST(perspective_framing)
{
    /* A square of side 2 at distance 2 under a 90-degree field of view
       spans the screen window exactly: tan(45) = 1 = 1/2 * 2/2... The
       square [-1, 1]^2 at z = 2 projects to x/z in [-0.5, 0.5], half the
       default window [-1, 1]: 16 of 32 pixels each way, 256 in all. The
       same square under an orthographic camera fills the window. */
    const char *scene = "Format 32 32 1\nProjection \"%s\" \"fov\" 90\nPixelFilter \"box\" 1 1\n"
                        "Translate 0 0 2\nWorldBegin\nSurface \"constant\"\n"
                        "Polygon \"P\" [-1 -1 0  -1 1 0  1 1 0  1 -1 0]\nWorldEnd\n";
    char rib[512];
    snprintf(rib, sizeof rib, scene, "perspective");
    Image *img = render(rib, 4, 1);
    ck_assert_float_eq_tol(channel_sum(img, 3), 256, 1e-3);
    ck_assert_float_eq_tol(image_pixel(img, 8, 8)[3], 1, 1e-6);
    ck_assert_float_eq_tol(image_pixel(img, 7, 7)[3], 0, 1e-6);
    image_free(img);
    snprintf(rib, sizeof rib, scene, "orthographic");
    img = render(rib, 4, 1);
    ck_assert_float_eq_tol(channel_sum(img, 3), 1024, 1e-3);
    image_free(img);
}
END_TEST

START_TEST(crop_window_cuts_the_frame)
{
    /* RISpec's crop rounding: pixels ceil(64 * 0.25) = 16 through
       ceil(64 * 0.75 - 1) = 47 each way: a 32 x 32 image whose pixels are
       the full frame's (samples are seeded by absolute pixel). */
    const char *body = "Translate 0 0 5\nWorldBegin\n"
                       "LightSource \"distantlight\" 1 \"from\" [0 0 -5] \"to\" [0 0 0]\n"
                       "Surface \"matte\"\nSphere 0.7 -0.7 0.7 360\nWorldEnd\n";
    char rib[1024];
    snprintf(rib, sizeof rib, "%s%s", ORTHO_HEAD, body);
    Image *full = render(rib, 4, 2);
    snprintf(rib, sizeof rib, "%sCropWindow 0.25 0.75 0.25 0.75\n%s", ORTHO_HEAD, body);
    Image *crop = render(rib, 4, 1);
    ck_assert_int_eq(crop->width, 32);
    ck_assert_int_eq(crop->height, 32);
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 32; x++)
            for (int c = 0; c < 4; c++)
                ck_assert_float_eq_tol(image_pixel(crop, x, y)[c],
                                       image_pixel(full, x + 16, y + 16)[c], 1e-6);
    image_free(full);
    image_free(crop);
}
END_TEST

START_TEST(same_image_for_any_thread_count)
{
    /* A Catmull-Rom filter 4 pixels wide reaches 2 pixels into the
       neighbouring tiles (16 x 16): the sums of overlapping tiles must
       merge the same way whichever thread rendered them. */
    const char *rib = "Format 64 64 1\nProjection \"orthographic\"\nScreenWindow -1 1 -1 1\n"
                      "PixelFilter \"catmull-rom\" 4 4\nTranslate 0 0 5\nWorldBegin\n"
                      "LightSource \"pointlight\" 1 \"from\" [1 1 -2]\n"
                      "Surface \"plastic\"\nSphere 0.8 -0.8 0.8 360\nWorldEnd\n";
    Image *one = render(rib, 9, 1);
    for (int threads = 2; threads <= 3; threads++) {
        Image *more = render(rib, 9, threads);
        ck_assert_int_eq(memcmp(one->pixels, more->pixels,
                                sizeof(float) * 64 * 64 * (size_t)one->channels),
                         0);
        image_free(more);
    }
    image_free(one);
}
END_TEST

START_TEST(large_frame_in_bounded_memory)
{
    /* 2400 x 2400 pixels at 9 samples each, gaussian 2 2: keeping every
       sample (9 floats) took 1.9 GB. Filtered as they come, the film holds
       per 16 x 16 tile a slot of 18 x 18 pixels of 5 floats and 256
       depths (22500 tiles: 169 MB), the image 5 floats a pixel (115 MB).
       The child's peak resident size must stay under 512 MB. */
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        Image *img = render("Format 2400 2400 1\nPixelFilter \"gaussian\" 2 2\n"
                            "Projection \"perspective\"\nWorldBegin\nSurface \"constant\"\n"
                            "Translate 0 0 5\nSphere 1 -1 1 360\nWorldEnd\n",
                            9, 2);
        /* The sphere's centre is white, the corner empty. */
        _exit(image_pixel(img, 1200, 1200)[0] == 1 && image_pixel(img, 0, 0)[3] == 0 ? 0 : 3);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child failed: %d", status);
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    /* AddressSanitizer keeps freed memory in quarantine and adds shadow
       memory, so its resident size says nothing about ours. */
#if !defined(__SANITIZE_ADDRESS__)
    ck_assert_msg(ru.ru_maxrss < 512 * 1024, "peak resident size %ld kB", ru.ru_maxrss);
#endif
}
END_TEST

START_TEST(triangle_filter_at_an_edge)
{
    /* A white half-plane x > 0 (screen) under a triangle filter 2 pixels
       wide. Pixel 31's centre is half a pixel left of the edge: the
       filter's weight beyond it is the tail integral(0.5..1) (1 - d) dd
       over integral(-1..1) (1 - |d|) dd = 0.125. Pixel 32 sees 0.875.
       Far from the edge: 0 and 1 exactly. */
    Image *img = render("Format 64 8 1\nProjection \"orthographic\"\nScreenWindow -1 1 -0.125 0.125\n"
                        "PixelFilter \"triangle\" 2 2\nTranslate 0 0 5\nWorldBegin\n"
                        "Surface \"constant\"\nPolygon \"P\" [0 -1 0  0 1 0  2 1 0  2 -1 0]\n"
                        "WorldEnd\n",
                        64, 2);
    for (int y = 1; y < 7; y++) {
        ck_assert_float_eq_tol(image_pixel(img, 31, y)[3], 0.125f, 0.01f);
        ck_assert_float_eq_tol(image_pixel(img, 32, y)[3], 0.875f, 0.01f);
        ck_assert_float_eq_tol(image_pixel(img, 20, y)[3], 0, 1e-6);
        ck_assert_float_eq_tol(image_pixel(img, 40, y)[3], 1, 1e-6);
    }
    image_free(img);
}
END_TEST

START_TEST(instances_and_transform_order)
{
    /* An object (a disk of radius 0.25) instanced twice: two disks'
       worth of coverage, 2 * pi * 0.25^2 * 32^2 = 402.1 pixels, with the
       centres where the transforms put them. "Translate 0.5 0 0  Rotate
       90 0 0 1" rotates first, then translates: the second instance's
       centre, at object (0.4, 0, 0), lands at (0.5, 0.4). */
    Image *img = render(ORTHO_HEAD "Translate 0 0 5\nWorldBegin\n"
                                   "ObjectBegin 1\nDisk 0 0.25 360\nObjectEnd\n"
                                   "Surface \"constant\"\n"
                                   "AttributeBegin\nTranslate -0.5 0 0\nObjectInstance 1\n"
                                   "AttributeEnd\n"
                                   "AttributeBegin\nTranslate 0.5 0 0\nRotate 90 0 0 1\n"
                                   "Translate 0.4 0 0\nObjectInstance 1\nAttributeEnd\n"
                                   "WorldEnd\n",
                        16, 2);
    double want = 2 * M_PI * 0.0625 * 1024;
    ck_assert_msg(fabs(channel_sum(img, 3) - want) < 0.005 * want, "coverage %g, want %g",
                  channel_sum(img, 3), want);
    /* Screen (-0.5, 0) is pixel (16, 32); (0.5, 0.4) is pixel (48, 19). */
    ck_assert_float_eq_tol(image_pixel(img, 16, 32)[3], 1, 1e-6);
    ck_assert_float_eq_tol(image_pixel(img, 48, 19)[3], 1, 1e-6);
    ck_assert_float_eq_tol(image_pixel(img, 48, 32)[3], 0, 1e-6);
    image_free(img);
}
END_TEST

START_TEST(transparency_composites)
{
    /* Two constant squares, the front one Opacity 0.5 and red, the back
       one opaque and green: C = 0.5 * red + 0.5 * green, A = 1. */
    Image *img = render(ORTHO_HEAD "Translate 0 0 5\nWorldBegin\nSurface \"constant\"\n"
                                   "AttributeBegin\nColor [1 0 0]\nOpacity [0.5 0.5 0.5]\n"
                                   "Polygon \"P\" [-1 -1 0  -1 1 0  1 1 0  1 -1 0]\nAttributeEnd\n"
                                   "AttributeBegin\nColor [0 1 0]\n"
                                   "Polygon \"P\" [-1 -1 1  -1 1 1  1 1 1  1 -1 1]\nAttributeEnd\n"
                                   "WorldEnd\n",
                        1, 1);
    const float *c = image_pixel(img, 30, 30);
    ck_assert_float_eq_tol(c[0], 0.5f, 1e-5);
    ck_assert_float_eq_tol(c[1], 0.5f, 1e-5);
    ck_assert_float_eq_tol(c[2], 0, 1e-6);
    ck_assert_float_eq_tol(c[3], 1, 1e-5);
    image_free(img);
}
END_TEST

START_TEST(unset_ci_is_black_and_opaque)
{
    /* halfci sets Ci (1, 0.5, 0.25) on the front square's right half
       only and never sets Oi, before a green constant square. Ci starts
       black and Oi opaque (as in Aqsis): the left half is black, the
       right half the shader's colour, alpha 1 on both, and the green
       never shows through (it did when Oi came out 0 and Ci kept the
       last batch's registers). */
    Image *img = render(ORTHO_HEAD "Translate 0 0 5\nWorldBegin\n"
                                   "AttributeBegin\nSurface \"halfci\"\n"
                                   "Polygon \"P\" [-1 -1 0  -1 1 0  1 1 0  1 -1 0]\nAttributeEnd\n"
                                   "AttributeBegin\nSurface \"constant\"\nColor [0 1 0]\n"
                                   "Polygon \"P\" [-1 -1 1  -1 1 1  1 1 1  1 -1 1]\nAttributeEnd\n"
                                   "WorldEnd\n",
                        1, 1);
    static const struct {
        int x;
        float want[4];
    } px[] = { { 16, { 0, 0, 0, 1 } }, { 48, { 1, 0.5f, 0.25f, 1 } } };
    for (size_t k = 0; k < sizeof px / sizeof *px; k++)
        for (int y = 0; y < 64; y += 9)
            for (int c = 0; c < 4; c++)
                ck_assert_float_eq_tol(image_pixel(img, px[k].x, y)[c], px[k].want[c], 1e-6);
    image_free(img);
}
END_TEST

START_TEST(atmosphere_and_imager)
{
    /* fog: Ci = mix(Ci, background, 1 - exp(-|I| / distance)) with |I| = 5
       (an orthographic ray from z = 0 to the square at z = 5) and
       distance 5: a white square becomes exp(-1) = 0.3679 over a black
       background; Oi = 1. The imager "background" fills uncovered pixels
       with bgcolor and makes them opaque: Ci += (1 - alpha) * bgcolor. */
    Image *img = render(ORTHO_HEAD "Imager \"background\" \"color bgcolor\" [0.25 0.5 0.75]\n"
                                   "Translate 0 0 5\nWorldBegin\nSurface \"constant\"\n"
                                   "Atmosphere \"fog\" \"float distance\" 5\n"
                                   "Polygon \"P\" [-0.5 -0.5 0  -0.5 0.5 0  0.5 0.5 0  0.5 -0.5 0]\n"
                                   "WorldEnd\n",
                        1, 2);
    const float *in = image_pixel(img, 32, 32), *out = image_pixel(img, 2, 2);
    for (int c = 0; c < 3; c++)
        ck_assert_float_eq_tol(in[c], expf(-1), 1e-4);
    ck_assert_float_eq_tol(in[3], 1, 1e-5);
    ck_assert_float_eq_tol(out[0], 0.25f, 1e-6);
    ck_assert_float_eq_tol(out[1], 0.5f, 1e-6);
    ck_assert_float_eq_tol(out[2], 0.75f, 1e-6);
    ck_assert_float_eq_tol(out[3], 1, 1e-6);
    image_free(img);
}
END_TEST

START_TEST(raytraced_shadow)
{
    /* A distant light from the eye with shadowname "raytrace": a square
       at z = 1 (side 1) hides the middle of a matte backdrop at z = 2,
       which is lit (1 x cos 0 = 1) only outside the square's shadow. The
       square is seen in front, so the backdrop shows only beyond it: pick
       pixels of the backdrop in the light and, with the square made
       invisible to the camera by facing away (Sides 1), in the shadow. */
    Image *img = render(ORTHO_HEAD "Translate 0 0 5\nWorldBegin\n"
                                   "LightSource \"distantlight\" 1 \"from\" [0 0 -5] \"to\" [0 0 0] "
                                   "\"string shadowname\" \"raytrace\"\n"
                                   "AttributeBegin\nSides 1\nSurface \"constant\"\n"
                                   "Polygon \"P\" [-0.5 -0.5 -1  0.5 -0.5 -1  0.5 0.5 -1  -0.5 0.5 -1]\n"
                                   "AttributeEnd\n"
                                   "Surface \"matte\"\n"
                                   "Polygon \"P\" [-1 -1 1  -1 1 1  1 1 1  1 -1 1]\nWorldEnd\n",
                        1, 2);
    ck_assert_float_eq_tol(image_pixel(img, 32, 32)[0], 0, 1e-6);
    ck_assert_float_eq_tol(image_pixel(img, 32, 32)[3], 1, 1e-6);
    ck_assert_float_eq_tol(image_pixel(img, 4, 4)[0], 1, 1e-5);
    image_free(img);
}
END_TEST

START_TEST(undeclared_shader_parameters)
{
    /* "Kd" and "lightcolor" are not declared: they take the shader's
       types (float, color). matte with Kd 0.5 under a light of color
       (1, 0.5, 0) from the eye: Ci = Cs * 0.5 * (1, 0.5, 0) * N.L, and
       N.L = 1 at the centre of a sphere seen head on. */
    Image *img = render(ORTHO_HEAD "Translate 0 0 5\nWorldBegin\n"
                                   "LightSource \"distantlight\" 1 \"from\" [0 0 -5] \"to\" [0 0 0] "
                                   "\"lightcolor\" [1 0.5 0]\n"
                                   "Surface \"matte\" \"Kd\" 0.5\nSphere 1 -1 1 360\nWorldEnd\n",
                        1, 1);
    const float *c = image_pixel(img, 32, 32);
    ck_assert_float_eq_tol(c[0], 0.5f, 2e-3);
    ck_assert_float_eq_tol(c[1], 0.25f, 2e-3);
    ck_assert_float_eq_tol(c[2], 0, 1e-6);
    image_free(img);
}
END_TEST

START_TEST(derivatives_on_a_triangle)
{
    /* One triangle with st (0, 0), (0.5, 0), (0, 0.25) at its corners:
       over its barycentric (u, v), s = 0.5 u and t = 0.25 v, so Du(s) =
       0.5, Dv(t) = 0.25 and Du(t) = Dv(s) = 0 at every point, whichever
       adjacent pixels' hits the derivatives come from (the triangle is
       skewed on screen, so they lie along neither u nor v). */
    Image *img = render(ORTHO_HEAD "Translate 0 0 5\nWorldBegin\n"
                                   "Surface \"deriv\"\n"
                                   "Polygon \"P\" [-0.9 -0.8 0  0.8 -0.5 0  -0.4 0.9 0] "
                                   "\"st\" [0 0  0.5 0  0 0.25]\nWorldEnd\n",
                        1, 1);
    int checked = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            const float *c = image_pixel(img, x, y);
            if (c[3] < 1)
                continue;
            ck_assert_float_eq_tol(c[0], 0.5f, 1e-3);
            ck_assert_float_eq_tol(c[1], 0.25f, 1e-3);
            ck_assert_float_eq_tol(c[2], 0, 1e-3);
            checked++;
        }
    ck_assert_int_gt(checked, 500);
    image_free(img);
}
END_TEST

START_TEST(texture_lookup)
{
    /* A 64 x 64 float texture whose red is s and green is t at texel
       centres ((i + 0.5) / 64), on a square whose st runs 0..1 across a
       64 x 64 orthographic frame (t down, as the texture's rows): every
       pixel centre falls on a texel centre, and filtering a linear
       function over a box gives its value at the centre, on every mip
       level, so a pixel is (s, t, 0.25) at its samples' mean position. */
    char path[] = "/tmp/check_render_tex.XXXXXX.tif", err[512];
    int fd = mkstemps(path, 4);
    ck_assert_int_ge(fd, 0);
    close(fd);
    Image *tex = image_new(64, 64, 3);
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            float *p = image_pixel(tex, x, y);
            p[0] = ((float)x + 0.5f) / 64, p[1] = ((float)y + 0.5f) / 64, p[2] = 0.25f;
        }
    ImageWriteOptions wo = { .format = IMAGE_TIFF, .storage = IMAGE_FLOAT };
    ck_assert_msg(image_write(tex, path, &wo, err, sizeof err) == 0, "%s", err);
    image_free(tex);
    char rib[1024];
    snprintf(rib, sizeof rib,
             ORTHO_HEAD "Translate 0 0 5\nWorldBegin\nSurface \"showtex\" \"texturename\" \"%s\"\n"
                        "Polygon \"P\" [-1 1 0  1 1 0  1 -1 0  -1 -1 0] \"st\" [0 0  1 0  1 1  0 1]\n"
                        "WorldEnd\n",
             path);
    /* 16 stratified samples: their mean offset in a pixel lies within
       0.018 pixel of its centre (one standard deviation; the tolerance,
       1.5e-3 in s, is 0.1 pixel, 5.4 of them). */
    Image *img = render(rib, 16, 2);
    unlink(path);
    /* The filter region is the pixel's footprint (the changes of s and t
       towards the adjacent pixels), one texel, though each triangle's u
       and v run diagonally on screen: even next to the border, where a
       wider region would reach the black beyond the texture, the value
       is exact. */
    for (int y = 1; y < 63; y++)
        for (int x = 1; x < 63; x++) {
            const float *c = image_pixel(img, x, y);
            ck_assert_float_eq_tol(c[0], ((float)x + 0.5f) / 64, 1.5e-3);
            ck_assert_float_eq_tol(c[1], ((float)y + 0.5f) / 64, 1.5e-3);
            ck_assert_float_eq_tol(c[2], 0.25f, 1e-5);
        }
    image_free(img);
}
END_TEST

/* The plane of area_light_disk, lit by the disk (want_lit) or not: each
   pixel against the closed form, within 2%. CAMERA comes before the
   camera's translation, ORIENT before the disk; the disk takes 64 samples
   (its "samples", or BMRT's attribute when NSAMPLES). */
static void check_disk_sampled(const char *camera, const char *orient, bool want_lit,
                               bool nsamples)
{
    char rib[1024];
    snprintf(rib, sizeof rib,
             "Format 64 64 1\nProjection \"orthographic\"\nScreenWindow -2 2 -2 2\n"
             "PixelFilter \"box\" 1 1\n%sTranslate 0 0 5\nWorldBegin\n"
             "AttributeBegin\n%sSides 1\n%sAreaLightSource \"arealight\" 1 \"intensity\" 0.5 "
             "%s\nDisk -1 1 360\nAttributeEnd\nIlluminate 1 1\n"
             "Surface \"matte\"\nPolygon \"P\" [-2 -2 0  -2 2 0  2 2 0  2 -2 0]\n"
             "WorldEnd\n",
             camera, orient, nsamples ? "Attribute \"light\" \"nsamples\" [64]\n" : "",
             nsamples ? "" : "\"samples\" 64");
    Image *img = render(rib, 16, 2);
    const int xs[] = { 32, 40, 48, 56 };
    for (int k = 0; k < 4; k++) {
        /* The centre of pixel (xs[k], 31) lies d from the axis. */
        double x = -2 + 4 * (xs[k] + 0.5) / 64, y = 2 - 4 * 31.5 / 64, d2 = x * x + y * y;
        double E = 0.5 / 2 * (1 - (1 + d2 - 1) / sqrt((2 + d2) * (2 + d2) - 4 * d2));
        const float *c = image_pixel(img, xs[k], 31);
        /* Unlit, the disk shows its front: the pixels beside it are 0. */
        if (!want_lit && x < 1)
            continue;
        ck_assert_msg(want_lit ? fabs(c[0] - E) < 0.02 * E + 1e-3 : c[0] == 0,
                      "camera [%s] orientation [%s]: pixel %d: %g, want %g", camera, orient,
                      xs[k], c[0], want_lit ? E : 0);
    }
    image_free(img);
}

static void check_disk(const char *camera, const char *orient, bool want_lit)
{
    check_disk_sampled(camera, orient, want_lit, false);
}

START_TEST(area_light_disk)
{
    /* An arealight disk of radius R = 1 facing a matte plane h = 1 away,
       each point radiating Le = 0.5 with Lambert's falloff, its samples
       averaged (BMRT's convention): the irradiance at distance d from
       its axis is the integral (pi Le / 2) (1 - (h^2 + d^2 - R^2) /
       sqrt((h^2 + d^2 + R^2)^2 - 4 R^2 d^2)) over the disk's area pi R^2,
       1/4 on the axis. The disk is one-sided, so the camera sees the
       plane through its back. With 64 light samples a pixel, stratified,
       and 16 pixel samples: 2%. */
    check_disk("", "", true);
}
END_TEST

START_TEST(area_light_mirrored)
{
    /* A mirroring camera transform (as BMRT's scenes make world space
       right-handed) flips the current orientation with it (RISpec 3.2,
       RiOrientation): the disk is not turned inside out and lights the
       plane as before (the picture is mirrored, the closed form
       symmetric), with Orientation "rh" or "outside" said after the
       mirror as without; "lh" there turns it inside out, emitting away
       from the plane. */
    check_disk("Scale -1 1 1\n", "", true);
    check_disk("Scale -1 1 1\n", "Orientation \"rh\"\n", true);
    check_disk("Scale -1 1 1\nOrientation \"rh\"\n", "", true);
    check_disk("Scale -1 1 1\n", "Orientation \"outside\"\n", true);
    check_disk("Scale -1 1 1\n", "Orientation \"lh\"\n", false);
}
END_TEST

/* The shader runs (RenderStats.batches) of a 16 x 16 render of a plane
   lit by an area light square out of the camera's view, given LIGHT (its
   attributes and the AreaLightSource). */
static uint64_t area_light_runs(const char *light)
{
    char rib[1024];
    snprintf(rib, sizeof rib,
             "Format 16 16 1\nProjection \"orthographic\"\nScreenWindow -2 2 -2 2\n"
             "PixelFilter \"box\" 1 1\nTranslate 0 0 5\nWorldBegin\n"
             "AttributeBegin\n" "%s" "\nPolygon \"P\" [3 -1 -1  3 1 -1  5 1 -1  5 -1 -1]\n"
             "AttributeEnd\nIlluminate 1 1\n"
             "Surface \"matte\"\nPolygon \"P\" [-2 -2 0  -2 2 0  2 2 0  2 -2 0]\nWorldEnd\n",
             light);
    RenderStats st;
    image_free(render_counted(rib, 1, 1, &st));
    return st.batches;
}

START_TEST(area_light_nsamples)
{
    /* BMRT's Attribute "light" "nsamples" [K] in force at an area light's
       declaration: each shading batch runs the light K times and the
       surface once (K + 1 runs), so K = 7 takes 8 / 2 = 4 times the
       runs of K = 1, and the light's own "samples" 3 wins over it (4 / 2
       = 2 times). The mean is unchanged: the disk's closed form with 64
       samples said as the attribute. */
    uint64_t one = area_light_runs("Attribute \"light\" \"nsamples\" [1]\n"
                                   "AreaLightSource \"arealight\" 1");
    uint64_t seven = area_light_runs("Attribute \"light\" \"float nsamples\" [7]\n"
                                     "AreaLightSource \"arealight\" 1");
    uint64_t own = area_light_runs("Attribute \"light\" \"nsamples\" [7]\n"
                                   "AreaLightSource \"arealight\" 1 \"samples\" 3");
    ck_assert_uint_gt(one, 0);
    ck_assert_uint_eq(one % 2, 0);
    ck_assert_uint_eq(seven, 4 * one);
    ck_assert_uint_eq(own, 2 * one);
    check_disk_sampled("", "", true, true);
}
END_TEST

START_TEST(occlusion_beside_a_wall)
{
    /* A floor (seen head on) beside a wall that reaches far towards the
       camera: from any point of the floor, the cosine-weighted directions
       leaning towards the wall (half of them, by symmetry) hit it, so
       occlusion() is 1/2 on the wall's whole side; with a maxdist of
       0.01 only points within 0.01 of the wall see it. 256 rays a point
       and 16 points a pixel: the mean of a pixel is within 0.02. Aqsis's
       form with a map name gives the same (its map is not read). */
    const char *scene = "Format 16 16 1\nProjection \"orthographic\"\nScreenWindow -1 1 -1 1\n"
                        "PixelFilter \"box\" 1 1\nTranslate 0 0 5\nWorldBegin\n"
                        "Surface \"occl\" \"maxdist\" %g \"map\" \"%s\"\n"
                        "Polygon \"P\" [-1 -1 0  -1 1 0  1 1 0  1 -1 0]\n"
                        "Polygon \"P\" [1 -1000 -1000  1 1000 -1000  1 1000 0  1 -1000 0]\n"
                        "WorldEnd\n";
    char rib[1024];
    for (int map = 0; map < 2; map++) {
        snprintf(rib, sizeof rib, scene, 0.0, map ? "occl.sm" : "");
        Image *img = render(rib, 16, 2);
        for (int y = 2; y < 14; y += 3)
            for (int x = 1; x < 15; x += 3)
                ck_assert_float_eq_tol(image_pixel(img, x, y)[0], 0.5f, 0.02f);
        image_free(img);
    }
    snprintf(rib, sizeof rib, scene, 0.01, "");
    Image *img = render(rib, 4, 2);
    for (int y = 2; y < 14; y += 3)
        for (int x = 1; x < 14; x += 3)
            ck_assert_float_eq_tol(image_pixel(img, x, y)[0], 0, 1e-6);
    image_free(img);
}
END_TEST

START_TEST(indirect_light_from_a_wall)
{
    /* The floor of the occlusion test beside a white constant wall:
       indirectdiffuse() sees the wall's 1 over half the cosine-weighted
       hemisphere and nothing over the rest: 1/2, within 0.02. */
    Image *img = render("Format 16 16 1\nProjection \"orthographic\"\nScreenWindow -1 1 -1 1\n"
                        "PixelFilter \"box\" 1 1\nTranslate 0 0 5\nWorldBegin\n"
                        "AttributeBegin\nSurface \"indirect\"\n"
                        "Polygon \"P\" [-1 -1 0  -1 1 0  1 1 0  1 -1 0]\nAttributeEnd\n"
                        "Surface \"constant\"\n"
                        "Polygon \"P\" [1 -1000 -1000  1 1000 -1000  1 1000 0  1 -1000 0]\n"
                        "WorldEnd\n",
                        16, 2);
    for (int y = 2; y < 14; y += 3)
        for (int x = 1; x < 15; x += 3)
            for (int c = 0; c < 3; c++)
                ck_assert_float_eq_tol(image_pixel(img, x, y)[c], 0.5f, 0.02f);
    image_free(img);
}
END_TEST

START_TEST(hemisphere_samples_bounded)
{
    /* "samples" past 4096 (an int's range, infinity) is an error at the
       call's line before any ray is cast; 4096 itself renders. */
    const char *scene = "Format 2 2 1\nProjection \"orthographic\"\nTranslate 0 0 5\n"
                        "WorldBegin\nSurface \"%s\" \"samples\" %s\n"
                        "Polygon \"P\" [-1 -1 0  -1 1 0  1 1 0  1 -1 0]\nWorldEnd\n";
    const char *shaders[] = { "occl", "indirect" }, *counts[] = { "4097", "1e30", "1e9" };
    for (int k = 0; k < 2; k++)
        for (int n = 0; n < 3; n++) {
            char rib[512], err[1024], want[256];
            snprintf(rib, sizeof rib, scene, shaders[k], counts[n]);
            RibDiag diag;
            RibScene *sc = load(rib, 1, &diag);
            RenderSettings rs;
            render_settings_init(&rs);
            rs.quiet = true;
            Render *r = render_new(sc, &rs);
            ck_assert_ptr_null(render_frame_image(r, &sc->frames[0], NULL, err, sizeof err));
            snprintf(want, sizeof want, "%s(): \"samples\" %g is over the limit of 4096",
                     k ? "indirectdiffuse" : "occlusion", atof(counts[n]));
            ck_assert_msg(strstr(err, want) && strstr(err, "/shaders/") && strstr(err, ".sl:"),
                          "%s", err);
            render_free(r);
            rib_scene_free(sc);
            rib_diag_free(&diag);
        }
    char rib[512];
    snprintf(rib, sizeof rib, scene, "occl", "4096");
    Image *img = render(rib, 1, 1);
    ck_assert_float_eq(image_pixel(img, 0, 0)[0], 0);
    image_free(img);
}
END_TEST

START_TEST(trace_sees_the_reflection)
{
    /* A mirror square facing the camera sends the orthographic rays
       straight back, to a constant square behind the camera (which camera
       rays, starting at z = 0, never reach): trace() returns its color
       exactly. With Option "trace" "maxdepth" 0, trace() sees nothing. */
    const char *scene = "Format 8 8 1\nProjection \"orthographic\"\n%s"
                        "WorldBegin\nAttributeBegin\nSurface \"constant\"\nColor [0.2 0.4 0.6]\n"
                        "Polygon \"P\" [-2 -2 -1  2 -2 -1  2 2 -1  -2 2 -1]\nAttributeEnd\n"
                        "Surface \"reflector\"\n"
                        "Polygon \"P\" [-2 -2 5  -2 2 5  2 2 5  2 -2 5]\nWorldEnd\n";
    char rib[1024];
    snprintf(rib, sizeof rib, scene, "");
    Image *img = render(rib, 1, 2);
    const float *c = image_pixel(img, 4, 4);
    ck_assert_float_eq_tol(c[0], 0.2f, 1e-6);
    ck_assert_float_eq_tol(c[1], 0.4f, 1e-6);
    ck_assert_float_eq_tol(c[2], 0.6f, 1e-6);
    image_free(img);
    snprintf(rib, sizeof rib, scene, "Option \"trace\" \"maxdepth\" 0\n");
    img = render(rib, 1, 2);
    ck_assert_float_eq_tol(image_pixel(img, 4, 4)[0], 0, 1e-6);
    ck_assert_float_eq_tol(image_pixel(img, 4, 4)[3], 1, 1e-6);
    image_free(img);
}
END_TEST

START_TEST(message_passing)
{
    /* RISpec 3.2 section 15.8 through the test shaders msg*.sl: red is
       the displacement's amp = x / 2 + 1/2 at the pixel (x = -1 + (px +
       1/2) / 32, within half a pixel); green the lights' tags, each 2
       intensity + the surface's Kd (0.2, read by the light before the
       surface runs): (0.2 + 0.2) + (0.1 + 0.2) = 0.7, so each light's
       own value reaches lightsource(); blue the surface's mark 0.5,
       read by the atmosphere after the surface ran, set when
       shadername() is "msgsurf" and shadername("displacement") is
       "msgdisp". */
    Image *img = render(ORTHO_HEAD "Translate 0 0 5\nWorldBegin\n"
                                   "LightSource \"msglight\" 1 \"intensity\" 0.1\n"
                                   "LightSource \"msglight\" 2 \"intensity\" 0.05\n"
                                   "Displacement \"msgdisp\"\nAtmosphere \"msgatmo\"\n"
                                   "Surface \"msgsurf\" \"Kd\" 0.2\n"
                                   "Polygon \"P\" [-1 -1 0  -1 1 0  1 1 0  1 -1 0]\nWorldEnd\n",
                        1, 2);
    for (int px = 4; px < 64; px += 13) {
        const float *c = image_pixel(img, px, 20);
        float x = -1 + (px + 0.5f) / 32;
        ck_assert_float_eq_tol(c[0], x / 2 + 0.5f, 0.5f / 32 + 1e-5f);
        ck_assert_float_eq_tol(c[1], 0.7f, 1e-5);
        ck_assert_float_eq_tol(c[2], 0.5f, 1e-6);
    }
    image_free(img);
}
END_TEST

START_TEST(light_categories)
{
    /* Three lights from the eye (catlight.sl): 0.1 in "key" (the
       shader's default __category), 0.2 in "fill" and "rim" (the RIB's),
       0.4 in none; each quarter of the screen sums the Cl of the lights
       its catsurf's category picks: "key" 0.1, "-key" 0.2 + 0.4, "rim"
       0.2, "" every light, 0.7. */
    static const char *const cats[4] = { "key", "-key", "rim", "" };
    static const float want[4] = { 0.1f, 0.6f, 0.2f, 0.7f };
    char rib[2048];
    int at = snprintf(rib, sizeof rib, ORTHO_HEAD "Translate 0 0 5\nWorldBegin\n"
                      "LightSource \"catlight\" 1 \"intensity\" 0.1\n"
                      "LightSource \"catlight\" 2 \"intensity\" 0.2 \"string __category\" \"fill,rim\"\n"
                      "LightSource \"catlight\" 3 \"intensity\" 0.4 \"string __category\" \"\"\n");
    for (int q = 0; q < 4; q++) {
        float x0 = q % 2 ? 0 : -1, y0 = q / 2 ? 0 : -1;
        at += snprintf(rib + at, sizeof rib - (size_t)at,
                       "AttributeBegin\nSurface \"catsurf\" \"string cat\" \"%s\"\n"
                       "Polygon \"P\" [%g %g 0  %g %g 0  %g %g 0  %g %g 0]\nAttributeEnd\n", cats[q],
                       x0, y0, x0, y0 + 1, x0 + 1, y0 + 1, x0 + 1, y0);
    }
    snprintf(rib + at, sizeof rib - (size_t)at, "WorldEnd\n");
    Image *img = render(rib, 1, 2);
    for (int q = 0; q < 4; q++) {
        /* The quarter's centre: screen y grows downward in the image. */
        int px = q % 2 ? 48 : 16, py = q / 2 ? 16 : 48;
        const float *c = image_pixel(img, px, py);
        for (int k = 0; k < 3; k++)
            ck_assert_msg(fabsf(c[k] - want[q]) < 1e-5f, "category \"%s\": %g, want %g", cats[q],
                          (double)c[k], (double)want[q]);
    }
    image_free(img);
}
END_TEST

START_TEST(gather_wall)
{
    /* A square at z = 5 gathers (gathersurf.sl) through a cone about +z
       towards a constant wall of color (0.2, 0.4, 0.6) at z = 8 that
       covers every ray: left half, the mean surface:Ci of the hits is
       the wall's color; right half (cone angle 0) every ray hits at
       ray:length 3: (1, 0, 0.3). Gathering towards the camera, where
       nothing is, every ray misses: (0, 1, 0). */
    static const char *const head = ORTHO_HEAD "Translate 0 0 5\nWorldBegin\n"
        "AttributeBegin\nColor 0.2 0.4 0.6\nSurface \"constant\"\n"
        "Polygon \"P\" [-20 -20 3  -20 20 3  20 20 3  20 -20 3]\nAttributeEnd\n";
    char rib[2048];
    snprintf(rib, sizeof rib, "%sAttributeBegin\nSurface \"gathersurf\" \"angle\" 0.3 \"samples\" 8\n"
             "Polygon \"P\" [-1 -1 0  -1 1 0  0 1 0  0 -1 0]\nAttributeEnd\n"
             "AttributeBegin\nSurface \"gathersurf\" \"show\" 1\n"
             "Polygon \"P\" [0 -1 0  0 1 0  1 1 0  1 -1 0]\nAttributeEnd\nWorldEnd\n", head);
    Image *img = render(rib, 1, 2);
    const float *l = image_pixel(img, 16, 32), *r = image_pixel(img, 48, 32);
    const float wl[3] = { 0.2f, 0.4f, 0.6f }, wr[3] = { 1, 0, 0.3f };
    for (int k = 0; k < 3; k++) {
        ck_assert_float_eq_tol(l[k], wl[k], 1e-5);
        ck_assert_float_eq_tol(r[k], wr[k], 1e-5);
    }
    image_free(img);
    snprintf(rib, sizeof rib, "%sSurface \"gathersurf\" \"show\" 1 \"vector dir\" [0 0 -1]\n"
             "Polygon \"P\" [-1 -1 0  -1 1 0  1 1 0  1 -1 0]\nWorldEnd\n", head);
    img = render(rib, 1, 2);
    const float *m = image_pixel(img, 32, 32);
    ck_assert_float_eq_tol(m[0], 0, 1e-6);
    ck_assert_float_eq_tol(m[1], 1, 1e-6);
    ck_assert_float_eq_tol(m[2], 0, 1e-6);
    image_free(img);
}
END_TEST

START_TEST(matte_and_texture_coordinates)
{
    /* A Matte 1 square in front of a white constant backdrop: its
       pixels have color 0 and alpha 0 (a holdout), the backdrop's
       elsewhere 1. */
    Image *img = render(ORTHO_HEAD "Translate 0 0 5\nWorldBegin\nSurface \"constant\"\n"
                                   "AttributeBegin\nMatte 1\n"
                                   "Polygon \"P\" [-0.5 -0.5 -1  -0.5 0.5 -1  0.5 0.5 -1  0.5 -0.5 -1]\n"
                                   "AttributeEnd\n"
                                   "Polygon \"P\" [-1 -1 0  -1 1 0  1 1 0  1 -1 0]\nWorldEnd\n",
                        1, 1);
    ck_assert_float_eq_tol(image_pixel(img, 32, 32)[0], 0, 1e-6);
    ck_assert_float_eq_tol(image_pixel(img, 32, 32)[3], 0, 1e-6);
    ck_assert_float_eq_tol(image_pixel(img, 4, 4)[0], 1, 1e-6);
    ck_assert_float_eq_tol(image_pixel(img, 4, 4)[3], 1, 1e-6);
    image_free(img);
    /* TextureCoordinates 1 0  0 0  1 1  0 1 on a bilinear patch whose u
       runs along x: s = 1 - u, t = v, so red falls from left to right
       (RISpec 3.2 section 4.1.5); centre (u, v) = (1/2, 1/2). */
    img = render(ORTHO_HEAD "Translate 0 0 5\nWorldBegin\nSurface \"showst\"\n"
                            "TextureCoordinates 1 0 0 0 1 1 0 1\n"
                            "Patch \"bilinear\" \"P\" [-1 -1 0  1 -1 0  -1 1 0  1 1 0]\nWorldEnd\n",
                 1, 1);
    const float *mid = image_pixel(img, 32, 32), *left = image_pixel(img, 4, 32);
    ck_assert_float_eq_tol(mid[0], 0.5f, 0.02f);
    ck_assert_float_eq_tol(left[0], 1 - 4.5f / 64, 0.02f);
    image_free(img);
}
END_TEST

START_TEST(bump_tilts_the_normal)
{
    /* ramp displaces a square (facing the eye, s running 0..1 over x in
       [-1, 1]) by s along N: the bumped surface rises 0.5 per unit of x,
       so calculatenormal() tilts N by atan(0.5) and matte under a light
       from the eye gives cos = 1 / sqrt(1 + 0.25) = 0.8944 everywhere,
       from derivatives across the square's two triangles. */
    Image *img = render(ORTHO_HEAD "Translate 0 0 5\nWorldBegin\n"
                                   "LightSource \"distantlight\" 1 \"from\" [0 0 -5] \"to\" [0 0 0]\n"
                                   "Displacement \"ramp\"\nSurface \"matte\"\n"
                                   "Polygon \"P\" [-1 1 0  1 1 0  1 -1 0  -1 -1 0] "
                                   "\"st\" [0 0  1 0  1 1  0 1]\nWorldEnd\n",
                        4, 2);
    for (int y = 1; y < 63; y += 5)
        for (int x = 1; x < 63; x += 5)
            ck_assert_float_eq_tol(image_pixel(img, x, y)[0], 1 / sqrtf(1.25f), 2e-3);
    image_free(img);
}
END_TEST

START_TEST(light_shader_reshapes_L)
{
    /* tiltlight assigns L inside its solar or illuminate: the light
       reaches the square facing the eye along (sin 60, 0, cos 60)
       instead of straight on, so matte gives cos 60 = 0.5 everywhere. */
    for (int point = 0; point < 2; point++) {
        char rib[1024];
        snprintf(rib, sizeof rib,
                 ORTHO_HEAD "Translate 0 0 5\nWorldBegin\n"
                 "LightSource \"tiltlight\" 1 \"local\" %d \"from\" [0 0 -5] "
                 "\"dir\" [0.8660254 0 0.5]\nSurface \"matte\"\n"
                 "Polygon \"P\" [-1 1 0  1 1 0  1 -1 0  -1 -1 0]\nWorldEnd\n",
                 point);
        Image *img = render(rib, 4, 2);
        for (int y = 1; y < 63; y += 5)
            for (int x = 1; x < 63; x += 5)
                ck_assert_float_eq_tol(image_pixel(img, x, y)[0], 0.5f, 2e-3);
        image_free(img);
    }
}
END_TEST

START_TEST(light_sees_the_lit_surface)
{
    /* surfview's Cl shows Ns and I of the point it lights. The square
       turned 30 degrees about y has the unit normal (sin 30, 0, -cos 30)
       up to sign in camera space, and the orthographic camera looks
       along +z, so I = (0, 0, d): matte's ambient term gives
       (0.5, 0.8660, 1) everywhere on the square. */
    Image *img = render(ORTHO_HEAD "Translate 0 0 5\nWorldBegin\nLightSource \"surfview\" 1\n"
                                   "Surface \"matte\"\nRotate 30 0 1 0\n"
                                   "Polygon \"P\" [-0.5 0.5 0  0.5 0.5 0  0.5 -0.5 0  -0.5 -0.5 0]\n"
                                   "WorldEnd\n",
                        1, 2);
    for (int y = 20; y < 44; y += 4)
        for (int x = 24; x < 40; x += 4) {
            const float *c = image_pixel(img, x, y);
            ck_assert_float_eq_tol(c[0], 0.5f, 1e-4);
            ck_assert_float_eq_tol(c[1], 0.8660254f, 1e-4);
            ck_assert_float_eq_tol(c[2], 1, 1e-4);
        }
    image_free(img);
}
END_TEST

/* A white disk of radius 0.4 at depth z = 4 seen through a thin lens
   (fov 90: one screen unit is 32 pixels). Its sharp image has radius
   0.1 (3.2 px); out of focus (f = 1, N = 1, d = 2) each of its points
   spreads over the circle of confusion of radius (f/2N) |z-d| /
   (z (d-f)) = 0.25 (8 px). The image is the disk convolved with that
   circle: the same total coverage pi 3.2^2 px, nothing beyond 3.2 + 8 px
   from the centre, and a flat centre of (3.2/8)^2 = 0.16. Focused at
   d = 4 it is sharp again. Tolerances: the lens samples' noise over 64
   samples a pixel (3.5 sigma). */
static Image *lens_render(const char *dof)
{
    char rib[1024];
    snprintf(rib, sizeof rib,
             "Format 64 64 1\nProjection \"perspective\" \"fov\" 90\n"
             "ScreenWindow -1 1 -1 1\nPixelFilter \"box\" 1 1\n%s\n"
             "WorldBegin\nSurface \"constant\"\nTranslate 0 0 4\n"
             "Disk 0 0.4 360\nWorldEnd\n", dof);
    return render(rib, 64, 2);
}

/* Coverage summed over pixels whose centres lie in [r0, r1) pixels from
   the image's centre. */
static double ring_alpha(const Image *img, double r0, double r1)
{
    double s = 0;
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) {
            double r = hypot(x + 0.5 - 32, y + 0.5 - 32);
            if (r >= r0 && r < r1)
                s += image_pixel(img, x, y)[3];
        }
    return s;
}

START_TEST(depth_of_field_circle_of_confusion)
{
    double want = M_PI * 3.2 * 3.2;
    Image *blur = lens_render("DepthOfField 1 1 2");
    double total = channel_sum(blur, 3);
    ck_assert_msg(fabs(total - want) < 0.07 * want, "coverage %g, want %g", total, want);
    ck_assert_msg(ring_alpha(blur, 3.2 + 8 + 0.75, 100) == 0, "light beyond the circle");
    ck_assert_msg(ring_alpha(blur, 8, 10) > 0.5, "no blur out to the circle");
    double centre = ring_alpha(blur, 0, 2.2) / 16;
    ck_assert_msg(fabs(centre - 0.16) < 0.04, "centre %g, want 0.16", centre);
    image_free(blur);
    Image *sharp = lens_render("DepthOfField 1 1 4");
    ck_assert_msg(fabs(channel_sum(sharp, 3) - want) < 0.02 * want, "focused coverage");
    ck_assert_msg(ring_alpha(sharp, 3.2 + 0.75, 100) == 0, "focused image blurred");
    ck_assert_float_eq_tol(image_pixel(sharp, 32, 32)[3], 1, 1e-6);
    image_free(sharp);
}
END_TEST

/* Without --strict a missing shader warns and is left out
   (tests/rib/check_content.c). */
START_TEST(missing_shader_is_an_error_when_strict)
{
    RibLoadOptions lo;
    rib_load_options_init(&lo);
    lo.default_shader_path = SHADER_DIR;
    RibDiag diag;
    rib_diag_init(&diag, NULL);
    const char *rib = "WorldBegin\nSurface \"nosuchshader\"\nSphere 1 -1 1 360\nWorldEnd\n";
    RibScene *scene = rib_load_memory("bad.rib", rib, strlen(rib), &lo, &diag);
    ck_assert_ptr_nonnull(scene);
    RenderSettings rs;
    render_settings_init(&rs);
    rs.quiet = true;
    rs.strict = true;
    char err[1024];
    Render *r = render_new(scene, &rs);
    ck_assert_ptr_null(render_frame_image(r, &scene->frames[0], NULL, err, sizeof err));
    render_free(r);
    ck_assert_str_eq(err, "bad.rib:2:1: error: shader \"nosuchshader\" not found (no "
                          "nosuchshader.o or nosuchshader.sl on the shader searchpath)");
    rib_scene_free(scene);
    rib_diag_free(&diag);
}
END_TEST

START_TEST(native_code_cached_by_content)
{
    /* Shader "flat" in three folders, the first two copies alike: each is
       built (its object) and the native code JIT-compiled twice, the
       second copy taking the first's. */
    static const char *const bodies[] = { "Ci = 0.5;", "Ci = 0.5;", "Ci = 0.25;" };
    char dirs[3][32], path[64], err[1024];
    ShadeSys *sys = shadesys_native_new(NATIVE_ISA_AUTO, false, 0);
    RibShader req[3];
    RibMatrix id = { { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 } };
    for (int k = 0; k < 3; k++) {
        snprintf(dirs[k], sizeof dirs[k], "/tmp/check_render.XXXXXX");
        ck_assert_ptr_nonnull(mkdtemp(dirs[k]));
        snprintf(path, sizeof path, "%s/flat.sl", dirs[k]);
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "surface flat()\n{\n    %s\n}\n", bodies[k]);
        fclose(f);
        req[k] = (RibShader){ .name = "flat", .to_world = id, .loc = { "t.rib", 1, 1 } };
        ck_assert_msg(sys->load(sys, &req[k], VM_SURFACE, dirs[k], &id, err, sizeof err), "%s",
                      err);
        unlink(path);
        rmdir(dirs[k]);
    }
    ck_assert_uint_eq(sys->built, 3);
    ck_assert_uint_eq(sys->native_built, 2);
    sys->free(sys);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("render");
    TCase *tc = tcase_create("analytic");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, constant_sphere_coverage);
    tcase_add_test(tc, matte_sphere_lambert);
    tcase_add_test(tc, light_before_worldbegin);
    tcase_add_test(tc, default_surface_headlight);
    tcase_add_test(tc, displacement_along_the_normal);
    tcase_add_test(tc, instances_beside_top_meshes);
    tcase_add_test(tc, two_frames_build_each_shader_once);
    tcase_add_test(tc, perspective_framing);
    tcase_add_test(tc, crop_window_cuts_the_frame);
    tcase_add_test(tc, same_image_for_any_thread_count);
    tcase_add_test(tc, large_frame_in_bounded_memory);
    tcase_add_test(tc, triangle_filter_at_an_edge);
    tcase_add_test(tc, instances_and_transform_order);
    tcase_add_test(tc, transparency_composites);
    tcase_add_test(tc, unset_ci_is_black_and_opaque);
    tcase_add_test(tc, atmosphere_and_imager);
    tcase_add_test(tc, raytraced_shadow);
    tcase_add_test(tc, undeclared_shader_parameters);
    tcase_add_test(tc, derivatives_on_a_triangle);
    tcase_add_test(tc, texture_lookup);
    tcase_add_test(tc, area_light_disk);
    tcase_add_test(tc, area_light_mirrored);
    tcase_add_test(tc, area_light_nsamples);
    tcase_add_test(tc, occlusion_beside_a_wall);
    tcase_add_test(tc, hemisphere_samples_bounded);
    tcase_add_test(tc, indirect_light_from_a_wall);
    tcase_add_test(tc, trace_sees_the_reflection);
    tcase_add_test(tc, bump_tilts_the_normal);
    tcase_add_test(tc, message_passing);
    tcase_add_test(tc, light_categories);
    tcase_add_test(tc, gather_wall);
    tcase_add_test(tc, matte_and_texture_coordinates);
    tcase_add_test(tc, light_shader_reshapes_L);
    tcase_add_test(tc, light_sees_the_lit_surface);
    tcase_add_test(tc, missing_shader_is_an_error_when_strict);
    tcase_add_test(tc, depth_of_field_circle_of_confusion);
    tcase_add_test(tc, native_code_cached_by_content);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite_on_backends(make_suite);
}

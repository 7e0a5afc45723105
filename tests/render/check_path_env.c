/*
** check_path_env.c: the environment light's distribution (render/
** path_env.h) on small synthetic maps: its density integrates to 1 over
** the sphere, under the identity and under a rotated, unevenly scaled
** light transform (the Jacobian); the cells its samples fall in match
** the cells' probabilities (luminance times solid angle, computed here
** from the map) by a chi-square test; each sample's returned density and
** radiance are the density and radiance at its direction.
*/
#include <check.h>
#include <math.h>
#include <string.h>

#include "render/path_env.h"
#include "../common/suite.h"

enum { W = 8, H = 4 };

/* A map of distinct cells, some black, one much brighter. */
static void make_map(float rgb[W * H][3])
{
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            float *v = rgb[j * W + i];
            v[0] = (float)(1 + i), v[1] = (float)(1 + j), v[2] = (float)((i + j) % 3);
            if (i == 2 && j != 1)
                v[0] = v[1] = v[2] = 0;
            if (i == 6 && j == 2)
                v[0] = 400, v[1] = 20, v[2] = 0;
        }
}

static double lum(const float *c)
{
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

/* Identity; a rotation about (1, 1, 0) by 40 degrees times a scale of
   (2, 1, 0.5) and a translation (which directions ignore). */
static RibMatrix transform(int k)
{
    RibMatrix m;
    memset(&m, 0, sizeof m);
    m.m[0] = m.m[5] = m.m[10] = m.m[15] = 1;
    if (k == 0)
        return m;
    double a = 40 * M_PI / 180, c = cos(a), s = sin(a), u[3] = { M_SQRT1_2, M_SQRT1_2, 0 };
    static const double scale[3] = { 2, 1, 0.5 };
    const double cross[3][3] = { { 0, -u[2], u[1] }, { u[2], 0, -u[0] }, { -u[1], u[0], 0 } };
    for (int r = 0; r < 3; r++)
        for (int col = 0; col < 3; col++)  /* Rodrigues' rotation, then the scale */
            m.m[4 * r + col] = scale[r] * ((r == col ? c : 0) + (1 - c) * u[r] * u[col]
                                           + s * cross[r][col]);
    m.m[12] = 3, m.m[13] = -1, m.m[14] = 7;
    return m;
}

/* The light-space cell of camera-space unit direction d under m. */
static int cell_of(const RibMatrix *m, const float d[3])
{
    RibMatrix inv;
    ck_assert(rib_matrix_invert(m, &inv));
    double v[3];
    for (int j = 0; j < 3; j++)
        v[j] = d[0] * inv.m[j] + d[1] * inv.m[4 + j] + d[2] * inv.m[8 + j];
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    double s = atan2(v[1], v[0]) / (2 * M_PI) + 0.5, t = acos(v[2] / len) / M_PI;
    int i = (int)fmin(W - 1, floor(s * W)), j = (int)fmin(H - 1, floor(t * H));
    return j * W + i;
}

/* The environment of make_map's cells under transform(k). */
static RibMatrix build(PathEnv *e, float rgb[W * H][3], int k)
{
    RibMatrix m = transform(k);
    make_map(rgb);
    ck_assert_int_eq(path_env_build(e, (const float(*)[3])rgb, W, H, &m), 0);
    return m;
}

START_TEST(pdf_integrates_to_one)
{
    /* Midpoint rule over (z, phi), where d omega = dz dphi: 1 within
       0.5% (the grid crosses cell edges, where the density jumps). */
    float rgb[W * H][3];
    for (int k = 0; k < 2; k++) {
        PathEnv e;
        build(&e, rgb, k);
        enum { NZ = 1000, NP = 2000 };
        double sum = 0;
        for (int a = 0; a < NZ; a++)
            for (int b = 0; b < NP; b++) {
                double z = -1 + 2 * (a + 0.5) / NZ, phi = 2 * M_PI * (b + 0.5) / NP;
                double r = sqrt(1 - z * z);
                float d[3] = { (float)(r * cos(phi)), (float)(r * sin(phi)), (float)z };
                sum += path_env_pdf(&e, d) * (2.0 / NZ) * (2 * M_PI / NP);
            }
        ck_assert_msg(fabs(sum - 1) < 0.005, "transform %d: the density integrates to %g", k,
                      sum);
        path_env_free(&e);
    }
}
END_TEST

START_TEST(samples_match_cell_probabilities)
{
    /* 200000 samples; expected counts n p_c, p_c = lum_c Omega_c / sum
       (Omega_c = (2 pi / W)(cos(pi j / H) - cos(pi (j + 1) / H))); black
       cells must get none. Chi-square over the other cells (23 degrees
       of freedom) below 60 (p < 1e-4 for a correct sampler). */
    float rgb[W * H][3];
    for (int k = 0; k < 2; k++) {
        PathEnv e;
        RibMatrix m = build(&e, rgb, k);
        double p[W * H], total = 0;
        for (int c = 0; c < W * H; c++) {
            int j = c / W;
            p[c] = lum(rgb[c]) * (2 * M_PI / W) * (cos(M_PI * j / H) - cos(M_PI * (j + 1) / H));
            total += p[c];
        }
        enum { N = 200000 };
        int count[W * H] = { 0 };
        for (int n = 0; n < N; n++) {
            float u[2] = { rt_unit(rt_hash((uint32_t)n, 3, 5)), rt_unit(rt_hash((uint32_t)n, 7, 11)) };
            float d[3], L[3];
            float pdf = path_env_sample(&e, u, d, L);
            ck_assert(pdf > 0);
            ck_assert_float_eq_tol(pdf, path_env_pdf(&e, d), 1e-6f * pdf);
            float L2[3];
            path_env_radiance(&e, d, L2);
            ck_assert(!memcmp(L, L2, sizeof L));
            count[cell_of(&m, d)]++;
        }
        double chi2 = 0;
        for (int c = 0; c < W * H; c++) {
            double want = N * p[c] / total;
            if (want == 0) {
                ck_assert_msg(count[c] == 0, "black cell %d drew %d samples", c, count[c]);
                continue;
            }
            chi2 += (count[c] - want) * (count[c] - want) / want;
        }
        ck_assert_msg(chi2 < 60, "transform %d: chi-square %g over 23 degrees of freedom", k,
                      chi2);
        path_env_free(&e);
    }
}
END_TEST

START_TEST(black_map_draws_nothing)
{
    float rgb[2][3] = { { 0, 0, 0 }, { 0, 0, 0 } }, d[3], L[3];
    RibMatrix m = transform(0);
    PathEnv e;
    ck_assert_int_eq(path_env_build(&e, (const float(*)[3])rgb, 2, 1, &m), 0);
    ck_assert_float_eq(path_env_sample(&e, (const float[2]){ 0.5f, 0.5f }, d, L), 0);
    ck_assert_float_eq(path_env_pdf(&e, (const float[3]){ 0, 0, 1 }), 0);
    path_env_free(&e);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("path_env");
    TCase *tc = tcase_create("path_env");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, pdf_integrates_to_one);
    tcase_add_test(tc, samples_match_cell_probabilities);
    tcase_add_test(tc, black_map_draws_nothing);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

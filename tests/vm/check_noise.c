/*
** check_noise.c: the noise family against the properties RISpec states
** and gradient noise has by construction: range [0,1] and mean 1/2,
** exactly 1/2 on the lattice, continuity, pnoise's periods, cellnoise
** constant per cell and uniform across cells, random uniform in [0,1).
*/
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "runtime/noise.h"
#include "../common/suite.h"

/* A reproducible spread of sample positions (not the generator under
   test). */
static float sample(unsigned *state, float range)
{
    *state = *state * 1664525u + 1013904223u;
    return ((float)(*state >> 8) / 16777216.0f * 2.0f - 1.0f) * range;
}

START_TEST(lattice_points_are_half)
{
    int dim = _i + 1;
    float p[4];
    for (int x = -3; x <= 3; x++)
        for (int k = 0; k < dim; k++) {
            for (int j = 0; j < dim; j++)
                p[j] = (float)(x * (j + 1) + k);
            for (unsigned c = 0; c < 3; c++)
                ck_assert_float_eq(rsl_noise(dim, p, NULL, c), 0.5f);
        }
}
END_TEST

START_TEST(range_and_mean)
{
    int dim = _i + 1, n = 200000;
    unsigned st = 12345;
    double sum = 0, sum2 = 0;
    float lo = 1, hi = 0;
    for (int i = 0; i < n; i++) {
        float p[4];
        for (int k = 0; k < dim; k++)
            p[k] = sample(&st, 100.0f);
        float v = rsl_noise(dim, p, NULL, 0);
        ck_assert(v >= 0.0f && v <= 1.0f);
        lo = fminf(lo, v);
        hi = fmaxf(hi, v);
        sum += v;
        sum2 += (double)v * v;
    }
    double mean = sum / n, sd = sqrt(sum2 / n - mean * mean);
    ck_assert_msg(fabs(mean - 0.5) < 0.01, "dim %d: mean %g", dim, mean);
    /* A field, not a constant: it spreads over a good part of the range. */
    ck_assert_msg(sd > 0.05 && hi - lo > 0.4, "dim %d: sd %g, range %g..%g", dim, sd, lo, hi);
}
END_TEST

/* Gradient noise is Lipschitz: with unit gradients and the quintic fade
   its slope stays below a small constant, so a step of 1e-3 moves it by
   well under 1e-2. */
START_TEST(continuous)
{
    int dim = _i + 1;
    unsigned st = 999;
    for (int i = 0; i < 20000; i++) {
        float p[4], q[4];
        for (int k = 0; k < dim; k++)
            p[k] = q[k] = sample(&st, 10.0f);
        q[i % dim] += 1e-3f;
        float a = rsl_noise(dim, p, NULL, 1), b = rsl_noise(dim, q, NULL, 1);
        ck_assert_msg(fabsf(a - b) < 1e-2f, "dim %d: jump %g", dim, fabsf(a - b));
    }
}
END_TEST

START_TEST(components_independent)
{
    unsigned st = 7;
    int differ = 0;
    for (int i = 0; i < 100; i++) {
        float p[3] = { sample(&st, 5), sample(&st, 5), sample(&st, 5) };
        float a = rsl_noise(3, p, NULL, 0), b = rsl_noise(3, p, NULL, 1);
        float c = rsl_noise(3, p, NULL, 2);
        differ += a != b && b != c && a != c;
    }
    ck_assert_int_ge(differ, 95);
}
END_TEST

/* pnoise repeats with the period: x and x + k*period share the offset
   within the cell (exactly, for these binary fractions) and their wrapped
   lattice corners, so the values are identical. */
START_TEST(pnoise_periodic)
{
    int dim = _i + 1;
    const float period[4] = { 4, 3, 5, 2 };
    unsigned st = 31;
    for (int i = 0; i < 500; i++) {
        float p[4], q[4];
        for (int k = 0; k < dim; k++) {
            p[k] = (float)((int)sample(&st, 20)) + 0.25f * (float)(i % 4);
            q[k] = p[k] + period[k] * (float)((i % 5) - 2);
        }
        ck_assert_float_eq(rsl_noise(dim, p, period, 0), rsl_noise(dim, q, period, 0));
    }
    /* Periods round to the nearest integer: 3.4 acts as 3. */
    float per[1] = { 3.4f }, x[1] = { 0.375f }, y[1] = { 3.375f };
    ck_assert_float_eq(rsl_noise(1, x, per, 0), rsl_noise(1, y, per, 0));
    /* Periods below 1 act as 1. */
    float zero[1] = { 0.0f }, z[1] = { 7.375f };
    ck_assert_float_eq(rsl_noise(1, x, zero, 0), rsl_noise(1, z, zero, 0));
}
END_TEST

START_TEST(nonfinite_inputs)
{
    float p[4] = { NAN, 0.5f, 0.5f, 0.5f }, q[4] = { INFINITY, 1, 2, 3 };
    for (int dim = 1; dim <= 4; dim++) {
        ck_assert_float_eq(rsl_noise(dim, p, NULL, 0), 0.5f);
        ck_assert_float_eq(rsl_noise(dim, q, NULL, 0), 0.5f);
        ck_assert_float_eq(rsl_cellnoise(dim, p, 0), 0.0f);
    }
    float big[3] = { 1e30f, -3e38f, 7e20f };
    float v = rsl_noise(3, big, NULL, 0), c = rsl_cellnoise(3, big, 0);
    ck_assert(v >= 0 && v <= 1 && c >= 0 && c < 1);
}
END_TEST

START_TEST(cellnoise_cells)
{
    /* Constant inside a cell, including its lower faces. */
    for (int i = -5; i < 5; i++) {
        float a[2] = { (float)i, 2.0f }, b[2] = { (float)i + 0.999f, 2.5f };
        ck_assert_float_eq(rsl_cellnoise(2, a, 0), rsl_cellnoise(2, b, 0));
    }
    /* Uniform across cells: chi-square over 10 bins of 100000 cells, 9
       degrees of freedom; 27.9 is the 0.999 quantile. */
    int bins[10] = { 0 }, n = 100000;
    for (int i = 0; i < n; i++) {
        float p[3] = { (float)(i % 97), (float)(i / 97 % 31), (float)(i / 3007) };
        float v = rsl_cellnoise(3, p, 1);
        ck_assert(v >= 0.0f && v < 1.0f);
        bins[(int)(v * 10)]++;
    }
    double chi = 0, e = n / 10.0;
    for (int k = 0; k < 10; k++)
        chi += (bins[k] - e) * (bins[k] - e) / e;
    ck_assert_msg(chi < 27.9, "chi-square %g", chi);
}
END_TEST

START_TEST(random_stream)
{
    int bins[10] = { 0 }, n = 100000;
    for (int i = 0; i < n; i++) {
        float v = rsl_random(42, (uint32_t)i);
        ck_assert(v >= 0.0f && v < 1.0f);
        ck_assert_float_eq(v, rsl_random(42, (uint32_t)i));
        bins[(int)(v * 10)]++;
    }
    double chi = 0, e = n / 10.0;
    for (int k = 0; k < 10; k++)
        chi += (bins[k] - e) * (bins[k] - e) / e;
    ck_assert_msg(chi < 27.9, "chi-square %g", chi);
    /* Different seeds give different streams. */
    int same = 0;
    for (uint32_t i = 0; i < 1000; i++)
        same += rsl_random(1, i) == rsl_random(2, i);
    ck_assert_int_lt(same, 5);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("noise");
    TCase *tc = tcase_create("noise");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, lattice_points_are_half, 0, 4);
    tcase_add_loop_test(tc, range_and_mean, 0, 4);
    tcase_add_loop_test(tc, continuous, 0, 4);
    tcase_add_test(tc, components_independent);
    tcase_add_loop_test(tc, pnoise_periodic, 0, 4);
    tcase_add_test(tc, nonfinite_inputs);
    tcase_add_test(tc, cellnoise_cells);
    tcase_add_test(tc, random_stream);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

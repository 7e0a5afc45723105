/*
** run_ref.h: reference computations that several compile-run-verify
** tables (run_*.c) build their expected values from, written from the
** definitions (RISpec 3.2, Foley & van Dam for the color models) and not
** from the runtime. They take and give floats and compute in double.
**
** Matrices are row major (element row * 4 + col); points are row vectors,
** p' = (p, 1) M.
*/
#ifndef RUN_REF_H
#define RUN_REF_H

/* o = a b */
void ref_mat_mul(const float *a, const float *b, float *o);
/* The determinant by cofactors along the first row. */
double ref_mat_det(const float *m);
/* o = the inverse of a (adjugate over determinant); a is invertible. */
void ref_mat_inv(const float *a, float *o);

/* The hexcone models, hue in [0,1) with red at 0: HSV (Smith 1978) and
   HSL (Foley & van Dam's HLS with RISpec's component order). */
void ref_hsv2rgb(float h, float s, float v, float *rgb);
void ref_hsl2rgb(float h, float s, float l, float *rgb);
void ref_rgb2hsv(const float *rgb, float *hsv);
void ref_rgb2hsl(const float *rgb, float *hsl);

#endif /* RUN_REF_H */

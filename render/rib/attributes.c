/*
** attributes.c: requests that set attributes of the graphics state other
** than the transform and shaders: color, opacity, orientation, sides,
** Attribute, the patch basis and trim curves.
*/
#include <string.h>

#include "render/rib/request.h"

static void color_request(RibCtx *c, const RibRequest *r, float out[3])
{
    size_t pos = 0;
    double v[3];
    if (!rib_arg_numbers(c, r, &pos, 3, v, "the color") ||
        !rib_args_end(c, r, pos))
        return;
    rib_attr_edit(c);
    for (int i = 0; i < 3; i++)
        out[i] = rib_to_float(v[i]);
}

void rib_req_Color(RibCtx *c, const RibRequest *r)
{
    color_request(c, r, c->attr.color);
}

void rib_req_Opacity(RibCtx *c, const RibRequest *r)
{
    color_request(c, r, c->attr.opacity);
}

void rib_req_ColorSamples(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    const RibArg *a = rib_arg_number_array(c, r, &pos, "nRGB");
    if (a && a->n != 9)
        rib_warning(c, r->loc, "ColorSamples: only 3 color samples (RGB) "
                    "are supported; ignored");
}

/* The handedness of the current coordinate system, seen from the
   left-handed camera space. */
static RibOrientation current_handedness(const RibCtx *c)
{
    RibMatrix to_camera = c->attr.ctm;
    if (c->frame)
        to_camera = rib_matrix_mul(&c->attr.ctm, &c->frame->world_to_camera);
    return rib_matrix_det(&to_camera) < 0 ? RIB_ORIENT_RH : RIB_ORIENT_LH;
}

static RibOrientation opposite(RibOrientation o)
{
    return o == RIB_ORIENT_LH ? RIB_ORIENT_RH : RIB_ORIENT_LH;
}

/* RISpec's current orientation flips whenever the current coordinate
   system's handedness does (RISpec 3.2, RiOrientation), so the state
   keeps it as it reads in camera space: "lh" or "rh" said in a mirrored
   space is the opposite there, "outside" is always left-handed (the
   initial state) and "inside" right-handed. */
void rib_req_Orientation(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    const char *s = rib_arg_string(c, r, &pos, "the orientation");
    if (!s || !rib_args_end(c, r, pos))
        return;
    bool mirrored = current_handedness(c) == RIB_ORIENT_RH;
    RibOrientation o;
    if (strcmp(s, "lh") == 0)
        o = mirrored ? RIB_ORIENT_RH : RIB_ORIENT_LH;
    else if (strcmp(s, "rh") == 0)
        o = mirrored ? RIB_ORIENT_LH : RIB_ORIENT_RH;
    else if (strcmp(s, "outside") == 0)
        o = RIB_ORIENT_LH;
    else if (strcmp(s, "inside") == 0)
        o = RIB_ORIENT_RH;
    else {
        rib_error(c, r->args[0].loc, "Orientation: unknown orientation "
                  "\"%s\" (lh, rh, inside, outside)", s);
        return;
    }
    rib_attr_edit(c)->orientation = o;
}

void rib_req_ReverseOrientation(RibCtx *c, const RibRequest *r)
{
    if (rib_args_end(c, r, 0))
        rib_attr_edit(c)->orientation = opposite(c->attr.orientation);
}

void rib_req_Sides(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    long n;
    if (rib_arg_int(c, r, &pos, 1, 2, &n, "sides (1 or 2)") &&
        rib_args_end(c, r, pos))
        rib_attr_edit(c)->sides = (int)n;
}

/* Matte onoff (RISpec 3.2 section 4.1.5). */
void rib_req_Matte(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    long n;
    if (rib_arg_int(c, r, &pos, 0, 1, &n, "matte (0 or 1)") && rib_args_end(c, r, pos))
        rib_attr_edit(c)->matte = n != 0;
}

/* TextureCoordinates s1 t1 s2 t2 s3 t3 s4 t4: s and t at the corners
   (u, v) = (0,0), (1,0), (0,1), (1,1) of a surface's parameters,
   interpolated bilinearly where no "st" is given (section 4.1.5). */
void rib_req_TextureCoordinates(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    double v[8];
    if (!rib_arg_numbers(c, r, &pos, 8, v, "the texture coordinates") || !rib_args_end(c, r, pos))
        return;
    RibAttrState *a = rib_attr_edit(c);
    for (int i = 0; i < 8; i++)
        a->st[i] = rib_to_float(v[i]);
}

void rib_req_Attribute(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    const char *cat = rib_arg_string(c, r, &pos, "the category");
    if (!cat)
        return;
    RibParam *p;
    size_t n;
    rib_params(c, r, pos, cat, &p, &n);
    RibAttrState *a = rib_attr_edit(c);
    rib_params_merge(c, &a->attributes, &a->nattributes, p, n);
}

/* A basis: a name or 16 numbers, then its step. */
static bool basis_arg(RibCtx *c, const RibRequest *r, size_t *pos,
                      RibBasis *b)
{
    if (*pos < r->nargs && r->args[*pos].kind == RIB_ARG_NUMBERS) {
        if (!rib_arg_numbers(c, r, pos, 16, b->m, "the basis matrix"))
            return false;
    } else {
        const char *name = rib_arg_string(c, r, pos, "the basis");
        if (!name)
            return false;
        if (!rib_basis_named(name, b)) {
            rib_error(c, r->args[*pos - 1].loc, "Basis: unknown basis "
                      "\"%s\"", name);
            return false;
        }
    }
    long step;
    if (!rib_arg_int(c, r, pos, 1, 4, &step, "the step"))
        return false;
    b->step = (int)step;
    return true;
}

void rib_req_Basis(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    RibBasis u, v;
    if (basis_arg(c, r, &pos, &u) && basis_arg(c, r, &pos, &v) &&
        rib_args_end(c, r, pos)) {
        RibAttrState *a = rib_attr_edit(c);
        a->ubasis = u;
        a->vbasis = v;
    }
}

/* Sum of an array of counts, each in [min, max]; false after an error. */
static bool sum_counts(RibCtx *c, const RibRequest *r, const RibArg *a,
                       long min, long max, size_t *sum, const char *what)
{
    *sum = 0;
    for (size_t i = 0; i < a->n; i++) {
        long v;
        if (!rib_int_at(c, r, a, i, min, max, &v, what))
            return false;
        *sum += (size_t)v;
    }
    return true;
}

static bool expect_len(RibCtx *c, const RibArg *a, size_t n,
                       const char *what)
{
    if (a->n == n)
        return true;
    rib_error(c, a->loc, "TrimCurve: %s has %zu values, expected %zu", what,
              a->n, n);
    return false;
}

/* Trim curves are checked for consistency and remembered; NuPatch warns
   that it cannot apply them. */
void rib_req_TrimCurve(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0, ncurves, nknots = 0, npoints = 0;
    const RibArg *a[9];
    static const char *const what[9] = {"ncurves", "order", "knot", "min",
                                        "max", "n", "u", "v", "w"};
    for (int i = 0; i < 9; i++)
        if (!(a[i] = rib_arg_number_array(c, r, &pos, what[i])))
            return;
    if (!rib_args_end(c, r, pos) ||
        !sum_counts(c, r, a[0], 0, 1 << 24, &ncurves, "ncurves") ||
        !expect_len(c, a[1], ncurves, "order") ||
        !expect_len(c, a[3], ncurves, "min") ||
        !expect_len(c, a[4], ncurves, "max") ||
        !expect_len(c, a[5], ncurves, "n"))
        return;
    for (size_t i = 0; i < ncurves; i++) {
        long order, n;
        if (!rib_int_at(c, r, a[1], i, 1, 64, &order, "order") ||
            !rib_int_at(c, r, a[5], i, order, 1 << 24, &n, "n"))
            return;
        nknots += (size_t)(order + n);
        npoints += (size_t)n;
    }
    if (!expect_len(c, a[2], nknots, "knot") ||
        !expect_len(c, a[6], npoints, "u") ||
        !expect_len(c, a[7], npoints, "v") ||
        !expect_len(c, a[8], npoints, "w"))
        return;
    rib_attr_edit(c)->trimmed = ncurves > 0;
}

/*
** make.c: MakeTexture, MakeLatLongEnvironment, MakeCubeFaceEnvironment
** and MakeShadow (RISpec 3.2 section 8) taken apart into RibMake records
** for the renderer, which does them between frames (render/make.c).
** What the renderer does not use is warned about here: the filters and
** their widths (texture pyramids are box-filtered when a texture is
** read) and a cube face's field of view other than 90 degrees.
*/
#include <string.h>

#include "render/rib/request.h"

/* A record for the request, whose arguments from pos on (its parameter
   list: "compression", "bias", ...) are warned about and not used. */
static RibMake *new_make(RibCtx *c, const RibRequest *r, size_t pos, RibMakeKind kind)
{
    if (pos < r->nargs)
        rib_warning(c, r->args[pos].loc, "%s: the parameter list is not used", r->name);
    RibScene *s = c->scene;
    s->makes = rib_xrealloc(s->makes, (s->nmakes + 1) * sizeof *s->makes);
    RibMake *m = &s->makes[s->nmakes++];
    memset(m, 0, sizeof *m);
    m->kind = kind;
    m->before_frame = s->nframes;
    m->loc = r->loc;
    return m;
}

/* The filter name and widths at *pos: warned about unless a 1 x 1 box,
   which is what the texture pyramids use. */
static bool filter_args(RibCtx *c, const RibRequest *r, size_t *pos)
{
    const char *filter = rib_arg_string(c, r, pos, "the filter");
    double w[2];
    if (!filter || !rib_arg_numbers(c, r, pos, 2, w, "swidth twidth"))
        return false;
    if (strcmp(filter, "box") != 0 || w[0] != 1 || w[1] != 1)
        rib_warning(c, r->loc, "%s: the filter \"%s\" %g x %g is not used; textures are "
                    "box-filtered when read", r->name, filter, w[0], w[1]);
    return true;
}

/* Names at *pos into out (interned); false after an error. */
static bool names(RibCtx *c, const RibRequest *r, size_t *pos, int n, const char **out,
                  const char *const *what)
{
    for (int i = 0; i < n; i++) {
        const char *s = rib_arg_string(c, r, pos, what[i]);
        if (!s)
            return false;
        out[i] = rib_intern(c->store, s);
    }
    return true;
}

static bool wrap_ok(RibCtx *c, const RibRequest *r, size_t at, const char *w)
{
    if (!strcmp(w, "periodic") || !strcmp(w, "clamp") || !strcmp(w, "black"))
        return true;
    rib_error(c, r->args[at].loc, "%s: unknown wrap mode \"%s\" (periodic, clamp, black)",
              r->name, w);
    return false;
}

void rib_req_MakeTexture(RibCtx *c, const RibRequest *r)
{
    static const char *const what[] = { "the picture", "the texture", "swrap", "twrap" };
    const char *n[4];
    size_t pos = 0;
    if (!names(c, r, &pos, 4, n, what) || !wrap_ok(c, r, 2, n[2]) || !wrap_ok(c, r, 3, n[3])
        || !filter_args(c, r, &pos))
        return;
    RibMake *m = new_make(c, r, pos, RIB_MAKE_TEXTURE);
    m->inputs[0] = n[0], m->ninputs = 1, m->output = n[1];
    char wrap[64];
    snprintf(wrap, sizeof wrap, "%s,%s", n[2], n[3]);
    m->wrap = rib_intern(c->store, wrap);
}

void rib_req_MakeLatLongEnvironment(RibCtx *c, const RibRequest *r)
{
    static const char *const what[] = { "the picture", "the texture" };
    const char *n[2];
    size_t pos = 0;
    if (!names(c, r, &pos, 2, n, what) || !filter_args(c, r, &pos))
        return;
    RibMake *m = new_make(c, r, pos, RIB_MAKE_LATLONG);
    m->inputs[0] = n[0], m->ninputs = 1, m->output = n[1];
}

void rib_req_MakeCubeFaceEnvironment(RibCtx *c, const RibRequest *r)
{
    static const char *const what[] = { "px", "nx", "py", "ny", "pz", "nz", "the texture" };
    const char *n[7];
    size_t pos = 0;
    double fov;
    if (!names(c, r, &pos, 7, n, what) || !rib_arg_numbers(c, r, &pos, 1, &fov, "fov")
        || !filter_args(c, r, &pos))
        return;
    if (fov != 90)
        rib_warning(c, r->loc, "MakeCubeFaceEnvironment: a field of view of %g degrees is not "
                    "used; the faces are taken as 90 degrees", fov);
    RibMake *m = new_make(c, r, pos, RIB_MAKE_CUBEFACE);
    memcpy(m->inputs, n, 6 * sizeof *n);
    m->ninputs = 6, m->output = n[6];
}

void rib_req_MakeShadow(RibCtx *c, const RibRequest *r)
{
    static const char *const what[] = { "the picture", "the texture" };
    const char *n[2];
    size_t pos = 0;
    if (!names(c, r, &pos, 2, n, what))
        return;
    RibMake *m = new_make(c, r, pos, RIB_MAKE_SHADOW);
    m->inputs[0] = n[0], m->ninputs = 1, m->output = n[1];
}

/*
** options.c: requests that set options (camera, image, filter, displays,
** Option) and Declare. Options are frozen into each frame at WorldBegin.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/rib/archive.h"
#include "render/rib/shader.h"

/* n numbers and nothing else. */
static bool numbers(RibCtx *c, const RibRequest *r, size_t n, double *v,
                    const char *what)
{
    size_t pos = 0;
    return rib_arg_numbers(c, r, &pos, n, v, what) && rib_args_end(c, r, pos);
}

static bool positive(RibCtx *c, const RibRequest *r, double v,
                     const char *what)
{
    if (v > 0)
        return true;
    rib_error(c, r->loc, "%s: %s must be positive, got %g", r->name, what, v);
    return false;
}

static bool is_int(double v, double min, double max)
{
    return v >= min && v <= max && v == (double)(long)v;
}

void rib_req_Format(RibCtx *c, const RibRequest *r)
{
    double v[3];
    if (!numbers(c, r, 3, v, "xresolution yresolution pixelaspectratio"))
        return;
    if (!is_int(v[0], 1, 1 << 20) || !is_int(v[1], 1, 1 << 20)) {
        rib_error(c, r->loc, "Format: resolution %gx%g is not a pair of "
                  "integers in [1, 1048576]", v[0], v[1]);
        return;
    }
    c->options.xres = (int)v[0];
    c->options.yres = (int)v[1];
    c->options.format_loc = r->loc;
    if (v[2] > 0)  /* RISpec: a non-positive aspect keeps the default */
        c->options.pixel_aspect = rib_to_float(v[2]);
}

void rib_req_FrameAspectRatio(RibCtx *c, const RibRequest *r)
{
    double v;
    if (numbers(c, r, 1, &v, "the ratio") &&
        positive(c, r, v, "the frame aspect ratio"))
        c->options.frame_aspect = rib_to_float(v);
}

void rib_req_ScreenWindow(RibCtx *c, const RibRequest *r)
{
    double v[4];
    if (!numbers(c, r, 4, v, "left right bottom top"))
        return;
    if (!(v[0] != v[1] && v[2] != v[3])) {
        rib_error(c, r->loc, "ScreenWindow: [%g %g %g %g] has no area", v[0], v[1], v[2],
                  v[3]);
        return;
    }
    for (int i = 0; i < 4; i++)
        c->options.screen[i] = rib_to_float(v[i]);
    c->options.screen_set = 1;
}

void rib_req_CropWindow(RibCtx *c, const RibRequest *r)
{
    double v[4];
    if (!numbers(c, r, 4, v, "xmin xmax ymin ymax"))
        return;
    if (!(v[0] >= 0 && v[0] <= v[1] && v[1] <= 1 && v[2] >= 0 &&
          v[2] <= v[3] && v[3] <= 1)) {
        rib_error(c, r->loc, "CropWindow: [%g %g %g %g] is not a window "
                  "inside [0 1 0 1]", v[0], v[1], v[2], v[3]);
        return;
    }
    for (int i = 0; i < 4; i++)
        c->options.crop[i] = rib_to_float(v[i]);
}

void rib_req_Projection(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    const char *name = rib_arg_string(c, r, &pos, "the projection");
    if (!name)
        return;
    RibParam *p;
    size_t n;
    rib_params(c, r, pos, NULL, &p, &n);
    const RibParam *fov = rib_param_find(p, n, "fov");
    if (strcmp(name, "perspective") == 0) {
        c->options.projection = RIB_PROJ_PERSPECTIVE;
        if (fov) {
            if (fov->f[0] > 0 && fov->f[0] < 180)
                c->options.fov = fov->f[0];
            else
                rib_error(c, r->loc, "Projection: fov %g is not in (0, 180)",
                          fov->f[0]);
        }
    } else if (strcmp(name, "orthographic") == 0) {
        c->options.projection = RIB_PROJ_ORTHOGRAPHIC;
    } else {
        rib_warning(c, r->args[0].loc, "Projection \"%s\" is not supported; "
                    "using orthographic", name);
        c->options.projection = RIB_PROJ_ORTHOGRAPHIC;
    }
    rib_params_free(p, n);
    /* RISpec folds the transform so far into the screen transform and
       starts the camera transform afresh. */
    RibMatrix id = rib_matrix_identity();
    if (memcmp(&c->attr.ctm, &id, sizeof id) != 0)
        rib_warning(c, r->loc, "transformations before Projection are not "
                    "supported; ignored");
    c->attr.ctm = id;
}

void rib_req_Clipping(RibCtx *c, const RibRequest *r)
{
    double v[2];
    if (!numbers(c, r, 2, v, "near far"))
        return;
    if (!(v[0] > 0 && v[1] > v[0])) {
        rib_error(c, r->loc, "Clipping: need 0 < near < far, got %g %g",
                  v[0], v[1]);
        return;
    }
    c->options.near_clip = rib_to_float(v[0]);
    c->options.far_clip = rib_to_float(v[1]);
}

/* "DepthOfField fstop focallength focaldistance", or no arguments for a
   pinhole again. */
void rib_req_DepthOfField(RibCtx *c, const RibRequest *r)
{
    double v[3];
    if (r->nargs == 0) {
        c->options.fstop = INFINITY;
        return;
    }
    if (!numbers(c, r, 3, v, "fstop focallength focaldistance"))
        return;
    if (!(v[0] > 0 && v[1] > 0 && v[2] > v[1])) {
        rib_error(c, r->loc, "DepthOfField: need fstop > 0 and 0 < "
                  "focallength < focaldistance, got %g %g %g", v[0], v[1],
                  v[2]);
        return;
    }
    c->options.fstop = rib_to_float(v[0]);
    c->options.focal_length = rib_to_float(v[1]);
    c->options.focal_distance = rib_to_float(v[2]);
}

void rib_req_PixelSamples(RibCtx *c, const RibRequest *r)
{
    double v[2];
    if (!numbers(c, r, 2, v, "xsamples ysamples") ||
        !positive(c, r, v[0] < v[1] ? v[0] : v[1], "the sample counts"))
        return;
    /* 1024 x 1024 is --spp's 2^20 samples a pixel. */
    if (v[0] > 1024 || v[1] > 1024) {
        rib_error(c, r->loc, "PixelSamples: %g x %g samples; each count must be at most 1024",
                  v[0], v[1]);
        return;
    }
    c->options.pixel_samples[0] = rib_to_float(v[0]);
    c->options.pixel_samples[1] = rib_to_float(v[1]);
    c->options.samples_loc = r->loc;
}

void rib_req_PixelFilter(RibCtx *c, const RibRequest *r)
{
    static const struct { const char *name; RibFilter f; } filters[] = {
        {"box", RIB_FILTER_BOX},
        {"triangle", RIB_FILTER_TRIANGLE},
        {"gaussian", RIB_FILTER_GAUSSIAN},
        {"catmull-rom", RIB_FILTER_CATMULLROM},
        {"separable-catmull-rom", RIB_FILTER_CATMULLROM},
        {"sinc", RIB_FILTER_SINC},
    };
    size_t pos = 0;
    double w[2];
    const char *name = rib_arg_string(c, r, &pos, "the filter");
    if (!name || !rib_arg_numbers(c, r, &pos, 2, w, "xwidth ywidth") ||
        !rib_args_end(c, r, pos) ||
        !positive(c, r, w[0] < w[1] ? w[0] : w[1], "the filter widths"))
        return;
    size_t i = 0, n = sizeof filters / sizeof *filters;
    while (i < n && strcmp(filters[i].name, name) != 0)
        i++;
    if (i == n) {
        rib_warning(c, r->args[0].loc, "PixelFilter \"%s\" is not supported; "
                    "using gaussian", name);
        c->options.filter = RIB_FILTER_GAUSSIAN;
    } else {
        c->options.filter = filters[i].f;
    }
    c->options.filter_width[0] = rib_to_float(w[0]);
    c->options.filter_width[1] = rib_to_float(w[1]);
}

void rib_req_Exposure(RibCtx *c, const RibRequest *r)
{
    double v[2];
    if (numbers(c, r, 2, v, "gain gamma") &&
        positive(c, r, v[1], "the gamma")) {
        c->options.exposure_gain = rib_to_float(v[0]);
        c->options.exposure_gamma = rib_to_float(v[1]);
    }
}

void rib_req_Quantize(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    double v[4];
    const char *type = rib_arg_string(c, r, &pos, "the type");
    if (!type || !rib_arg_numbers(c, r, &pos, 4, v, "one min max dither") ||
        !rib_args_end(c, r, pos))
        return;
    RibQuantize q = {rib_to_float(v[0]), rib_to_float(v[1]),
                     rib_to_float(v[2]), rib_to_float(v[3])};
    if (strcmp(type, "rgba") == 0)
        c->options.quantize_rgba = q;
    else if (strcmp(type, "z") == 0)
        c->options.quantize_z = q;
    else
        rib_error(c, r->args[0].loc, "Quantize: unknown type \"%s\" (rgba, "
                  "z)", type);
}

static RibDisplayType display_type(RibCtx *c, const RibArg *at,
                                   const char *type)
{
    static const struct { const char *name; RibDisplayType t; } types[] = {
        {"file", RIB_DISPLAY_FILE},  {"tiff", RIB_DISPLAY_TIFF},
        {"png", RIB_DISPLAY_PNG},    {"exr", RIB_DISPLAY_EXR},
        {"openexr", RIB_DISPLAY_EXR}, {"framebuffer", RIB_DISPLAY_FRAMEBUFFER},
        {"zfile", RIB_DISPLAY_ZFILE}, {"shadow", RIB_DISPLAY_SHADOW},
    };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (strcmp(types[i].name, type) == 0)
            return types[i].t;
    rib_warning(c, at->loc, "Display type \"%s\" is not supported; writing "
                "a file", type);
    return RIB_DISPLAY_FILE;
}

void rib_req_Display(RibCtx *c, const RibRequest *r)
{
    static const char *const modes[] = {"rgb", "rgba", "z", "a", "rgbz",
                                        "rgbaz"};
    size_t pos = 0;
    const char *name = rib_arg_string(c, r, &pos, "the name");
    const char *type = name ? rib_arg_string(c, r, &pos, "the type") : NULL;
    const char *mode = type ? rib_arg_string(c, r, &pos, "the mode") : NULL;
    if (!mode)
        return;
    size_t i = 0, nmodes = sizeof modes / sizeof *modes;
    while (i < nmodes && strcmp(modes[i], mode) != 0)
        i++;
    if (i == nmodes)
        rib_warning(c, r->args[2].loc, "Display mode \"%s\" is not "
                    "supported", mode);
    RibDisplay d;
    d.type = display_type(c, &r->args[1], type);
    RibParam *p;
    rib_params(c, r, pos, NULL, &p, &d.nparams);
    d.params = rib_store_params(c->store, p, d.nparams);
    d.mode = rib_intern(c->store, mode);
    /* "+name" adds a display; a plain name replaces them all. */
    bool add = name[0] == '+';
    d.name = rib_intern(c->store, name + add);
    RibOptions *o = &c->options;
    size_t keep = add ? o->ndisplays : 0;
    RibDisplay *list = rib_xmalloc((keep + 1) * sizeof *list);
    if (keep)
        memcpy(list, o->displays, keep * sizeof *list);
    list[keep] = d;
    o->displays = rib_store_keep(c->store, list);
    o->ndisplays = keep + 1;
}

void rib_req_Hider(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    const char *name = rib_arg_string(c, r, &pos, "the hider");
    if (name)
        c->options.hider = rib_intern(c->store, name);
}

void rib_req_Option(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    const char *cat = rib_arg_string(c, r, &pos, "the category");
    if (!cat)
        return;
    RibParam *p;
    size_t n;
    rib_params(c, r, pos, cat, &p, &n);
    RibOptions *o = &c->options;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(p[i].name, "trace:maxdepth") == 0)
            o->trace_maxdepth = (int)(p[i].f[0] < 0 ? 0
                                      : p[i].f[0] > 1e6f ? 1e6f : p[i].f[0]);
        else if (strcmp(p[i].name, "searchpath:shader") == 0)
            o->shader_path = rib_searchpath(c, p[i].s[0], o->shader_path,
                                            c->opt.default_shader_path);
        else if (strcmp(p[i].name, "searchpath:texture") == 0)
            o->texture_path = rib_searchpath(c, p[i].s[0], o->texture_path,
                                             c->opt.default_texture_path);
        else if (strcmp(p[i].name, "searchpath:archive") == 0)
            o->archive_path = rib_searchpath(c, p[i].s[0], o->archive_path,
                                             c->opt.default_archive_path);
    }
    rib_params_merge(c, &o->options, &o->noptions, p, n);
}

/* An option, but PRMan's own examples (and so their scenes) set it
   inside the world too: there it is the frame's, with a warning. */
void rib_req_Imager(RibCtx *c, const RibRequest *r)
{
    const RibShader *s = rib_shader_make(c, r);
    if (s && c->frame) {
        rib_warning(c, r->loc, "Imager is an option and belongs before WorldBegin; "
                    "applied to this frame");
        c->frame->options.imager = s;
    } else if (s) {
        c->options.imager = s;
    }
}

void rib_req_Declare(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    const char *name = rib_arg_string(c, r, &pos, "the name");
    const char *text = name ? rib_arg_string(c, r, &pos, "the declaration")
                            : NULL;
    if (!text || !rib_args_end(c, r, pos))
        return;
    RibDecl d;
    const char *extra;
    size_t len;
    if (!name[0] || strpbrk(name, " \t\n")) {
        rib_error(c, r->args[0].loc, "Declare: \"%s\" is not a name", name);
        return;
    }
    if (!rib_decl_parse(text, &d, &extra, &len) || extra) {
        rib_error(c, r->args[1].loc, "Declare: malformed declaration \"%s\"",
                  text);
        return;
    }
    RibDecl *keep = rib_xmalloc(sizeof *keep);
    *keep = d;
    free(rib_map_put(&c->decls, name, keep));
}

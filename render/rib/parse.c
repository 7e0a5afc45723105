/*
** parse.c: groups tokens into requests (a name and its arguments, up to
** the next name) and dispatches each to its handler, checking where the
** request may appear. Unknown and unsupported requests are warnings
** (errors when strict), skipped with their arguments; requests whose
** arguments do not lex are errors, skipped.
** Also the public load functions.
*/
#include <stdlib.h>
#include <string.h>

#include "render/rib/archive.h"
#include "render/rib/lex.h"
#include "render/rib/parse.h"
#include "render/rib/request.h"

enum {
    IN_WORLD = 1,     /* geometry and lights: inside WorldBegin or an object */
    OPTION = 2,       /* options: before WorldBegin */
    IGNORED = 4,      /* accepted and ignored, as a renderer may */
    UNSUPPORTED = 8,  /* understood but not supported: warned about */
    BLOCK = 16        /* opens or closes a block that needs no arguments:
                         run even when its arguments were malformed, so
                         the nesting stays intact */
};

typedef struct Entry {
    const char *name;
    RibHandler fn;
    int flags;
} Entry;

#define R(name, flags) {#name, rib_req_##name, flags}
#define SKIP(name, flags) {#name, NULL, flags}

/* Sorted by name (strcmp) for bsearch. */
static const Entry table[] = {
    SKIP(ArchiveRecord, IGNORED),
    R(AreaLightSource, 0),
    R(Atmosphere, 0),
    R(Attribute, 0),
    R(AttributeBegin, BLOCK),
    R(AttributeEnd, BLOCK),
    R(Basis, 0),
    SKIP(Blobby, UNSUPPORTED),
    SKIP(Bound, IGNORED),
    SKIP(Camera, IGNORED),
    R(Clipping, OPTION),
    R(Color, 0),
    R(ColorSamples, OPTION),
    R(ConcatTransform, 0),
    R(Cone, IN_WORLD),
    R(CoordSysTransform, 0),
    R(CoordinateSystem, 0),
    R(CropWindow, OPTION),
    R(Curves, IN_WORLD),
    R(Cylinder, IN_WORLD),
    R(Declare, 0),
    R(DepthOfField, OPTION),
    SKIP(Detail, IGNORED),
    SKIP(DetailRange, IGNORED),
    R(Disk, IN_WORLD),
    R(Displacement, 0),
    R(Display, OPTION),
    SKIP(ErrorHandler, IGNORED),
    R(Exposure, OPTION),
    R(Exterior, 0),
    R(Format, OPTION),
    R(FrameAspectRatio, OPTION),
    R(FrameBegin, BLOCK),
    R(FrameEnd, BLOCK),
    R(GeneralPolygon, IN_WORLD),
    SKIP(GeometricApproximation, IGNORED),
    R(Hider, OPTION),
    R(Hyperboloid, IN_WORLD),
    R(Identity, 0),
    R(Illuminate, 0),
    R(Imager, 0),
    R(Interior, 0),
    R(LightSource, 0),
    SKIP(MakeBump, UNSUPPORTED),
    R(MakeCubeFaceEnvironment, 0),
    R(MakeLatLongEnvironment, 0),
    R(MakeShadow, 0),
    R(MakeTexture, 0),
    R(Matte, 0),
    R(MotionBegin, 0),
    R(MotionEnd, BLOCK),
    SKIP(NuCurves, UNSUPPORTED),
    R(NuPatch, IN_WORLD),
    R(ObjectBegin, 0),
    R(ObjectEnd, BLOCK),
    R(ObjectInstance, IN_WORLD),
    R(Opacity, 0),
    R(Option, OPTION),
    R(Orientation, 0),
    R(Paraboloid, IN_WORLD),
    R(Patch, IN_WORLD),
    R(PatchMesh, IN_WORLD),
    SKIP(Perspective, UNSUPPORTED),
    R(PixelFilter, OPTION),
    R(PixelSamples, OPTION),
    SKIP(PixelVariance, IGNORED),
    R(Points, IN_WORLD),
    R(PointsGeneralPolygons, IN_WORLD),
    R(PointsPolygons, IN_WORLD),
    R(Polygon, IN_WORLD),
    R(Procedural, IN_WORLD),
    R(Projection, OPTION),
    R(Quantize, OPTION),
    R(ReadArchive, 0),
    SKIP(RelativeDetail, IGNORED),
    R(ReverseOrientation, 0),
    R(Rotate, 0),
    R(Scale, 0),
    R(ScreenWindow, OPTION),
    SKIP(ShadingInterpolation, IGNORED),
    SKIP(ShadingRate, IGNORED),
    SKIP(Shutter, IGNORED),
    R(Sides, 0),
    R(Skew, 0),
    R(SolidBegin, 0),
    R(SolidEnd, BLOCK),
    R(Sphere, IN_WORLD),
    R(SubdivisionMesh, IN_WORLD),
    R(Surface, 0),
    R(TextureCoordinates, 0),
    R(Torus, IN_WORLD),
    R(Transform, 0),
    R(TransformBegin, BLOCK),
    R(TransformEnd, BLOCK),
    R(Translate, 0),
    R(TrimCurve, 0),
    R(WorldBegin, BLOCK),
    R(WorldEnd, BLOCK),
    SKIP(version, IGNORED),
};

static int cmp_entry(const void *key, const void *e)
{
    return strcmp(key, ((const Entry *)e)->name);
}

static const Entry *find_entry(const char *name)
{
    return bsearch(name, table, sizeof table / sizeof *table, sizeof *table,
                   cmp_entry);
}

static bool in_motion(const RibCtx *c)
{
    return c->nblocks && c->blocks[c->nblocks - 1].kind == RIB_BLOCK_MOTION;
}

static void dispatch(RibCtx *c, const RibRequest *r)
{
    const Entry *e = find_entry(r->name);
    if (!e) {
        rib_unsupported(c, r->loc, "unknown request \"%s\" skipped", r->name);
        return;
    }
    /* Inside MotionBegin/End only the first time sample is used. */
    if (in_motion(c) && e->fn != rib_req_MotionEnd &&
        ++c->motion_requests > 1)
        return;
    if (e->flags & UNSUPPORTED) {
        rib_unsupported(c, r->loc, "%s is not supported; ignored", r->name);
        return;
    }
    if (!e->fn)
        return;
    if ((e->flags & IN_WORLD) && !c->frame && !c->object) {
        rib_error(c, r->loc, "%s outside WorldBegin/WorldEnd", r->name);
        return;
    }
    if ((e->flags & OPTION) && c->frame) {
        rib_error(c, r->loc, "%s is an option and must come before "
                  "WorldBegin", r->name);
        return;
    }
    e->fn(c, r);
}

/* ---- reading requests ------------------------------------------------------ */

static void args_clear(RibRequest *r)
{
    for (size_t i = 0; i < r->nargs; i++) {
        free(r->args[i].nums);
        if (r->args[i].strs)
            for (size_t k = 0; k < r->args[i].n; k++)
                free(r->args[i].strs[k]);
        free(r->args[i].strs);
    }
    r->nargs = 0;
}

static void push_number(RibArg *a, size_t *cap, double v)
{
    *RIB_PUSH(a->nums, a->n, *cap) = v;
}

static void push_string(RibArg *a, size_t *cap, const char *s)
{
    *RIB_PUSH(a->strs, a->n, *cap) = rib_xstrdup(s);
}

/* Reads an array after its '['. Returns false (after reporting) when it is
   malformed; tok is then the token to go on from. On success tok is the
   token after ']'. */
static bool read_array(RibCtx *c, RibLexer *lx, const RibRequest *r,
                       RibToken *tok, RibArg *a)
{
    size_t cap = 0;
    bool ok = true;
    a->loc = tok->loc;
    a->kind = RIB_ARG_NUMBERS;
    for (;;) {
        rib_lex_next(lx, tok);
        switch (tok->kind) {
        case RIB_TOK_NUMBER:
        case RIB_TOK_STRING: {
            bool is_str = tok->kind == RIB_TOK_STRING;
            if (a->n == 0)
                a->kind = is_str ? RIB_ARG_STRINGS : RIB_ARG_NUMBERS;
            if (is_str != (a->kind == RIB_ARG_STRINGS)) {
                if (ok)
                    rib_error(c, tok->loc, "%s: array mixes numbers and "
                              "strings", r->name);
                ok = false;
            } else if (is_str) {
                push_string(a, &cap, tok->text);
            } else {
                push_number(a, &cap, tok->num);
            }
            break;
        }
        case RIB_TOK_RBRACKET:
            rib_lex_next(lx, tok);
            return ok;
        case RIB_TOK_LBRACKET:
            if (ok)
                rib_error(c, tok->loc, "%s: nested array", r->name);
            ok = false;
            break;
        case RIB_TOK_NAME:
            rib_error(c, tok->loc,
                      "%s: request \"%s\" inside the array opened at %d:%d "
                      "(missing ']')", r->name, tok->text, a->loc.line,
                      a->loc.col);
            return false;
        case RIB_TOK_EOF:
            if (!c->fatal)
                rib_error(c, a->loc, "%s: unterminated array at end of file",
                          r->name);
            return false;
        }
    }
}

/* Reads the arguments after the request name up to the next name or EOF,
   left in tok. False when an argument was malformed or the lexer reported
   an error among them (a bad number, an unterminated string): the request
   is then skipped rather than run on what is left of its arguments. */
static bool read_args(RibCtx *c, RibLexer *lx, RibRequest *r, RibToken *tok)
{
    bool ok = true;
    unsigned lex_errors = lx->errors;
    rib_lex_next(lx, tok);
    for (;;) {
        if (tok->kind == RIB_TOK_NAME || tok->kind == RIB_TOK_EOF)
            return ok && lx->errors == lex_errors && !c->fatal;
        RibArg *a = RIB_PUSH(r->args, r->nargs, r->cap);
        memset(a, 0, sizeof *a);
        a->loc = tok->loc;
        a->n = 1;
        switch (tok->kind) {
        case RIB_TOK_NUMBER:
            a->kind = RIB_ARG_NUMBER;
            a->nums = rib_xmalloc(sizeof *a->nums);
            a->nums[0] = tok->num;
            rib_lex_next(lx, tok);
            break;
        case RIB_TOK_STRING:
            a->kind = RIB_ARG_STRING;
            a->strs = rib_xmalloc(sizeof *a->strs);
            a->strs[0] = rib_xstrdup(tok->text);
            rib_lex_next(lx, tok);
            break;
        case RIB_TOK_LBRACKET:
            a->n = 0;
            if (!read_array(c, lx, r, tok, a))
                ok = false;
            break;
        default:  /* a stray ']' */
            rib_error(c, tok->loc, "%s: unexpected ']'", r->name);
            a->n = 0;
            ok = false;
            rib_lex_next(lx, tok);
        }
    }
}

void rib_parse_stream(RibCtx *c, RibLexer *lx)
{
    RibRequest r;
    RibToken tok;
    memset(&r, 0, sizeof r);
    rib_lex_next(lx, &tok);
    while (tok.kind != RIB_TOK_EOF && !c->fatal) {
        if (tok.kind != RIB_TOK_NAME) {
            rib_error(c, tok.loc, "expected a request name");
            while (tok.kind != RIB_TOK_NAME && tok.kind != RIB_TOK_EOF)
                rib_lex_next(lx, &tok);
            continue;
        }
        r.name = rib_intern(c->store, tok.text);
        r.loc = tok.loc;
        bool ok = read_args(c, lx, &r, &tok);
        const Entry *e = find_entry(r.name);
        if (!ok && !c->fatal && e && (e->flags & BLOCK)) {
            args_clear(&r);  /* reported; the block still opens or closes */
            ok = true;
        }
        if (ok)
            dispatch(c, &r);
        args_clear(&r);
    }
    free(r.args);
}

/* ---- loading ------------------------------------------------------------------ */

void rib_load_options_init(RibLoadOptions *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->max_angle_deg = 2.5;
    opt->max_triangles = 50u * 1000u * 1000u;
    opt->max_archive_depth = 32;
    opt->default_shader_path = ".";
    opt->default_texture_path = ".";
    opt->default_archive_path = ".";
}

RibScene *rib_load_ex(const char *path, const RibLoadOptions *opt,
                      RibDiag *diag)
{
    RibCtx c;
    rib_ctx_init(&c, opt, diag);
    c.file = rib_intern(c.store, path);
    if (!rib_parse_file(&c, (RibLoc){c.file, 0, 0}, "rib_load"))
        c.fatal = true;
    return rib_ctx_finish(&c);
}

RibScene *rib_load(const char *path, RibDiag *diag)
{
    return rib_load_ex(path, NULL, diag);
}

RibScene *rib_load_memory(const char *name, const void *data, size_t size,
                          const RibLoadOptions *opt, RibDiag *diag)
{
    RibCtx c;
    rib_ctx_init(&c, opt, diag);
    c.file = rib_intern(c.store, name);
    RibLexer lx;
    rib_lex_open_memory(&lx, &c, c.file, data, size);
    rib_parse_stream(&c, &lx);
    rib_lex_close(&lx);
    return rib_ctx_finish(&c);
}

/*
** ribinfo.c: loads a RIB file and prints what the renderer would get:
** per frame the camera and image options, lights, shaders, meshes,
** triangles and instances; diagnostics go to stderr. Exits 0 when the file
** loaded cleanly, 1 after errors, 2 when loading failed.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/rib/scene.h"
#include "runtime/numparse.h"
#include "runtime/outfile.h"

static const char usage[] =
    "usage: ribinfo FILE.rib [--max-triangles N]\n"
    "\n"
    "Loads a RIB file as rtrender would and prints, per frame, the camera and\n"
    "image options, displays, lights, meshes, triangles, instances and surface\n"
    "shaders. Diagnostics go to stderr; the exit status is 0 for a clean load,\n"
    "1 after errors, 2 when the file could not be loaded.\n"
    "\n"
    "options:\n"
    "  --max-triangles N  stop with an error past N triangles (1 to 2^40;\n"
    "                     default 50000000)\n"
    "  -h, --help         print this help and exit\n";

static const char *const projections[] = {"orthographic", "perspective"};
static const char *const filters[] = {"box", "triangle", "gaussian",
                                      "catmull-rom", "sinc"};
static const char *const display_types[] = {"file", "tiff", "png", "exr",
                                            "framebuffer"};

/* Distinct surface shader names, counted over meshes and instances. */
static size_t count_surfaces(const RibAttributes **seen, size_t *nseen,
                             const char **names, size_t nnames,
                             const RibAttributes *a)
{
    for (size_t i = 0; i < *nseen; i++)
        if (seen[i] == a)
            return nnames;
    seen[(*nseen)++] = a;
    if (!a->surface)
        return nnames;
    for (size_t i = 0; i < nnames; i++)
        if (strcmp(names[i], a->surface->name) == 0)
            return nnames;
    names[nnames] = a->surface->name;
    return nnames + 1;
}

static void print_frame(const RibScene *s, const RibFrame *f, size_t index)
{
    const RibOptions *o = &f->options;
    float win[4];
    rib_screen_window(o, win);
    printf("frame %zu", index + 1);
    if (f->number >= 0)
        printf(" (FrameBegin %d)", f->number);
    printf(" at %s:%d\n", f->loc.file, f->loc.line);
    printf("  format %dx%d, pixel aspect %g, frame aspect %g\n", o->xres,
           o->yres, o->pixel_aspect, rib_frame_aspect(o));
    printf("  projection %s", projections[o->projection]);
    if (o->projection == RIB_PROJ_PERSPECTIVE)
        printf(" fov %g", o->fov);
    printf(", screen window [%g %g %g %g], clipping %g %g\n", win[0], win[1],
           win[2], win[3], o->near_clip, o->far_clip);
    printf("  pixel samples %gx%g, filter %s %gx%g\n", o->pixel_samples[0],
           o->pixel_samples[1], filters[o->filter], o->filter_width[0],
           o->filter_width[1]);
    for (size_t i = 0; i < o->ndisplays; i++)
        printf("  display \"%s\" %s %s\n", o->displays[i].name,
               display_types[o->displays[i].type], o->displays[i].mode);
    const double origin[3] = {0, 0, 0};
    double eye[3];
    RibMatrix cam_to_world = f->coordsys[0].to_world;
    rib_transform_point(&cam_to_world, origin, eye);
    printf("  camera at (%g %g %g)\n", eye[0], eye[1], eye[2]);

    size_t ntris = 0, nverts = 0, nseen = 0, nnames = 0;
    size_t nattrs = f->nmeshes + f->ninstances;
    const RibAttributes **seen = malloc((nattrs + 1) * sizeof *seen);
    const char **names = malloc((nattrs + 1) * sizeof *names);
    for (size_t i = 0; i < f->nmeshes; i++) {
        ntris += f->meshes[i].ntris;
        nverts += f->meshes[i].nverts;
        nnames = count_surfaces(seen, &nseen, names, nnames,
                                f->meshes[i].attrs);
    }
    size_t inst_tris = 0;
    for (size_t i = 0; i < f->ninstances; i++) {
        const RibObject *ob = f->instances[i].object;
        for (size_t k = 0; k < ob->nmeshes; k++)
            inst_tris += ob->meshes[k].ntris;
        nnames = count_surfaces(seen, &nseen, names, nnames,
                                f->instances[i].attrs);
    }
    printf("  lights %zu:", f->nlights);
    for (size_t i = 0; i < f->nlights; i++)
        printf(" %s%s", f->lights[i]->shader.name,
               f->lights[i]->area ? "(area)" : "");
    printf("\n  meshes %zu, triangles %zu, vertices %zu\n", f->nmeshes, ntris,
           nverts);
    printf("  instances %zu (%zu triangles), objects in file %zu\n",
           f->ninstances, inst_tris, s->nobjects);
    printf("  surface shaders %zu:", nnames);
    for (size_t i = 0; i < nnames; i++)
        printf(" %s", names[i]);
    printf("\n");
    free(seen);
    free(names);
}

int main(int argc, char **argv)
{
    RibLoadOptions opt;
    rib_load_options_init(&opt);
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        long long n;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(argv[i], "--max-triangles") == 0 && i + 1 < argc) {
            if (!num_parse_int(argv[++i], 1, 1LL << 40, &n)) {
                fprintf(stderr, "ribinfo: error: --max-triangles needs a count from 1 to "
                        "2^40, not '%s'\n", argv[i]);
                return 2;
            }
            opt.max_triangles = (unsigned long long)n;
        } else if (argv[i][0] == '-' || path)
            path = NULL, i = argc;
        else
            path = argv[i];
    }
    if (!path) {
        fputs(usage, stderr);
        return 2;
    }
    RibDiag diag;
    rib_diag_init(&diag, stderr);
    RibScene *s = rib_load_ex(path, &opt, &diag);
    int status = 2;
    if (s) {
        printf("%s: %zu frame(s)\n", path, s->nframes);
        for (size_t i = 0; i < s->nframes; i++)
            print_frame(s, &s->frames[i], i);
        status = diag.nerrors ? 1 : 0;
    }
    printf("errors %d, warnings %d%s\n", diag.nerrors, diag.nwarnings,
           s ? "" : " (loading failed)");
    rib_scene_free(s);
    rib_diag_free(&diag);
    return outfile_close_stdout("ribinfo", status);
}

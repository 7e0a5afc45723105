/*
** rtrender.c: the command line: read a RIB file, render each frame,
** write its displays.
**
**   rtrender [-o FILE] [--threads N] [--spp N] [--res WxH]
**            [--crop XMIN,XMAX,YMIN,YMAX] [--integrator classic|path]
**            [--max-depth N] [--debug-pixel X,Y] [-q] [--stats]
**            [--backend vm|native] [--verbose] [--code-cache DIR]
**            [--max-shader-steps N] [--time-limit SECONDS] [--strict]
**            [--missing-maps error|black]
**            [--shaderpath PATH] [--texturepath PATH] [-I DIR] scene.rib
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/shaderpath.h"
#include "runtime/numparse.h"
#include "runtime/outfile.h"
#include "tools/toolopts.h"

static const char usage[] =
    "usage: rtrender [-o FILE] [--threads N] [--spp N] [--res WxH]\n"
    "                [--crop XMIN,XMAX,YMIN,YMAX] [--integrator classic|path]\n"
    "                [--max-depth N] [--debug-pixel X,Y] [-q] [--stats]\n"
    "                [--backend vm|native] [--verbose] [--code-cache DIR]\n"
    "                [--max-shader-steps N] [--time-limit SECONDS] [--strict]\n"
    "                [--missing-maps error|black]\n"
    "                [--shaderpath PATH] [--texturepath PATH] [-I DIR] scene.rib\n"
    "\n"
    "Renders every frame of a RIB file (plain or gzip'd) and writes its displays.\n"
    "\n"
    "options:\n"
    "  -o FILE         write the primary display to FILE (.png, .tif, .exr), whole:\n"
    "                  through a temporary file beside it; a device or FIFO is\n"
    "                  refused, a symbolic link is followed; a pass that makes a\n"
    "                  depth map or a picture a Make request reads keeps its names\n"
    "  --threads N     render on N threads, 1 to 1024 (default: one per processor)\n"
    "  --spp N         N pixel samples, 1 to 1048576, overriding PixelSamples\n"
    "  --res WxH       image size, 1 to 65536 a side, overriding the pictures' Format\n"
    "  --crop XMIN,XMAX,YMIN,YMAX  render only this window, overriding the\n"
    "                  pictures' CropWindow\n"
    "  --integrator classic|path  the classic integrator (the default unless the\n"
    "                  RIB's Option \"integrator\" says) or the path tracer\n"
    "  --max-depth N   the path tracer's path length (1: direct light; default 8)\n"
    "  --debug-pixel X,Y  debug the surface shader of pixel X,Y under rsldb\n"
    "  -q              no progress bar\n"
    "  --stats         print rays, shading points and where the time went\n"
    "  --backend vm|native  shade in native code where the CPU and the shader\n"
    "                  allow it (the default), or on the VM (default: vm when\n"
    "                  $RTRENDER_BACKEND is vm); --debug-pixel shades on the VM\n"
    "  --verbose       say which shaders run in native code, which on the VM, and why\n"
    "  --code-cache DIR  keep shaders' native code in folder DIR (made if missing)\n"
    "                  and read it from there in later runs rather than compile it\n"
    "                  again (default: $RTRENDER_CODE_CACHE, else no cache)\n"
    TOOL_STEPS_HELP("                  ")
    "  --time-limit SECONDS  stop with an error, writing nothing, once the render\n"
    "                  has run SECONDS (default: no limit)\n"
    "  --strict        make unknown or unsupported RIB (requests, Procedural kinds,\n"
    "                  motion blur, ...) an error, not a warning that skips it,\n"
    "                  and so a shader not on the searchpath (else left out)\n"
    "  --missing-maps error|black  a texture, environment or shadow map that cannot\n"
    "                  be read stops the render with an error (the default), or\n"
    "                  warns once per call and looks up as 0 (black, unshadowed)\n"
    "  --shaderpath PATH  look for shaders in the folders of PATH (a ':' list) after\n"
    "                  the scene's folder, before $RMAN_SHADERPATH and the library\n"
    "  --texturepath PATH  look for textures in PATH's folders after the scene's\n"
    "                  folder, before $RMAN_TEXTUREPATH\n"
    "  -I DIR          look for ReadArchive files, and a compiled .sl's #include\n"
    "                  files, in DIR after the scene's folder (repeatable)\n"
    "  -h, --help      print this help and exit\n"
    "\n"
    "SIGINT and SIGTERM remove the temporary file and exit 130 and 143.\n"
    "\n"
    "Shaders are looked up in the scene's folder, --shaderpath, $RMAN_SHADERPATH,\n"
    "then in the standard library (RTRENDER_SHADERPATH when set; see rtrender(1)),\n"
    "here:\n"
    "  %s\n";

static int fail(const char *msg, const char *arg)
{
    fprintf(stderr, "rtrender: error: ");
    fprintf(stderr, msg, arg);
    fputc('\n', stderr);
    return 2;
}

/* A count option's value, 1 to max. */
static bool int_arg(const char *s, long long max, int *out)
{
    long long v;
    if (!num_parse_int(s, 1, max, &v))
        return false;
    *out = (int)v;
    return true;
}

typedef struct Args {
    RenderSettings rs;
    const char *input;
    bool stats;
    char *includes;       /* the -I folders, ':'-separated (malloc'd) */
} Args;

/* Adds folder dir to the ':'-list *list. */
static void add_dir(char **list, const char *dir)
{
    size_t n = *list ? strlen(*list) : 0, k = strlen(dir);
    char *l = realloc(*list, n + k + 2);
    if (n)
        l[n++] = ':';
    memcpy(l + n, dir, k + 1);
    *list = l;
}

static int parse_args(int argc, char **argv, Args *a)
{
    render_settings_init(&a->rs);
    const char *backend = getenv("RTRENDER_BACKEND");
    if (backend && strcmp(backend, "vm") && strcmp(backend, "native"))
        return fail("RTRENDER_BACKEND is 'vm' or 'native', not '%s'", backend);
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = !strcmp(o, "-o") || !strcmp(o, "--threads") || !strcmp(o, "--spp")
                     || !strcmp(o, "--res") || !strcmp(o, "--crop") || !strcmp(o, "--debug-pixel")
                     || !strcmp(o, "--max-shader-steps") || !strcmp(o, "--time-limit")
                     || !strcmp(o, "--missing-maps")
                     || !strcmp(o, "--integrator") || !strcmp(o, "--max-depth")
                     || !strcmp(o, "--backend") || !strcmp(o, "--code-cache")
                     || !strcmp(o, "--shaderpath") || !strcmp(o, "--texturepath") || !strcmp(o, "-I");
        if (takes && !v)
            return fail("%s needs a value", o);
        if (!strcmp(o, "-o")) {
            a->rs.output = v;
        } else if (!strcmp(o, "--threads")) {
            if (!int_arg(v, 1024, &a->rs.threads))
                return fail("--threads needs a count from 1 to 1024, not '%s'", v);
        } else if (!strcmp(o, "--spp")) {
            if (!int_arg(v, 1 << 20, &a->rs.spp))
                return fail("--spp needs a count from 1 to 1048576, not '%s'", v);
        } else if (!strcmp(o, "--res")) {
            long long wh[2];
            if (!num_parse_ints(v, 'x', 2, 1, 65536, wh))
                return fail("--res needs WIDTHxHEIGHT, each from 1 to 65536, not '%s'", v);
            a->rs.xres = (int)wh[0], a->rs.yres = (int)wh[1];
        } else if (!strcmp(o, "--crop")) {
            float *c = a->rs.crop;
            if (!num_parse_floats(v, ',', 4, c) || !(c[0] >= 0)
                || !(c[0] < c[1]) || !(c[1] <= 1) || !(c[2] >= 0) || !(c[2] < c[3])
                || !(c[3] <= 1))
                return fail("--crop needs XMIN,XMAX,YMIN,YMAX within [0, 1], not '%s'", v);
            a->rs.crop_set = true;
        } else if (!strcmp(o, "--integrator")) {
            if (strcmp(v, "classic") && strcmp(v, "path"))
                return fail("--integrator needs 'classic' or 'path', not '%s'", v);
            a->rs.integrator = !strcmp(v, "path") ? RENDER_INTEGRATOR_PATH
                                                  : RENDER_INTEGRATOR_CLASSIC;
        } else if (!strcmp(o, "--backend")) {
            if (strcmp(v, "vm") && strcmp(v, "native"))
                return fail("--backend needs 'vm' or 'native', not '%s'", v);
            a->rs.vm = !strcmp(v, "vm");
        } else if (!strcmp(o, "--verbose")) {
            a->rs.verbose = true;
        } else if (!strcmp(o, "--code-cache")) {
            a->rs.code_cache = v;
        } else if (!strcmp(o, "--max-depth")) {
            if (!int_arg(v, RENDER_MAX_DEPTH, &a->rs.max_depth))
                return fail("--max-depth needs a path length from 1 to 1024, not '%s'", v);
        } else if (!strcmp(o, "--debug-pixel")) {
            long long xy[2];
            if (!num_parse_ints(v, ',', 2, 0, 65535, xy))
                return fail("--debug-pixel needs X,Y (a pixel of the image), not '%s'", v);
            a->rs.debug_x = (int)xy[0], a->rs.debug_y = (int)xy[1];
        } else if (!strcmp(o, "--max-shader-steps")) {
            if (!tool_steps_arg("rtrender", v, &a->rs.max_shader_steps))
                return 2;
        } else if (!strcmp(o, "--time-limit")) {
            float secs;
            if (!num_parse_floats(v, ',', 1, &secs) || !(secs > 0) || secs > 1e9f)
                return fail("--time-limit needs a number of seconds above 0, not '%s'", v);
            a->rs.time_limit = secs;
        } else if (!strcmp(o, "--strict")) {
            a->rs.strict = true;
        } else if (!strcmp(o, "--missing-maps")) {
            if (strcmp(v, "error") && strcmp(v, "black"))
                return fail("--missing-maps needs 'error' or 'black', not '%s'", v);
            a->rs.missing_maps_black = !strcmp(v, "black");
        } else if (!strcmp(o, "--shaderpath")) {
            a->rs.shader_path = v;
        } else if (!strcmp(o, "--texturepath")) {
            a->rs.texture_path = v;
        } else if (!strncmp(o, "-I", 2)) {
            add_dir(&a->includes, o[2] ? o + 2 : v);
            a->rs.include_path = a->includes;
        } else if (!strcmp(o, "-q")) {
            a->rs.quiet = true;
        } else if (!strcmp(o, "--stats")) {
            a->stats = true;
        } else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            printf(usage, render_std_shader_path());
            exit(0);
        } else if (o[0] == '-' && o[1]) {
            return fail("unknown option '%s' (see rtrender --help)", o);
        } else if (a->input) {
            return fail("one scene at a time: '%s' is a second input", o);
        } else {
            a->input = o;
        }
        i += takes;
    }
    if (!a->input)
        return fail("no scene given (see rtrender --help)%s", "");
    return 0;
}

static void print_stats(const RenderStats *s, int frame)
{
    fprintf(stderr,
            "frame %d: %.3f s on %d threads; %llu camera rays, %llu secondary rays, "
            "%llu shading points in %llu batches; time (summed over threads): trace %.3f s, "
            "shade %.3f s; %u shaders built, %u specialised\n",
            frame, s->seconds, s->threads, (unsigned long long)s->camera_rays,
            (unsigned long long)s->secondary_rays, (unsigned long long)s->shading_points,
            (unsigned long long)s->batches, s->trace_seconds, s->shade_seconds, s->shaders_built,
            s->shaders_specialised);
    if (s->native_compiled || s->native_loaded)
        fprintf(stderr, "  native code: %u JIT-compiled, %u read from the code cache\n",
                s->native_compiled, s->native_loaded);
    if (!s->bounce_rays[0])
        return;
    /* The path tracer's: its stages, and its queue bounce by bounce. */
    fprintf(stderr, "  stages (s, summed over threads):");
    for (int k = 0; k < RENDER_STAGES; k++)
        fprintf(stderr, " %s %.3f", render_stage_name((RenderStage)k), s->stage_seconds[k]);
    fprintf(stderr, "\n  queue: %llu rounds, %.1f%% occupied\n", (unsigned long long)s->rounds,
            100.0 * (double)s->round_rays / (double)s->round_room);
    fprintf(stderr, "  bounce      rays  shadow rays\n");
    for (int b = 0; b < RENDER_STAT_BOUNCES && s->bounce_rays[b]; b++)
        fprintf(stderr, "  %5d%s %9llu  %11llu\n", b, b == RENDER_STAT_BOUNCES - 1 ? "+" : " ",
                (unsigned long long)s->bounce_rays[b],
                (unsigned long long)s->bounce_shadow_rays[b]);
}

/* -o FILE for one of several picture frames: FILE with the frame's number (its
   FrameBegin number, else its index) before the extension, four digits:
   out.png -> out.0001.png. */
static void frame_path(char *out, size_t size, const char *file, int number, size_t index)
{
    const char *slash = strrchr(file, '/'), *dot = strrchr(file, '.');
    if (!dot || (slash && dot < slash))
        dot = file + strlen(file);
    snprintf(out, size, "%.*s.%04d%s", (int)(dot - file), file,
             number >= 0 ? number : (int)index, dot);
}

int main(int argc, char **argv)
{
    Args a = { 0 };
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc;
    outfile_catch_signals();
    RibDiag diag;
    rib_diag_init(&diag, stderr);
    RibScene *scene = render_load_ex(a.input, &a.rs, &diag);
    rc = !scene || diag.nerrors ? 1 : 0;
    if (scene && !rc && scene->nframes == 0 && scene->nmakes == 0) {
        fprintf(stderr, "%s: error: nothing to render (no WorldBegin/WorldEnd)\n", a.input);
        rc = 1;
    }
    /* One render for all the frames: their shaders are built once. */
    RenderSettings rs = a.rs;
    Render *r = scene && !rc ? render_new(scene, &rs) : NULL;
    size_t pictures = 0;
    for (size_t i = 0; r && i < scene->nframes; i++)
        pictures += render_frame_is_picture(scene, i);
    for (size_t i = 0; r && !rc && i < scene->nframes; i++) {
        char err[2048], path[4096];
        RenderStats st;
        /* A pass (a depth map, a picture a Make request reads) keeps its
           names and its Format and CropWindow: -o, --res and --crop are
           the picture's. */
        rs = a.rs;
        if (!render_frame_is_picture(scene, i)) {
            rs.output = NULL;
            rs.xres = rs.yres = 0;
            rs.crop_set = false;
        } else if (a.rs.output && pictures > 1) {
            frame_path(path, sizeof path, a.rs.output, scene->frames[i].number, i);
            rs.output = path;
        }
        if (render_frame(r, &scene->frames[i], &st, err, sizeof err) < 0) {
            fprintf(stderr, "%s\n", err);
            rc = 1;
        } else if (a.stats) {
            print_stats(&st, (int)i);
        }
    }
    if (r && !rc) {
        char err[2048];
        if (render_finish(r, err, sizeof err) < 0) {
            fprintf(stderr, "%s\n", err);
            rc = 1;
        }
    }
    render_free(r);
    rib_scene_free(scene);
    rib_diag_free(&diag);
    free(a.includes);
    return outfile_close_stdout("rtrender", rc);
}

/*
** render.h: rendering the frames of a RIB scene (rtrender's library).
**
** A Render lasts for the scene's frames and keeps their shaders, each
** built once. render_frame() traces one RibFrame: camera rays with the frame's pixel
** samples and filter, hits shaded in batches on the VM (grouped by the
** primitive they hit, so each batch runs one surface shader and sees
** its neighbours for derivatives), light shaders run over each batch
** before its surface shader, compositing through partly transparent
** surfaces, and the image written to the frame's displays.
*/
#ifndef RT_RENDER_H
#define RT_RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "render/rib/scene.h"

/* The integrators (RenderSettings.integrator). */
typedef enum RenderIntegrator {
    RENDER_INTEGRATOR_RIB,      /* the RIB's Option "integrator" "string name",
                                   else classic */
    RENDER_INTEGRATOR_CLASSIC,  /* RenderMan's: illuminance, trace() */
    RENDER_INTEGRATOR_PATH      /* the wavefront path tracer */
} RenderIntegrator;

/* The longest path --max-depth or Option "integrator" "maxdepth" may ask
   for, and the path tracer's default. */
enum { RENDER_MAX_DEPTH = 1024, RENDER_DEFAULT_DEPTH = 8 };

typedef struct RenderSettings {
    int threads;          /* 0: one per core */
    int spp;              /* samples per pixel (a square number of them is
                             stratified), 0: PixelSamples */
    int xres, yres;       /* 0: Format */
    bool crop_set;
    float crop[4];        /* xmin xmax ymin ymax, overriding CropWindow */
    const char *output;   /* -o FILE: a picture frame's primary display goes here */
    bool quiet;           /* no progress bar */
    RenderIntegrator integrator;
    int max_depth;        /* the path tracer's path length (Embree's: 1 =
                             camera rays and direct light), 0: the RIB's
                             Option "integrator" "int maxdepth", else
                             RENDER_DEFAULT_DEPTH */
    int debug_x, debug_y; /* --debug-pixel: the raster pixel whose surface
                             shader runs under rsldb (on stdin and stdout)
                             when its first sample is shaded; -1 if none */
    uint64_t max_shader_steps; /* each shading batch's instruction budget
                             (vm.h; VM_DEFAULT_MAX_STEPS, 0: none); read
                             once, by render_new */
    double time_limit;    /* seconds from render_new after which frames
                             stop with an error and write nothing; 0: none */
    /* Search paths from the command line, ':'-lists (NULL: none), and
       strictness, read by render_load_ex and render_new: shaders
       (--shaderpath) and textures (--texturepath) searched after the
       scene's folder, include folders (-I) for ReadArchive and for the
       #include of a .sl compiled during the render. */
    const char *shader_path, *texture_path, *include_path;
    bool strict;          /* unknown or unsupported RIB is an error */
    /* --missing-maps black: a texture, environment or shadow map that
       cannot be had warns once per call and looks up as 0 (as PRMan and
       Aqsis render), rather than stopping the render with an error;
       --strict keeps it an error. */
    bool missing_maps_black;
    /* Where shaders run, read once by render_new: in native code where
       the CPU and the shader allow it, else on the VM (shadesys.h); with
       vm, all on the VM. render_settings_init sets vm when the
       environment's RTRENDER_BACKEND is "vm". --debug-pixel runs all on
       the VM. */
    bool vm;
    bool verbose;         /* each shader's backend told on stderr */
    /* A folder where native code is kept between runs (NULL: none), read
       once by render_new: --code-cache, else $RTRENDER_CODE_CACHE
       (render_settings_init). */
    const char *code_cache;
} RenderSettings;

void render_settings_init(RenderSettings *rs);

/* Loads a RIB file for rendering: '@' in its searchpaths is the file's
   folder, then (for shaders) the standard library. NULL after a fatal
   error; errors and warnings go to diag. */
RibScene *render_load(const char *path, RibDiag *diag);
/* The same with rs's search paths and strictness (rs may be NULL). */
RibScene *render_load_ex(const char *path, const RenderSettings *rs, RibDiag *diag);

/* The path tracer's stages (path.c), in the order a bounce runs them. */
typedef enum RenderStage {
    STAGE_GENERATE, STAGE_INTERSECT, STAGE_SORT, STAGE_SHADE, STAGE_SHADOW, STAGE_COMPACT,
    RENDER_STAGES
} RenderStage;

/* Bounces the path tracer counts one by one; deeper ones count in the
   last. */
enum { RENDER_STAT_BOUNCES = 16 };

/* What a frame's render did and where its time went. */
typedef struct RenderStats {
    uint64_t camera_rays, secondary_rays, shading_points, batches;
    double seconds, trace_seconds, shade_seconds;  /* summed over threads */
    double shader_trace_seconds;  /* the part of shade_seconds spent in
                                     rtcore on rays shaders trace */
    int threads;
    unsigned shaders_built;  /* shaders' code read or compiled for this
                                frame (later frames reuse it) */
    unsigned shaders_specialised; /* compiles of their code for one
                                     instance's constants */
    unsigned native_compiled;     /* native code JIT-compiled, and read */
    unsigned native_loaded;       /* from the code cache, for this frame */
    /* The path tracer's (zeros from the classic integrator): seconds per
       stage summed over threads; per bounce (a path's rounds through the
       stages so far, passing through a surface included), the rays
       intersected and the shadow rays traced; the queue's rounds, the
       rays in them and its room in them (rays / room: its occupancy). */
    double stage_seconds[RENDER_STAGES];
    uint64_t bounce_rays[RENDER_STAT_BOUNCES], bounce_shadow_rays[RENDER_STAT_BOUNCES];
    uint64_t rounds, round_rays, round_room;
} RenderStats;

/* The stage's name for reports: "generate", "intersect", ... */
const char *render_stage_name(RenderStage s);

/* A render of a scene's frames: what lasts from one frame to the next
   (the shaders, built once). rs is read at every frame, so the caller
   may change it between frames (rtrender names each frame's output),
   but not debug_x: that picks how shaders compile, once. */
typedef struct Render Render;
Render *render_new(const RibScene *scene, const RenderSettings *rs);
void render_free(Render *r);

/* Renders frame f of r's scene and writes its displays. Returns 0, or -1
   with "file:line:col: error: ..." (or "rtrender: error: ...") in err.
   stats may be NULL. */
int render_frame(Render *r, const RibFrame *f, RenderStats *stats, char *err, int errlen);

/* Whether frame i of scene makes a picture, for -o: its primary display
   is neither a zfile or shadow depth map nor a file that a Make request
   after it reads (the faces of a cube map, say). Such a pass keeps the
   names the RIB gives it, since later requests read them. */
bool render_frame_is_picture(const RibScene *scene, size_t i);

/* The scene's texture-making requests (MakeTexture, MakeShadow, ...)
   after its last frame; those before a frame are done by render_frame
   and render_frame_image, first. 0, or -1 with err. */
int render_finish(Render *r, char *err, int errlen);

struct Image;
/* The frame's image without writing it: the crop window's pixels with
   channels R G B A Z (colors before Exposure and Quantize; Z the nearest
   depth, infinity where nothing was hit). NULL with err after an error. */
struct Image *render_frame_image(Render *r, const RibFrame *f, RenderStats *stats, char *err,
                                 int errlen);

#endif /* RT_RENDER_H */

/*
** shadesys.h: the one shading interface the integrators use. A ShadeSys
** turns RIB shader requests into instances and runs instances over
** batches of shading points; how they run (the VM's bytecode in
** shadesys_vm.c, or native code where it can, shadesys_native.c) stays
** behind it.
**
** Lifetime. A ShadeSys lives for a whole render (every frame of a RIB
** file). Before a frame's world is built, load() makes an instance of
** each shader request the frame uses; a shader's code is built (read or
** compiled) once per render, an instance once per request and camera.
** While the world is built and shaded, find() only looks instances up,
** so nothing compiles past the loading stage.
**
** Threads. load() and find() run on one thread. Each thread that shades
** opens its own ShadeThread for the frame (after loading): the state
** run() works in, one set per trace depth, so that a shader calling
** trace() can shade what the ray hits one depth further down.
**
** Batches. Up to VM_MAX_BATCH lanes. Globals go in and come out by RVar,
** lane by lane, rvar_width(g) floats a lane, in camera space.
**
**   ShadeSys *sys = shadesys_native_new(NATIVE_ISA_AUTO, false, 0);
**   const RShader *sh = sys->load(sys, req, VM_SURFACE, path, &w2c, err, n);
**   ShadeThread *t = sys->thread_new(sys, &host, maxdepth, NULL);
**   ShadeBatch b = { .n = 64, .seed = seeds, .in[RV_P] = P, .out[RV_Ci] = Ci };
**   sys->run(t, 0, sh, &b, err, n);
**   sys->thread_free(t);
**   sys->free(sys);
*/
#ifndef RT_RENDER_SHADESYS_H
#define RT_RENDER_SHADESYS_H

#include <stdbool.h>
#include <stdint.h>

#include "backends/llvm/native.h"
#include "render/rib/scene.h"
#include "runtime/host.h"
#include "vm/object.h"
#include "vm/vm.h"

/* The globals a renderer sets and reads. */
typedef enum RVar {
    RV_P, RV_N, RV_Ng, RV_I, RV_E, RV_dPdu, RV_dPdv, RV_Cs, RV_Os, RV_u, RV_v, RV_s, RV_t,
    RV_du, RV_dv, RV_ncomps, RV_Ci, RV_Oi, RV_L, RV_Cl, RV_Ol, RV_Ps, RV_alpha, RV_Ns,
    RV_COUNT
} RVar;

/* Floats a lane of global g takes: 3 for points, vectors, normals and
   colors, 1 for floats. */
static inline unsigned rvar_width(RVar g)
{
    return (g >= RV_u && g <= RV_ncomps) || g == RV_alpha ? 1 : 3;
}

/* A shader request made runnable, as integrators see it. */
typedef struct RShader {
    const RibShader *rib;
    VmShaderKind kind;
    RibMatrix to_camera;   /* "shader" space to camera */
    bool ambient;          /* a light shader that never sets L */
    /* A light shader whose L comes only from solar(): its light is at
       infinity, against L (BMRT's automatic shadows trace out of the
       scene rather than to a position). */
    bool solar;
    bool has[RV_COUNT];    /* the globals the shader has */
    bool asks_lights;      /* it calls lightsource() (message passing) */
    bool takes_derivs;     /* it reads du or dv or differentiates (Du, Dv,
                              Deriv, calculatenormal, area, filter widths) */
} RShader;

struct RLook;
struct ShadeIn;

/* One run's inputs and outputs. */
typedef struct ShadeBatch {
    int n;                       /* lanes */
    const float *in[RV_COUNT];   /* globals set before the run; NULL: left
                                    as the shader initialises them */
    float *out[RV_COUNT];        /* globals read after it; where the shader
                                    has no such global, in's values (the
                                    same array may be both), else zeros */
    const uint32_t *seed;        /* each lane's random stream */
    const VmDeriv *deriv;        /* neighbours for derivatives; NULL: none */
    /* The mesh's primitive variables that name a parameter of the shader
       set it at each lane's hit (RISpec section 5), moved by the look
       into camera space; mesh NULL: none. */
    const RibMesh *mesh;
    const struct RLook *look;
    const struct ShadeIn *hits;
} ShadeBatch;

typedef struct ShadeThread ShadeThread;
typedef struct ShadeSys ShadeSys;

struct ShadeSys {
    /* The instance of request s, of the given kind, in a frame whose
       world goes to camera space by world_to_camera: the code of NAME.o,
       else NAME.sl, from the first directory of searchpath (':'-separated)
       that has one. NULL with "file:line:col: error: ..." in err: the
       shader is missing, does not compile, is of another kind, or a
       parameter does not fit. */
    const RShader *(*load)(ShadeSys *sys, const RibShader *s, VmShaderKind kind,
                           const char *searchpath, const RibMatrix *world_to_camera, char *err,
                           int errlen);
    /* The instance load() made of s for world_to_camera, or NULL. */
    const RShader *(*find)(const ShadeSys *sys, const RibShader *s,
                           const RibMatrix *world_to_camera);
    /* A thread's state for running the instances loaded so far at depths
       0..maxdepth; builtins call back into host, which must outlive it.
       Once *stop is set (stop may be NULL), runs end with an error. */
    ShadeThread *(*thread_new)(ShadeSys *sys, const VmHost *host, int maxdepth,
                               const atomic_bool *stop);
    void (*thread_free)(ShadeThread *t);
    /* Runs sh over batch b at depth. 0, or -1 with a message (a missing
       texture, say). */
    int (*run)(ShadeThread *t, int depth, const RShader *sh, const ShadeBatch *b, char *err,
               int errlen);
    /* Runs sh over b under rsldb (on stdin and stdout) showing lane,
       for rtrender --debug-pixel; b's outputs are not read. */
    int (*debug)(ShadeThread *t, int depth, const RShader *sh, const ShadeBatch *b, int lane,
                 char *err, int errlen);
    /* Message passing (RISpec 3.2 section 15.8): parameter `name` of sh
       at lane, as its latest run at depth left it (from NULL, ran true),
       as a copy saved from a run holds it (from), or, when sh has not
       run for the batch (ran false), as the instance sets it: its RIB
       value, else its constant default. 1 with n floats of type letter
       `type` ('p', 'v' and 'n' take one another) in out or the string in
       *str, 0 if sh has no such parameter of that type. */
    int (*param)(ShadeThread *t, int depth, const RShader *sh, const float *from, bool ran,
                 const char *name, char type, int n, int lane, float *out, const char **str);
    /* The floats a copy of sh's parameters over its latest run at depth
       takes, and writing one (to: that many floats). */
    size_t (*param_size)(ShadeThread *t, int depth, const RShader *sh);
    void (*param_save)(ShadeThread *t, int depth, const RShader *sh, float *to);
    void (*free)(ShadeSys *sys);
    unsigned built;              /* shaders' code built so far */
    unsigned native_built;       /* native code JIT-compiled so far: once
                                    for shaders of the same content */
    unsigned native_loaded;      /* native code read from the code cache */
    unsigned specialised;        /* compiles with an instance's constants
                                    folded in (shadesys_vm.c) */
    /* Each run's step budget (vm.h; 0: none), VM_DEFAULT_MAX_STEPS
       unless the caller sets it before thread_new. */
    uint64_t max_steps;
    /* Folders (a ':'-list, NULL: none) where a .sl compiled by load()
       finds its #include files after its own folder (cpp -I); set by
       the caller before load(), and kept by it. */
    const char *include_path;
    /* The folder of the code cache on disk, where native code is kept
       between runs (NULL: none); set by the caller before load(), and
       kept by it. */
    const char *code_cache;
    /* The frame whose shaders load() is loading, set by the caller for
       its loading stage: its primitive variables say which parameters
       an instance may not fold into specialised code (NULL: not known,
       and nothing is folded). */
    const RibFrame *frame;
};

/* Shading on the VM: code read from NAME.o or compiled from NAME.sl at
   -O2 (with debug, at -O0 with rslc -g's debug information, so that
   rsldb can print every variable). */
ShadeSys *shadesys_vm_new(bool debug);

/* Shading in native code for isa (NATIVE_ISA_AUTO: the widest the CPU
   runs) where the CPU and the shader allow it, else on the VM, after a
   warning saying why, or silently for what native code lacks
   (gather, some derivatives: shadesys_native.h); with notes, each shader's
   backend is told on stderr. .sl files compile at -O2. threads is the
   render's (0: one per processor), which bounds the threads compiling. */
ShadeSys *shadesys_native_new(NativeIsa isa, bool notes, int threads);

#endif /* RT_RENDER_SHADESYS_H */

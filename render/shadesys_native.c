/*
** shadesys_native.c: shadesys_native.h. The cache in memory is a list: a
** render has tens of shaders, and each is looked up once, when it is
** built. The code cache on disk (backends/llvm/codecache.c) is opened
** with the first shader compiled.
**
** Compiles overlap. The shading system's load() runs the front end and
** lowers (what needs the shader's IR); LLVM's pipeline and the JIT, the
** bulk of the time, are deferred (native_finish) to worker threads, one
** fewer than the render's threads (with one, a compile is done where it
** is asked for), while load() goes on to the next shader: a frame's shaders compile at once, and the render's
** threads, which open a shader's sessions only when they first shade it,
** finish any that no worker has begun (native_session_open). A worker
** tells each shader's outcome as it finishes it, so notes and warnings
** come in the order compiles end.
*/
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/shadesys_native.h"

typedef struct Cached {
    uint64_t key;          /* hash_object of the object, with the ISA */
    NativeShader *ns;
} Cached;

/* A deferred compile, and what its note or warning names. */
typedef struct Job {
    NativeShader *ns;
    char *file, *name, *what;
} Job;

struct NativeLib {
    NativeIsa isa;
    bool notes;
    Cached *cache;
    int ncache;
    uint64_t key;          /* the latest object's, as cached() found it */
    NativeCache *disk;     /* the code cache on disk, or NULL */
    bool disk_tried;       /* opened, or warned that it cannot be */
    unsigned compiled, loaded; /* native code JIT-compiled, read from disk */
    /* The workers and their queue: jobs[next..njobs) wait. The lock
       guards the queue and closing. */
    pthread_mutex_t lock;
    pthread_cond_t more;
    Job *jobs;
    int njobs, capjobs, next;
    bool closing;
    pthread_t *workers;
    int nworkers;
    int threads; /* the render's (0: one per processor) */
};

/* FNV-1a, 64 bits. */
static uint64_t mix(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3u;
    return h;
}

static uint64_t mix_str(uint64_t h, const char *s)
{
    return s ? mix(h, s, strlen(s) + 1) : mix(h, "", 1);
}

static uint64_t mix_vars(uint64_t h, const VmVar *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        unsigned f[4] = { v[i].type, v[i].flags, v[i].arraylen, v[i].reg };
        h = mix(mix_str(h, v[i].name), f, sizeof f);
    }
    return h;
}

/* A content hash of what native code is made from and bound to: the
   object's code, its constants and strings, the builtins it calls, its
   variables' layout and its line numbers. Not the folder its lines name:
   the renderer reports faults and runaway loops from the VM (run_native
   in shadesys_vm.c), so a copy elsewhere may share the code. Field by
   field, since structs may hold padding. */
static uint64_t hash_object(const VmObject *o, NativeIsa isa)
{
    const VmProgram *p = &o->prog;
    uint64_t h = mix(0xcbf29ce484222325u, &isa, sizeof isa);
    h = mix(mix_str(h, o->name), &o->kind, sizeof o->kind);
    h = mix(h, p->code, p->ncode * sizeof *p->code);
    uint32_t sizes[3] = { p->nuniform, p->nvarying, p->nstrings };
    h = mix(h, sizes, sizeof sizes);
    h = mix(h, p->uniform_init, p->nuniform * sizeof *p->uniform_init);
    for (uint32_t i = 0; i < p->nvarying_init; i++)
        h = mix(mix(h, &p->varying_init[i].slot, sizeof(uint32_t)), &p->varying_init[i].value,
                sizeof(float));
    for (uint32_t i = 0; i < p->nstrings; i++)
        h = mix_str(h, p->strings[i]);
    for (uint32_t i = 0; i < p->nbuiltins; i++) {
        const VmCallee *c = &o->callees[i];
        h = mix(mix(h, &c->row, sizeof c->row), &c->result, 1);
        h = mix(mix(h, &c->nargs, 1), c->type, c->nargs);
        h = mix(h, c->arraylen, c->nargs * sizeof *c->arraylen);
    }
    h = mix_vars(mix_vars(h, o->params, o->nparams), o->globals, o->nglobals);
    for (uint32_t i = 0; i < o->nlines; i++)
        h = mix(h, &o->lines[i].pc, 2 * sizeof(uint32_t));
    return h;
}

NativeLib *native_lib_new(NativeIsa isa, bool notes, int threads)
{
    if (native_isa_best() == NATIVE_ISA_AUTO) {
        fprintf(stderr, "warning: the CPU lacks SSE4.2, which native code needs at least; "
                        "shaders run on the VM\n");
        return NULL;
    }
    NativeLib *lib = calloc(1, sizeof *lib);
    lib->isa = isa == NATIVE_ISA_AUTO ? native_isa_best() : isa;
    lib->notes = notes;
    lib->threads = threads;
    pthread_mutex_init(&lib->lock, NULL);
    pthread_cond_init(&lib->more, NULL);
    return lib;
}

/* The first line of text, without its newline. */
static const char *first_line(char *text)
{
    text[strcspn(text, "\n")] = '\0';
    return text;
}

/* Finishes ns's compile (or waits for the thread that does) and tells
   how it went. */
static void finish_compile(const NativeLib *lib, NativeShader *ns, const char *file,
                           const char *name, const char *what)
{
    if (!native_finish(ns)) {
        char *why = strdup(native_error(ns));
        fprintf(stderr, "%s: warning: shader \"%s\"%s runs on the VM: %s\n", file, name, what,
                why ? first_line(why) : "native compilation failed");
        free(why);
    } else if (lib->notes) {
        fprintf(stderr, "%s: note: shader \"%s\"%s runs in native code (%s, JIT %.1f ms)\n",
                file, name, what, native_isa_name(lib->isa), native_compile_ms(ns));
    }
}

static void job_free(Job *job)
{
    free(job->file);
    free(job->name);
    free(job->what);
}

static void *worker(void *data)
{
    NativeLib *lib = data;
    pthread_mutex_lock(&lib->lock);
    for (;;) {
        while (lib->next == lib->njobs && !lib->closing)
            pthread_cond_wait(&lib->more, &lib->lock);
        if (lib->next == lib->njobs)
            break;
        Job job = lib->jobs[lib->next++];
        pthread_mutex_unlock(&lib->lock);
        finish_compile(lib, job.ns, job.file, job.name, job.what);
        job_free(&job);
        pthread_mutex_lock(&lib->lock);
    }
    pthread_mutex_unlock(&lib->lock);
    return NULL;
}

/* Queues ns's compile, starting the workers with the first; where no
   thread starts (or the queue cannot grow), the compile is done here and
   now, told with the caller's names since their copies may have failed. */
static void defer(NativeLib *lib, NativeShader *ns, const char *file, const char *name,
                  const char *what)
{
    Job job = { ns, strdup(file), strdup(name), strdup(what) };
    /* One fewer than the render's threads: the loading thread is one. */
    long threads = lib->threads > 0 ? lib->threads : sysconf(_SC_NPROCESSORS_ONLN);
    int want = threads > 1 ? (int)threads - 1 : 0;
    if (!lib->workers && want > 0) {
        lib->workers = calloc((size_t)want, sizeof *lib->workers);
        for (int i = 0; lib->workers && i < want; i++)
            lib->nworkers += pthread_create(&lib->workers[lib->nworkers], NULL, worker, lib) == 0;
    }
    pthread_mutex_lock(&lib->lock);
    bool queued = lib->nworkers > 0 && job.file && job.name && job.what;
    if (queued && lib->njobs == lib->capjobs) {
        int cap = lib->capjobs ? 2 * lib->capjobs : 16;
        Job *more = realloc(lib->jobs, (size_t)cap * sizeof *more);
        queued = more != NULL;
        if (more)
            lib->jobs = more, lib->capjobs = cap;
    }
    if (queued) {
        lib->jobs[lib->njobs++] = job;
        pthread_cond_signal(&lib->more);
    }
    pthread_mutex_unlock(&lib->lock);
    if (!queued) {
        finish_compile(lib, ns, file, name, what);
        job_free(&job);
    }
}

void native_lib_free(NativeLib *lib)
{
    if (!lib)
        return;
    /* The queue runs dry first: each compile is told. */
    pthread_mutex_lock(&lib->lock);
    lib->closing = true;
    pthread_cond_broadcast(&lib->more);
    pthread_mutex_unlock(&lib->lock);
    for (int i = 0; i < lib->nworkers; i++)
        pthread_join(lib->workers[i], NULL);
    free(lib->workers);
    free(lib->jobs);
    pthread_mutex_destroy(&lib->lock);
    pthread_cond_destroy(&lib->more);
    for (int i = 0; i < lib->ncache; i++)
        native_free(lib->cache[i].ns);
    free(lib->cache);
    native_cache_close(lib->disk);
    free(lib);
}

/* The native code cached for obj, or NULL (a NativeKnown); its key in
   lib->key. */
static NativeShader *cached(const VmObject *obj, void *data)
{
    NativeLib *lib = data;
    lib->key = hash_object(obj, lib->isa);
    for (int i = 0; i < lib->ncache; i++)
        if (lib->cache[i].key == lib->key)
            return lib->cache[i].ns;
    return NULL;
}

/* The code cache in folder dir (NULL: none), opened the first time; a
   warning, once, where it cannot be. */
static NativeCache *disk_cache(NativeLib *lib, const char *dir)
{
    if (dir && !lib->disk_tried) {
        char err[4200];
        if (!(lib->disk = native_cache_open(dir, err, sizeof err)))
            fprintf(stderr, "warning: %s; native code is compiled without it\n", err);
        lib->disk_tried = true;
    }
    return lib->disk;
}

VmObject *native_lib_compile(NativeLib *lib, const char *code_cache, const char *file,
                             const CppOptions *cpp, const IrSpec *spec, const char *what,
                             NativeShader **ns)
{
    char lacks[200] = "", *why = NULL, *front = NULL;
    size_t whylen = 0, frontlen = 0;
    RslcCtx rc = { 0 }, nrc = { 0 };
    /* native_compile's diagnostics become the warning's reason: the render
       goes on, on the VM. The front end's were shown when the file was
       first compiled (shadesys_vm.c), so they are shown again only if
       this compile fails. */
    nrc.diag_out = open_memstream(&why, &whylen);
    rc.diag_out = open_memstream(&front, &frontlen);
    NativeOptions opt = { .level = 2, .isa = lib->isa, .lacks = lacks, .lackslen = sizeof lacks,
                          .cache = disk_cache(lib, code_cache), .defer = true };
    VmObject *obj;
    *ns = native_compile_file_cpp(&rc, &nrc, file, cpp, spec, &opt, cached, lib, &obj);
    fclose(nrc.diag_out);
    fclose(rc.diag_out);
    if (!obj)
        fputs(front, stderr);
    free(front);
    /* Code read from the code cache comes compiled (or failed to load). */
    bool fresh = *ns && cached(obj, lib) != *ns, loaded = fresh && native_from_cache(*ns);
    if (fresh && !loaded)
        defer(lib, *ns, file, obj->name, what);
    else if (obj && lib->notes && fresh)
        fprintf(stderr, "%s: note: shader \"%s\"%s runs in native code (%s, read from the code "
                        "cache in %.1f ms)\n", file, obj->name, what, native_isa_name(lib->isa),
                native_compile_ms(*ns));
    else if (obj && lib->notes && *ns)
        fprintf(stderr, "%s: note: shader \"%s\"%s runs in native code (%s, that of an "
                        "identical shader)\n", file, obj->name, what, native_isa_name(lib->isa));
    else if (obj && lacks[0] && lib->notes)
        fprintf(stderr, "%s: note: shader \"%s\"%s runs on the VM: native code lacks %s\n",
                file, obj->name, what, lacks);
    else if (obj && !*ns && !lacks[0])
        fprintf(stderr, "%s: warning: shader \"%s\"%s runs on the VM: %s\n", file, obj->name,
                what, why && why[0] ? first_line(why) : "native compilation failed");
    if (fresh) {
        lib->cache = realloc(lib->cache, (size_t)(lib->ncache + 1) * sizeof *lib->cache);
        lib->cache[lib->ncache++] = (Cached){ lib->key, *ns };
        lib->loaded += loaded;
        lib->compiled += !loaded;
    }
    free(why);
    return obj;
}

unsigned native_lib_compiled(const NativeLib *lib)
{
    return lib ? lib->compiled : 0;
}

unsigned native_lib_loaded(const NativeLib *lib)
{
    return lib ? lib->loaded : 0;
}

void native_lib_bytecode_only(const char *file)
{
    fprintf(stderr, "%s: warning: the object holds bytecode only, so its shader runs on the VM "
                    "(rtrender compiles the shader's .sl to native code)\n", file);
}

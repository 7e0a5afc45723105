/*
** main.c: rtbench, rtcore against Embree. Loads or makes the mesh, gets
** the ray sets (generated, or read from rays files), then for each thread
** count builds the scene with each tracer and times every selected kernel
** on every set, checking the hits of the two tracers against each other.
*/
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/rtbench/backend.h"
#include "bench/rtbench/options.h"
#include "bench/rtbench/ply.h"
#include "bench/rtbench/procedural.h"
#include "bench/rtbench/rayfile.h"
#include "bench/rtbench/rays.h"
#include "bench/rtbench/report.h"
#include "bench/rtbench/trace.h"

enum { ERR_LEN = 512, PROCEDURAL_GRID = 8 };

typedef struct Bench {
    Options o;
    Mesh mesh;
    RaySet sets[SET_COUNT];
    int nsets;
    const Backend *backends[2];
    int nbackends;
    BuildRow *builds;
    int nbuilds;
    TraceRow *traces;
    int ntraces;
    uint32_t *hit[2];       /* per-ray results of each backend */
    float *t;
    char err[ERR_LEN];
} Bench;

static bool load_mesh(Bench *b)
{
    double t0 = now_seconds();
    const char *name = b->o.mesh ? b->o.mesh : "procedural spheres";
    if (b->o.mesh ? !ply_load(b->o.mesh, &b->mesh, b->err, ERR_LEN)
                  : !procedural_spheres(&b->mesh, PROCEDURAL_GRID)) {
        if (!b->o.mesh)
            snprintf(b->err, ERR_LEN, "rtbench: error: out of memory");
        return false;
    }
    if (b->mesh.ntris == 0) {
        snprintf(b->err, ERR_LEN, "%s: error: no triangles", name);
        return false;
    }
    printf("mesh: %s: %zu triangles, %zu vertices, loaded in %.1f ms\n", name,
           b->mesh.ntris, b->mesh.nverts, (now_seconds() - t0) * 1e3);
    return true;
}

/* Builds reps times, keeping the last scene and the best build time. */
static void *build_best(Bench *b, const Backend *be, int threads, BuildInfo *best)
{
    void *scene = NULL;
    for (int rep = 0; rep < b->o.reps; rep++) {
        BuildInfo info;
        void *s = be->build(&b->mesh, threads, b->o.isa, &info, b->err, ERR_LEN);
        if (scene)
            be->release(scene);
        if (!(scene = s))
            return NULL;
        if (rep == 0 || info.ms < best->ms)
            *best = info;
    }
    return scene;
}

/* --rays FILE: FILE itself is one set, named by its suffix when that is a
   set's name (or by --set when it selects one set); otherwise FILE is the
   prefix --dump-rays wrote, and FILE.<set> is read for each selected set. */
static bool read_sets(Bench *b)
{
    struct stat st;
    char path[4096];
    if (stat(b->o.rays, &st) == 0 && S_ISREG(st.st_mode)) {
        RaySet *s = &b->sets[b->nsets++];
        if (!rays_read(b->o.rays, s, b->err, ERR_LEN))
            return false;
        const char *dot = strrchr(b->o.rays, '.');
        s->name = "file";
        for (int k = 0; k < SET_COUNT; k++)
            if ((dot && strcmp(dot + 1, set_names[k]) == 0) || b->o.sets == 1u << k)
                rayset_init(s, (SetKind)k);
        return true;
    }
    for (int k = 0; k < SET_COUNT; k++) {
        if (!(b->o.sets & 1u << k))
            continue;
        snprintf(path, sizeof path, "%s.%s", b->o.rays, set_names[k]);
        RaySet *s = &b->sets[b->nsets++];
        if (!rays_read(path, s, b->err, ERR_LEN))
            return false;
        rayset_init(s, (SetKind)k);
    }
    return true;
}

/* Generates the selected sets; diffuse and shadow rays start at the hits
   of the primary rays, which rtcore's single-ray kernel finds. */
static bool generate_sets(Bench *b, void *ours, int threads)
{
    float lo[3], hi[3];
    mesh_bounds(&b->mesh, lo, hi);
    RaySet primary;
    size_t n = (size_t)b->o.res * b->o.res;
    double secs;
    if (!rays_primary(lo, hi, b->o.res, &primary)) {
        snprintf(b->err, ERR_LEN, "rtbench: error: out of memory");
        return false;
    }
    bool ok = trace_set(&rtcore_backend, ours, K_SINGLE, &primary, threads, 1, false,
                        b->hit[0], b->t, &secs, b->err, ERR_LEN);
    RaySet *keep = NULL;
    for (int k = 0; ok && k < SET_COUNT; k++) {
        if (!(b->o.sets & 1u << k))
            continue;
        RaySet *s = &b->sets[b->nsets++];
        if (k == SET_PRIMARY)
            keep = s;   /* filled last: the other sets are made from it */
        else if (k == SET_RANDOM)
            ok = rays_random(lo, hi, n, s);
        else
            ok = rays_secondary((SetKind)k, &b->mesh, &primary, b->hit[0], b->t,
                                lo, hi, s);
    }
    if (keep)
        *keep = primary;
    else
        rayset_free(&primary);
    if (!ok && !b->err[0])
        snprintf(b->err, ERR_LEN, "rtbench: error: out of memory");
    return ok;
}

/* Says which sets will be traced and writes them when --dump-rays asks. */
static bool list_and_dump_sets(Bench *b)
{
    char path[4096];
    for (int i = 0; i < b->nsets; i++)
        printf("%s%s %zu%s", i ? ", " : "rays: ", b->sets[i].name, b->sets[i].n,
               i + 1 == b->nsets ? "\n" : "");
    for (int i = 0; b->o.dump && i < b->nsets; i++) {
        snprintf(path, sizeof path, "%s.%s", b->o.dump, b->sets[i].name);
        if (!rays_write(path, &b->sets[i], b->err, ERR_LEN))
            return false;
    }
    return true;
}

static size_t count_differ(const uint32_t *a, const uint32_t *b, size_t n)
{
    size_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += a[i] != b[i];
    return d;
}

/* Times every selected kernel on every set with both backends. */
static bool trace_all(Bench *b, void *const *scenes, int threads)
{
    for (int i = 0; i < b->nsets; i++) {
        const RaySet *s = &b->sets[i];
        for (int k = 0; k < KERNEL_COUNT; k++) {
            if (!(b->o.kernels & 1u << k))
                continue;
            TraceRow *r = &b->traces[b->ntraces++];
            *r = (TraceRow){ s->name, (Kernel)k, threads, s->n, 0, -1, 0, 0, 0 };
            for (int j = 0; j < b->nbackends && s->n; j++) {
                double secs;
                if (!trace_set(b->backends[j], scenes[j], (Kernel)k, s, threads,
                               b->o.reps, b->o.cpu_clock, b->hit[j], b->t, &secs, b->err, ERR_LEN))
                    return false;
                *(j ? &r->theirs : &r->ours) = s->n / secs * 1e-6;
            }
            checksum(b->hit[0], s->n, &r->sum, &r->hits);
            if (b->nbackends > 1)
                r->differ = count_differ(b->hit[0], b->hit[1], s->n);
        }
    }
    return true;
}

static bool run(Bench *b)
{
    size_t most = (size_t)b->o.res * b->o.res;
    b->builds = calloc(b->o.nthreads * b->nbackends, sizeof *b->builds);
    b->traces = calloc(b->o.nthreads * SET_COUNT * KERNEL_COUNT, sizeof *b->traces);
    if (b->o.rays && !read_sets(b))
        return false;
    for (int i = 0; i < b->nsets; i++)
        most = b->sets[i].n > most ? b->sets[i].n : most;
    for (int j = 0; j < b->nbackends; j++)
        b->hit[j] = malloc(most * sizeof *b->hit[j]);
    b->t = malloc(most * sizeof *b->t);
    if (!b->builds || !b->traces || !b->hit[0] || (b->nbackends > 1 && !b->hit[1]) || !b->t) {
        snprintf(b->err, ERR_LEN, "rtbench: error: out of memory");
        return false;
    }
    for (int ti = 0; ti < b->o.nthreads; ti++) {
        int threads = b->o.threads[ti];
        void *scenes[2] = { NULL, NULL };
        bool ok = true;
        for (int j = 0; ok && j < b->nbackends; j++) {
            BuildRow *row = &b->builds[b->nbuilds++];
            row->threads = threads;
            scenes[j] = build_best(b, b->backends[j], threads, &row->info);
            ok = scenes[j] != NULL;
        }
        if (ok && ti == 0)
            ok = (b->o.rays || generate_sets(b, scenes[0], threads)) && list_and_dump_sets(b);
        ok = ok && trace_all(b, scenes, threads);
        for (int j = 0; j < b->nbackends; j++)
            if (scenes[j])
                b->backends[j]->release(scenes[j]);
        if (!ok)
            return false;
    }
    print_builds(b->builds, b->nbuilds, b->mesh.ntris, b->o.reps);
    print_traces(b->traces, b->ntraces, b->o.reps, b->o.cpu_clock);
    BestRow *best = malloc((b->ntraces ? b->ntraces : 1) * sizeof *best);
    if (!best) {
        snprintf(b->err, ERR_LEN, "rtbench: error: out of memory");
        return false;
    }
    print_best(best, best_kernels(b->traces, b->ntraces, best));
    free(best);
    return true;
}

int main(int argc, char **argv)
{
    static Bench b;
    if (!parse_options(argc, argv, &b.o, b.err, ERR_LEN)) {
        fprintf(stderr, "%s\n%s", b.err, usage_text);
        return 1;
    }
    if (b.o.help) {
        fputs(usage_text, stdout);
        return 0;
    }
    b.backends[b.nbackends++] = &rtcore_backend;
    if (b.o.embree) {
#ifdef HAVE_EMBREE
        b.backends[b.nbackends++] = &embree_backend;
#else
        fprintf(stderr, "rtbench: error: built without Embree\n");
        return 1;
#endif
    }
    bool ok = load_mesh(&b) && run(&b);
    if (!ok)
        fprintf(stderr, "%s\n", b.err);
    for (int i = 0; i < b.nsets; i++)
        rayset_free(&b.sets[i]);
    mesh_free(&b.mesh);
    free(b.builds);
    free(b.traces);
    free(b.hit[0]);
    free(b.hit[1]);
    free(b.t);
    return ok ? 0 : 1;
}

/*
** fuzz_rib.c: libFuzzer harness for the RIB reader: any bytes must give
** a scene whose meshes hold together, or diagnostics saying why not, and
** never a crash, hang, leak or undefined behaviour.
**
** Limits are shrunk as Lua's ltests.h does, so that one input cannot
** spend the whole time budget tessellating: a million triangles at most,
** facets turning through up to 20 degrees, archives nested four deep.
** Inputs that start like gzip go through a file, as only files are
** decompressed.
*/
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "render/rib/scene.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Traps unless every triangle indexes a vertex of its mesh and every
   primitive variable has the values its interpolation needs. */
static void check_mesh(const RibMesh *m)
{
    if (!m->P || !m->tris || !m->attrs || m->ntris == 0)
        __builtin_trap();
    for (size_t i = 0; i < 3 * m->ntris; i++)
        if (m->tris[i] >= m->nverts)
            __builtin_trap();
    for (size_t i = 0; i < m->nprimvars; i++) {
        const RibPrimvar *v = &m->primvars[i];
        size_t want = v->interp == RIB_INTERP_CONSTANT   ? 1
                      : v->interp == RIB_INTERP_TRIANGLE ? m->ntris
                                                         : m->nverts;
        if (v->p.count < want || (!v->p.f && !v->p.s))
            __builtin_trap();
    }
}

static void check_scene(const RibScene *s)
{
    for (size_t i = 0; i < s->nframes; i++) {
        const RibFrame *f = &s->frames[i];
        for (size_t k = 0; k < f->nmeshes; k++)
            check_mesh(&f->meshes[k]);
        for (size_t k = 0; k < f->ninstances; k++)
            if (!f->instances[k].object || !f->instances[k].attrs)
                __builtin_trap();
        for (size_t k = 0; k < f->nlights; k++)
            if (!f->lights[k]->shader.name)
                __builtin_trap();
    }
    for (size_t i = 0; i < s->nobjects; i++)
        for (size_t k = 0; k < s->objects[i]->nmeshes; k++)
            check_mesh(&s->objects[i]->meshes[k]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    RibLoadOptions opt;
    rib_load_options_init(&opt);
    opt.max_triangles = 1000000;
    opt.max_archive_depth = 4;
    opt.max_angle_deg = 20;
    RibDiag diag;
    rib_diag_init(&diag, NULL);
    RibScene *s;
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
        char path[64];
        snprintf(path, sizeof path, "/tmp/fuzz_rib.%d.gz", (int)getpid());
        FILE *f = fopen(path, "wb");
        if (!f)
            return 0;
        fwrite(data, 1, size, f);
        fclose(f);
        s = rib_load_ex(path, &opt, &diag);
        unlink(path);
    } else {
        s = rib_load_memory("fuzz.rib", data, size, &opt, &diag);
    }
    /* A failed load says why; every message is a located diagnostic. */
    if (!s && diag.nerrors == 0)
        __builtin_trap();
    for (size_t i = 0; i < diag.nmessages; i++)
        if (!strstr(diag.messages[i], ": error: ") &&
            !strstr(diag.messages[i], ": warning: "))
            __builtin_trap();
    if (s)
        check_scene(s);
    rib_scene_free(s);
    rib_diag_free(&diag);
    return 0;
}

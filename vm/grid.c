/*
** grid.c: the default grid of shading points (grid.h) and per-lane access
** to a shader's variables by name.
*/
#include <stdio.h>
#include <string.h>

#include "vm/grid.h"

const VmVar *vm_find_var(const VmObject *o, const char *name)
{
    for (uint32_t i = 0; i < o->nparams; i++)
        if (!strcmp(o->params[i].name, name))
            return &o->params[i];
    for (uint32_t i = 0; i < o->nglobals; i++)
        if (!strcmp(o->globals[i].name, name))
            return &o->globals[i];
    return NULL;
}

static float *slot(const VmState *s, unsigned r, unsigned k, int lane)
{
    return r & VM_V ? &s->V[(size_t)(VM_SLOT(r) + k) * (size_t)s->n + (size_t)lane]
                    : &s->U[VM_SLOT(r) + k];
}

float vm_var_load(const VmState *s, const VmVar *v, unsigned k, int lane)
{
    return *slot(s, v->reg, k, lane);
}

void vm_var_store(VmState *s, const VmVar *v, const float *f, unsigned n, int lane)
{
    for (unsigned k = 0; k < n; k++)
        *slot(s, v->reg, k, lane) = f[k];
}

/* Three-component values (points, vectors, colours: most of a
   renderer's globals) lane by lane into their rows, or back, in one pass
   over the lanes, which the compiler vectorises (restrict: a variable's
   rows never overlap the caller's array). */
static void rows_from_lanes3(float *restrict x, float *restrict y, float *restrict z,
                            const float *restrict f, int n)
{
    for (int lane = 0; lane < n; lane++)
        x[lane] = f[3 * lane], y[lane] = f[3 * lane + 1], z[lane] = f[3 * lane + 2];
}

static void lanes_from_rows3(const float *restrict x, const float *restrict y,
                            const float *restrict z, float *restrict f, int n)
{
    for (int lane = 0; lane < n; lane++)
        f[3 * lane] = x[lane], f[3 * lane + 1] = y[lane], f[3 * lane + 2] = z[lane];
}

void vm_var_store_lanes(VmState *s, const VmVar *v, const float *f, unsigned k, int n)
{
    if (!(v->reg & VM_V)) {
        vm_var_store(s, v, f, k, 0);
        return;
    }
    if (k == 3) {
        rows_from_lanes3(slot(s, v->reg, 0, 0), slot(s, v->reg, 1, 0), slot(s, v->reg, 2, 0), f, n);
        return;
    }
    for (unsigned j = 0; j < k; j++) {
        float *dst = slot(s, v->reg, j, 0);
        for (int lane = 0; lane < n; lane++)
            dst[lane] = f[(size_t)lane * k + j];
    }
}

void vm_var_load_lanes(const VmState *s, const VmVar *v, float *f, unsigned k, int n)
{
    bool varying = v->reg & VM_V;
    if (varying && k == 3) {
        lanes_from_rows3(slot(s, v->reg, 0, 0), slot(s, v->reg, 1, 0), slot(s, v->reg, 2, 0), f, n);
        return;
    }
    for (unsigned j = 0; j < k; j++) {
        const float *src = slot(s, v->reg, j, 0);
        for (int lane = 0; lane < n; lane++)
            f[(size_t)lane * k + j] = src[varying ? lane : 0];
    }
}

const VmVar *vm_param_given_var(const VmObject *o, const char *name)
{
    char hidden[256];
    snprintf(hidden, sizeof hidden, "__given_%s", name);
    return vm_find_var(o, hidden);
}

void vm_param_given(const VmObject *o, VmState *s, const char *name)
{
    const VmVar *v = vm_param_given_var(o, name);
    if (v) {
        float one = 1;
        vm_var_store(s, v, &one, 1, 0);
    }
}

static void defaults(const VmObject *o, VmState *s, int lane, int x, int y, int w, int h)
{
    float u = w > 1 ? (float)x / (float)(w - 1) : 0.5f;
    float v = h > 1 ? (float)y / (float)(h - 1) : 0.5f;
    float du = w > 1 ? 1.0f / (float)(w - 1) : 1, dv = h > 1 ? 1.0f / (float)(h - 1) : 1;
    const struct {
        const char *name;
        float f[3];
        unsigned n;
    } d[] = {
        { "P", { u - 0.5f, v - 0.5f, 1 }, 3 }, { "I", { u - 0.5f, v - 0.5f, 1 }, 3 },
        { "N", { 0, 0, -1 }, 3 }, { "Ng", { 0, 0, -1 }, 3 }, { "E", { 0, 0, 0 }, 3 },
        { "u", { u }, 1 }, { "v", { v }, 1 }, { "s", { u }, 1 }, { "t", { v }, 1 },
        { "du", { du }, 1 }, { "dv", { dv }, 1 }, { "dPdu", { 1, 0, 0 }, 3 },
        { "dPdv", { 0, 1, 0 }, 3 }, { "Cs", { 1, 1, 1 }, 3 }, { "Os", { 1, 1, 1 }, 3 },
        { "ncomps", { 3 }, 1 },
    };
    s->random_seed[lane] = (uint32_t)(y * w + x);
    for (size_t i = 0; i < sizeof d / sizeof *d; i++) {
        const VmVar *var = vm_find_var(o, d[i].name);
        /* A uniform global is one slot for the batch: lane 0 sets it. */
        if (var && var->type != VM_T_STRING && ((var->reg & VM_V) || lane == 0))
            vm_var_store(s, var, d[i].f, d[i].n, lane);
    }
}

int vm_grid_ntiles(int w, int h)
{
    int tw = w < VM_GRID_TILE ? w : VM_GRID_TILE, th = h < VM_GRID_TILE ? h : VM_GRID_TILE;
    return ((w + tw - 1) / tw) * ((h + th - 1) / th);
}

VmTile vm_grid_tile(int i, int w, int h)
{
    int tw = w < VM_GRID_TILE ? w : VM_GRID_TILE, th = h < VM_GRID_TILE ? h : VM_GRID_TILE;
    int across = (w + tw - 1) / tw;
    VmTile t = { (i % across) * tw, (i / across) * th, tw, th, w, h };
    t.tw = w - t.x0 < tw ? w - t.x0 : tw;
    t.th = h - t.y0 < th ? h - t.y0 : th;
    return t;
}

/* Lane l's neighbour one way: the next point, or the previous one at the
   far edge; its lane and the parameter's step to it (0 if the tile is
   one point wide that way). */
static void neighbour(int at, int extent, int stride, int l, float step, uint8_t *nb, float *s)
{
    if (at + 1 < extent)
        *nb = (uint8_t)(l + stride), *s = step;
    else if (at > 0)
        *nb = (uint8_t)(l - stride), *s = -step;
    else
        *nb = (uint8_t)l, *s = 0;
}

void vm_grid_fill(const VmObject *o, VmState *s, VmDeriv *d, VmTile t)
{
    float du = t.w > 1 ? 1.0f / (float)(t.w - 1) : 0, dv = t.h > 1 ? 1.0f / (float)(t.h - 1) : 0;
    for (int l = 0; l < t.tw * t.th; l++) {
        int x = l % t.tw, y = l / t.tw;
        defaults(o, s, l, t.x0 + x, t.y0 + y, t.w, t.h);
        neighbour(x, t.tw, 1, l, du, &d->na[l], &d->dua[l]);
        neighbour(y, t.th, t.tw, l, dv, &d->nb[l], &d->dvb[l]);
        d->dva[l] = d->dub[l] = 0; /* grid neighbours lie along u and v */
    }
    d->flip = false;
    s->deriv = d;
}

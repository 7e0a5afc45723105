/*
** grid.h: running a shader over a grid of shading points without a
** renderer (rslvm, the compile-run-verify tests): the default globals of
** a grid point, and reading and writing a shader's variables per lane.
**
** The grid is a unit square at z = 1 facing the camera at the origin:
** point (x, y) of a W x H grid has u = x/(W-1) and v = y/(H-1) (0.5 for a
** size of 1), s = u, t = v, P = I = (u - 0.5, v - 0.5, 1),
** N = Ng = (0, 0, -1), dPdu = (1, 0, 0), dPdv = (0, 1, 0), du = 1/(W-1),
** dv = 1/(H-1), E = (0, 0, 0), Cs = Os = (1, 1, 1), ncomps = 3; the rest
** start at zero.
**
** Batches are tiles of the grid, so that each point's neighbours along u
** and v are in its batch for derivatives: the next point, or the one
** before at the tile's far edge.
*/
#ifndef RSL_GRID_H
#define RSL_GRID_H

#include "vm/object.h"

/* The parameter or global of o named name, or NULL. */
const VmVar *vm_find_var(const VmObject *o, const char *name);

/* Component k of a variable at a lane, and storing n components. */
float vm_var_load(const VmState *s, const VmVar *v, unsigned k, int lane);
void vm_var_store(VmState *s, const VmVar *v, const float *f, unsigned n, int lane);

/* The same for a whole batch: f holds n lanes of k floats each (a
   uniform variable stores lane 0's; loading one repeats it). */
void vm_var_store_lanes(VmState *s, const VmVar *v, const float *f, unsigned k, int n);
void vm_var_load_lanes(const VmState *s, const VmVar *v, float *f, unsigned k, int n);

/* Records that the instance gave parameter `name` a value, so that a
   computed default does not replace it (rslc/defaults.c): sets the
   hidden "__given_NAME" parameter, if the shader has one. */
void vm_param_given(const VmObject *o, VmState *s, const char *name);
/* The hidden flag vm_param_given sets, or NULL: for a host that sets
   the same parameters batch after batch and looks it up once. */
const VmVar *vm_param_given_var(const VmObject *o, const char *name);

enum { VM_GRID_TILE = 16 };  /* tiles of up to 16 x 16 points fill a batch */

/* A tile of a w x h grid: points x0..x0+tw-1 by y0..y0+th-1. */
typedef struct VmTile {
    int x0, y0, tw, th, w, h;
} VmTile;

/* The tiles covering a w x h grid, in row-major order of tiles: the
   number, and tile i. */
int vm_grid_ntiles(int w, int h);
VmTile vm_grid_tile(int i, int w, int h);

/* Readies a batch of t.tw * t.th lanes (row-major in the tile) to run
   the tile: every lane's default globals and random seed, and *d with
   the neighbours, which s->deriv is pointed at. */
void vm_grid_fill(const VmObject *o, VmState *s, VmDeriv *d, VmTile t);

#endif /* RSL_GRID_H */

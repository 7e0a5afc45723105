/*
** shadesys_spec.c: shadesys_spec.h. The key is the constants written out
** byte for byte (name, type, values), so instances share code only when
** every folded value is the same; a hash could collide.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/shadesys_spec.h"

/* The IR's kind of a VM type. */
static IrKind ir_kind_of(VmType t)
{
    switch (t) {
    case VM_T_COLOR: return IRT_COLOR;
    case VM_T_POINT: return IRT_POINT;
    case VM_T_VECTOR: return IRT_VECTOR;
    case VM_T_NORMAL: return IRT_NORMAL;
    case VM_T_MATRIX: return IRT_MATRIX;
    case VM_T_STRING: return IRT_STRING;
    default: return IRT_FLOAT;
    }
}

static void *grow(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q) {
        perror("rtrender");
        exit(1);
    }
    return q;
}

void spec_add(InstanceSpec *is, const VmVar *v, const float *f, const char *s)
{
    is->p = grow(is->p, (size_t)(is->spec.n + 1) * sizeof *is->p);
    IrSpecParam *e = &is->p[is->spec.n++];
    *e = (IrSpecParam){ v->name, ir_kind_of(v->type), (int)v->arraylen, NULL, NULL };
    if (v->type == VM_T_STRING) {
        e->s = strdup(s);
    } else {
        size_t bytes = vm_type_slots(v->type, v->arraylen) * sizeof *f;
        float *copy = grow(NULL, bytes);
        e->f = memcpy(copy, f, bytes);
    }
    is->spec.p = is->p;
}

void spec_key(InstanceSpec *is)
{
    FILE *out = open_memstream(&is->key, &is->keylen);
    if (!out) {
        perror("rtrender");
        exit(1);
    }
    for (int i = 0; i < is->spec.n; i++) {
        const IrSpecParam *e = &is->p[i];
        int type[2] = { (int)e->kind, e->arraylen };
        fwrite(e->name, 1, strlen(e->name) + 1, out);
        fwrite(type, sizeof type, 1, out);
        if (e->s)
            fwrite(e->s, 1, strlen(e->s) + 1, out);
        else
            fwrite(e->f, sizeof *e->f,
                   (size_t)(e->kind == IRT_FLOAT ? 1 : e->kind == IRT_MATRIX ? 16 : 3)
                       * (size_t)(e->arraylen ? e->arraylen : 1),
                   out);
    }
    fclose(out);
}

void spec_free(InstanceSpec *is)
{
    for (int i = 0; i < is->spec.n; i++) {
        free((char *)is->p[i].s);
        free((float *)is->p[i].f);
    }
    free(is->p);
    free(is->key);
    memset(is, 0, sizeof *is);
}

/* Adds the primitive variables of n meshes to pn's names. */
static void add_meshes(PrimvarNames *pn, const RibMesh *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < m[i].nprimvars; k++) {
            const char *name = m[i].primvars[k].p.name;
            int j = 0;
            while (j < pn->n && strcmp(pn->name[j], name))
                j++;
            if (j == pn->n) {
                pn->name = grow(pn->name, (size_t)(pn->n + 1) * sizeof *pn->name);
                pn->name[pn->n++] = name;
            }
        }
}

bool primvar_names_has(PrimvarNames *pn, const RibFrame *f, const char *name)
{
    if (pn->frame != f) {
        pn->n = 0;
        pn->frame = f;
        add_meshes(pn, f->meshes, f->nmeshes);
        for (size_t i = 0; i < f->ninstances; i++)
            add_meshes(pn, f->instances[i].object->meshes, f->instances[i].object->nmeshes);
    }
    for (int j = 0; j < pn->n; j++)
        if (!strcmp(pn->name[j], name))
            return true;
    return false;
}

void primvar_names_free(PrimvarNames *pn)
{
    free(pn->name);
    memset(pn, 0, sizeof *pn);
}

/*
** testhost.c: the host of rslvm and the compile-run-verify suite
** (host.h documents what it holds). Every value it returns is simple
** enough for a test to predict by hand.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "runtime/host.h"

static bool test_light(void *user, int i, int lane, const float P[3], VmLightSample *out)
{
    (void)user, (void)lane;
    memset(out, 0, sizeof *out);
    for (int k = 0; k < 3; k++)
        out->Ol[k] = 1;
    switch (i) {
    case 0:
        out->ambient = true;
        out->Cl[0] = out->Cl[1] = out->Cl[2] = 0.1f;
        return true;
    case 1:
        out->L[2] = -1;
        out->Cl[0] = out->Cl[1] = out->Cl[2] = 1;
        return true;
    case 2: {
        const float at[3] = { 0, 2, 0 };
        float d2 = 0;
        for (int k = 0; k < 3; k++) {
            out->L[k] = at[k] - P[k];
            d2 += out->L[k] * out->L[k];
        }
        out->Cl[0] = 0.5f / d2;
        out->Cl[1] = 0.25f / d2;
        return d2 > 0;
    }
    default:
        return false;
    }
}

static const char *test_light_category(void *user, int i)
{
    (void)user;
    return i == 1 ? "key,spec" : i == 2 ? "fill" : "";
}

static bool test_space(void *user, const char *name, float m[16])
{
    (void)user;
    static const float identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    static const float world[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 5, 1 };
    static const float object[16] = { 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 5, 1 };
    /* Swapping z and w: (x, y, z, 1) -> (x, y, 1, z), its own inverse. */
    static const float screen[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0 };
    const float *src = !strcmp(name, "current") || !strcmp(name, "camera") ? identity
                     : !strcmp(name, "world")                               ? world
                     : !strcmp(name, "object") || !strcmp(name, "shader")   ? object
                     : !strcmp(name, "screen")                              ? screen
                                                                            : NULL;
    if (src)
        memcpy(m, src, sizeof identity);
    return src != NULL;
}

static void toward_unit(const float d[3], float *out)
{
    float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int k = 0; k < 3; k++)
        out[k] = len > 0 ? d[k] / len * 0.5f + 0.5f : 0.5f;
}

static int test_texture(void *user, const VmTexLookup *q, float *out, char *err, int errlen)
{
    (void)user;
    float v[3] = { 0, 0, 0.5f }, centre[3] = { 0, 0, 0 };
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++)
            centre[k] += q->corner[i][k] / 4;
    if (q->kind == VM_TEXTURE && !strcmp(q->name, "test:st")) {
        v[0] = centre[0], v[1] = centre[1];
    } else if (q->kind == VM_ENVIRONMENT && !strcmp(q->name, "test:dir")) {
        toward_unit(centre, v);
    } else if (q->kind == VM_SHADOW && !strcmp(q->name, "test:shadow")) {
        v[0] = v[1] = v[2] = centre[0] > 0;
    } else {
        snprintf(err, (size_t)errlen, "no texture '%s' (the test host has test:st, test:dir "
                 "and test:shadow)", q->name);
        return -1;
    }
    for (int c = 0; c < q->nchannels; c++)
        out[c] = q->channel + c < 3 ? v[q->channel + c] : q->fill;
    return 0;
}

static int test_textureinfo(void *user, const char *name, const char *field, char type, int n,
                            float *out, const char **str, char *err, int errlen)
{
    (void)user, (void)str;
    if (strcmp(name, "test:st")) {
        snprintf(err, (size_t)errlen, "no texture '%s'", name);
        return -1;
    }
    if (!strcmp(field, "resolution") && type == 'f' && n == 2) {
        out[0] = out[1] = 4;
        return 1;
    }
    return 0;
}

static int test_ray(void *user, const VmRay *r, float out[3], char *err, int errlen)
{
    (void)user, (void)err, (void)errlen;
    if (r->kind == VM_RAY_TRACE)
        toward_unit(r->Q, out);
    else
        for (int k = 0; k < 3; k++)
            out[k] = r->kind == VM_RAY_TRANSMISSION || r->kind == VM_RAY_VISIBILITY;
    return 0;
}

/* The wall at z = 10 (host.h). */
static int test_gather(void *user, const VmGatherRay *r, float *out, char *err, int errlen)
{
    (void)user;
    if (r->D[2] <= 0)
        return 0;
    float t = (10 - r->P[2]) / r->D[2];
    if (t < 0 || t > r->maxdist)
        return 0;
    for (int k = 0; k < r->n; k++) {
        float *o = out + r->at[k];
        const char *name = r->name[k];
        if (!strcmp(name, "surface:Ci") && r->width[k] == 3)
            o[0] = 0.25f, o[1] = 0.5f, o[2] = 0.75f;
        else if (!strcmp(name, "surface:Oi") && r->width[k] == 3)
            o[0] = o[1] = o[2] = 1;
        else if (!strcmp(name, "ray:length") && r->width[k] == 1)
            o[0] = t;
        else if (!strcmp(name, "primitive:P") && r->width[k] == 3)
            for (int j = 0; j < 3; j++)
                o[j] = r->P[j] + t * r->D[j];
        else if (!strcmp(name, "primitive:N") && r->width[k] == 3)
            o[0] = o[1] = 0, o[2] = -1;
        else {
            snprintf(err, (size_t)errlen, "the test host has no gather value \"%s\" of that type",
                     name);
            return -1;
        }
    }
    return 1;
}

static int test_query(void *user, const char *kind, const char *name, char type, int n,
                      float *out, const char **str)
{
    (void)user;
    if (!strcmp(kind, "attribute") && !strcmp(name, "identifier:name") && type == 's') {
        *str = "testobject";
        return 1;
    }
    if (!strcmp(kind, "option") && !strcmp(name, "Format") && type == 'f' && n == 3) {
        out[0] = out[1] = 4, out[2] = 1;
        return 1;
    }
    if (!strcmp(kind, "rendererinfo") && !strcmp(name, "renderer") && type == 's') {
        *str = "rslvm";
        return 1;
    }
    if (!strcmp(kind, "rayinfo") && type == 'f' && n == 1
        && (!strcmp(name, "depth") || !strcmp(name, "shadowray") || !strcmp(name, "indirectray"))) {
        out[0] = 0;
        return 1;
    }
    if (!strcmp(kind, "shadername") && type == 's') {
        static const char *const types[] = { "surface", "displacement", "light", "atmosphere" };
        static const char *const names[] = { "testsurface", "testdisplacement", "testlight",
                                             "testatmosphere" };
        *str = "";
        for (int i = 0; i < 4; i++)
            if (!strcmp(name, types[i]))
                *str = names[i];
        return 1;
    }
    return 0;
}

/* The other shaders of the point: Kd 1 to 4 by kind, lane (the lane
   number + 10 (Kd - 1)), tint (Kd, 0.5, 0.25), name the function's name;
   no volumes. */
static int test_message(void *user, const char *kind, const char *name, int lane, char type,
                        int n, float *out, const char **str)
{
    (void)user;
    static const char *const kinds[] = { "surface", "displacement", "lightsource", "atmosphere" };
    int k = 0;
    while (k < 4 && strcmp(kind, kinds[k]))
        k++;
    if (k == 4)
        return -1;
    if (!strcmp(name, "Kd") && type == 'f' && n == 1) {
        out[0] = (float)(k + 1);
        return 1;
    }
    if (!strcmp(name, "lane") && type == 'f' && n == 1) {
        out[0] = (float)(lane + 10 * k);
        return 1;
    }
    if (!strcmp(name, "tint") && type == 'c') {
        out[0] = (float)(k + 1), out[1] = 0.5f, out[2] = 0.25f;
        return 1;
    }
    if (!strcmp(name, "name") && type == 's') {
        *str = kinds[k];
        return 1;
    }
    return 0;
}

const VmHost *vm_test_host(void)
{
    static const VmHost host = {
        .nlights = 3, .light = test_light, .light_category = test_light_category, .space = test_space, .clip_near = 0.1f,
        .clip_far = 100, .texture = test_texture, .textureinfo = test_textureinfo,
        .ray = test_ray, .gather = test_gather, .query = test_query, .message = test_message,
    };
    return &host;
}

/*
** embree_cornell.c: Embree's Cornell box as RIB, and Embree's pathtracer
** run on it (embree_cornell.h).
**
** The same scene. The OBJ's faces become one PointsPolygons per object
** (quads split as ours split polygons; Embree's own split differs only
** where a quad is not planar, by far less than the noise). Each face's
** material colour is a matte shader's Cs with Kd 1, albedo Cs. Embree's
** point light of power P gives irradiance P / d^2; our convention
** (render/path.h) reads the light shader's Cl as irradiance over pi, so
** the pointlight's intensity is P / pi, with ray-traced shadows. The
** camera looks from vp to vi with up vu and a vertical field of view of
** fov degrees; Embree's camera is right-handed, so its image x runs along
** -(vu x forward) in world space, which the RIB's world-to-camera
** transform (left-handed camera space) reproduces with a mirror.
*/
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/embree_cornell.h"

#define PI 3.14159265358979

bool embree_cornell_available(char *why, int whylen)
{
    const char *missing = access(EMBREE_PATHTRACER, X_OK) ? EMBREE_PATHTRACER
                          : access(EMBREE_CORNELL_ECS, R_OK) ? EMBREE_CORNELL_ECS
                                                             : NULL;
    if (missing)
        snprintf(why, (size_t)whylen, "%s is missing (apt-get install embree-tools)", missing);
    return !missing;
}

/* What the .ecs file says: the OBJ, the camera, the point lights. */
typedef struct Ecs {
    char obj[4096];
    double vp[3], vi[3], vu[3], fov;
    int nlights;
    double light[8][6];     /* position, power */
} Ecs;

static int read_ecs(const char *path, Ecs *e, char *err, int errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, (size_t)errlen, "%s: error: %s", path, strerror(errno));
        return -1;
    }
    *e = (Ecs){ .vu = { 0, 1, 0 }, .fov = 90 };
    char word[4096];
    int bad = 0;
    while (!bad && fscanf(f, "%4095s", word) == 1) {
        double *v = NULL;
        int n = 3;
        if (!strcmp(word, "-i") && fscanf(f, "%4095s", word) == 1) {
            /* Relative to the .ecs file's folder. */
            const char *slash = strrchr(path, '/');
            int dirlen = slash ? (int)(slash - path + 1) : 0;
            if (dirlen + strlen(word) >= sizeof e->obj)
                bad = 1;
            else
                snprintf(e->obj, sizeof e->obj, "%.*s%s", dirlen, path, word);
            continue;
        }
        if (!strcmp(word, "-vp"))
            v = e->vp;
        else if (!strcmp(word, "-vi"))
            v = e->vi;
        else if (!strcmp(word, "-vu"))
            v = e->vu;
        else if (!strcmp(word, "-fov"))
            v = &e->fov, n = 1;
        else if (!strcmp(word, "-pointlight") && e->nlights < 8)
            v = e->light[e->nlights++], n = 6;
        else {
            bad = 1;
            break;
        }
        for (int k = 0; k < n && !bad; k++)
            bad = fscanf(f, "%lf", &v[k]) != 1;
    }
    fclose(f);
    if (bad || !e->obj[0]) {
        snprintf(err, (size_t)errlen, "%s: error: %s", path,
                 bad ? "an option other than -i, -vp, -vi, -vu, -fov, -pointlight, or a "
                       "number missing"
                     : "no -i scene");
        return -1;
    }
    return 0;
}

/* The Kd of material name in the OBJ's .mtl file mtl; white if none. */
static void mtl_kd(const char *mtl, const char *name, double kd[3])
{
    kd[0] = kd[1] = kd[2] = 1;
    FILE *f = fopen(mtl, "r");
    char line[512], cur[256] = "";
    while (f && fgets(line, sizeof line, f)) {
        double r, g, b;
        if (sscanf(line, "newmtl %255s", cur) == 1)
            continue;
        if (!strcmp(cur, name) && sscanf(line, " Kd %lf %lf %lf", &r, &g, &b) == 3)
            kd[0] = r, kd[1] = g, kd[2] = b;
    }
    if (f)
        fclose(f);
}

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1], c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static void normalize(double v[3])
{
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    v[0] /= l, v[1] /= l, v[2] /= l;
}

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The options, camera and lights, up to WorldBegin's objects. */
static void write_head(FILE *out, const Ecs *e, const CornellSettings *cs)
{
    double z[3] = { e->vi[0] - e->vp[0], e->vi[1] - e->vp[1], e->vi[2] - e->vp[2] }, x[3], y[3];
    normalize(z);
    cross(e->vu, z, x);
    normalize(x);
    cross(z, x, y);
    /* Right-handed: the image's x is -x. */
    for (int k = 0; k < 3; k++)
        x[k] = -x[k];
    fprintf(out, "# Made by bench/embree_cornell.c from %s\n", e->obj);
    fprintf(out, "Option \"integrator\" \"string name\" [\"path\"] \"int maxdepth\" [%d]\n",
            cs->depth);
    fprintf(out, "Format %d %d 1\nPixelFilter \"box\" 1 1\n", cs->res, cs->res);
    fprintf(out, "Projection \"perspective\" \"fov\" [%g]\n", e->fov);
    fprintf(out, "Transform [%.9g %.9g %.9g 0  %.9g %.9g %.9g 0  %.9g %.9g %.9g 0  "
                 "%.9g %.9g %.9g 1]\n",
            x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2], -dot(e->vp, x),
            -dot(e->vp, y), -dot(e->vp, z));
    fprintf(out, "WorldBegin\n");
    for (int i = 0; i < e->nlights; i++) {
        const double *l = e->light[i];
        double p = fmax(l[3], fmax(l[4], l[5]));
        fprintf(out, "LightSource \"pointlight\" %d \"from\" [%g %g %g] \"intensity\" [%.9g] "
                     "\"lightcolor\" [%g %g %g] \"string shadowname\" [\"raytrace\"]\n",
                i + 1, l[0], l[1], l[2], p / PI, l[3] / p, l[4] / p, l[5] / p);
    }
}

/* One object's faces (nverts a face, then their indices) as matte. */
typedef struct Faces {
    int nf, ni, *nverts, *index;
    double kd[3];
} Faces;

static void write_faces(FILE *out, const Faces *o, const double *v)
{
    if (!o->nf)
        return;
    fprintf(out, "AttributeBegin\nColor [%g %g %g]\nSurface \"matte\" \"Kd\" [1] \"Ka\" [0]\n",
            o->kd[0], o->kd[1], o->kd[2]);
    fprintf(out, "PointsPolygons [");
    for (int i = 0; i < o->nf; i++)
        fprintf(out, " %d", o->nverts[i]);
    fprintf(out, " ] [");
    for (int i = 0; i < o->ni; i++)
        fprintf(out, " %d", i);
    fprintf(out, " ] \"P\" [");
    for (int i = 0; i < o->ni; i++)
        fprintf(out, " %g %g %g", v[3 * o->index[i]], v[3 * o->index[i] + 1],
                v[3 * o->index[i] + 2]);
    fprintf(out, " ]\nAttributeEnd\n");
}

/* The OBJ's v, f, usemtl and mtllib lines; a new material starts a new
   object. */
static int write_obj(FILE *out, const char *path, char *err, int errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, (size_t)errlen, "%s: error: %s", path, strerror(errno));
        return -1;
    }
    char line[4096], mtl[4096] = "";
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path + 1) : 0, nv = 0, cap = 1024, rc = 0, lineno = 0;
    double *v = malloc((size_t)cap * 3 * sizeof *v);
    Faces o = { 0, 0, malloc(4096 * sizeof(int)), malloc(16384 * sizeof(int)), { 1, 1, 1 } };
    while (rc == 0 && fgets(line, sizeof line, f)) {
        char name[256];
        lineno++;
        if (sscanf(line, "mtllib %255s", name) == 1)
            snprintf(mtl, sizeof mtl, "%.*s%s", dirlen, path, name);
        else if (sscanf(line, "usemtl %255s", name) == 1) {
            write_faces(out, &o, v);
            o.nf = o.ni = 0;
            mtl_kd(mtl, name, o.kd);
        } else if (line[0] == 'v' && line[1] == ' ') {
            if (nv == cap)
                v = realloc(v, (size_t)(cap *= 2) * 3 * sizeof *v);
            if (sscanf(line + 2, "%lf %lf %lf", &v[3 * nv], &v[3 * nv + 1], &v[3 * nv + 2]) != 3)
                rc = -1;
            nv++;
        } else if (line[0] == 'f' && line[1] == ' ') {
            int n = 0, k, used;
            for (char *s = line + 2; o.nf < 4096 && o.ni < 16384 && sscanf(s, "%d%n", &k, &used) == 1;
                 s += used) {
                /* v/vt/vn: only v counts. */
                while (s[used] && s[used] != ' ' && s[used] != '\t' && s[used] != '\n')
                    used++;
                k = k < 0 ? nv + k : k - 1;
                if (k < 0 || k >= nv)
                    rc = -1;
                o.index[o.ni++] = k, n++;
            }
            if (n < 3)
                rc = -1;
            o.nverts[o.nf++] = n;
        }
    }
    if (rc < 0)
        snprintf(err, (size_t)errlen, "%s:%d: error: a vertex or face this reader cannot read",
                 path, lineno);
    else
        write_faces(out, &o, v);
    fclose(f);
    free(v);
    free(o.nverts);
    free(o.index);
    return rc;
}

int embree_cornell_rib(const char *ecs, const CornellSettings *cs, const char *rib, char *err,
                       int errlen)
{
    Ecs e;
    if (read_ecs(ecs, &e, err, errlen) < 0)
        return -1;
    FILE *out = fopen(rib, "w");
    if (!out) {
        snprintf(err, (size_t)errlen, "%s: error: %s", rib, strerror(errno));
        return -1;
    }
    write_head(out, &e, cs);
    int rc = write_obj(out, e.obj, err, errlen);
    fprintf(out, "WorldEnd\n");
    if (fclose(out) != 0 && rc == 0) {
        snprintf(err, (size_t)errlen, "%s: error: %s", rib, strerror(errno));
        rc = -1;
    }
    return rc;
}

int embree_cornell_run(const char *ecs, const CornellSettings *cs, const char *ppm, int frames,
                       double *fps, char *err, int errlen)
{
    char cmd[8192], line[512];
    int n = snprintf(cmd, sizeof cmd,
                     "%s -c '%s' --size %d %d --spp %d --max-path-length %d --threads %d",
                     EMBREE_PATHTRACER, ecs, cs->res, cs->res, cs->spp, cs->depth, cs->threads);
    if (ppm)
        snprintf(cmd + n, sizeof cmd - (size_t)n, " -o '%s' 2>&1", ppm);
    else
        snprintf(cmd + n, sizeof cmd - (size_t)n, " --benchmark 1 %d 2>&1", frames);
    FILE *p = popen(cmd, "r");
    if (!p) {
        snprintf(err, (size_t)errlen, "%s: error: %s", EMBREE_PATHTRACER, strerror(errno));
        return -1;
    }
    bool got = ppm != NULL;
    char last[512] = "";
    while (fgets(line, sizeof line, p)) {
        got |= fps && sscanf(line, "BENCHMARK_RENDER_AVG %lf", fps) == 1;
        if (line[0] != '\n')
            snprintf(last, sizeof last, "%s", line);
    }
    int status = pclose(p);
    if (status != 0 || !got) {
        last[strcspn(last, "\n")] = 0;
        snprintf(err, (size_t)errlen, "%s: error: exit status %d, no %s: %s", EMBREE_PATHTRACER,
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1, ppm ? "image" : "benchmark", last);
        return -1;
    }
    return 0;
}

Image *embree_cornell_read_ppm(const char *path, char *err, int errlen)
{
    FILE *f = fopen(path, "rb");
    int w, h, max;
    if (!f || fscanf(f, "P6 %d %d %d", &w, &h, &max) != 3 || max != 255 || fgetc(f) == EOF
        || !image_size_ok(w, h, 3)) {
        snprintf(err, (size_t)errlen, "%s: error: %s", path,
                 f ? "not a binary 8-bit PPM" : strerror(errno));
        if (f)
            fclose(f);
        return NULL;
    }
    Image *img = image_new(w, h, 3);
    unsigned char rgb[3];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            if (fread(rgb, 1, 3, f) != 3) {
                snprintf(err, (size_t)errlen, "%s: error: truncated", path);
                image_free(img);
                fclose(f);
                return NULL;
            }
            float *px = image_pixel(img, x, y);
            px[0] = rgb[0] / 255.0f, px[1] = rgb[1] / 255.0f, px[2] = rgb[2] / 255.0f;
        }
    fclose(f);
    return img;
}

void embree_cornell_diff(const Image *a, const Image *b, double mean[3], double se[3],
                         double b_mean[3])
{
    long n = (long)a->width * a->height;
    for (int c = 0; c < 3; c++) {
        double s = 0, s2 = 0, sb = 0;
        for (int y = 0; y < a->height; y++)
            for (int x = 0; x < a->width; x++) {
                double v = image_pixel(a, x, y)[c];
                v = floor(255.01 * fmin(1, fmax(0, v))) / 255;
                double d = v - image_pixel(b, x, y)[c];
                s += d, s2 += d * d, sb += image_pixel(b, x, y)[c];
            }
        mean[c] = s / (double)n, b_mean[c] = sb / (double)n;
        se[c] = sqrt(fmax(0, s2 / (double)n - mean[c] * mean[c]) / (double)n);
    }
}
